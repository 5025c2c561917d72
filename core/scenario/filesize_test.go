package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// A scenario's file is never smaller than LeastFileSize says, so that a
// scenario found too large for a link without encoding it is larger than
// a link's bound when encoded: the bound never refuses a link that fits.
// The built-in lessons use every kind of script entry; the logs of
// snapshot-long's first steps span both sides of the bound.
func TestTooLargeToPackIsALowerBound(t *testing.T) {
	var all []*scenario.Plan
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		all = append(all, scenariotest.Plan(t, s))
	}
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	for _, n := range []int{1_000, 5_000, 10_000, 20_000, 40_000, 100_000} {
		logs, err := logimport.FromLog(r.Trace().ShiViz(n-50), "long.log") // and its messages on their way
		require.NoError(t, err)
		if n >= 10_000 {
			assert.Greater(t, logs[0].LeastFileSize(linkBound), linkBound, "%d events: too large, found before the file is written", n)
		}
		all = append(all, logs[0])
	}
	refused := 0
	for _, p := range all {
		least := p.LeastFileSize(linkBound) // before the file is written: a log's is written when asked for
		size, title := len(p.Scenario().JSON()), p.Head().Title
		assert.LessOrEqual(t, least, size, title)
		assert.LessOrEqual(t, p.LeastFileSize(linkBound), size, title)
		if least > linkBound {
			refused++
			assert.Greater(t, size, linkBound, title)
		}
	}
	assert.Positive(t, refused, "some logs are too large")
}

// linkBound is the most a link carries (lab.MaxPacked).
const linkBound = 1 << 20
