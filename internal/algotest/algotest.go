// Package algotest holds what the tests of the algorithms share: running
// a scenario, reading its figures, failures and processes' fields, and
// scripting the mutual exclusions' requests. It lives outside core/, so
// that no package of the core imports the scenario format only to test.
package algotest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/algo/mutex"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Run parses and runs a scenario that must be valid.
func Run(t testing.TB, doc string) *engine.Run {
	t.Helper()
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)
	p, err := s.Compile()
	require.NoError(t, err)
	r, err := p.Run()
	require.NoError(t, err)
	return r
}

// Check is the verdict of spec's invariant of that name on view v; the
// invariant must exist.
func Check(t testing.TB, spec *sim.Spec, v sim.View, name string) sim.Verdict {
	t.Helper()
	for _, inv := range spec.Checks.Invariants {
		if inv.Name == name {
			return inv.Check(v)
		}
	}
	require.FailNow(t, "no invariant "+name, spec.ID)
	return sim.Verdict{}
}

// Steps calls step for each step of r that a process took, in order,
// with the view after it, the process and its event: the walk of a test
// that holds a rule's check to a lesson and breaks the rule on purpose.
func Steps(r *engine.Run, step func(k int, v sim.View, id sim.NodeID, ev sim.Event)) {
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		if id, ev, ok := v.LastStep(); ok {
			step(k, v, id, ev)
		}
	}
}

// Holds requires spec's invariants of those names to hold at view v, the
// view after step k.
func Holds(t testing.TB, spec *sim.Spec, v sim.View, k int, names ...string) {
	t.Helper()
	for _, name := range names {
		verdict := Check(t, spec, v, name)
		require.True(t, verdict.OK, "step %d: %s: %s", k, name, verdict.Detail)
	}
}

// Metrics are the run's figures at its end, by name.
func Metrics(r *engine.Run) map[string]any {
	out := map[string]any{}
	for _, m := range r.Config().Spec.Figures.Metrics(r.At(r.Len()).View()) {
		out[m.Name] = m.Value
	}
	return out
}

// Failed lists the invariants that failed, with their details.
func Failed(r *engine.Run) []string {
	var out []string
	for _, f := range r.Failures() {
		if f.Step >= 0 {
			out = append(out, f.Name+": "+f.Detail)
		}
	}
	return out
}

// Requests are script entries: each listed process (by number) asks for
// the critical section at its tick.
func Requests(at map[int]int) string {
	var parts []string
	for node := 1; node <= 64; node++ {
		if t, ok := at[node]; ok {
			parts = append(parts, fmt.Sprintf(`{"at": %d, "node": %d, "command": "request-cs"}`, t, node))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Entered lists, in order, the names of the processes that enter the
// critical section, read from the intervals the steps open.
func Entered(r *engine.Run) []string {
	var order []string
	for _, rec := range r.Trace().Records {
		for _, a := range rec.Annotations() {
			if a.Role == mutex.RoleCS && a.Phase == sim.Begin {
				order = append(order, r.Config().Names[rec.Node])
			}
		}
	}
	return order
}

// Captions are the run's step captions, one per line.
func Captions(r *engine.Run) string {
	out := make([]string, len(r.Trace().Records))
	for i, rec := range r.Trace().Records {
		out[i] = rec.Caption
	}
	return strings.Join(out, "\n")
}

// Field is the value of a process's field, as the page's process panel
// shows it, by the field's name; it fails the test if there is none.
func Field(t testing.TB, n sim.Node, name string) string {
	t.Helper()
	var names []string
	for _, f := range n.Inspect() {
		if f.Name == name {
			return f.Value
		}
		names = append(names, f.Name)
	}
	t.Fatalf("the process shows no field %q (it shows %s)", name, strings.Join(names, ", "))
	return ""
}

// Overlays are the algorithm's overlays of the given role at view v.
func Overlays(spec *sim.Spec, v sim.View, role string) []sim.Overlay {
	if spec.Picture.Overlays == nil {
		return nil
	}
	var out []sim.Overlay
	for _, o := range spec.Picture.Overlays(v) {
		if o.Role == role {
			out = append(out, o)
		}
	}
	return out
}

// Links are the overlays' links, from Node to Peer.
func Links(os []sim.Overlay) [][2]sim.NodeID {
	var out [][2]sim.NodeID
	for _, o := range os {
		out = append(out, [2]sim.NodeID{o.Node, o.Peer})
	}
	return out
}

// TextOf is the text of the overlay of process id among os, or "".
func TextOf(os []sim.Overlay, id sim.NodeID) string {
	for _, o := range os {
		if o.Node == id {
			return o.Text
		}
	}
	return ""
}

// Seeds is how many seeded runs a property test draws: native natively,
// and a tenth of it (at least 10) under js/wasm. There the same code runs
// five to ten times slower, and the runs' purpose is to show that the
// platform agrees with the native one, whose runs cover the schedules.
// Under -short (make test) it is a third of that: make test-long, which
// CI runs too, draws them all.
func Seeds(native int) int {
	n := native
	if runtime.GOOS == "js" {
		n = max(native/10, 10)
	}
	if testing.Short() {
		n = max(n/3, 10)
	}
	return n
}
