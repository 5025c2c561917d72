package explore_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/explore"
	"spacetime/core/scenario"
	"spacetime/internal/golden"
	"spacetime/internal/scenariotest"
)

// search runs a lesson's own search (its starting step and bounds) to
// its end.
func search(t *testing.T, id string) (*scenario.Scenario, *engine.Run, *explore.Search, int) {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	var from int
	opts := explore.DefaultOptions
	if s.Lesson != nil && s.Lesson.Search != nil {
		from, opts = s.Lesson.Search.From, s.Lesson.Search.Options()
	}
	x, err := explore.New(r, from, opts)
	require.NoError(t, err)
	x.Run()
	return s, r, x, from
}

// The broken variants of the course: from each lesson's starting point
// the search finds the violation the lesson teaches, at the fewest
// steps, and the schedule it reports opens as a run that fails there.
// The schedules are a golden file, the same natively and in js/wasm.
func TestFindsEachBrokenVariantsBug(t *testing.T) {
	var out strings.Builder
	for _, tc := range []struct{ id, invariant string }{
		{"lamport-mutex-nonfifo", "at most one process in the critical section"},
		{"snapshot-nonfifo", "snapshot total equals the money there is"},
		{"maekawa-deadlock", "no deadlock"},
		{"token-ring-two-tokens", "at most one process in the critical section"},
		{"split-brain", "no two leaders are obeyed at once (with epochs, of one epoch)"},
		{"lease-no-fencing", "the storage accepts no write whose lease had run out"},
		{"raft-figure8-three", "leader completeness"},
	} {
		s, _, x, from := search(t, tc.id)
		v := x.Violation()
		require.NotNil(t, v, "%s: %s", tc.id, x.Describe())
		assert.Equal(t, tc.invariant, v.Invariant, tc.id)
		assert.Equal(t, explore.Found, x.Progress().Outcome)
		assert.Len(t, v.Schedule, v.Step-from, "%s: the schedule runs from the start to the failure", tc.id)

		// opened as an ordinary run, the schedule fails where the search said
		replay, err := scenariotest.Plan(t, s).RunWithInputs(nil, v.Inputs)
		require.NoError(t, err, tc.id)
		failed := false
		for _, f := range replay.Failures() {
			if f.Name == v.Invariant {
				assert.Equal(t, v.Step, f.Step+1, "%s: the replayed run fails at another step", tc.id)
				failed = true
			}
		}
		assert.True(t, failed, "%s: the replayed run does not fail", tc.id)
		fmt.Fprintf(&out, "%s from step %d\n%s\n%s\n%s\n", tc.id, from, x.Describe(), v.Detail, v)
	}
	golden.Check(t, "testdata/violations.golden", out.String())
}

// Where the algorithm is correct for a few processes, the search tries
// every schedule within its bound and finds none.
func TestFindsNoneWhereTheAlgorithmIsCorrect(t *testing.T) {
	for _, id := range []string{"snapshot-bank", "ricart-agrawala-defer", "lamport-mutex-queue", "central-queue"} {
		_, _, x, _ := search(t, id)
		assert.Nil(t, x.Violation(), "%s: %s", id, x.Describe())
		assert.NotEqual(t, explore.Running, x.Progress().Outcome, id)
	}
}

// Raft's Figure 8 on three servers: with the wrong commit rule the search
// finds the lost entry (above); with Raft's rule, from the same step and
// within the same bound, every schedule keeps every guarantee.
func TestFindsNoFigure8WithRaftsRule(t *testing.T) {
	s, err := scenario.Builtin("raft-figure8-three")
	require.NoError(t, err)
	sw := s.Spec().Learner.Switches[1]
	require.Equal(t, "count_replicas", sw.Param)
	right, err := s.WithSwitch(sw, false)
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, right).Run()
	require.NoError(t, err)
	x, err := explore.New(r, s.Lesson.Search.From, s.Lesson.Search.Options())
	require.NoError(t, err)
	x.Run()
	assert.Nil(t, x.Violation(), x.Describe())
	assert.Equal(t, s.Lesson.Search.Depth, x.Progress().Depth, "every schedule of the lesson's depth was tried")
	t.Logf("%d states, none breaking a guarantee", x.Progress().States) // README quotes it
}

