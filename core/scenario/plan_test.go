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
