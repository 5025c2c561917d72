// Package snapshot is the Chandy–Lamport marker rule, which the bank
// snapshot (chandy-lamport), coordinated checkpoints (checkpoint) and the
// snapshot termination detector (snapshot-termination) share: a process
// records its state when it starts a round or at the round's first marker,
// and then sends a marker on every channel; what arrives on a channel
// after the process recorded and before that channel's marker belongs to
// the channel's recorded state; the process's part of the round is
// complete once every incoming channel's marker has come.
//
// What a process records, what it does with a channel's messages and what
// it does once its part is complete are the algorithm's own: each keeps a
// round of its own that embeds a Part.
package snapshot

import "spacetime/core/sim"

// Part is one process's part of one round of snapshots.
type Part struct {
	// Recorded says the process has recorded its state for the round.
	Recorded bool
	// Closed[q] says the marker on the channel from q has come: what q
	// sends after it is not in the snapshot.
	Closed []bool
}

// NewPart is a part not yet recorded, among n processes.
func NewPart(n int) Part { return Part{Closed: make([]bool, n)} }

// Clone is a copy that shares nothing with p.
func (p Part) Clone() Part {
	p.Closed = append([]bool(nil), p.Closed...)
	return p
}

// Records reports whether a message arriving now from process from
// belongs to the recorded state of its channel: the process has recorded
// its own and that channel's marker has not come.
func (p *Part) Records(from sim.NodeID) bool { return p.Recorded && !p.Closed[from] }

// Complete reports whether the process has recorded its state and every
// channel into it (self) is closed.
func (p *Part) Complete(self sim.NodeID) bool {
	if !p.Recorded {
		return false
	}
	for q, closed := range p.Closed {
		if !closed && sim.NodeID(q) != self {
			return false
		}
	}
	return true
}

// Marker takes the round's marker from process from at process self: at
// the round's first marker the process records its state (record, which
// also sends its markers) before the marker's channel is closed. first
// says this was the first, complete whether the part is complete now.
func (p *Part) Marker(self, from sim.NodeID, record func()) (first, complete bool) {
	if !p.Recorded {
		first = true
		record()
		p.Recorded = true
	}
	p.Closed[from] = true
	return first, p.Complete(self)
}

// Round finds round k (from 1) in rounds, the list of a process's rounds
// by number, and adds the rounds up to k made by fresh when it has fewer.
func Round[R any](rounds *[]R, k int, fresh func() R) *R {
	for len(*rounds) < k {
		*rounds = append(*rounds, fresh())
	}
	return &(*rounds)[k-1]
}
