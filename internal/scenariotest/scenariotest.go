// Package scenariotest helps tests across the project run the built-in
// lessons. (Golden files are compared by spacetime/internal/golden.)
package scenariotest

import (
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
	p, err := s.Compile()
	require.NoError(t, err)
	r, err := p.Run()
	require.NoError(t, err)
	return s, r
}

// Plan compiles a scenario that must be valid.
func Plan(t testing.TB, s *scenario.Scenario) *scenario.Plan {
	t.Helper()
	p, err := s.Compile()
	require.NoError(t, err)
	return p
}
