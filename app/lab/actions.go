package lab

import (
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Act makes the learner's action the next step after the one on screen,
// forking a new future, and shows it. A refused action changes nothing and
// the error says why in plain words.
func (s *Session) Act(a engine.Action) error {
	if err := s.run.Insert(s.step, a); err != nil {
		return err
	}
	s.step++
	return nil
}

// Deliver delivers message id next.
func (s *Session) Deliver(id int) error { return s.Act(engine.Deliver(id)) }

// Fault makes a fault of the registry happen next.
func (s *Session) Fault(name string, args faults.Args) error {
	return s.Act(engine.Fault(name, args))
}

// Crash crashes a process.
func (s *Session) Crash(id sim.NodeID) error { return s.Fault("crash", faults.AtProcess(id)) }

// Recover recovers a crashed process.
func (s *Session) Recover(id sim.NodeID) error { return s.Fault("recover", faults.AtProcess(id)) }

// Pause GC-pauses a process for the given number of ticks.
func (s *Session) Pause(id sim.NodeID, ticks sim.Time) error {
	a := faults.AtProcess(id)
	a.For = ticks
	return s.Fault("pause", a)
}

// CutLink cuts the link between two processes (both ways unless oneWay).
func (s *Session) CutLink(from, to sim.NodeID, oneWay bool) error {
	a := faults.AtProcess(from)
	a.Target, a.OneWay = to, oneWay
	return s.Fault("cut", a)
}

// HealLink heals the link between two processes (both ways).
func (s *Session) HealLink(from, to sim.NodeID) error {
	a := faults.AtProcess(from)
	a.Target = to
	return s.Fault("heal", a)
}

// Command runs one of the algorithm's commands at a process.
func (s *Session) Command(id sim.NodeID, name string, target sim.NodeID, arg int64) error {
	return s.Act(engine.Command(name, id, target, arg))
}

// Takes reports whether process id takes the command at the step on screen
// (only some processes take some commands).
func (s *Session) Takes(id sim.NodeID, c sim.CommandSpec) bool {
	return c.TakenBy(s.State().View(), id)
}

// SetFIFO runs the same scenario again with FIFO channels on or off from
// the start, replaying the learner's inputs, and stays at the step on
// screen. An input that cannot happen on the other network (a message
// delivered out of order is refused on FIFO channels) ends the replay: the
// error says which, and the inputs before it are kept.
func (s *Session) SetFIFO(on bool) error {
	if s.scn.FIFO() == on {
		return nil
	}
	flipped := s.scn.WithFIFO(on)
	r, err := flipped.Run()
	if err != nil {
		return err
	}
	inputs := append([]engine.Input(nil), s.run.Inputs()...)
	rerr := r.Replay(inputs)
	s.scn, s.run, s.link = flipped, r, baseOf(flipped)
	s.step = min(s.step, r.Len())
	if s.Selected >= s.step {
		s.Selected = -1
	}
	if rerr != nil {
		kept := len(r.Inputs())
		return fmt.Errorf("%d of your %d inputs replay on this network; the next one does not: %v", kept, len(inputs), rerr)
	}
	return nil
}
