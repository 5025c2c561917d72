package lab

import (
	"fmt"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/explore"
	"spacetime/core/scenario"
)

// Search is the session's search for a schedule that breaks an invariant:
// where it starts, and how its finding becomes the run's future. It holds
// no state of its own (the search under way is the page's).
type Search struct{ s *Session }

// Search is the session's search for a breaking schedule.
func (s *Session) Search() Search { return Search{s: s} }

// Plan is where a search for a breaking schedule starts, and its
// bounds: the lesson's starting step while the run is the lesson's own
// (the learner has changed nothing in it), else the step on screen (the
// run's start when the step on screen is its end, where nothing is left
// to try); the
// lesson's bounds, or the default ones. A learner's own program (one
// that is no lesson's) is searched with one fault as well: its bugs are
// often ones that only a lost or duplicated message or a crash shows,
// and it has no lesson to say so.
func (x Search) Plan() (from int, opts explore.Options) {
	s := x.s
	var ls *scenario.Search
	if l := s.scn.Lesson; l != nil {
		ls = l.Search
	}
	opts = ls.Options()
	if s.scn.Lesson == nil && s.scn.Code != "" {
		opts.Faults = ProgramSearchFaults
	}
	from = s.step
	if ls != nil && ls.From > 0 && len(s.run.Inputs()) == 0 {
		from = min(ls.From, s.run.Len())
	}
	if from >= s.run.Len() && s.run.Stopped() != engine.StoppedBudget {
		// at the end of a run that is over nothing is left to schedule:
		// the search starts where the run does
		from = 0
	}
	return from, opts
}

// OwnBreak is the first invariant the run's own course breaks after step
// from (invariant, if named), and the step at which it fails: a search
// from there would find that course again, so the page asks for one that
// differs from it (explore.Options.Differ). A run the learner has acted
// on after from is not its own course there: ok is false.
func (x Search) OwnBreak(from int, invariant string) (name string, step int, ok bool) {
	s := x.s
	for _, in := range s.run.Inputs() {
		if in.Step >= from {
			return "", 0, false
		}
	}
	first := -1
	for _, f := range s.run.FailuresAt(s.run.Len()) {
		if f.Step >= from && (invariant == "" || f.Name == invariant) && (first < 0 || f.Step < first) {
			name, first = f.Name, f.Step
		}
	}
	return name, first + 1, first >= 0
}

// ProgramSearchFaults is how many faults a search of a learner's own
// program may choose.
const ProgramSearchFaults = 1

// Start starts a search from step from (see explore.New).
func (x Search) Start(from int, opts explore.Options) (*explore.Search, error) {
	return explore.New(x.s.run, from, opts)
}

// Adopt makes the violation a search from step from found the run's future:
// the run from that step on is replaced by the schedule, and the page
// shows the step at which the invariant fails.
func (x Search) Adopt(from int, v *explore.Violation) error {
	s := x.s
	s.freshBudget()
	var after = v.Inputs[:0:0]
	for _, in := range v.Inputs {
		if in.Step >= from {
			after = append(after, in)
		}
	}
	if err := s.run.ReplayFrom(from, after); err != nil {
		return fmt.Errorf("the schedule found could not be replayed: %w", err)
	}
	s.Seek(v.Step)
	x.frame(from, v.Step)
	return nil
}

// frame zooms the window onto the steps from..to of a schedule a
// search found: its choices happen without time passing, and the default
// window would crowd them into a few ticks among the rest of the run.
func (x Search) frame(from, to int) {
	s := x.s
	if s.Axis != "" && s.Axis != diagram.AxisTime {
		return
	}
	t0, t1 := float64(s.run.At(from).Now()), float64(s.run.At(to).Now())
	span := max(t1-t0+6, 2*MinSpan)
	s.View = View{Span: span, Pinned: true, Start: max(t0-2, 0)}
}
