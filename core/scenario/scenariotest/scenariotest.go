// Package scenariotest helps tests across the project run the built-in
// lessons and compare long texts (golden files) line by line.
package scenariotest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/scenario"
)

// Run runs a built-in scenario, failing the test if it cannot.
func Run(t testing.TB, id string) (*scenario.Scenario, *engine.Run) {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	r, err := s.Run()
	require.NoError(t, err)
	return s, r
}

// SameLines fails the test at the first line where got differs from want,
// showing both: a golden file's diff, readably.
func SameLines(t testing.TB, want, got, msg string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Fatalf("%s\nline %d:\nwant %s\ngot  %s", msg, i+1, w, g)
		}
	}
}
