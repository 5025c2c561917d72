package lab

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// bursting counts the bursts under way: one, or one and those within it.
var bursting atomic.Int32

// BurstMemoryLimit is the memory the program may reach during a burst
// (see Burst) before the collector runs anyway: opening the largest logs
// a page takes (100,000 events, or 16 MiB with 64 hosts' clocks) peaks
// near half of it.
const BurstMemoryLimit = 256 << 20

// Burst runs phases one after another, as a learner's long wait (opening
// a large log) is best run in the browser: with the garbage collector
// held off, and one full collection after each phase, when its garbage is
// dead. In WebAssembly the collector has no thread of its own: a cycle
// begun mid-way marks only as the program allocates, so every pointer
// the rest of the phase writes pays the write barrier, and opening a
// 100,000-event log took twice as long. BurstMemoryLimit bounds what a
// phase may take before the collector runs after all. A phase that
// returns false ends the burst, and Burst reports whether every phase
// ran and returned true. Natively it changes little. It sets the
// collector for the whole program: it is for the page, not for a server
// answering requests at once.
//
// A burst within a burst (opening a log opens its run) runs its phases as
// parts of the outer one's: the outer one collects.
func Burst(phases ...func() bool) bool {
	outer := bursting.Add(1) == 1
	defer bursting.Add(-1)
	if outer {
		percent := debug.SetGCPercent(-1)
		limit := debug.SetMemoryLimit(-1) // reads it
		debug.SetMemoryLimit(min(limit, BurstMemoryLimit))
		defer func() {
			debug.SetMemoryLimit(limit)
			debug.SetGCPercent(percent)
		}()
	}
	for _, phase := range phases {
		ok := phase()
		if outer {
			runtime.GC()
		}
		if !ok {
			return false
		}
	}
	return true
}
