package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"spacetime/core/engine"
)

// memoryBound is --max-memory for one command. It is held in two ways.
// The engine reckons what a run keeps (engine.Budget: its trace, its
// keyframes, its processes' states) and stops the run at the step that
// would keep more: the same step every time. Behind that, the command
// reads the Go heap's live bytes every so often and stops the work when
// they pass the bound by a quarter (what the reckoning misses: an
// algorithm's state it does not see), and the process (not the tests,
// which call the command in theirs) tells the garbage collector to keep
// its memory under twice the bound plus memorySlack, so that the heap
// does not grow to twice what is live before it collects. With the
// program's own code and data, the process's resident memory stays under
// twice the bound plus 32 MB (TestPeakMemoryWithinTheBound).
type memoryBound struct {
	mb    int64
	bytes int64
	// heap is the live heap at which the work stops: the heap when the
	// command started, and the bound and a quarter.
	heap uint64
	// calls counts the engine's questions, to read the heap every
	// heapEvery of them; hit says the heap passed its bound.
	calls  int
	hit    bool
	sample []metrics.Sample
}

// Bounds of --max-memory.
const (
	// defaultMaxMemory is --max-memory's default, in MB: a million steps of
	// the longest-lived lessons fit.
	defaultMaxMemory = 1024
	maxMaxMemory     = 1 << 20
	// memorySlack is what the process holds besides the work --max-memory
	// bounds (the runtime, the lessons, the command line's own data).
	memorySlack = 8 << 20
	// heapEvery is how many steps the engine takes between reads of the
	// heap (a read costs about as much as a step).
	heapEvery = 1024
)

// memoryFlag reads --max-memory.
func memoryFlag(text string) (int64, error) {
	return intFlag("max-memory", text, 1, maxMaxMemory, fmt.Sprintf("a number of MB from 1 to %d", maxMaxMemory))
}

// newMemoryBound starts holding the command to mb MB. In the command's own
// process (limit), it also sets the garbage collector's memory limit.
func newMemoryBound(mb int64, limit bool) *memoryBound {
	m := &memoryBound{mb: mb, bytes: mb << 20, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	// the heap the work starts from is what is live now, not what the last
	// collection found (before what a test, or the command's own set-up,
	// made since)
	runtime.GC()
	m.heap = m.live() + uint64(m.bytes) + uint64(m.bytes)/4
	if limit {
		debug.SetMemoryLimit(2*m.bytes + memorySlack)
	}
	return m
}

// live is the heap's live bytes, as the last collection found them.
func (m *memoryBound) live() uint64 {
	metrics.Read(m.sample)
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// exceeded reports whether the live heap has passed its bound. What the
// last collection found counts, as live, all that was made while it
// marked, which on a busy machine may be much: a figure past the bound is
// checked by a collection of its own, with the work paused, before the
// work stops.
func (m *memoryBound) exceeded() bool {
	if !m.hit && m.live() > m.heap {
		runtime.GC()
		m.hit = m.live() > m.heap
	}
	return m.hit
}

// budget is a fresh engine budget of --max-memory whose runs also stop
// when the heap passes its bound.
func (m *memoryBound) budget() *engine.Budget {
	return &engine.Budget{Bytes: m.bytes, Cancelled: func() bool {
		m.calls++
		return m.hit || (m.calls%heapEvery == 0 && m.exceeded())
	}}
}

// stopped says whether b's work stopped at --max-memory: the engine's
// reckoning or the heap.
func (m *memoryBound) stopped(b *engine.Budget) bool {
	return b.Cause() == engine.OutOfMemory || m.hit
}
