package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan's runs each start from processes of their own.
func TestAPlansRunsDoNotShareProcesses(t *testing.T) {
	s, err := Builtin(Default)
	require.NoError(t, err)
	p, err := s.Compile()
	require.NoError(t, err)
	first, second := p.Config(), p.Config()
	require.NotEmpty(t, first.Nodes)
	assert.NotSame(t, first.Nodes[0], second.Nodes[0])
	r1, err := p.Run()
	require.NoError(t, err)
	r2, err := p.Run()
	require.NoError(t, err)
	assert.Equal(t, r1.Len(), r2.Len())
}

// A plan run from another seed runs as the scenario compiled with it.
func TestPlanWithSeedRunsAsTheScenarioWithIt(t *testing.T) {
	s, err := Builtin("snapshot-bank")
	require.NoError(t, err)
	p, err := s.Compile()
	require.NoError(t, err)
	again, err := s.WithSeed(7).Compile()
	require.NoError(t, err)
	a, err := p.WithSeed(7).Run()
	require.NoError(t, err)
	b, err := again.Run()
	require.NoError(t, err)
	assert.Equal(t, uint64(7), p.WithSeed(7).Scenario().Seed)
	assert.Equal(t, s.Seed, p.Scenario().Seed, "the plan itself is unchanged")
	require.Equal(t, b.Len(), a.Len())
	assert.Equal(t, b.Trace().Msgs, a.Trace().Msgs)
}
