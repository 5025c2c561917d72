package engine

import (
	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// State is the world after some number of steps, read-only. It is valid
// until the next call on its Run.
type State struct {
	r *Run
	w *world
}

// At returns the state after the first k steps (k is clamped to the run).
func (r *Run) At(k int) State { return State{r: r, w: r.state(k)} }

// View is the state as the algorithm's checkers, metrics and panels see it.
func (s State) View() sim.View { return s.r.view(s.w) }

// Step is the number of steps taken.
func (s State) Step() int { return s.w.step }

// Now is the simulated time.
func (s State) Now() sim.Time { return s.w.now }

// Health is a process's health.
func (s State) Health(id sim.NodeID) faults.Health { return s.w.health[id] }

// Started reports whether a process has taken its first step (one down
// from the start has not, until it recovers).
func (s State) Started(id sim.NodeID) bool { return s.w.started[id] }

// Fields is a process's state for display.
func (s State) Fields(id sim.NodeID) []sim.Field { return s.w.nodes[id].Inspect() }

// Lamport is a process's Lamport clock.
func (s State) Lamport(id sim.NodeID) clock.Lamport { return s.w.lamport[id] }

// Vector is a process's vector clock. Do not modify it.
func (s State) Vector(id sim.NodeID) clock.Vector { return s.w.vector[id] }

// Skew is how far a process's clock reads ahead of the time now (behind
// when negative).
func (s State) Skew(id sim.NodeID) sim.Time { return s.w.localTime(id) - s.w.now }

// ClockRate is how many ticks a process's clock counts for every hundred
// that pass: 100 unless it drifts.
func (s State) ClockRate(id sim.NodeID) int64 { return s.w.clock(id).Rate() }

// LinkUp reports whether the link from→to carries messages.
func (s State) LinkUp(from, to sim.NodeID) bool { return s.w.linkUp(from, to) }

// FIFO reports whether channels deliver in send order now.
func (s State) FIFO() bool { return s.w.fifo }

// PendingTimer is an armed timer.
type PendingTimer struct {
	Tag string
	Due sim.Time
}

// Timers lists a process's armed timers, earliest first.
func (s State) Timers(id sim.NodeID) []PendingTimer {
	out := make([]PendingTimer, 0, len(s.w.timers[id]))
	for _, t := range s.w.timers[id] {
		out = append(out, PendingTimer{Tag: t.tag, Due: t.due})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Due < out[j-1].Due; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Due is the earliest time message id may arrive (a delay fault included).
func (s State) Due(id int) sim.Time { return s.r.due(s.w, id) }

// Deliverable lists the messages the network may deliver next, by channel
// order: the head of each FIFO channel whose receiver is running.
func (s State) Deliverable() []int {
	var ids []int
	s.r.deliverable(s.w, func(_, _ sim.NodeID, m []int) { ids = append(ids, m...) }, false)
	return ids
}

// Check says why the learner's action cannot happen in this state, or nil
// if it can.
func (s State) Check(a Action) error { return s.r.learnerMay(s.w, a) }

// CheckScripted says why a script's action could not happen in this
// state, or nil if it could: as the learner's, except that a script may
// change the replay of a record (a campaign's faults in a logged run).
func (s State) CheckScripted(a Action) error { return s.r.validate(s.w, a) }
