package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/internal/scenariotest"
)

// A budget cuts a run short at the step that would pass it, says why, and
// is shared by the runs and inputs that use it; a run within its budget is
// the same run as without one.
func TestBudget(t *testing.T) {
	const doc = `{"algorithm": "chandy-lamport", "n": 4, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 1000}}`
	free, err := scenariotest.Plan(t, parse(t, doc)).Run()
	require.NoError(t, err)
	require.Equal(t, 1000, free.Len())

	t.Run("within", func(t *testing.T) {
		b := &engine.Budget{Work: 1 << 40, Bytes: 1 << 40}
		r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		assert.False(t, b.Exhausted())
		assert.Equal(t, engine.NotSpent, b.Cause())
		// one unit per process a step, and the copies of processes and
		// keyframes on top
		assert.GreaterOrEqual(t, b.Used(), int64(4000))
		assert.Less(t, b.Used(), int64(8000))
		assert.Equal(t, traceJSON(t, free), traceJSON(t, r))
	})
	t.Run("out of work", func(t *testing.T) {
		b := &engine.Budget{Work: 1000}
		r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		assert.True(t, b.Exhausted())
		assert.Equal(t, engine.OutOfWork, b.Cause())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Greater(t, r.Len(), 150)
		assert.Less(t, r.Len(), 250, "4 processes: 1000 units are fewer than 250 steps")
		assert.Equal(t, prefixJSON(t, free, r.Len()), traceJSON(t, r))
	})
	t.Run("out of memory", func(t *testing.T) {
		// the room of the records (1000, reserved) and of the first 1024
		// messages is about 300,000 bytes: the steps take the rest
		b := &engine.Budget{Bytes: 330_000}
		r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		assert.Equal(t, engine.OutOfMemory, b.Cause())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Greater(t, r.Len(), 100)
		assert.Less(t, r.Len(), 1000)
		assert.Less(t, b.Kept(), int64(332_000), "stopped at the first step past the bound")
		assert.Equal(t, prefixJSON(t, free, r.Len()), traceJSON(t, r))
	})
	t.Run("shared", func(t *testing.T) {
		b := &engine.Budget{Work: 6000}
		first, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		require.Equal(t, 1000, first.Len())
		r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		assert.True(t, b.Exhausted())
		assert.Less(t, r.Len(), 500, "the second run gets what the first left")
	})
	t.Run("replayed inputs count", func(t *testing.T) {
		b := &engine.Budget{Work: 6000}
		r, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(b)
		require.NoError(t, err)
		require.False(t, b.Exhausted())
		// forking at step 10 runs the rest again, past the budget
		require.NoError(t, r.Replay([]engine.Input{{Step: 10, Action: crash(1)}}))
		assert.True(t, b.Exhausted())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Less(t, r.Len(), 1000)
	})
	t.Run("cancelled", func(t *testing.T) {
		asked := 0
		b := &engine.Budget{Cancelled: func() bool { asked++; return asked == 10 }}
		r, err := scenariotest.Plan(t, parse(t, `{"algorithm": "chandy-lamport", "n": 3, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 100000}}`)).RunWithin(b)
		require.NoError(t, err)
		assert.Equal(t, engine.Cancelled, b.Cause())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Equal(t, 10, asked, "asked before every step")
		assert.Equal(t, 9, r.Len())
	})
}

// What a run keeps grows with its length, not with its square: a process
// down from tick 1 leaves every message sent to it in its channel, and
// the keyframes share them instead of copying them all each time.
func TestKeptGrowsWithTheRun(t *testing.T) {
	kept := func(steps int) int64 {
		b := &engine.Budget{}
		s := parse(t, `{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
			"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"steps": 1}}`)
		s.Until.Steps = steps
		r, err := scenariotest.Plan(t, s).RunWithin(b)
		require.NoError(t, err)
		require.Equal(t, steps, r.Len())
		waiting := len(r.At(steps).View().InFlight(0, 1))
		require.Greater(t, waiting, steps/3, "the messages wait for process 2")
		return b.Kept()
	}
	short, long := kept(20_000), kept(80_000)
	assert.Less(t, float64(long)/float64(short), 4.4, "4 times the steps keep about 4 times the memory (%d and %d bytes)", short, long)
}

// A run opened with a link's inputs is the run made by replaying them on
// a fresh run, made in one pass: it costs one run, not a run and most of
// another; an input past where the run ends says so.
func TestInputsInOnePass(t *testing.T) {
	const doc = `{"algorithm": "chandy-lamport", "n": 3, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 2000}}`
	inputs := []engine.Input{{Step: 10, Action: crash(1)}, {Step: 40, Action: recoverAt(1)}}
	replayed, err := scenariotest.Plan(t, parse(t, doc)).RunWithin(&engine.Budget{})
	require.NoError(t, err)
	require.NoError(t, replayed.Replay(inputs))

	b := &engine.Budget{}
	r, err := scenariotest.Plan(t, parse(t, doc)).RunWithInputs(b, inputs)
	require.NoError(t, err)
	assert.Equal(t, traceJSON(t, replayed), traceJSON(t, r))
	assert.Equal(t, replayed.Inputs(), r.Inputs())
	once := &engine.Budget{}
	_, err = scenariotest.Plan(t, parse(t, doc)).RunWithin(once)
	require.NoError(t, err)
	assert.Less(t, b.Used(), once.Used()*11/10, "about one run's work")

	r, err = scenariotest.Plan(t, parse(t, doc)).RunWithInputs(nil, []engine.Input{{Step: 5000, Action: crash(1)}})
	require.ErrorIs(t, err, engine.ErrPastTheEnd)
	assert.Equal(t, 2000, r.Len(), "the run goes on without it")
}
