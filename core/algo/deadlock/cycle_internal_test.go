package deadlock

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checks' cycle finder and the detector's agree on whether a graph
// has a cycle, over many random graphs, and each finds a real one.
func TestBothCycleFindersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 2 + rng.IntN(6)
		waits := make([][]bool, n)
		for i := range waits {
			waits[i] = make([]bool, n)
			for j := range waits[i] {
				waits[i][j] = i != j && rng.IntN(4) == 0
			}
		}
		mine, theirs := cycleIn(waits), findCycle(waits)
		require.Equal(t, len(theirs) > 0, len(mine) > 0, "%v", waits)
		for k, a := range mine {
			b := mine[(k+1)%len(mine)]
			assert.True(t, waits[a][b], "%v: %d → %d is no edge", mine, a, b)
		}
	}
}
