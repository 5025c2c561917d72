package all_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// A tally is kept step by step and copied at checkpoints: the figures a
// rewound run reports at step k are those of a run that stopped at k.
func TestTalliesRewind(t *testing.T) {
	for _, algo := range []string{"token-ring", "lamport-mutex", "maekawa"} {
		t.Run(algo, func(t *testing.T) {
			doc := `{"algorithm": %q, "n": 7, "seed": 5, "network": {"delay": [1, 3]}, "workload": {"p": 1, "every": [1, 4]},
				"script": [{"at": 30, "fault": "crash", "node": 3}, {"at": 60, "fault": "recover", "node": 3}], "until": {"steps": %d}}`
			long, err := scenario.Parse([]byte(fmt.Sprintf(doc, algo, 3000)))
			require.NoError(t, err)
			r, err := scenariotest.Plan(t, long).Run()
			require.NoError(t, err)
			for _, k := range []int{37, 400, 1999, 2500} {
				short, err := scenario.Parse([]byte(fmt.Sprintf(doc, algo, k)))
				require.NoError(t, err)
				want, err := scenariotest.Plan(t, short).Run()
				require.NoError(t, err)
				spec := long.Spec()
				assert.Equal(t, spec.Figures.Metrics(want.At(want.Len()).View()), spec.Figures.Metrics(r.At(k).View()), "step %d", k)
				assert.Equal(t, spec.Figures.Formula(want.At(want.Len()).View()), spec.Figures.Formula(r.At(k).View()), "step %d", k)
			}
		})
	}
}
