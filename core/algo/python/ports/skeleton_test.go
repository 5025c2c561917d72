package ports_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
)

// An exercise's skeleton is its port with one function's body a hole:
// everything else is the port's, word for word, and it compiles.
func TestSkeletonsAreTheirPortsWithAHole(t *testing.T) {
	for _, lesson := range ports.Exercises() {
		skeleton, ok := ports.Skeleton(lesson)
		require.True(t, ok, lesson)
		first, _, _ := strings.Cut(skeleton, "\n")
		assert.True(t, strings.HasPrefix(first, "# Exercise:"), "%s opens with what to write", lesson)
		assert.Equal(t, 1, strings.Count(skeleton, "    # EXERCISE"), lesson)
		_, err := python.Compile(skeleton)
		require.NoError(t, err, lesson)
		lines := strings.Split(skeleton, "\n")
		kept := 0
		for _, l := range lines {
			for _, id := range ports.Algorithms() {
				if port, _ := ports.For(id); strings.Contains(port, l) && strings.TrimSpace(l) != "" {
					kept++
					break
				}
			}
		}
		assert.Greater(t, kept, len(lines)*3/4, "%s: most of it is its port", lesson)
	}
}
