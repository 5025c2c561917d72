package lab

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// BurstMemoryLimit is the memory the program may reach during a burst
// (see Burst) before the collector runs anyway: opening the largest logs
// a page takes (100,000 events, or 16 MiB with 64 hosts' clocks) peaks
// near half of it.
const BurstMemoryLimit = 256 << 20

// SettleAfter is how long after a burst ends, with none begun since, its
// last phase's garbage is collected and the collector given back (see
// Settle): time for the page to show what the burst made first.
const SettleAfter = 500 * time.Millisecond

// held is the collector's state across bursts: the settings a burst took
// are kept until its last garbage is collected.
var held struct {
	sync.Mutex
	bursts  int  // bursts under way: one, or one and those within it
	off     bool // the collector is held off
	percent int
	limit   int64
	settle  *time.Timer
}

// Burst runs phases one after another, as a learner's long wait (opening
// a large log) is best run in the browser: with the garbage collector
// held off, and one full collection after each phase but the last, when
// its garbage is dead. In WebAssembly the collector has no thread of its
// own: a cycle begun mid-way marks only as the program allocates, so
// every pointer the rest of the phase writes pays the write barrier, and
// opening a 100,000-event log took twice as long. BurstMemoryLimit bounds
// what a phase may take before the collector runs after all.
//
// The last phase's collection waits SettleAfter, so that the learner sees
// the result a full collection sooner (a tenth of a second for a large
// log in the page) and the collection runs while they look at it. A phase
// that returns false ends the burst, and Burst reports whether every
// phase ran and returned true. Natively it changes little. It sets the
// collector for the whole program: it is for the page, not for a server
// answering requests at once.
//
// A burst within a burst (opening a log opens its run) runs its phases as
// parts of the outer one's: the outer one collects.
func Burst(phases ...func() bool) bool {
	outer := beginBurst()
	defer endBurst()
	for i, phase := range phases {
		ok := phase()
		if !ok {
			return false
		}
		if outer && i < len(phases)-1 {
			runtime.GC()
		}
	}
	return true
}

// beginBurst holds the collector off, unless it is already, and reports
// whether the burst is the outer one.
func beginBurst() bool {
	held.Lock()
	defer held.Unlock()
	held.bursts++
	if held.settle != nil {
		held.settle.Stop()
		held.settle = nil
	}
	if !held.off {
		held.off = true
		held.percent = debug.SetGCPercent(-1)
		held.limit = debug.SetMemoryLimit(-1) // reads it
		debug.SetMemoryLimit(min(held.limit, BurstMemoryLimit))
	}
	return held.bursts == 1
}

// endBurst settles SettleAfter after the outer burst ends.
func endBurst() {
	held.Lock()
	defer held.Unlock()
	if held.bursts--; held.bursts == 0 {
		held.settle = time.AfterFunc(SettleAfter, Settle)
	}
}

// Settle collects the last burst's garbage and gives the collector its
// pace and memory limit back, now rather than SettleAfter after the
// burst; it does nothing during a burst or when none is to settle.
func Settle() {
	held.Lock()
	defer held.Unlock()
	if held.bursts > 0 || !held.off {
		return
	}
	if held.settle != nil {
		held.settle.Stop()
		held.settle = nil
	}
	runtime.GC()
	debug.SetMemoryLimit(held.limit)
	debug.SetGCPercent(held.percent)
	held.off = false
}
