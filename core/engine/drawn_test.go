package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// drawnAsItWas holds DrawnBefore, read at the head, to Drawn read at each
// earlier step, for every interval the run draws (crashes end them too).
func drawnAsItWas(t *testing.T, r *engine.Run) {
	t.Helper()
	type key struct {
		role  string
		group int
	}
	var keys []key
	crashEnds := false
	for _, rec := range r.Trace().Records[:r.Len()] {
		for _, a := range rec.Annotations() {
			crashEnds = crashEnds || rec.What() == "crash" && a.Phase == sim.End
			if a.Phase == sim.Begin && !contains(keys, key{a.Role, a.Group}) {
				keys = append(keys, key{a.Role, a.Group})
			}
		}
	}
	require.NotEmpty(t, keys, "the run draws intervals")
	require.True(t, crashEnds, "a crash ends an interval")
	head := r.At(r.Len()).View()
	for step := 0; step <= r.Len(); step++ {
		then := r.At(step).View()
		for id := range then.N() {
			for _, k := range keys {
				want := then.Drawn(sim.NodeID(id), k.role, k.group)
				require.Equal(t, want, head.DrawnBefore(sim.NodeID(id), k.role, k.group, step), "%s %d at process %d before step %d", k.role, k.group, id, step)
				assert.Equal(t, want, then.DrawnBefore(sim.NodeID(id), k.role, k.group, step+5), "a view answers only for its own past")
			}
		}
	}
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// What the diagram drew at a step is known at any later one, and a fork
// forgets what the future it replaces drew.
func TestDrawnBeforeIsTheDrawingAsItWas(t *testing.T) {
	r := start(t, parse(t, `{"algorithm": "ricart-agrawala", "n": 3, "seed": 4, "workload": {"p": 0.5},
		"script": [{"at": 10, "fault": "crash", "node": 2}, {"at": 30, "fault": "recover", "node": 2}],
		"until": {"steps": 150}}`), 5)
	drawnAsItWas(t, r)

	require.NoError(t, r.Insert(r.Len()/2, crash(1)))
	drawnAsItWas(t, r)
}

// The step a view was taken after is known to it: which process took
// which event (a recovery is one), or that none did (a crash, a command
// to a process that is down).
func TestLastStepIsTheStepJustTaken(t *testing.T) {
	r := start(t, parse(t, `{"algorithm": "ricart-agrawala", "n": 3, "seed": 4, "workload": {"p": 0.5},
		"script": [{"at": 10, "fault": "crash", "node": 2}, {"at": 12, "node": 2, "command": "request-cs"}, {"at": 30, "fault": "recover", "node": 2}],
		"until": {"steps": 120}}`), 5)
	kinds := map[trace.Kind]sim.EventKind{trace.Init: sim.Init, trace.Deliver: sim.Deliver, trace.Timer: sim.Timer, trace.Workload: sim.Workload, trace.Command: sim.Command}
	faults, refused := 0, 0
	_, _, ok := r.At(0).View().LastStep()
	assert.False(t, ok, "before any step")
	for k := 1; k <= r.Len(); k++ {
		rec := r.Trace().Records[k-1]
		id, ev, ok := r.At(k).View().LastStep()
		want, stepped := kinds[rec.Kind]
		if rec.What() == "recover" {
			want, stepped = sim.Recover, true // the process takes its recovery
		}
		if rec.Kind == trace.Command && strings.Contains(rec.Caption, "is not run") {
			stepped = false
			refused++
		}
		if !stepped {
			faults++
			assert.False(t, ok, "step %d: %s", k, rec.Caption)
			continue
		}
		require.True(t, ok, "step %d: %s", k, rec.Caption)
		assert.Equal(t, rec.Node, id, "step %d", k)
		assert.Equal(t, want, ev.Kind, "step %d", k)
		if rec.Kind == trace.Deliver {
			assert.Equal(t, rec.Msg, ev.MsgID, "step %d", k)
		}
	}
	assert.Equal(t, 1, refused, "the command to the crashed process")
	assert.Equal(t, 2, faults, "the crash and the command it refuses")
}
