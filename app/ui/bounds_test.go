package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// The page opens whole the largest log an import opens (100,000 events,
// the 100,000-step lesson's ShiViz export) and the longest lesson, within
// the memory it gives a run.
func TestTheLongestLogAndLessonFitTheClientsBounds(t *testing.T) {
	long, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, long).RunWithin(&engine.Budget{Bytes: clientBytes})
	require.NoError(t, err)
	require.NotEqual(t, engine.StoppedBudget, r.Stopped(), "the longest lesson")
	// the export's last events are its messages on their way
	runs, err := logimport.FromLog(r.Trace().ShiViz(logimport.MaxLogEvents-50), "long.log")
	require.NoError(t, err)
	b := &engine.Budget{Bytes: clientBytes}
	log, err := runs[0].RunWithin(b)
	require.NoError(t, err)
	t.Logf("the log keeps %.1f MB, as the engine reckons it", float64(b.Kept())/1e6)
	require.NotEqual(t, engine.StoppedBudget, log.Stopped(), "a log of %d events", logimport.MaxLogEvents)
	require.Greater(t, log.Len(), logimport.MaxLogEvents-50)
}
