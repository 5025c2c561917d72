package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/campaign"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/mutate"
)

// watched are mutants the campaign killed, with the algorithms that must
// go on killing them: make test builds and judges each, so that a change
// that weakens one of these invariants is noticed without the hours of
// the whole campaign (make mutants).
var watched = []struct {
	id         string
	algorithms []string
}{
	// replying while in the critical section
	{"core/algo/ricartagrawala/ricart.go (*Process).request compare#3", []string{"ricart-agrawala"}},
	// the request's priority ignored
	{"core/algo/ricartagrawala/ricart.go (*Process).request and-or#2", []string{"ricart-agrawala"}},
	// the shared marker rule: a channel recorded past its marker
	{"core/algo/snapshot/snapshot.go (*Part).Marker drop-update#2", []string{"chandy-lamport", "snapshot-termination"}},
	// a part done before every channel's marker has come (the texts'
	// rule 4): a global checkpoint misses what was in transit at its cut
	{"core/algo/snapshot/snapshot.go (*Part).Complete return#2", []string{"checkpoint"}},
	// a lease granted with the last lease's token: fencing cannot tell
	// the two holders' writes apart
	{"core/algo/lease/lease.go (*Process).grant drop-update#1", []string{"lease"}},
	// a deadlock detector that finds the cycle and does not say so
	{"core/algo/deadlock/detect.go findCycle return#1", []string{"deadlock-detection"}},
}

func TestWatchedMutantsAreKilled(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	dir := t.TempDir()
	for i, w := range watched {
		pkg := strings.Split(strings.TrimPrefix(w.id, "core/algo/"), "/")[0]
		ms, err := packageMutants(root, pkg)
		require.NoError(t, err)
		at := slices.IndexFunc(ms, func(m mutate.Mutant) bool { return m.ID == w.id })
		require.GreaterOrEqual(t, at, 0, "no mutant %q: its function changed shape; pick the mutant that replaces it (go run ./cmd/mutants -list -packages %s)", w.id, pkg)
		o := try(root, dir, i, job{m: ms[at], algorithms: w.algorithms, timeout: 3 * time.Minute}, options{runs: 200, seed: 5})
		require.Empty(t, o.NotCompiled, w.id)
		require.False(t, o.Hung, w.id)
		require.Len(t, o.Verdicts, len(w.algorithms), w.id)
		for _, v := range o.Verdicts {
			assert.True(t, v.Killed, "%s survives %d runs of %s: an invariant lost its teeth", w.id, v.Runs, v.Algorithm)
			assert.Empty(t, v.Panic, "%s is caught by an invariant, not a panic", w.id)
			assert.NotEmpty(t, v.Invariant, w.id)
		}
	}
}

// The unmutated code passes its own judging, and a name the registry
// does not know is an error, not a pass.
func TestJudgeOfTheUnmutatedCode(t *testing.T) {
	v := judge("ricart-agrawala", 20, 5)
	assert.False(t, v.Killed, "%+v", v)
	assert.Greater(t, v.Runs, 20, "the lessons run too")
	v = judge("no-such-algorithm", 20, 5)
	assert.True(t, v.Killed)
	assert.Contains(t, v.Error, "no algorithm")
}

// The lessons that turn an erratum's switch on are caught by the
// invariant they declare.
func TestErrataSwitchesAreKilledByTheirLessons(t *testing.T) {
	es := errata([]string{"ricart-agrawala", "chandy-lamport"})
	require.NotEmpty(t, es)
	for _, e := range es {
		assert.True(t, e.Killed, "%+v", e)
	}
	var switches []string
	for _, e := range es {
		switches = append(switches, e.Switch)
	}
	assert.Contains(t, switches, "[seed_reply=true]")
}

// A lesson that turns a switch that is no variant runs a broken version
// on purpose, declared violation or not, and judges no mutant; one that
// turns a variant runs the algorithm.
func TestALessonThatBreaksARuleJudgesNoMutant(t *testing.T) {
	named := func(id, lesson string) bool {
		spec, ok := all.Lookup(id)
		require.True(t, ok)
		for _, l := range lessonsOf(id) {
			if l.ID == lesson {
				return namesMutant(spec, l)
			}
		}
		require.FailNow(t, "no lesson "+lesson)
		return false
	}
	assert.True(t, named("raft", "raft-figure8-three"), "counting replicas, found by the search")
	assert.True(t, named("ricart-agrawala", "ricart-agrawala-seed-reply"), "the seed's reply rule")
	assert.False(t, named("maekawa", "maekawa-inquire"), "INQUIRE is a variant")
	assert.False(t, named("raft", "raft-election"))
}

