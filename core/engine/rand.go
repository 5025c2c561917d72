package engine

import (
	"math/bits"
	"math/rand/v2"

	"spacetime/core/pyrand"
)

// Stream numbers: each subsystem and each node draws from its own PCG stream
// split off the root seed, so that adding a fault or a process does not
// reshuffle unrelated draws.
const (
	streamScheduler = 1
	streamNetwork   = 2
	streamWorkload  = 3
	streamNode      = 100
)

// pcgStream is a PCG generator held by value, so that copying the world
// copies its randomness too.
type pcgStream struct{ p rand.PCG }

func newStream(seed uint64, stream uint64) pcgStream {
	return pcgStream{p: *rand.NewPCG(seed, 0x9e3779b97f4a7c15*stream+0x632be59bd9b4e019)}
}

// IntN returns a uniform integer in [0, n).
func (s *pcgStream) IntN(n int) int {
	hi, _ := bits.Mul64(s.p.Uint64(), uint64(n))
	return int(hi)
}

// Float64 returns a uniform number in [0, 1).
func (s *pcgStream) Float64() float64 { return float64(s.p.Uint64()>>11) / (1 << 53) }

// pyStream draws from CPython's generator, so that a course text's Python
// example replays exactly: IntN is random.choice's index, Float64 is
// random.random().
type pyStream struct{ r *pyrand.Random }

func (s pyStream) IntN(n int) int   { return s.r.RandBelow(n) }
func (s pyStream) Float64() float64 { return s.r.Random() }
