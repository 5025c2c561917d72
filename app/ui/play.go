package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// driver is the pane whose controls move pane i: the first pane's, when
// the panes step together.
func (c *Lab) driver(i int) int {
	if c.together() {
		return 0
	}
	return i
}

// step moves pane i (or every pane stepping together) and closes the menus
// and notices that belonged to the old step.
func (c *Lab) step(ctx app.Context, i int, move func()) {
	move()
	for j, p := range c.panes {
		if j == i || c.together() {
			p.notice = ""
			p.menu.kind = menuNone
		}
	}
	c.changed(ctx)
}

func (c *Lab) forward(ctx app.Context, i int) { c.step(ctx, i, func() { c.page.Forward(i) }) }
func (c *Lab) back(ctx app.Context, i int)    { c.step(ctx, i, func() { c.page.Back(i) }) }
func (c *Lab) home(ctx app.Context, i int)    { c.step(ctx, i, func() { c.page.Seek(i, 0) }) }
func (c *Lab) end(ctx app.Context, i int) {
	c.step(ctx, i, func() { c.page.Seek(i, c.page.Len(i)) })
}

// playing says whether pane i (or the panes stepping together) plays.
func (c *Lab) playing(i int) bool { return c.panes[c.driver(i)].playing }

func (c *Lab) stopPlaying(i int) { c.panes[c.driver(i)].playing = false }

func (c *Lab) togglePlay(ctx app.Context, i int) {
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
	c.tick(ctx, i, d.playGen)
}

// tick advances one step per beat while playing.
func (c *Lab) tick(ctx app.Context, i int, gen int) {
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
			c.tick(ctx, i, gen)
		}
	})
}

// scrub follows pane i's scrubber: the diagram is repainted at once, while
// the page around it (panels, caption, link) is brought up to date only
// once the learner pauses, so that dragging through a long run stays
// smooth.
func (c *Lab) scrub(ctx app.Context, i int, k int) {
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
func (c *Lab) act(ctx app.Context, i int, do func() error) {
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

// toggleCut turns pane i's cut tool on or off.
func (c *Lab) toggleCut(ctx app.Context, i int) {
	c.sess(i).ToggleCut()
	c.panes[i].menu.kind = menuNone
	c.changed(ctx)
}
