package campaign

import (
	"testing"

	"spacetime/core/algo/chandylamport"
)

// BenchmarkRun measures one campaign run of the bank: drawing its scenario
// against the world as it goes, running it and judging its violations.
func BenchmarkRun(b *testing.B) {
	var tl Tally
	for i := range b.N {
		r := Run(chandylamport.Spec, RunSeed(1, "bench", i), Options{})
		tl.Add(&r)
	}
	b.ReportMetric(float64(tl.Steps)/float64(b.N), "steps/run")
}
