package scenario_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
)

// BenchmarkAlgorithms runs each registered algorithm's first lesson for
// 100,000 steps with 3 and with 32 processes, as make bench's throughput
// figure does, and reports events per second.
func BenchmarkAlgorithms(b *testing.B) {
	for _, spec := range all.Specs() {
		var base *scenario.Scenario
		for _, info := range scenario.BuiltinList() {
			if s, err := scenario.Builtin(info.ID); err == nil && s.Algorithm == spec.ID && base == nil {
				base = s
			}
		}
		require.NotNil(b, base, "%s has a built-in lesson", spec.ID)
		for _, n := range []int{3, 32} {
			s, err := base.WithN(n)
			require.NoError(b, err)
			s.Until = scenario.Until{Steps: 100_000}
			b.Run(fmt.Sprintf("%s/n=%d", spec.ID, n), func(b *testing.B) {
				steps := 0
				for b.Loop() {
					r, err := s.Run()
					require.NoError(b, err)
					steps += r.Len()
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}
