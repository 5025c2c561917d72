// Package lab is the page's session, in pure Go: the scenario being studied,
// its run, the step on screen, and what the learner does to it (step, seek,
// deliver a message, crash or pause a process, inject a command). It also
// encodes the whole view into a URL and back. The go-app components in
// app/ui only render a Session and forward clicks and keys to it.
package lab

import (
	"bytes"
	"fmt"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Session is one scenario open in the page.
type Session struct {
	// plan is the scenario compiled, which the run runs, and scn its
	// document as far as it is written (see scenario.Plan.Head): a log's
	// script and params are written only when saving or linking asks.
	plan *scenario.Plan
	scn  *scenario.Scenario
	run  *engine.Run
	// budget is what the run's last opening or extension was bounded by.
	budget *engine.Budget
	step   int
	// link says how a link names the scenario: by its built-in id, by its
	// id with the other channel discipline, or whole.
	link linkBase
	// file and packed cache the scenario's file (see File) and the file
	// as a link writes it whole (see ScenarioFile), for packedOf: a
	// log's scenario is large, and the link is written at every step.
	file     []byte
	packed   string
	packedOf *scenario.Plan
	// packedCode is the program as a link writes it (PackedCode), for
	// the program it packed.
	packedCode struct{ of, text string }

	// derived caches what is computed from the trace, valid while the run
	// and its version are unchanged (a rerun with a switch flipped is a new
	// run, whose version starts again).
	derived struct {
		run     *engine.Run
		version int
		index   *diagram.Index
		counter *report.Counter
		report  *report.Report
		step    int
	}
	// Axis is the diagram's horizontal axis.
	Axis diagram.Axis
	// View is the diagram's window: zoom, and where it is pinned if it is.
	View View
	// causality is the selection of events (see Causality).
	causality Causality
	// Stamps says which clock the diagram writes under every event.
	Stamps diagram.Stamps
	// Scale is the drawing's scale (diagram.Options.Scale): the page's
	// text size. 0 draws 12 px text.
	Scale float64
	// LinkNote says, in plain words, what the link that opened the
	// session asked for that is shown otherwise (a step past the end, shown
	// at the last); "" when all is as asked.
	LinkNote string
	// switches are the lesson's switches as this run sets them (see
	// Switches).
	switches Switches
	// cut is the learner's own cut (see Cut).
	cut Cut
	// filter is which lanes the diagram leaves out (see Filter).
	filter Filter
	// tour is the lesson's guided tour (see Tour).
	tour Tour
	// quiz is the quiz, when one is under way (see Quiz).
	quiz Quiz
}

// Bounds, when set, gives every run the page opens, and every extension of
// one by a learner's action, a budget of its own: a page in a browser so
// bounds what a link or a click can make it compute, and shows a run that
// passes it as far as it got (see Session.Stopped). lesson says the run is
// a built-in lesson's as the course wrote it (its channels may be
// flipped), with no input of a learner's: what it costs is the course's,
// measured, and the page may show it whole however slow the machine. nil
// (a server, which passes budgets of its own, and the command line): no
// bound.
var Bounds func(lesson bool) *engine.Budget

// budget is a fresh budget from Bounds, or nil.
func budget(lesson bool) *engine.Budget {
	if Bounds == nil {
		return nil
	}
	return Bounds(lesson)
}

// Open compiles a scenario and starts a session on it, showing step 0.
func Open(s *scenario.Scenario) (*Session, error) { return OpenWithin(s, nil) }

// OpenWithin compiles a scenario and starts a session whose run stays
// within a budget of work (see engine.Budget); nil means Bounds' (none,
// if it is not set).
func OpenWithin(s *scenario.Scenario, b *engine.Budget) (*Session, error) {
	p, err := s.Compile()
	if err != nil {
		return nil, err
	}
	return OpenPlan(p, b)
}

// OpenPlan starts a session on a compiled scenario (an imported log's),
// as OpenWithin does.
func OpenPlan(p *scenario.Plan, b *engine.Budget) (*Session, error) {
	sess, _, err := openWith(p, b, nil)
	return sess, err
}

// openWith starts a session with a learner's inputs, in one pass (see
// engine.NewWithInputs). inErr says why an input could not happen (the
// session keeps those before it); err, why the scenario does not run.
func openWith(p *scenario.Plan, b *engine.Budget, inputs []engine.Input) (sess *Session, inErr, err error) {
	link := baseOf(p.Head())
	if b == nil {
		b = budget(len(inputs) == 0 && link.lessonsCost())
	}
	r, runErr := p.RunWithInputs(b, inputs)
	if r == nil {
		return nil, nil, runErr
	}
	sess = &Session{plan: p, scn: p.Head(), run: r, budget: b, Axis: diagram.AxisTime, link: link}
	sess.quiz.s, sess.cut.s, sess.tour.s, sess.switches.s = sess, sess, sess, sess
	sess.causality = Causality{s: sess, selected: -1, other: -1}
	return sess, runErr, nil
}

// Stopped says, in plain words, why the run stops before its scenario
// says it should (it passed its budget), or "" when it does not.
func (s *Session) Stopped() string {
	if s.run.Stopped() != engine.StoppedBudget {
		return ""
	}
	why := "it would take more work than this page computes at once"
	switch s.budget.Cause() {
	case engine.OutOfMemory:
		why = fmt.Sprintf("it would keep more than the %d MB this page keeps for a run", s.budget.Bytes>>20)
	case engine.Cancelled:
		why = "it takes longer than this page computes at once"
	}
	name := "this scenario"
	if s.scn.ID != "" {
		name = s.scn.ID
	}
	return fmt.Sprintf("The run of %s stops at step %d: %s. The command line runs it whole (spacetime run).", name, s.run.Len(), why)
}

// linkBase is how a link names a session's scenario.
type linkBase uint8

const (
	// linkPacked packs the whole scenario into the link.
	linkPacked linkBase = iota
	// linkBuiltin names an unchanged built-in lesson by its id.
	linkBuiltin
	// linkFlipped names a built-in lesson whose channels were switched to
	// the other discipline (the page's FIFO toggle): its id and fifo=.
	linkFlipped
	// linkCoded names a built-in lesson run by a program (Open as code,
	// the Write view): its id and the program, code=.
	linkCoded
)

// lessonsCost says a scenario so named costs what a built-in lesson does:
// the lesson as the course wrote it, or with its channels flipped.
func (l linkBase) lessonsCost() bool { return l == linkBuiltin || l == linkFlipped }

func baseOf(s *scenario.Scenario) linkBase {
	switch {
	case scenario.IsBuiltin(s):
		return linkBuiltin
	case s.ID != "" && scenario.IsBuiltin(s.WithFIFO(!s.FIFO())):
		return linkFlipped
	case s.Code != "" && codedLesson(s):
		return linkCoded
	}
	return linkPacked
}

// IsLesson says the session's scenario is a built-in lesson unchanged
// (scenario.IsBuiltin, decided once when the session opened it: the
// page asks at every render).
func (s *Session) IsLesson() bool { return s.link == linkBuiltin }

// codedLesson says s is a built-in lesson run by its program, as a link
// names it with s= and code=.
func codedLesson(s *scenario.Scenario) bool {
	lesson, err := scenario.Builtin(s.ID)
	return err == nil && lesson.Algorithm != s.Algorithm && bytes.Equal(lesson.WithProgram(s.Algorithm, s.Code).JSON(), s.JSON())
}

// Scenario is the scenario being studied, as far as it is written: all
// of it but an imported log's script and params (see Plan). Do not
// modify it.
func (s *Session) Scenario() *scenario.Scenario { return s.scn }

// Plan is the scenario compiled, whose Scenario is the document whole.
func (s *Session) Plan() *scenario.Plan { return s.plan }

// Run is the scenario's run.
func (s *Session) Run() *engine.Run { return s.run }

// Failure is the step at which a process could not go on, which ended
// the run (a learner's program raised an error there), or nil.
func (s *Session) Failure() *engine.StepError { return s.run.Err() }

// Spec is the algorithm.
func (s *Session) Spec() *sim.Spec { return s.plan.Spec() }

// Step is the number of steps on screen.
func (s *Session) Step() int { return s.step }

// Len is the number of steps in the run.
func (s *Session) Len() int { return s.run.Len() }

// Seek shows the first k steps (clamped to the run).
func (s *Session) Seek(k int) { s.step = min(max(k, 0), s.quiz.gate()) }

// Forward shows one more step; it reports whether there was one.
func (s *Session) Forward() bool {
	if s.step >= s.quiz.gate() {
		return false
	}
	s.step++
	return true
}

// Back shows one step fewer; it reports whether there was one.
func (s *Session) Back() bool {
	if s.step == 0 {
		return false
	}
	s.step--
	return true
}

// State is the simulated world at the step on screen.
func (s *Session) State() engine.State { return s.run.At(s.step) }

// Caption explains the step just taken (or introduces the scenario at step 0).
func (s *Session) Caption() string { return s.CaptionAt(s.step) }

// CaptionAt is the caption after k steps: the lesson's description (or
// the algorithm's summary) before the first.
func (s *Session) CaptionAt(k int) string {
	s.fresh()
	k = min(max(k, 0), s.Len())
	if k == 0 {
		if s.scn.Description != "" {
			return s.scn.Description
		}
		return s.Spec().Summary
	}
	return s.run.Trace().Records[k-1].Caption
}

// CaptionSource says who caused the step just taken: "", "script",
// "learner" or "scheduler".
func (s *Session) CaptionSource() string {
	if s.step == 0 {
		return ""
	}
	return s.run.Trace().Records[s.step-1].Source.String()
}

// Now is the simulated time on screen.
func (s *Session) Now() sim.Time { return s.State().Now() }

// Panels are the algorithm's tables at the step on screen.
func (s *Session) Panels() []sim.Panel {
	if s.Spec().Figures.Panels == nil {
		return nil
	}
	return s.Spec().Figures.Panels(s.State().View())
}

// fresh drops the caches when the trace has changed since they were made.
func (s *Session) fresh() {
	d := &s.derived
	if d.counter != nil && d.run == s.run && d.version == s.run.Version() {
		return
	}
	d.run, d.version, d.index, d.counter, d.report = s.run, s.run.Version(), nil, report.NewCounter(s.run.Trace()), nil
}

// Report summarises the run up to the step on screen.
func (s *Session) Report() *report.Report {
	s.fresh()
	d := &s.derived
	if d.report == nil || d.step != s.step {
		d.report, d.step = report.BuildWith(s.scn, s.run, s.step, d.counter), s.step
	}
	return d.report
}

// Process is one process as the inspector shows it.
type Process struct {
	Name    string
	Health  string
	Fields  []sim.Field
	Lamport int64
	Vector  string
}

// Processes lists every process at the step on screen.
func (s *Session) Processes() []Process {
	st := s.State()
	out := make([]Process, st.View().N())
	for i := range out {
		id := sim.NodeID(i)
		h := st.Health(id)
		health := h.State.String()
		if h.State == sim.Paused {
			health = fmt.Sprintf("paused until %d", h.Until)
		}
		if !st.Started(id) && h.State == sim.Crashed {
			health = "down from the start"
		}
		fields := st.Fields(id)
		if skew, rate := st.Skew(id), st.ClockRate(id); skew != 0 || rate != 100 {
			value := fmt.Sprintf("%+d ticks (reads %d)", skew, st.Now()+skew)
			if rate != 100 {
				value += fmt.Sprintf(", counts %s ticks a tick", sim.RateText(rate))
			}
			fields = append(fields, sim.Field{Name: "clock", Value: value})
		}
		for _, t := range st.Timers(id) {
			fields = append(fields, sim.Field{Name: "timer " + t.Tag, Value: fmt.Sprintf("due at %d", t.Due)})
		}
		out[i] = Process{Name: s.scn.Names[i], Health: health, Fields: fields, Lamport: int64(st.Lamport(id)), Vector: fmt.Sprint(st.Vector(id))}
	}
	return out
}

// index is the diagram's index of the run, for the current axis.
func (s *Session) index() *diagram.Index {
	s.fresh()
	d := &s.derived
	if d.index == nil || d.index.Axis() != s.Axis {
		d.index = diagram.NewIndex(s.run.Trace(), s.Axis, s.run.Config().Spec)
	}
	return d.index
}
