package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Controls are a pane's step, play, scrub and zoom controls, or, Shared,
// those of every pane stepping together (drawn once, above them).
type Controls struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Shared says the controls drive every pane stepping together.
	Shared bool
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// driver is the pane whose controls move pane i: the first pane's, when
// the panes step together.
func (c *state) driver(i int) int {
	if c.together() {
		return 0
	}
	return i
}

// step moves the pane (or every pane stepping together) and closes the menus
// and notices that belonged to the old step.
func (c *Controls) step(ctx app.Context, move func()) {
	i := c.Pane
	move()
	for j, p := range c.panes {
		if j == i || c.together() {
			p.notice = ""
			p.menu.kind = menuNone
		}
	}
	c.changed(ctx)
}

func (c *Controls) forward(ctx app.Context) { i := c.Pane; c.step(ctx, func() { c.page.Forward(i) }) }
func (c *Controls) back(ctx app.Context)    { i := c.Pane; c.step(ctx, func() { c.page.Back(i) }) }
func (c *Controls) home(ctx app.Context)    { i := c.Pane; c.step(ctx, func() { c.page.Seek(i, 0) }) }
func (c *Controls) end(ctx app.Context) {
	i := c.Pane
	c.step(ctx, func() { c.page.Seek(i, c.page.Len(i)) })
}

// playing says whether pane i (or the panes stepping together) plays.
func (c *state) playing(i int) bool { return c.panes[c.driver(i)].playing }

func (c *state) stopPlaying(i int) { c.panes[c.driver(i)].playing = false }

func (c *Controls) togglePlay(ctx app.Context) {
	i := c.Pane
	d := c.panes[c.driver(i)]
	if d.playing {
		d.playing = false
		return
	}
	if c.page.Position(i) >= c.page.Len(i) {
		c.page.Seek(i, 0)
	}
	d.playing = true
	d.playGen++
	c.tick(ctx, d.playGen)
}

// tick advances one step per beat while playing.
func (c *Controls) tick(ctx app.Context, gen int) {
	i := c.Pane
	ctx.After(time.Second/time.Duration(c.speed), func(ctx app.Context) {
		if i >= len(c.panes) {
			return
		}
		d := c.panes[c.driver(i)]
		if !d.playing || gen != d.playGen {
			return
		}
		if !c.page.Forward(i) {
			d.playing = false
		}
		c.changed(ctx)
		if d.playing {
			c.tick(ctx, gen)
		}
	})
}

// scrub follows the pane's scrubber: the diagram is repainted at once, while
// the page around it (panels, caption, link) is brought up to date only
// once the learner pauses, so that dragging through a long run stays
// smooth.
func (c *Controls) scrub(ctx app.Context, k int) {
	i := c.Pane
	d := c.panes[c.driver(i)]
	d.playing, d.menu.kind, d.notice = false, menuNone, ""
	c.page.Seek(i, k)
	c.redraw(ctx)
	ctx.PreventUpdate()
	d.scrubGen++
	gen := d.scrubGen
	ctx.After(scrubSettle, func(ctx app.Context) {
		if gen == d.scrubGen {
			c.changed(ctx)
		}
	})
}

// scrubSettle is how long the scrubber rests before the page catches up.
const scrubSettle = 120 * time.Millisecond

// act runs a learner action on the pane and shows its effect or why it was
// refused.
func (c *PaneView) act(ctx app.Context, do func() error) {
	i := c.Pane
	c.stopPlaying(i)
	p := c.panes[i]
	p.menu.kind = menuNone
	if err := do(); err != nil {
		p.notice = err.Error()
	} else {
		p.notice = ""
	}
	c.changed(ctx)
}

// Render draws the step, play and scrub controls of the pane, or, shared,
// of every pane stepping together (drawn once, above them).
func (c *Controls) Render() app.UI {
	shared := c.Shared
	i := c.Pane
	p := c.panes[i]
	id := p.id
	if shared {
		id = func(name string) string { return name }
	}
	play := "▶ Play"
	if c.playing(i) {
		play = "❚❚ Pause"
	}
	speeds := make([]app.UI, len(Speeds))
	for j, s := range Speeds {
		speeds[j] = option(strconv.Itoa(s), fmt.Sprintf("%d steps/s", s), s == c.speed)
	}
	scope := app.EventScope(p.n, i, shared)
	items := []app.UI{
		app.Button().ID(attrText(id("home"))).Title("First step (Home)").Text("|◀").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.home(ctx) }, scope),
		app.Button().ID(attrText(id("back"))).Title("Step back (←, PageUp)").Text("◀ Back").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.back(ctx) }, scope),
		app.Button().ID(attrText(id("play"))).Title("Play or pause (Space)").Text(play).OnClick(func(ctx app.Context, e app.Event) { c.togglePlay(ctx) }, scope),
		app.Button().ID(attrText(id("forward"))).Title("Step forward (→, PageDown)").Text("Step ▶").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.forward(ctx) }, scope),
		app.Button().ID(attrText(id("end"))).Title("Last step (End)").Text("▶|").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.end(ctx) }, scope),
		app.Select().ID(attrText(id("speed"))).Attr("aria-label", "speed").Body(speeds...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v > 0 {
				c.speed = v
			}
		}, scope),
		app.Input().ID(attrText(id("scrubber"))).Type("range").Min(0).Max(c.page.Len(i)).Value(c.page.Position(i)).Attr("aria-label", "step").OnInput(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
				c.scrub(ctx, v)
			}
		}, scope),
	}
	if shared {
		items = append(items, app.Span().ID("position").Class("position").Textf("event %d / %d, in time order", c.page.Position(0), c.page.Len(0)),
			c.zoomButtons(true))
		return app.Div().Class("controls shared").Body(items...)
	}
	items = append(items, c.position(), c.zoomButtons(false))
	return app.Div().Class("controls").Body(items...)
}

// position says where the pane stands.
func (c *Controls) position() app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	id := "position"
	if c.together() {
		id = "pane-position"
	}
	return app.Span().ID(p.id(id)).Class("position").Textf("step %d / %d · time %d", s.Step(), s.Len(), s.Now())
}

// zoomButtons zoom the pane's window (the shared one when together).
func (c *Controls) zoomButtons(shared bool) app.UI {
	i := c.Pane
	p := c.panes[i]
	id := p.id
	if shared {
		id = func(name string) string { return name }
	}
	scope := app.EventScope(p.n, i, shared)
	return app.Span().Class("zoom").Body(
		app.Button().ID(attrText(id("zoom-out"))).Title("Zoom out (−; or the mouse wheel over the diagram)").Text("−").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, zoomStep) }, scope),
		app.Button().ID(attrText(id("zoom-in"))).Title("Zoom in (+)").Text("+").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, 1/zoomStep) }, scope),
		app.If(c.page.ViewOf(i).Pinned, func() app.UI {
			return app.Button().ID(attrText(id("follow"))).Title("Follow the present again (F; drag the diagram or Shift+arrows to pan)").Text("Follow now").
				OnClick(func(ctx app.Context, e app.Event) { c.follow(ctx) }, scope)
		}),
	)
}
