// Package network models the channels between processes: which messages are
// in flight on each directed channel, in send order, and which of them the
// network may deliver next (only the head on a FIFO channel, any of them
// otherwise).
package network

import (
	"sort"

	"spacetime/core/sim"
)

// Config is a network's behaviour, as the scenario gives it.
type Config struct {
	// FIFO channels deliver in send order.
	FIFO bool
	// DelayMin and DelayMax bound a message's transit time in ticks.
	DelayMin, DelayMax sim.Time
	// Loss is the probability that the network loses a message.
	Loss float64
}

// Net holds the messages in flight on every directed channel.
type Net struct {
	n     int
	chans [][]int // index from*n+to: message ids in send order
	// busy lists the indices of the non-empty channels in ascending order,
	// so that finding them costs what is in flight, not n².
	busy []int
}

// New returns an empty network of n processes.
func New(n int) *Net { return &Net{n: n, chans: make([][]int, n*n)} }

// Clone returns an independent copy.
func (nt *Net) Clone() *Net {
	c := &Net{n: nt.n, chans: make([][]int, len(nt.chans)), busy: append([]int(nil), nt.busy...)}
	for i, ch := range nt.chans {
		if len(ch) > 0 {
			c.chans[i] = append([]int(nil), ch...)
		}
	}
	return c
}

// Add puts message id at the tail of channel from→to.
func (nt *Net) Add(from, to sim.NodeID, id int) {
	i := int(from)*nt.n + int(to)
	if len(nt.chans[i]) == 0 {
		j := sort.SearchInts(nt.busy, i)
		nt.busy = append(nt.busy, 0)
		copy(nt.busy[j+1:], nt.busy[j:])
		nt.busy[j] = i
	}
	nt.chans[i] = append(nt.chans[i], id)
}

// Remove takes message id off channel from→to; it reports whether it was there.
func (nt *Net) Remove(from, to sim.NodeID, id int) bool {
	i := int(from)*nt.n + int(to)
	ch := nt.chans[i]
	for j, x := range ch {
		if x == id {
			if j == 0 { // the usual case: the head leaves
				nt.chans[i] = ch[1:]
			} else { // no other Net shares this array (Clone copies)
				nt.chans[i] = append(ch[:j], ch[j+1:]...)
			}
			if len(nt.chans[i]) == 0 {
				k := sort.SearchInts(nt.busy, i)
				nt.busy = append(nt.busy[:k], nt.busy[k+1:]...)
			}
			return true
		}
	}
	return false
}

// Channel returns the ids in flight on from→to, oldest first. Do not modify it.
func (nt *Net) Channel(from, to sim.NodeID) []int { return nt.chans[int(from)*nt.n+int(to)] }

// Position returns where message id stands on channel from→to (0 is the
// head), or -1 if it is not in flight there.
func (nt *Net) Position(from, to sim.NodeID, id int) int {
	for j, x := range nt.Channel(from, to) {
		if x == id {
			return j
		}
	}
	return -1
}

// Busy calls f for every non-empty channel in a fixed order: by sender, then
// by receiver.
func (nt *Net) Busy(f func(from, to sim.NodeID, ids []int)) {
	for _, i := range nt.busy {
		f(sim.NodeID(i/nt.n), sim.NodeID(i%nt.n), nt.chans[i])
	}
}

// Empty reports whether nothing is in flight.
func (nt *Net) Empty() bool { return len(nt.busy) == 0 }
