package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/clock"
	"spacetime/core/engine"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// checkCausality checks the engine's Lamport and vector stamps against the
// run's happened-before relation.
func checkCausality(t *testing.T, r *engine.Run) {
	t.Helper()
	tr := r.Trace()
	n := len(tr.Names)
	last := make([]*trace.Record, n)
	// events are the steps that ticked their process's clocks; faults and
	// refused commands carry the process's clocks unchanged.
	var events []int
	for i := range tr.Records {
		rec := &tr.Records[i]
		if rec.Node < 0 {
			require.Contains(t, []trace.Kind{trace.Fault, trace.Skip}, rec.Kind, "step %d: only the network's faults belong to no process", i)
			continue // a fault of the whole network: no process's event
		}
		require.Len(t, rec.Vector, n, "step %d (%s) has no vector stamp", i, rec.Caption)
		if prev := last[rec.Node]; prev != nil {
			order := clock.Compare(prev.Vector, rec.Vector)
			require.Contains(t, []clock.Order{clock.Before, clock.Equal}, order,
				"step %d on %s: vector %v after %v", i, tr.Names[rec.Node], rec.Vector, prev.Vector)
			require.GreaterOrEqual(t, rec.Lamport, prev.Lamport, "step %d: Lamport clock went back", i)
			ticked := rec.Vector[rec.Node] > prev.Vector[rec.Node]
			require.Equal(t, ticked, rec.Lamport > prev.Lamport,
				"step %d: the vector and Lamport clocks tick together", i)
			switch rec.Kind {
			case trace.Init, trace.Deliver:
				require.True(t, ticked, "step %d (%s) is an event and must tick", i, rec.Kind)
			case trace.Wake:
				require.False(t, ticked, "step %d: waking is not an event of the algorithm", i)
			case trace.Fault:
				if rec.Tag() != "recover" {
					require.False(t, ticked, "step %d: a fault (%s) is not an event of the algorithm", i, rec.Tag())
				}
			}
			if ticked {
				events = append(events, i)
			}
		} else {
			require.Equal(t, trace.Init, rec.Kind, "a process's first step is its init")
			events = append(events, i)
		}
		last[rec.Node] = rec
	}
	for _, m := range tr.Msgs {
		send := tr.Records[m.SendStep]
		assert.Equal(t, send.Vector, m.Vector, "message %d carries its send's vector", m.ID)
		assert.Equal(t, send.Lamport, m.Lamport, "message %d carries its send's Lamport time", m.ID)
		if m.RecvStep < 0 {
			continue
		}
		recv := tr.Records[m.RecvStep]
		require.True(t, clock.HappenedBefore(send.Vector, recv.Vector),
			"message %d: send %v must happen before receipt %v", m.ID, send.Vector, recv.Vector)
		require.Less(t, send.Lamport, recv.Lamport, "message %d: Lamport time must increase", m.ID)
	}
	// The clock condition: a happened before b implies L(a) < L(b); the
	// steps are in an order that respects happened-before; and two events
	// of the same process are never concurrent.
	for x, i := range events {
		for _, j := range events[x+1:] {
			a, b := &tr.Records[i], &tr.Records[j]
			order := clock.Compare(a.Vector, b.Vector)
			require.NotEqual(t, clock.After, order, "step %d cannot happen after the later step %d", i, j)
			if order == clock.Before {
				require.Less(t, a.Lamport, b.Lamport, "steps %d and %d", i, j)
			}
			if a.Node == b.Node {
				require.NotEqual(t, clock.Concurrent, order, "steps %d and %d of one process", i, j)
			}
		}
	}
}

func TestStampsRespectHappenedBefore(t *testing.T) {
	for name, doc := range map[string]string{"bank": bank, "lossy": lossy, "queued": queued(false)} {
		t.Run(name, func(t *testing.T) {
			r := start(t, parse(t, doc), 0)
			checkCausality(t, r)
		})
	}
	t.Run("after learner inputs", func(t *testing.T) {
		r := start(t, parse(t, bank), 0)
		require.NoError(t, r.Insert(70, crash(2)))
		require.NoError(t, r.Insert(75, engine.Command("snapshot", 0, sim.None, 0)))
		require.NoError(t, r.Insert(110, recoverAt(2)))
		ids := r.At(150).Deliverable()
		require.NotEmpty(t, ids)
		require.NoError(t, r.Insert(150, engine.Deliver(ids[len(ids)-1])))
		checkCausality(t, r)
	})
	t.Run("a command at a crashed process", func(t *testing.T) {
		// The step that refuses the command belongs to a process whose
		// clocks must carry on, not drop to zero.
		doc := `{"algorithm": "chandy-lamport", "n": 3, "seed": 2, "scheduler": "random",
			"workload": {"p": 0.5},
			"script": [{"at": 10, "fault": "crash", "node": "B"}, {"at": 20, "node": "B", "command": "snapshot"},
			           {"at": 30, "fault": "recover", "node": "B"}],
			"until": {"time": 60}}`
		r := start(t, parse(t, doc), 0)
		found := false
		for _, rec := range r.Trace().Records {
			if rec.Kind == trace.Command && rec.Node == 1 {
				found = true
				assert.Contains(t, rec.Caption, "not run")
			}
		}
		require.True(t, found)
		checkCausality(t, r)
	})
	t.Run("workload with every process down", func(t *testing.T) {
		doc := `{"algorithm": "chandy-lamport", "n": 2, "seed": 2, "scheduler": "earliest",
			"workload": {"every": [1, 2]},
			"script": [{"at": 5, "fault": "crash", "node": 1}, {"at": 5, "fault": "crash", "node": 2},
			           {"at": 12, "fault": "recover", "node": 1}, {"at": 12, "fault": "recover", "node": 2}],
			"until": {"time": 30}}`
		r := start(t, parse(t, doc), 0)
		after := false
		for _, rec := range r.Trace().Records {
			if rec.Kind == trace.Workload && rec.Time > 5 && rec.Time < 12 {
				t.Errorf("step %d: no work is offered while every process is down", rec.Step)
			}
			after = after || (rec.Kind == trace.Workload && rec.Time > 12)
		}
		require.True(t, after, "the work resumes once they recover")
		checkCausality(t, r)
	})
}
