package engine_test

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// liveHeap is the live heap after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// What a budget of memory reckons a run keeps is what its heap holds,
// whatever grows: the trace (records and messages, a thousand messages a
// step), the processes' own state (twelve processes that each save a
// checkpoint every tick), the messages waiting for a crashed process. A
// run stopped by its budget holds about the budget, not twice or three
// times it, and stops at the same step every time.
func TestReckoningCoversWhatARunKeeps(t *testing.T) {
	const bound = 16 << 20
	for name, doc := range map[string]string{
		"checkpointing": `{"algorithm": "checkpoint", "n": 12, "seed": 1, "params": {"interval": 1}, "workload": {"p": 1, "every": [1, 1]}, "until": {"steps": 1000000}}`,
		"fanning":       `{"algorithm": "idle-poll", "n": 2, "seed": 1, "params": {"fanout": 1000, "depth": 1000}, "until": {"steps": 1000000}}`,
		"piling up": `{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
			"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"time": 10000000}}`,
		"banking": `{"algorithm": "chandy-lamport", "n": 8, "seed": 2, "workload": {"p": 0.5}, "until": {"time": 10000000}}`,
	} {
		t.Run(name, func(t *testing.T) {
			before := liveHeap()
			b := &engine.Budget{Bytes: bound}
			r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
			require.NoError(t, err)
			held := liveHeap() - before
			require.Equal(t, engine.OutOfMemory, b.Cause())
			t.Logf("%d steps; reckoned %.1f MB, held %.1f MB", r.Len(), float64(b.Kept())/(1<<20), float64(held)/(1<<20))
			assert.Less(t, held, int64(bound)*5/4, "the heap holds about the budget")
			assert.Greater(t, held, int64(bound)/2, "the reckoning does not stop the run for nothing")

			again, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(&engine.Budget{Bytes: bound})
			require.NoError(t, err)
			assert.Equal(t, r.Len(), again.Len(), "the same step every time")
			runtime.KeepAlive(r)
		})
	}
}

// A budget stops a run before its trace copies its records or messages
// into arrays twice as large that it cannot hold: the trace's room never
// passes the budget.
func TestTheTracesRoomStaysWithinItsBudget(t *testing.T) {
	recordSize := int64(reflect.TypeOf(trace.Record{}).Size())
	msgSize := int64(reflect.TypeOf(trace.Msg{}).Size())
	for _, bound := range []int64{1 << 20, 3 << 20, 5 << 20} {
		b := &engine.Budget{Bytes: bound}
		r, err := scenariotest.Plan(t, parse(t, `{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
			"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"time": 10000000}}`)).RunWithin(b)
		require.NoError(t, err)
		require.Equal(t, engine.OutOfMemory, b.Cause())
		room := int64(cap(r.Trace().Records))*recordSize + int64(cap(r.Trace().Msgs))*msgSize
		assert.LessOrEqual(t, room, bound, "%d steps: the records and messages have room for %d and %d", r.Len(), cap(r.Trace().Records), cap(r.Trace().Msgs))
		assert.Greater(t, room, bound/3, "the run used its budget")
	}
}

// A fork charges its copy of the run to a budget, and says when the
// budget cannot hold it.
func TestForkWithinABudget(t *testing.T) {
	r, err := scenariotest.Plan(t, parse(t, `{"algorithm": "chandy-lamport", "n": 4, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 5000}}`)).Run()
	require.NoError(t, err)
	b := &engine.Budget{Bytes: 1 << 30}
	_, err = r.ForkWithin(4000, b)
	require.NoError(t, err)
	assert.Greater(t, b.Kept(), int64(4000*100), "the copy's trace is charged")
	_, err = r.ForkWithin(4000, &engine.Budget{Bytes: 100_000})
	assert.ErrorIs(t, err, engine.ErrBudget)
}

// Keep adds a caller's memory to a budget, and past its bound spends it.
func TestKeep(t *testing.T) {
	var none *engine.Budget
	assert.True(t, none.Keep(1<<40), "a nil budget keeps anything")
	b := &engine.Budget{Bytes: 1000}
	assert.True(t, b.Keep(600))
	assert.True(t, b.Keep(400))
	assert.False(t, b.Keep(1))
	assert.Equal(t, engine.OutOfMemory, b.Cause())
	assert.Equal(t, int64(1001), b.Kept())
}
