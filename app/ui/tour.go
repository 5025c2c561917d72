package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Tour is a pane's guided tour: its stops and the narration of the
// current one.
type Tour struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// touring says whether the pane is on a stop of its lesson's tour: then the
// keys and the slides' next and prev go from stop to stop.
func (c *Tour) touring() bool { i := c.Pane; return c.sess(i).Tour().Stop() > 0 }

// goToStop moves the pane to stop n of its tour (0 ends the tour).
func (c *Tour) goToStop(ctx app.Context, n int) error {
	i := c.Pane
	c.stopPlaying(i)
	var err error
	c.controlsOf(i).step(ctx, func() { err = c.sess(i).Tour().GoTo(n) })
	return err
}

// toggleTour starts the pane's tour at its first stop, or ends it.
func (c *Tour) toggleTour(ctx app.Context) {
	i := c.Pane
	if c.touring() {
		c.goToStop(ctx, 0)
		return
	}
	if len(c.sess(i).Tour().Stops()) > 0 {
		c.goToStop(ctx, 1)
	}
}

// nextStop and prevStop move the pane along its tour.
func (c *Tour) nextStop(ctx app.Context) {
	i := c.Pane
	c.stopPlaying(i)
	c.controlsOf(i).step(ctx, func() { c.sess(i).Tour().Next() })
}

func (c *Tour) prevStop(ctx app.Context) {
	i := c.Pane
	c.stopPlaying(i)
	c.controlsOf(i).step(ctx, func() { c.sess(i).Tour().Prev() })
}

// tourButton starts and ends the pane's tour.
func (c *Tour) tourButton() app.UI {
	i := c.Pane
	p := c.panes[i]
	on := c.touring()
	return app.Button().ID(p.id("tour-button")).Attr("aria-pressed", on).
		Title("A few narrated stops through the lesson: → and ← (or the remote) go from stop to stop, Esc ends it (T)").
		Text("Tour").OnClick(func(ctx app.Context, e app.Event) { c.toggleTour(ctx) }, app.EventScope(p.n, i))
}

// Render draws the tour's stop on the pane: where it is in the tour, what
// to look at, what to try, and buttons to move on.
func (c *Tour) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	tour, n := s.Tour().Stops(), s.Tour().Stop()
	st := tour[n-1]
	where := fmt.Sprintf("Tour %d/%d", n, len(tour))
	if s.Step() != st.Step {
		where += fmt.Sprintf(" (its step is %d)", st.Step)
	}
	scope := app.EventScope(p.n, i)
	return app.Div().ID(p.id("tour")).Class("notice tour").Attr("role", "status").Body(
		app.Div().Class("tour-text").Body(
			app.Strong().Text(where+" · "),
			app.Span().ID(p.id("tour-say")).Text(st.Say),
			app.If(st.Try != "", func() app.UI {
				return app.Span().ID(p.id("tour-try")).Class("try").Body(app.Strong().Text(" Now try: "), app.Text(st.Try))
			}),
		),
		app.Div().Class("tour-moves").Body(
			app.Button().ID(p.id("tour-prev")).Title("The previous stop (←)").Text("◀").Disabled(n <= 1).
				OnClick(func(ctx app.Context, e app.Event) { c.prevStop(ctx) }, scope),
			app.Button().ID(p.id("tour-next")).Title("The next stop (→)").Text("Next ▶").Disabled(n >= len(tour)).
				OnClick(func(ctx app.Context, e app.Event) { c.nextStop(ctx) }, scope),
			app.Button().ID(p.id("tour-end")).Title("End the tour (Esc)").Text("End").
				OnClick(func(ctx app.Context, e app.Event) { c.goToStop(ctx, 0) }, scope),
		),
	)
}