// A search is worked in slices: each slice takes a bounded number of
// steps, progress only grows, and it can be left between two slices.
func TestWorksInSlices(t *testing.T) {
	s, err := scenario.Builtin("lamport-mutex-queue")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	before, err := r.Trace().JSON(r.Len())
	require.NoError(t, err)
	x, err := explore.New(r, 0, explore.Options{Depth: 30, MaxStates: 100_000})
	require.NoError(t, err)
	last := x.Progress()
	slices := 0
	for x.Work(50) {
		p := x.Progress()
		assert.GreaterOrEqual(t, p.States, last.States)
		assert.GreaterOrEqual(t, p.Depth, last.Depth)
		assert.LessOrEqual(t, p.Steps-last.Steps, 50+r.Config().Spec.MaxN*8, "a slice takes about the steps it is given")
		last = p
		slices++
	}
	assert.Greater(t, slices, 10)
	assert.Equal(t, explore.Exhausted, x.Progress().Outcome)
	assert.Less(t, x.Progress().States, x.Progress().Steps, "states met again are not counted twice")
	after, err := r.Trace().JSON(r.Len())
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the run searched is not changed")
}

// The bounds: a search stops at its states or its depth, and reports that
// it was bounded rather than that none exists.
func TestStopsAtItsBounds(t *testing.T) {
	s, err := scenario.Builtin("lamport-mutex-queue")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	x, err := explore.New(r, 0, explore.Options{Depth: 5, MaxStates: 100_000})
	require.NoError(t, err)
	assert.Equal(t, explore.Bounded, x.Run().Outcome)
	assert.Equal(t, 5, x.Progress().Depth)
	assert.Equal(t, explore.BoundDepth, x.Progress().Bound)
	y, err := explore.New(r, 0, explore.Options{Depth: 100, MaxStates: 100})
	require.NoError(t, err)
	assert.Equal(t, explore.Bounded, y.Run().Outcome)
	assert.Equal(t, 100, y.Progress().States)
	assert.Equal(t, explore.BoundStates, y.Progress().Bound)
}

// Within a budget of memory, a search stops once the states it keeps and
// its copy of the run would pass it, bounded by memory, and says so; the
// budget is the one its run shares. A caller that measures memory its own
// way stops a search the same way.
func TestStopsAtItsMemory(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	b := &engine.Budget{Bytes: 2 << 20}
	r, err := scenariotest.Plan(t, s).RunWithin(b)
	require.NoError(t, err)
	run := b.Kept()
	x, err := explore.New(r, 0, explore.Options{Depth: explore.MaxDepth, MaxStates: explore.MaxMaxStates, Budget: b})
	require.NoError(t, err)
	p := x.Run()
	assert.Equal(t, explore.Bounded, p.Outcome)
	assert.Equal(t, explore.BoundMemory, p.Bound)
	assert.Equal(t, engine.OutOfMemory, b.Cause())
	assert.Greater(t, p.States, 1000)
	assert.LessOrEqual(t, int64((p.States-1)*explore.StateBytes), b.Bytes-run, "the states are reckoned, up to the one past the bound")
	assert.Greater(t, int64((p.States+1)*explore.StateBytes), b.Bytes-run, "and only they")
	assert.Contains(t, x.Describe(), "none found before the search would keep more memory than it may")

	// a run's copy that the budget cannot hold: bounded before it starts
	tight := &engine.Budget{Bytes: 1 << 20}
	long, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	lr, err := scenariotest.Plan(t, long).Run()
	require.NoError(t, err)
	y, err := explore.New(lr, 90_000, explore.Options{Depth: 10, MaxStates: 1000, Budget: tight})
	require.NoError(t, err)
	assert.Equal(t, explore.BoundMemory, y.Run().Bound)
	assert.Zero(t, y.Progress().States)

	z, err := explore.New(r, 0, explore.Options{Depth: explore.MaxDepth, MaxStates: explore.MaxMaxStates})
	require.NoError(t, err)
	require.True(t, z.Work(100))
	z.OutOfMemory()
	assert.False(t, z.Work(100))
	assert.Equal(t, explore.BoundMemory, z.Progress().Bound)
}

