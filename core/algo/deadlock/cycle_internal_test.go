package deadlock

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
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

// A process's latest detection up to a number is the last of its own
// numbers that nextRound gives it on the way there.
func TestLatestRoundIsTheLastOfItsOwn(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for self := range sim.NodeID(n) {
			latest := 0
			for highest := 0; highest <= 4*n+3; highest++ {
				if next := nextRound(highest-1, self, n); next == highest {
					latest = highest
				}
				got := latestRound(highest, self, n)
				if latest == 0 {
					assert.Less(t, got, 1, "n=%d self=%d highest=%d: none of its own yet", n, self, highest)
					continue
				}
				assert.Equal(t, latest, got, "n=%d self=%d highest=%d", n, self, highest)
			}
		}
	}
}
