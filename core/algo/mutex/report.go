package mutex

import (
	"fmt"
	"slices"
	"strconv"

	"spacetime/core/sim"
)

// This file is the run's history of the critical section, kept by a
// tally for the figures and the checks: it observes a run, and the
// mutation campaign leaves it alone.

// History is what the run so far says about the critical section as a
// whole, read from the waiting and critical-section intervals.
type History struct {
	// MostInCS is the most processes that were in the section at once.
	MostInCS int
	// Handovers counts the times the section passed from one process to
	// the next while someone waited, and SyncTotal and SyncMax are the
	// ticks it stood empty then: the synchronisation delay.
	Handovers          int
	SyncTotal, SyncMax sim.Time
}

// Tally keeps the History up to date step by step (the Spec's NewTally):
// who is in the section and who waits now, and when the section last
// emptied while someone waited. An algorithm that needs more embeds it.
type Tally struct {
	History
	in, waiting    []bool
	inNow, waitNow int
	// freed is when the section last emptied with someone waiting, or -1.
	freed sim.Time
}

// NewTally is the tally of a run of n processes.
func NewTally(n int) sim.Tally { return newTally(n) }

func newTally(n int) *Tally {
	return &Tally{in: make([]bool, n), waiting: make([]bool, n), freed: -1}
}

// Note takes one step's annotations.
func (t *Tally) Note(at sim.Time, node sim.NodeID, as []sim.Annotation) {
	if node < 0 {
		return
	}
	for _, a := range as {
		if a.Phase == sim.Point {
			continue
		}
		switch a.Role {
		case RoleWaiting:
			flip(t.waiting, node, a.Phase == sim.Begin, &t.waitNow)
		case RoleCS:
			if !flip(t.in, node, a.Phase == sim.Begin, &t.inNow) {
				continue
			}
			switch {
			case a.Phase == sim.Begin:
				t.MostInCS = max(t.MostInCS, t.inNow)
				if t.freed >= 0 {
					d := at - t.freed
					t.Handovers++
					t.SyncTotal += d
					t.SyncMax = max(t.SyncMax, d)
					t.freed = -1
				}
			case t.inNow == 0 && t.waitNow > 0:
				t.freed = at
			}
		}
	}
}

// Waiting counts the processes waiting for the section now.
func (t *Tally) Waiting() int { return t.waitNow }

// Clone copies the tally.
func (t *Tally) Clone() sim.Tally { return t.Copy() }

// Copy copies the tally as itself, for a tally that embeds it.
func (t *Tally) Copy() *Tally {
	c := *t
	c.in, c.waiting = slices.Clone(t.in), slices.Clone(t.waiting)
	return &c
}

func (t *Tally) tally() *Tally { return t }

// tallied is a tally that is, or embeds, a Tally.
type tallied interface{ tally() *Tally }

// flip sets a process's flag and keeps the count of those set; it
// reports whether the flag changed.
func flip(set []bool, node sim.NodeID, on bool, count *int) bool {
	if set[node] == on {
		return false
	}
	set[node] = on
	if on {
		*count++
	} else {
		*count--
	}
	return true
}

// ReadHistory is the run's History so far, from the algorithm's tally
// (zero for an algorithm that keeps none).
func ReadHistory(v sim.View) History {
	if t, ok := v.Tally().(tallied); ok {
		return t.tally().History
	}
	return History{}
}

// PerEntry is n (messages, passes) per entry of the critical section so
// far, to two places as the metrics give it; false before any entry.
func PerEntry(v sim.View, n int) (float64, bool) {
	entries, _ := Totals(v)
	if entries == 0 {
		return 0, false
	}
	return round2(float64(n) / float64(entries)), true
}

func round2(x float64) float64 {
	v, _ := strconv.ParseFloat(fmt.Sprintf("%.2f", x), 64)
	return v
}
