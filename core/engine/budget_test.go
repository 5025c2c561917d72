package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
)

// A budget cuts a run short at the step that would pass it, says so, and
// is shared by the runs and inputs that use it; a run within its budget is
// the same run as without one.
func TestBudget(t *testing.T) {
	const doc = `{"algorithm": "chandy-lamport", "n": 4, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 1000}}`
	free, err := parse(t, doc).Run()
	require.NoError(t, err)
	require.Equal(t, 1000, free.Len())

	t.Run("within", func(t *testing.T) {
		b := &engine.Budget{Work: 4000}
		r, err := parse(t, doc).RunWithin(b)
		require.NoError(t, err)
		assert.False(t, b.Exhausted())
		assert.Equal(t, int64(4000), b.Used(), "one unit per process per step")
		assert.Equal(t, traceJSON(t, free), traceJSON(t, r))
	})
	t.Run("past", func(t *testing.T) {
		b := &engine.Budget{Work: 1000}
		r, err := parse(t, doc).RunWithin(b)
		require.NoError(t, err)
		assert.True(t, b.Exhausted())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Equal(t, 250, r.Len(), "4 processes: 1000 units are 250 steps")
		assert.Equal(t, prefixJSON(t, free, 250), traceJSON(t, r))
	})
	t.Run("shared", func(t *testing.T) {
		b := &engine.Budget{Work: 6000}
		_, err := parse(t, doc).RunWithin(b)
		require.NoError(t, err)
		r, err := parse(t, doc).RunWithin(b)
		require.NoError(t, err)
		assert.True(t, b.Exhausted())
		assert.Equal(t, 500, r.Len(), "the second run gets what the first left")
	})
	t.Run("replayed inputs count", func(t *testing.T) {
		b := &engine.Budget{Work: 4000}
		r, err := parse(t, doc).RunWithin(b)
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
		b := &engine.Budget{Work: 1 << 40, Cancelled: func() bool { asked++; return asked == 2 }}
		r, err := parse(t, `{"algorithm": "chandy-lamport", "n": 3, "seed": 3, "workload": {"p": 0.5}, "until": {"steps": 100000}}`).RunWithin(b)
		require.NoError(t, err)
		assert.True(t, b.Exhausted())
		assert.Equal(t, engine.StoppedBudget, r.Stopped())
		assert.Equal(t, 2, asked, "asked every few thousand steps, not every step")
		assert.Less(t, r.Len(), 100000)
	})
}
