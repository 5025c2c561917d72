package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// crash, recoverAt and pause are the fault actions of process id.
func crash(id sim.NodeID) engine.Action     { return engine.Fault("crash", faults.AtProcess(id)) }
func recoverAt(id sim.NodeID) engine.Action { return engine.Fault("recover", faults.AtProcess(id)) }

func pause(id sim.NodeID, ticks sim.Time) engine.Action {
	a := faults.AtProcess(id)
	a = a.With("for", faults.ParamTicks.Num(int64(ticks)))
	return engine.Fault("pause", a)
}

// parse reads a scenario that must be valid.
func parse(t testing.TB, doc string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)
	return s
}

// start runs a scenario with the given keyframe spacing (0: the default).
func start(t testing.TB, s *scenario.Scenario, every int) *engine.Run {
	t.Helper()
	p, err := s.Compile()
	require.NoError(t, err)
	cfg := p.Config()
	cfg.KeyframeEvery = every
	r, err := engine.New(cfg)
	require.NoError(t, err)
	return r
}

// traceJSON is the whole trace as JSON.
func traceJSON(t testing.TB, r *engine.Run) string {
	t.Helper()
	data, err := r.Trace().JSON(r.Len())
	require.NoError(t, err)
	return string(data)
}

// prefixJSON is the first k steps of the trace as JSON.
func prefixJSON(t testing.TB, r *engine.Run, k int) string {
	t.Helper()
	data, err := r.Trace().JSON(k)
	require.NoError(t, err)
	return string(data)
}

// fingerprint prints everything observable about a state: time, health,
// node internals, clocks, the network and the algorithm's metrics.
func fingerprint(r *engine.Run, st engine.State) string {
	var b strings.Builder
	v := st.View()
	n := v.N()
	fmt.Fprintf(&b, "step %d now %d view-steps %d view-now %d sent %d\n", st.Step(), st.Now(), v.Steps(), v.Now(), v.NumSent())
	for i := range n {
		id := sim.NodeID(i)
		fmt.Fprintf(&b, "%s %v/%s %+v %v lamport %d vector %v\n",
			v.Name(id), st.Health(id), v.Health(id), v.Node(id), st.Fields(id), st.Lamport(id), st.Vector(id))
	}
	fmt.Fprintf(&b, "deliverable %v\n", st.Deliverable())
	for i := range n {
		for j := range n {
			if ids := v.InFlight(sim.NodeID(i), sim.NodeID(j)); len(ids) > 0 {
				fmt.Fprintf(&b, "chan %d->%d %v\n", i, j, ids)
			}
		}
	}
	for id := range v.NumSent() {
		fmt.Fprintf(&b, "msg %+v\n", v.Envelope(id))
	}
	for _, m := range r.Config().Spec.Figures.Metrics(v) {
		fmt.Fprintf(&b, "metric %s %v\n", m.Name, m.Value)
	}
	return b.String()
}

// snapshotOf is what a refused action must leave untouched.
type snapshotOf struct {
	Trace    string
	Len      int
	Inputs   []engine.Input
	Failures []engine.Failure
	Stopped  string
}

func takeSnapshot(t testing.TB, r *engine.Run) snapshotOf {
	return snapshotOf{
		Trace:    traceJSON(t, r),
		Len:      r.Len(),
		Inputs:   append([]engine.Input(nil), r.Inputs()...),
		Failures: append([]engine.Failure(nil), r.Failures()...),
		Stopped:  r.Stopped(),
	}
}
