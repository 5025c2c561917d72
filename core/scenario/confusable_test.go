package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
)

// Every algorithm's default names can be told apart, at every size.
func TestDefaultNamesLookApart(t *testing.T) {
	for _, spec := range all.Specs() {
		for n := max(spec.MinN, 1); n <= min(spec.MaxN, MaxN); n++ {
			seen := map[string]string{}
			for _, name := range spec.Names(n) {
				_, dup := seen[skeleton(name)]
				require.False(t, dup, "%s with %d processes: %q looks like %q", spec.ID, n, name, seen[skeleton(name)])
				seen[skeleton(name)] = name
			}
		}
	}
}

// A file that starts with a byte order mark, as some editors write, reads
// as the same file without it.
func TestByteOrderMarkIsIgnored(t *testing.T) {
	s, err := Parse([]byte("\uFEFF" + `{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 9}}`))
	require.NoError(t, err)
	assert.Equal(t, 3, s.N)
}
