package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// BenchmarkSteps runs the 100,000-step snapshot-long lesson and 20,000
// steps of twelve checkpointing processes (whose state grows with the
// run), without a budget (the page, the throughput figures) and within
// one of memory (the command line, a server), and reports the steps a
// second: what reckoning the memory a run keeps costs.
func BenchmarkSteps(b *testing.B) {
	long, err := scenario.Builtin("snapshot-long")
	require.NoError(b, err)
	for _, c := range []struct {
		name string
		s    *scenario.Scenario
	}{
		{"snapshot-long", long},
		{"checkpoint-12", parse(b, `{"algorithm": "checkpoint", "n": 12, "seed": 1, "params": {"interval": 1},
			"workload": {"p": 1, "every": [1, 1]}, "until": {"steps": 20000}}`)},
	} {
		for _, within := range []bool{false, true} {
			name := c.name + "/unbounded"
			if within {
				name = c.name + "/within"
			}
			b.Run(name, func(b *testing.B) {
				steps := 0
				for b.Loop() {
					var budget *engine.Budget
					if within {
						budget = &engine.Budget{Bytes: 1 << 30}
					}
					r, err := scenariotest.Plan(b, c.s).RunWithin(budget)
					require.NoError(b, err)
					steps += r.Len()
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}
