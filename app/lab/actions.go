package lab

import (
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Act makes the learner's action the next step after the one on screen,
// forking a new future, and shows it. A refused action changes nothing and
// the error says why in plain words.
func (s *Session) Act(a engine.Action) error {
	s.freshBudget()
	if err := s.run.Insert(s.step, a); err != nil {
		return err
	}
	s.step++
	return nil
}

// freshBudget gives the run's next extension a budget of its own, when
// the page bounds its runs (see Bounds).
func (s *Session) freshBudget() {
	if Bounds != nil {
		s.budget = Bounds(false)
		s.run.SetBudget(s.budget)
	}
}

// Deliver delivers message id next.
func (s *Session) Deliver(id int) error { return s.Act(engine.Deliver(id)) }

// Fault makes a fault of the registry happen next.
func (s *Session) Fault(name string, args faults.Args) error {
	return s.Act(engine.Fault(name, args))
}

// Command runs one of the algorithm's commands at a process.
func (s *Session) Command(id sim.NodeID, name string, target sim.NodeID, arg int64) error {
	if c, ok := s.Spec().Command(name); ok && !c.Target {
		target = sim.None // a command that takes none carries none in the link
	}
	return s.Act(engine.Command(name, id, target, arg))
}

// Takes reports whether process id takes the command at the step on screen
// (only some processes take some commands, and a crashed one none).
func (s *Session) Takes(id sim.NodeID, c sim.CommandSpec) bool {
	v := s.State().View()
	return v.Health(id) != sim.Crashed && c.TakenBy(v, id)
}
