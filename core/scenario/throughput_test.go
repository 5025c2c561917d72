package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
)

// Every registered algorithm has a throughput scenario at each size make
// bench measures, and it compiles: a lesson whose params fit only its own
// number of processes (a ring's order) is measured without them.
func TestEveryAlgorithmHasAThroughputScenario(t *testing.T) {
	for _, spec := range all.Specs() {
		if spec.Program != nil {
			continue // a learner's program: measured with its ports
		}
		for _, n := range scenario.ThroughputSizes(spec) {
			s, err := scenario.Throughput(spec.ID, n, 1000)
			require.NoError(t, err, "%s at n=%d", spec.ID, n)
			assert.Equal(t, n, s.N, spec.ID)
			_, err = s.Compile()
			assert.NoError(t, err, "%s at n=%d", spec.ID, n)
		}
	}
}
