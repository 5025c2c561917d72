package scenario_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/internal/golden"
	"spacetime/internal/scenariotest"
)

// TestLessonTranscripts tells every built-in lesson one line a step and
// compares it with its golden transcript in testdata/transcripts: a
// reviewer reads there what each lesson shows, rule by rule. Regenerate
// them with: go test ./core/scenario -run TestLessonTranscripts -update
func TestLessonTranscripts(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		t.Run(id, func(t *testing.T) {
			s, err := scenario.Builtin(id)
			require.NoError(t, err)
			r, err := scenariotest.Plan(t, s).Run()
			require.NoError(t, err)
			golden.Check(t, filepath.Join("testdata", "transcripts", id+".txt"), report.Transcript(s, r))
		})
	}
}

// TestEveryBuiltinParses names the lesson files that do not parse (the
// product leaves them out rather than failing to start).
func TestEveryBuiltinParses(t *testing.T) {
	for file, err := range scenario.Broken() {
		t.Errorf("built-in lesson %s: %v", file, err)
	}
}
