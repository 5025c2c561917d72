package scenario_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// BenchmarkAlgorithms runs each registered algorithm's throughput
// scenario for 100,000 steps at a small and a large size, as make bench's
// throughput figure does, and reports events per second.
func BenchmarkAlgorithms(b *testing.B) {
	for _, spec := range all.Specs() {
		for _, n := range scenario.ThroughputSizes(spec) {
			s, err := scenario.Throughput(spec.ID, n, 100_000)
			require.NoError(b, err)
			b.Run(fmt.Sprintf("%s/n=%d", spec.ID, n), func(b *testing.B) {
				steps := 0
				for b.Loop() {
					r, err := scenariotest.Plan(b, s).Run()
					require.NoError(b, err)
					steps += r.Len()
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}
