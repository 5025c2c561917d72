package lab

import (
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
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
		s.budget = Bounds()
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

// SetFIFO runs the same scenario again with FIFO channels on or off from
// the start, replaying the learner's inputs, and stays at the step on
// screen. An input that cannot happen on the other network (a message
// delivered out of order is refused on FIFO channels) ends the replay: the
// error says which, and the inputs before it are kept.
func (s *Session) SetFIFO(on bool) error {
	if s.scn.FIFO() == on {
		return nil
	}
	return s.rerun(s.plan.Scenario().WithFIFO(on), "on this network")
}

// SetSwitch runs the same scenario again with one of the algorithm's
// switches (fencing, epochs) flipped, as SetFIFO does with the channels.
func (s *Session) SetSwitch(sw sim.Switch, on bool) error {
	if s.scn.Switched(sw) == on {
		return nil
	}
	changed, err := s.plan.Scenario().WithSwitch(sw, on)
	if err != nil {
		return err
	}
	return s.rerun(changed, "with "+sw.Label+" "+onOff(on))
}

// rerun replaces the scenario with a changed one, replaying the learner's
// inputs and staying at the step on screen; where says what changed, for
// the error when an input does not replay.
func (s *Session) rerun(changed *scenario.Scenario, where string) error {
	p, err := changed.Compile()
	if err != nil {
		return err
	}
	b := budget()
	r, err := p.RunWithin(b)
	if err != nil {
		return err
	}
	s.budget = b
	inputs := append([]engine.Input(nil), s.run.Inputs()...)
	rerr := r.Replay(inputs)
	s.plan, s.scn, s.run, s.link = p, changed, r, baseOf(changed)
	s.step = min(s.step, r.Len())
	if s.Selected >= s.step {
		s.Selected = -1
	}
	if s.Selected < 0 || s.Other >= s.step {
		s.Other = -1
	}
	if rerr != nil {
		kept := len(r.Inputs())
		return fmt.Errorf("%d of your %d inputs replay %s; the next one does not: %v", kept, len(inputs), where, rerr)
	}
	return nil
}

// Changes say how the scenario differs from the built-in lesson of its id
// in the algorithm's switches ("fencing tokens: off here, on in the lesson
// as written"), or nothing when it is no lesson or the same.
func (s *Session) Changes() []string {
	var out []string
	for _, sw := range s.changedSwitches() {
		on := s.scn.Switched(sw)
		out = append(out, fmt.Sprintf("%s: %s here, %s in the lesson as written", sw.Label, onOff(on), onOff(!on)))
	}
	return out
}

// ChangesInBrief are the changed switches as they are now ("epochs on"),
// to tell a switched run from its lesson.
func (s *Session) ChangesInBrief() []string {
	var out []string
	for _, sw := range s.changedSwitches() {
		out = append(out, sw.Label+" "+onOff(s.scn.Switched(sw)))
	}
	return out
}

// changedSwitches are the switches set otherwise than in the lesson.
func (s *Session) changedSwitches() []sim.Switch {
	switches := s.Spec().Switches
	if len(switches) == 0 {
		return nil
	}
	if s.lesson.id != s.scn.ID { // the page asks at every frame: read the lesson once
		s.lesson.id, s.lesson.values = s.scn.ID, nil
		if b, err := scenario.Builtin(s.scn.ID); err == nil && b.Algorithm == s.scn.Algorithm {
			for _, sw := range switches {
				s.lesson.values = append(s.lesson.values, b.Switched(sw))
			}
		}
	}
	var out []sim.Switch
	for i, sw := range switches {
		if i < len(s.lesson.values) && s.scn.Switched(sw) != s.lesson.values[i] {
			out = append(out, sw)
		}
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