// Bad requests are refused in words that name the field.
func TestRefusesBadRequests(t *testing.T) {
	s, err := scenario.Builtin("lamport-mutex-nonfifo")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	for _, tc := range []struct {
		k    int
		opts explore.Options
		want string
	}{
		{0, explore.Options{Depth: 0, MaxStates: 10}, "depth: expected a number of steps from 1 to 200, found 0"},
		{0, explore.Options{Depth: 10, MaxStates: explore.MaxMaxStates + 1}, "max-states: expected"},
		{0, explore.Options{Depth: 10, MaxStates: 10, Faults: 9}, "faults: expected a number from 0 to 3, found 9"},
		{0, explore.Options{Depth: 10, MaxStates: 10, Invariant: "no bugs"}, `has no invariant "no bugs"`},
		{99, explore.Options{Depth: 10, MaxStates: 10}, "step 99 is outside the run (0..13)"},
		{12, explore.Options{Depth: 10, MaxStates: 10, Invariant: "granted in timestamp order"}, "has already failed before step 12"},
	} {
		_, err := explore.New(r, tc.k, tc.opts)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// With a budget of faults the search finds what a fault breaks: one
// crash in Ricart–Agrawala leaves the others waiting for ever.
func TestFaultsWithinABudget(t *testing.T) {
	s, err := scenario.Builtin("ricart-agrawala-defer")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	x, err := explore.New(r, 0, explore.Options{Depth: 30, MaxStates: 100_000, Faults: 1, Invariant: "no deadlock"})
	require.NoError(t, err)
	x.Run()
	v := x.Violation()
	require.NotNil(t, v, x.Describe())
	chosen := 0
	for _, st := range v.Schedule {
		if st.Chosen && strings.Contains(st.Caption, "crashes") {
			chosen++
		}
	}
	assert.Equal(t, 1, chosen, "one crash:\n%s", v)
}

// BenchmarkSearch times the searches of two lessons: one that finds its
// violation among thousands of states and one that exhausts its bound.
func BenchmarkSearch(b *testing.B) {
	for _, id := range []string{"maekawa-deadlock", "snapshot-bank"} {
		s, err := scenario.Builtin(id)
		require.NoError(b, err)
		r, err := scenariotest.Plan(b, s).Run()
		require.NoError(b, err)
		b.Run(id, func(b *testing.B) {
			states := 0
			for range b.N {
				x, err := explore.New(r, s.Lesson.Search.From, s.Lesson.Search.Options())
				require.NoError(b, err)
				states += x.Run().States
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
		})
	}
}

// A lesson whose own schedule already breaks its invariant: the search
// finds that schedule again, with none of its steps chosen; asked for one
// that differs, it finds the shortest with at least one step its own
// choice, which opens as a run that fails there.
func TestASearchForAScheduleThatDiffers(t *testing.T) {
	for _, id := range []string{"maekawa-deadlock", "lamport-mutex-nonfifo"} {
		s, r, same, from := search(t, id)
		require.NotNil(t, same.Violation(), id)
		for _, st := range same.Violation().Schedule {
			assert.False(t, st.Chosen, "%s: the lesson's own course", id)
		}
		opts := s.Lesson.Search.Options()
		opts.Differ = true
		x, err := explore.New(r, from, opts)
		require.NoError(t, err)
		x.Run()
		v := x.Violation()
		require.NotNil(t, v, "%s: %s", id, x.Describe())
		chosen := 0
		for _, st := range v.Schedule {
			if st.Chosen {
				chosen++
			}
		}
		assert.Positive(t, chosen, "%s: a schedule of its own", id)
		assert.Equal(t, opts.Invariant, v.Invariant, id)
		replay, err := scenariotest.Plan(t, s).RunWithInputs(nil, v.Inputs)
		require.NoError(t, err, id)
		failed := false
		for _, f := range replay.Failures() {
			failed = failed || (f.Name == v.Invariant && f.Step+1 == v.Step)
		}
		assert.True(t, failed, "%s: the schedule opens as a run that fails at step %d", id, v.Step)
		t.Logf("%s: %s", id, x.Describe())
	}
}
