package ui

import (
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

// step moves pane i (or every pane stepping together) and closes the menus
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

// scrub follows pane i's scrubber: the diagram is repainted at once, while
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

// act runs a learner action on pane i and shows its effect or why it was
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
