// Package pyrand is a bit-exact Go port of the subset of CPython 3's
// `random` module (the MT19937 Mersenne Twister and the helpers built on it)
// that our teaching material uses. It exists so that worked examples written
// in Python — random.seed, random.random, random.getrandbits, random.choice
// and random.randint — can be replayed exactly by Go code, value for value.
//
// Random is a plain value type with no pointers: copying it by value
// snapshots the generator state, which the simulator relies on when it
// deep-copies world state for rewind keyframes.
package pyrand

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Random is a Mersenne Twister generator with CPython's seeding and output
// conventions. The zero value is not seeded; construct one with New.
// Copying a Random by value yields an independent snapshot of its state.
type Random struct {
	mt  [n]uint32
	mti int
	// drawn counts the raw outputs drawn since seeding: with the seed, it
	// is the whole state, and a word to compare instead of 625.
	drawn uint64
}

// New returns a generator in the same state as CPython's random.seed(seed)
// for an int seed. Negative seeds use abs(seed), as CPython does.
func New(seed int64) *Random {
	u := uint64(seed)
	if seed < 0 {
		u = uint64(-seed) // wraps correctly for math.MinInt64
	}
	key := []uint32{uint32(u)}
	if hi := uint32(u >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &Random{}
	r.initByArray(key)
	return r
}

// Clone returns a pointer to an independent copy of r's state.
func (r *Random) Clone() *Random {
	c := *r
	return &c
}

func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := max(n, len(key))
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
	r.mti = n
}

// Drawn is how many raw 32-bit outputs were drawn since the seeding: two
// generators seeded alike are in the same state when they have drawn as
// many.
func (r *Random) Drawn() uint64 { return r.drawn }

// genrand returns the next raw 32-bit output of the twister.
func (r *Random) genrand() uint32 {
	r.drawn++
	if r.mti >= n {
		for kk := 0; kk < n; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[(kk+1)%n] & lowerMask)
			v := r.mt[(kk+m)%n] ^ (y >> 1)
			if y&1 != 0 {
				v ^= matrixA
			}
			r.mt[kk] = v
		}
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns the next float in [0, 1), identical to random.random().
func (r *Random) Random() float64 {
	a := r.genrand() >> 5
	b := r.genrand() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// GetRandBits returns a value with k random bits, identical to
// random.getrandbits(k), for 0 <= k <= 64 (it panics otherwise).
func (r *Random) GetRandBits(k int) uint64 {
	if k < 0 || k > 64 {
		panic("pyrand: GetRandBits k out of range [0, 64]")
	}
	if k == 0 {
		return 0
	}
	if k <= 32 {
		return uint64(r.genrand() >> (32 - k))
	}
	lo := uint64(r.genrand())
	hi := uint64(r.genrand() >> (64 - k))
	return hi<<32 | lo
}

// RandBelow returns a uniform int in [0, n), identical to CPython's
// Random._randbelow_with_getrandbits(n). It panics if n <= 0.
func (r *Random) RandBelow(n int) int {
	if n <= 0 {
		panic("pyrand: RandBelow requires n > 0")
	}
	k := 0
	for v := uint64(n); v != 0; v >>= 1 {
		k++
	}
	x := r.GetRandBits(k)
	for x >= uint64(n) {
		x = r.GetRandBits(k)
	}
	return int(x)
}

// Choice returns the index that random.choice(seq) would pick from a
// sequence of length n (including range objects). It panics if n <= 0.
func (r *Random) Choice(n int) int {
	return r.RandBelow(n)
}

// RandInt returns a uniform int in [a, b], identical to random.randint(a, b).
// It panics if b < a.
func (r *Random) RandInt(a, b int) int {
	if b < a {
		panic("pyrand: RandInt requires a <= b")
	}
	return a + r.RandBelow(b-a+1)
}
