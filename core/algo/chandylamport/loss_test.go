package chandylamport_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// A lossy network breaks the totals, and the invariants blame the loss, not
// a marker: the algorithm assumes reliable channels.
func TestLostTransfersAreBlamedForTheTotals(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": 4, "scheduler": "random",
		"network": {"loss": 0.2}, "workload": {"p": 0.5},
		"script": [{"at": 30, "node": "A", "command": "snapshot"}], "until": {"done": true, "time": 400}}`))
	require.NoError(t, err)
	seen := 0
	for seed := uint64(1); seed <= 40; seed++ {
		r, err := scenariotest.Plan(t, s.WithSeed(seed)).Run()
		require.NoError(t, err)
		for _, f := range r.Failures() {
			if f.Step < 0 || f.Name != "snapshot total equals the money there is" {
				continue
			}
			if assert.Contains(t, f.Detail, "the network lost", "seed %d", seed) {
				seen++
			}
			assert.NotContains(t, f.Detail, "overtook", "seed %d: FIFO channels, no marker overtakes", seed)
			for _, id := range f.Msgs {
				assert.GreaterOrEqual(t, r.Trace().Msgs[id].DropStep, 0, "seed %d: it points at lost messages", seed)
			}
		}
	}
	assert.Positive(t, seen, "some lossy run breaks the snapshot total")
}
