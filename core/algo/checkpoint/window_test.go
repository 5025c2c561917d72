package checkpoint_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/algo/checkpoint"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/scenariotest"
)

// The recovery line's check visits only the messages made since the
// line's earliest restore or global checkpoint; over random recoveries,
// coordinated or not, with many crashes, it finds the same messages taken
// on the line after their senders' points (each an orphan unless
// ignored) as a visit of every message does, at every step, and reads
// the same messages: those sent after their senders' points, and each
// channel's marker of a global checkpoint on the line.
func TestLineCheckWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	settled, markers := 0, 0
	for seed := range 120 {
		n := 2 + rng.IntN(4)
		script, at := crashes(rng, n, 2+rng.IntN(5), 3, 30, 8)
		doc := fmt.Sprintf(`{"algorithm": "checkpoint", "n": %d, "seed": %d, "network": {"delay": [1, %d], "fifo": %v},
			"params": {"coordinated": %v, "interval": %d}, "workload": {"p": 0.5, "every": [1, 3]},
			"script": [%s], "until": {"time": %d}}`, n, seed, 1+rng.IntN(6), rng.IntN(4) > 0, seed%2 == 1, 3+rng.IntN(12), strings.Join(script, ", "), at+100)
		s, err := scenario.Parse([]byte(doc))
		require.NoError(t, err)
		cfg := scenariotest.Plan(t, s).Config()
		spec := *cfg.Spec
		spec.Checks.Invariants = []sim.Invariant{{Name: "the window decides as the whole run does", Check: func(v sim.View) sim.Verdict {
			windowed, whole := checkpoint.CheckLine(v, true, false), checkpoint.CheckLine(v, false, false)
			if windowed.OK != whole.OK || fmt.Sprint(windowed.Msgs) != fmt.Sprint(whole.Msgs) {
				return sim.Verdict{Detail: fmt.Sprintf("windowed %+v, whole %+v", windowed, whole)}
			}
			windowed, whole = checkpoint.CheckLine(v, true, true), checkpoint.CheckLine(v, false, true)
			for _, id := range whole.Msgs {
				if id < 0 {
					markers++
				}
			}
			for _, a := range v.LastAnnotations() {
				if a.Role == checkpoint.RoleLine {
					settled++
				}
			}
			if windowed.OK != whole.OK || fmt.Sprint(windowed.Msgs) != fmt.Sprint(whole.Msgs) {
				return sim.Verdict{Detail: fmt.Sprintf("windowed %+v, whole %+v", windowed, whole)}
			}
			return sim.Verdict{OK: true}
		}}}
		cfg.Spec = &spec
		r, err := engine.New(cfg)
		require.NoError(t, err)
		for _, f := range r.Failures() {
			require.Less(t, f.Step, 0, "%s at step %d: %s\n%s", f.Name, f.Step, f.Detail, doc)
		}
	}
	require.Greater(t, settled, 200, "lines were settled and checked")
	require.Greater(t, markers, 100, "global checkpoints' markers were read, which the window found")
}
