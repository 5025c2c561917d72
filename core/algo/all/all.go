// Package all is the registry of every algorithm Spacetime runs. Adding an
// algorithm means adding its package and one line here.
package all

import (
	"fmt"

	"spacetime/core/algo/barrier"
	"spacetime/core/algo/bully"
	"spacetime/core/algo/central"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/algo/checkpoint"
	"spacetime/core/algo/coordlock"
	"spacetime/core/algo/dblock"
	"spacetime/core/algo/deadlock"
	"spacetime/core/algo/epochs"
	"spacetime/core/algo/garbage"
	"spacetime/core/algo/lamportmutex"
	"spacetime/core/algo/lease"
	"spacetime/core/algo/logicalclock"
	"spacetime/core/algo/logreplay"
	"spacetime/core/algo/maekawa"
	"spacetime/core/algo/raft"
	"spacetime/core/algo/ricartagrawala"
	"spacetime/core/algo/ringelection"
	"spacetime/core/algo/suzukikasami"
	"spacetime/core/algo/termination"
	"spacetime/core/algo/tokenring"
	"spacetime/core/algo/zab"
	"spacetime/core/sim"
)

var specs = []*sim.Spec{
	chandylamport.Spec,
	deadlock.Spec,
	logreplay.Spec,
	logicalclock.Spec,
	logicalclock.VectorSpec,
	central.Spec,
	ricartagrawala.Spec,
	lamportmutex.Spec,
	tokenring.Spec,
	suzukikasami.Spec,
	maekawa.Spec,
	bully.Spec,
	ringelection.Spec,
	zab.Spec,
	lease.Spec,
	coordlock.Spec,
	coordlock.ReplicatedSpec,
	dblock.Spec,
	epochs.Spec,
	raft.Spec,
	termination.DSSpec,
	termination.CreditSpec,
	termination.IntegerCreditSpec,
	termination.PollSpec,
	termination.SnapshotSpec,
	garbage.Spec,
	barrier.Spec,
	checkpoint.Spec,
}

// Specs lists the registered algorithms.
func Specs() []*sim.Spec { return specs }

// Lookup finds an algorithm by id.
func Lookup(id string) (*sim.Spec, bool) {
	for _, s := range specs {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// IDs lists the registered algorithm ids.
func IDs() []string {
	ids := make([]string, len(specs))
	for i, s := range specs {
		ids[i] = s.ID
	}
	return ids
}

// Add registers an algorithm that only some binaries link: the
// interpreter of learners' programs (core/algo/python), which the lesson
// page's client leaves out to stay small. A main package (or a test's
// TestMain) calls it before anything looks an algorithm up. It panics if
// the id is taken.
func Add(spec *sim.Spec) {
	if _, taken := Lookup(spec.ID); taken {
		panic("all: an algorithm named " + spec.ID + " is already registered")
	}
	specs = append(specs[:len(specs):len(specs)], spec)
}

// AddFixture registers an algorithm that only tests run, such as the
// conformance suite's relay, so that the generic layers above the
// registry (scenarios, sessions, links) are tested on a fixture whose
// story never changes rather than on a lesson that may. A test package
// calls it once, before its tests run (in TestMain); the product never
// does. It panics if the id is taken.
func AddFixture(spec *sim.Spec) { Add(spec) }

// elsewhere names the algorithms whose runner is linked only into another
// client than the lesson page's, each with the page (a route) whose client
// runs it: a link or file that names one, opened by a client without it,
// opens that page with the same link instead. The lesson page's client
// stays small by leaving them out (see wasm/write).
var elsewhere = map[string]string{
	"python": "/write", // a learner's program: the Write view
}

// Elsewhere is the page (a route, such as "/write") whose client runs the
// algorithm id, for an algorithm that only another client than the lesson
// page's links; ok is false for any other id.
func Elsewhere(id string) (page string, ok bool) {
	page, ok = elsewhere[id]
	return page, ok
}

// PageHere reports whether this binary runs every algorithm that the page
// (a route) is there for: false for the Write view in the lesson page's
// client, which must then load the page's own client.
func PageHere(page string) bool {
	for id, p := range elsewhere {
		if _, linked := Lookup(id); p == page && !linked {
			return false
		}
	}
	return true
}

// ElsewhereError says a scenario names an algorithm this binary does not
// link, which the client of another page runs (Elsewhere).
type ElsewhereError struct {
	// Algorithm is the scenario's algorithm, Page the route of the
	// client that runs it.
	Algorithm, Page string
}

func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("the algorithm %q runs in another page (%s), which this one cannot load", e.Algorithm, e.Page)
}

// Missing is the error for an algorithm id that is not registered: an
// *ElsewhereError when another client runs it, else nil (the caller says
// it is unknown).
func Missing(id string) error {
	if page, ok := Elsewhere(id); ok {
		return &ElsewhereError{Algorithm: id, Page: page}
	}
	return nil
}
