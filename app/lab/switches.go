package lab

import (
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Switches are how the run may differ from its scenario as written: its
// channels FIFO or not, and the algorithm's switches (fencing, epochs),
// each flipped by running the scenario again.
type Switches struct {
	s *Session
	// lesson caches the switches of the built-in lesson of the scenario's
	// id (none when it is no lesson), for Changes.
	lesson struct {
		id     string
		values []bool
	}
}

// Switches are the session's switches.
func (s *Session) Switches() *Switches { return &s.switches }

// SetFIFO runs the same scenario again with FIFO channels on or off from
// the start, replaying the learner's inputs, and stays at the step on
// screen. An input that cannot happen on the other network (a message
// delivered out of order is refused on FIFO channels) ends the replay: the
// error says which, and the inputs before it are kept.
func (w *Switches) SetFIFO(on bool) error {
	s := w.s
	if s.scn.FIFO() == on {
		return nil
	}
	return w.rerun(s.plan.Scenario().WithFIFO(on), "on this network")
}

// Set runs the same scenario again with one of the algorithm's switches (fencing, epochs) flipped, as SetFIFO does with the channels.
func (w *Switches) Set(sw sim.Switch, on bool) error {
	s := w.s
	if s.scn.Switched(sw) == on {
		return nil
	}
	changed, err := s.plan.Scenario().WithSwitch(sw, on)
	if err != nil {
		return err
	}
	return w.rerun(changed, "with "+sw.Label+" "+onOff(on))
}

// rerun replaces the scenario with a changed one, replaying the learner's
// inputs and staying at the step on screen; where says what changed, for
// the error when an input does not replay.
func (w *Switches) rerun(changed *scenario.Scenario, where string) error {
	s := w.s
	p, err := changed.Compile()
	if err != nil {
		return err
	}
	link := baseOf(changed)
	b := budget(len(s.run.Inputs()) == 0 && link.lessonsCost())
	r, err := p.RunWithin(b)
	if err != nil {
		return err
	}
	s.budget = b
	inputs := append([]engine.Input(nil), s.run.Inputs()...)
	rerr := r.Replay(inputs)
	s.plan, s.scn, s.run, s.link = p, changed, r, link
	s.step = min(s.step, r.Len())
	if s.causality.selected >= s.step {
		s.causality.selected = -1
	}
	if s.causality.selected < 0 || s.causality.other >= s.step {
		s.causality.other = -1
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
func (w *Switches) Changes() []string {
	var out []string
	for _, sw := range w.changed() {
		on := w.s.scn.Switched(sw)
		out = append(out, fmt.Sprintf("%s: %s here, %s in the lesson as written", sw.Label, onOff(on), onOff(!on)))
	}
	return out
}

// InBrief are the changed switches as they are now ("epochs on"),
// to tell a switched run from its lesson.
func (w *Switches) InBrief() []string {
	var out []string
	for _, sw := range w.changed() {
		out = append(out, sw.Label+" "+onOff(w.s.scn.Switched(sw)))
	}
	return out
}

// changed are the switches set otherwise than in the lesson.
func (w *Switches) changed() []sim.Switch {
	s := w.s
	switches := s.Spec().Learner.Switches
	if len(switches) == 0 {
		return nil
	}
	if w.lesson.id != s.scn.ID { // the page asks at every frame: read the lesson once
		w.lesson.id, w.lesson.values = s.scn.ID, nil
		if b, err := scenario.Builtin(s.scn.ID); err == nil && b.Algorithm == s.scn.Algorithm {
			for _, sw := range switches {
				w.lesson.values = append(w.lesson.values, b.Switched(sw))
			}
		}
	}
	var out []sim.Switch
	for i, sw := range switches {
		if i < len(w.lesson.values) && s.scn.Switched(sw) != w.lesson.values[i] {
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
