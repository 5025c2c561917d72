package scenario_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// BenchmarkBankSteps runs the 100,000-step snapshot-long lesson from scratch
// (invariants checked after every step, checkpoints kept) and reports the
// engine's speed in steps per second.
func BenchmarkBankSteps(b *testing.B) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(b, err)
	steps := 0
	for b.Loop() {
		r, err := scenariotest.Plan(b, s).Run()
		require.NoError(b, err)
		steps += r.Len()
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkSeek seeks to random steps of the 100,000-step run, as a learner
// dragging the scrubber does, and reports the time per seek.
func BenchmarkSeek(b *testing.B) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(b, err)
	r, err := scenariotest.Plan(b, s).Run()
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(1, 2))
	seeks := 0
	for b.Loop() {
		r.At(rng.IntN(r.Len() + 1))
		seeks++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(seeks), "ns/seek")
}

// BenchmarkTraceJSON encodes the whole 100,000-step trace.
func BenchmarkTraceJSON(b *testing.B) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(b, err)
	r, err := scenariotest.Plan(b, s).Run()
	require.NoError(b, err)
	for b.Loop() {
		data, err := r.Trace().JSON(r.Len())
		require.NoError(b, err)
		b.SetBytes(int64(len(data)))
	}
}
