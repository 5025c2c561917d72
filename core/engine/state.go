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

// Fields is a process's state for display.
func (s State) Fields(id sim.NodeID) []sim.Field { return s.w.nodes[id].Inspect() }

// Lamport is a process's Lamport clock.
func (s State) Lamport(id sim.NodeID) clock.Lamport { return s.w.lamport[id] }

// Vector is a process's vector clock. Do not modify it.
func (s State) Vector(id sim.NodeID) clock.Vector { return s.w.vector[id] }

// Deliverable lists the messages the network may deliver next, by channel
// order: the head of each FIFO channel whose receiver is running.
func (s State) Deliverable() []int {
	var ids []int
	s.r.deliverable(s.w, func(_, _ sim.NodeID, m []int) { ids = append(ids, m...) })
	return ids
}

// Check says why an action cannot happen in this state, or nil if it can.
func (s State) Check(a Action) error { return s.r.validate(s.w, a) }
