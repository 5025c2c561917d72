package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/core/sim"
)

// Settings are a pane's run toggles: FIFO channels, the algorithm's
// switches, the time axis and the timestamps.
type Settings struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render draws the toggles in the side column of a page of one run.
func (c *Settings) Render() app.UI {
	return app.Div().Class("settings").Body(c.runToggles()...)
}

// runToggles are the pane's checkboxes: FIFO channels, the algorithm's
// switches (fencing, epochs) and the Lamport axis, and its timestamps.
func (c *Settings) runToggles() []app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	var toggles []app.UI
	if !s.Spec().Learner.Record {
		// a log's channels did what the log says
		toggles = append(toggles, app.Label().Class("toggle").Title("Run this scenario again with the other channel discipline, keeping your inputs").Body(
			checkbox(p.id("fifo"), s.Scenario().FIFO()).OnChange(func(ctx app.Context, e app.Event) { c.toggleFIFO(ctx) }, app.EventScope(p.n, i)),
			app.Text(" FIFO channels"),
		))
	}
	for _, sw := range s.Spec().Learner.Switches {
		toggles = append(toggles, app.Label().Class("toggle").Title(attrText(sw.Help)).Body(
			checkbox(p.id("switch-"+sw.Param), s.Scenario().Switched(sw)).OnChange(func(ctx app.Context, e app.Event) { c.toggleSwitch(ctx, sw) }, app.EventScope(p.n, i)),
			app.Text(" "+sw.Label),
		))
	}
	return append(toggles,
		app.Label().Class("toggle").Body(
			checkbox(p.id("lamport"), s.Axis == diagram.AxisLamport).OnChange(func(ctx app.Context, e app.Event) {
				axis := diagram.AxisTime
				if ctx.JSSrc().Get("checked").Bool() {
					axis = diagram.AxisLamport
				}
				c.setAxis(ctx, string(axis))
			}, app.EventScope(p.n, i)),
			app.Text(" Lamport time axis"),
		),
		app.Select().ID(p.id("stamps")).Attr("aria-label", "timestamps").Title("Write every event's Lamport timestamp or vector clock under its dot").Body(
			option("none", "no timestamps", s.Stamps == diagram.StampsNone),
			option(string(diagram.StampsLamport), "Lamport timestamps", s.Stamps == diagram.StampsLamport),
			option(string(diagram.StampsVector), "vector clocks", s.Stamps == diagram.StampsVector),
		).OnChange(func(ctx app.Context, e app.Event) {
			c.setStamps(ctx, ctx.JSSrc().Get("value").String())
		}, app.EventScope(p.n, i)),
	)
}

// toggleFIFO runs the pane's scenario again with the other channel
// discipline, keeping the learner's inputs and the step on screen.
func (c *Settings) toggleFIFO(ctx app.Context) {
	i := c.Pane
	s := c.sess(i)
	c.rerun(ctx, s.Switches().SetFIFO(!s.Scenario().FIFO()))
}

// toggleSwitch runs the pane's scenario again with one of its algorithm's
// switches flipped, as toggleFIFO does.
func (c *Settings) toggleSwitch(ctx app.Context, sw sim.Switch) {
	i := c.Pane
	s := c.sess(i)
	c.rerun(ctx, s.Switches().Set(sw, !s.Scenario().Switched(sw)))
}

// rerun shows the pane after its scenario ran again, with err, if any, as
// its notice.
func (c *Settings) rerun(ctx app.Context, err error) {
	i := c.Pane
	c.stopPlaying(i)
	c.panes[i].notice = ""
	if err != nil {
		c.panes[i].notice = err.Error()
	}
	c.panes[i].menu.kind = menuNone
	c.changed(ctx)
}

// setAxis switches the pane's axis between simulated and Lamport time.
func (c *Settings) setAxis(ctx app.Context, axis string) {
	i := c.Pane
	s := c.sess(i)
	s.Axis = axisOf(axis)
	c.page.SetView(i, c.page.ViewOf(i).Following()) // a pinned window is measured in the other axis's units
	c.changed(ctx)
}

// setStamps writes every event's Lamport timestamp or vector clock under
// its dot in the pane, or none.
func (c *Settings) setStamps(ctx app.Context, stamps string) {
	i := c.Pane
	switch st := diagram.Stamps(stamps); st {
	case diagram.StampsLamport, diagram.StampsVector:
		c.sess(i).Stamps = st
	default: // "none"
		c.sess(i).Stamps = diagram.StampsNone
	}
	c.changed(ctx)
}
