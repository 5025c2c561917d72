package ui

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/engine"
	"spacetime/core/exercise"
)

// Answer is an exercise's check, under the editor of a lesson whose
// program the learner writes from a skeleton (ports.Exercises): Check my
// answer runs the program as edited on the lesson with seeds 1 to 200,
// every invariant checked at every step, a few runs a frame so that the
// page stays responsive, and answers "… held in 200 of 200 runs" or the
// seed and step at which one fails, with a link that opens that run at
// that step.
type Answer struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// answering is a pane's check of an answer: under way (checker) or done
// (said, and the failing run's link).
type answering struct {
	checker *exercise.Checker
	// code is the program being checked; the check is forgotten once the
	// pane runs another.
	code string
	said string
	// failure is the run in which the answer failed, nil if none, and
	// failing its link (to share it).
	failure *exercise.Failure
	failing string
	started time.Time
}

// Bounds of a check in the page: at most checkTime in all, a frame's
// worth of runs at a time.
const (
	checkTime  = 60 * time.Second
	checkFrame = 40 * time.Millisecond
)

// answers says the pane's program answers an exercise, so that it can
// be checked.
func (c *state) answers(i int) bool {
	_, ok := c.sess(i).Exercise()
	return ok && c.writes(i)
}

// check starts checking the program the pane runs (the last that ran:
// Run first what is in the editor).
func (c *Answer) check(ctx app.Context) {
	i := c.Pane
	s := c.sess(i)
	lesson, ok := s.Exercise()
	if !ok {
		return
	}
	code := s.Scenario().Code
	ch, err := exercise.NewChecker(lesson, s.Scenario().Algorithm, code, exercise.DefaultRuns)
	if err != nil {
		c.panes[i].answer = answering{code: code, said: err.Error()}
		return
	}
	c.panes[i].answer = answering{checker: ch, code: code, started: time.Now()}
	c.more(ctx)
}

// more makes a frame's worth of the check's runs, then lets the page
// paint and asks for more, until the check has its answer.
func (c *Answer) more(ctx app.Context) {
	i := c.Pane
	a := &c.panes[i].answer
	switch {
	case a.checker == nil:
		return // done, or forgotten
	case a.code != c.sess(i).Scenario().Code:
		*a = answering{} // another program runs now
		return
	}
	frame := time.Now().Add(checkFrame)
	deadline := a.started.Add(checkTime)
	for !a.checker.Done() && time.Now().Before(frame) {
		b := &engine.Budget{Bytes: clientBytes, Cancelled: func() bool { return time.Now().After(deadline) }}
		if err := a.checker.Next(b); err != nil {
			a.said, a.checker = err.Error(), nil
			return
		}
	}
	if !a.checker.Done() {
		ctx.After(time.Millisecond, func(ctx app.Context) { c.more(ctx); ctx.Update() })
		return
	}
	res := a.checker.Answer()
	a.said, a.checker = res.Say(), nil
	if f := res.Failure; f != nil {
		a.failure = f
		if q, err := lab.FailureQuery(f); err == nil {
			a.failing = "." + WritePath + "?" + lab.EncodeQuery(q)
		}
	}
}

// showFailure runs the failing seed in the pane, at the failing step.
func (c *Answer) showFailure(ctx app.Context) {
	i := c.Pane
	a := c.panes[i].answer
	if a.failure == nil {
		return
	}
	plan, err := a.failure.Scenario.Compile()
	if err != nil {
		return
	}
	step := a.failure.Step
	if c.paneOf(i).replace(ctx, plan, func(s *lab.Session) { s.Seek(step) }) {
		c.panes[i].answer = a // the pane runs the same program: its check stands
	}
}

// progress says how far a check under way is.
func (a *answering) progress() string {
	if a.checker == nil {
		return ""
	}
	return fmt.Sprintf("Checking: run %d of %d…", a.checker.Answer().Runs+1, a.checker.Total())
}

// Render draws the button, the check's progress and its answer.
func (c *Answer) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	a := &c.panes[i].answer
	if a.code != "" && a.code != c.sess(i).Scenario().Code {
		*a = answering{} // another program runs: its check is not this one's
	}
	return app.Div().ID(p.id("answer")).Class("answer").Body(
		app.Button().ID(p.id("check-answer")).Class("check-answer").Disabled(a.checker != nil).
			Title(fmt.Sprintf("Run the program that ran last on this lesson with seeds 1 to %d, every invariant checked at every step", exercise.DefaultRuns)).
			Text("Check my answer").
			OnClick(func(ctx app.Context, e app.Event) { c.check(ctx) }, app.EventScope(p.n, i)),
		app.P().ID(p.id("answer-said")).Class("answer-said").Attr("role", "status").Body(
			app.If(a.checker != nil, func() app.UI { return app.Text(a.progress()) }),
			app.If(a.checker == nil && a.said != "", func() app.UI { return app.Text(a.said + " ") }),
			app.If(a.checker == nil && a.failure != nil, func() app.UI {
				return app.Span().Body(
					app.Button().ID(p.id("answer-show")).Class("link").Textf("Show seed %d at step %d", a.failure.Seed, a.failure.Step).
						OnClick(func(ctx app.Context, e app.Event) { c.showFailure(ctx) }, app.EventScope(p.n, i)),
					app.Text(" · "),
					app.A().ID(p.id("answer-failing")).Href(attrText(a.failing)).Text("its link"),
				)
			}),
		),
	)
}