// -list lists mutants without building, and an unknown package is named
// with the ones there are.
func TestListAndUnknownPackage(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"-list", "-packages", "snapshot"}, &out))
	assert.Contains(t, out.String(), "core/algo/snapshot/snapshot.go (*Part).Marker drop-update#2")
	err := run([]string{"-list", "-packages", "nosuch"}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "snapshot")
}

// Every mutant equivalent.txt explains still exists: a function that
// changed shape renumbers its mutants, and an explanation that names none
// would hide a survivor under another's reason.
func TestEquivalentsNameMutants(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	eq := equivalents()
	require.NotEmpty(t, eq)
	byPackage := map[string]map[string]bool{}
	for id, why := range eq {
		assert.NotEmpty(t, why, id)
		pkg := strings.Split(strings.TrimPrefix(id, "core/algo/"), "/")[0]
		if byPackage[pkg] == nil {
			ms, err := packageMutants(root, pkg)
			require.NoError(t, err)
			byPackage[pkg] = map[string]bool{}
			for _, m := range ms {
				byPackage[pkg][m.ID] = true
			}
		}
		assert.True(t, byPackage[pkg][id], "equivalent.txt names %q, which is no mutant now (go run ./cmd/mutants -list -packages %s)", id, pkg)
	}
}

// Every lesson, as it is, breaks an invariant it declares it breaks: the
// unmutated code passes the rule that kills a mutant for losing them all.
func TestEveryLessonShowsWhatItDeclares(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		l, err := scenario.Builtin(id)
		require.NoError(t, err)
		if l.Expect == nil {
			continue
		}
		res := campaign.Check(l)
		assert.Empty(t, unshown(l, &res), id)
	}
}

// A lesson that no longer breaks the invariant it is meant to break kills
// the mutant that made it hold: the lesson's point is a check too.
func TestALessonThatLosesItsPointKills(t *testing.T) {
	l, err := scenario.Builtin("lease-fencing")
	require.NoError(t, err)
	require.NotEmpty(t, l.Expect.Violations)
	res := campaign.Check(l)
	require.False(t, res.Failed())
	assert.Empty(t, unshown(l, &res), "the lesson as it is shows what it declares")
	res.Violations = nil
	assert.Equal(t, strings.Join(l.Expect.Violations, "; "), unshown(l, &res))
}

// A lesson as it is breaks what it declares and nothing else: a
// violation a known limit would excuse in a drawn run (the pause lesson's
// stale write, which its storage's fencing refuses) kills a mutant there.
func TestALessonAsItIsExcusesNothingElse(t *testing.T) {
	l, err := scenario.Builtin("coordination-lock-pause")
	require.NoError(t, err)
	res := campaign.Check(l)
	strict(l, &res)
	require.False(t, res.Failed(), "the lesson as it is breaks only what it declares")
	res.Violations = append(res.Violations, campaign.Violation{Invariant: "the storage accepts no write whose lock had passed on", Expected: true, Why: "a known limit"})
	strict(l, &res)
	assert.True(t, res.Failed(), "a stale write in the pause lesson is no known limit's")
}

// A reason that begins "for A" shows a mutant equivalent for the
// algorithms it names there only.
func TestAnEquivalentForOneAlgorithm(t *testing.T) {
	assert.True(t, equivalentFor("Sent counts the messages for the figures only", "central"))
	assert.True(t, equivalentFor("for coordination-lock, whose clients never arm the retry timer", "coordination-lock"))
	assert.False(t, equivalentFor("for coordination-lock, whose clients never arm the retry timer", "replicated-lock"))
	assert.False(t, equivalentFor("for credit-integer whose units are whole: replicated-lock reads it", "replicated-lock"))
	assert.True(t, equivalentFor("for dijkstra-scholten and credit-recovery: the root", "credit-recovery"))
}

// Every reason that holds for some algorithms only names them by id.
func TestEveryScopedEquivalentNamesItsAlgorithms(t *testing.T) {
	for id, why := range equivalents() {
		if !strings.HasPrefix(why, "for ") {
			continue
		}
		named := slices.ContainsFunc(all.Specs(), func(s *sim.Spec) bool { return equivalentFor(why, s.ID) })
		assert.True(t, named, "%s: %q names no algorithm by its id", id, why)
	}
}
