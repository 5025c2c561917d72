package ui

import (
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/sim"
)

// zoomStep is one step of zooming out; its inverse zooms in.
const zoomStep = 1.25

// panStep is the share of the window one pan key moves it by.
const panStep = 0.2

// drag is a pan of a diagram in progress with the mouse.
type drag struct {
	down  bool
	lastX float64
	// moved says the mouse travelled far enough that the press is a drag,
	// not a click.
	moved bool
	from  float64
	// cutting says the press took hold of the cut's point on lane.
	cutting bool
	lane    sim.NodeID
}

// zoom zooms the pane by factor around the present (or the middle, when
// pinned); panes stepping together zoom as one.
func (c *Controls) zoom(ctx app.Context, factor float64) {
	i := c.Pane
	p := c.panes[i]
	if p.scene == nil {
		return
	}
	c.page.SetView(i, lab.Zoomed(c.page.ViewOf(i), p.scene, factor))
	c.changed(ctx)
}

// pan moves the pane's window by a share of its width.
func (c *Controls) pan(ctx app.Context, share float64) {
	i := c.Pane
	p := c.panes[i]
	if p.scene == nil {
		return
	}
	c.page.SetView(i, lab.Panned(p.scene, share*p.scene.PlotWidth()))
	c.changed(ctx)
}

// follow makes the pane's window follow the present again, keeping the zoom.
func (c *Controls) follow(ctx app.Context) {
	i := c.Pane
	c.page.SetView(i, c.page.ViewOf(i).Following())
	c.changed(ctx)
}

// resetView goes back to the default zoom, following the present.
func (c *Controls) resetView(ctx app.Context) {
	i := c.Pane
	c.page.SetView(i, lab.View{})
	c.changed(ctx)
}

// wheel zooms at the mouse; with Shift, or a sideways scroll, it pans.
func (c *PaneView) wheel(ctx app.Context, e app.Event) {
	i := c.Pane
	p := c.panes[i]
	if p.scene == nil {
		return
	}
	e.PreventDefault()
	dx, dy := e.Get("deltaX").Float(), e.Get("deltaY").Float()
	if e.Get("shiftKey").Bool() || math.Abs(dx) > math.Abs(dy) {
		c.page.SetView(i, lab.Panned(p.scene, dx+dy))
	} else {
		c.page.SetView(i, lab.ZoomedAt(p.scene, e.Get("offsetX").Float(), math.Exp(dy*0.0015)))
	}
	c.changed(ctx)
}

func (c *PaneView) dragStart(ctx app.Context, e app.Event) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
	p.drag = drag{down: true, lastX: x, from: x}
	if s := c.sess(i); s.Cut().On() && p.scene != nil {
		// a press on a placed point of the cut takes hold of it
		if lane, ok := p.scene.LaneAt(y); ok && !math.IsNaN(s.Cut().Points()[lane]) && math.Abs(p.scene.XOf(s.Cut().Points()[lane])-x) <= 8 {
			p.drag.cutting, p.drag.lane = true, lane
		}
	}
}

// dragMove pans with the mouse, the picture following the pointer, or
// moves the cut's point along its line.
func (c *PaneView) dragMove(ctx app.Context, e app.Event) {
	i := c.Pane
	p := c.panes[i]
	if !p.drag.down || p.scene == nil {
		c.hover(e, false)
		ctx.PreventUpdate() // nothing on the page changes but the tip
		return
	}
	x := e.Get("offsetX").Float()
	if !p.drag.moved && math.Abs(x-p.drag.from) < 5 {
		return
	}
	p.drag.moved = true
	if p.drag.cutting {
		c.sess(i).Cut().Place(p.drag.lane, p.scene.TimeAt(x))
		c.redraw(ctx)
		ctx.PreventUpdate()
		return
	}
	c.page.SetView(i, lab.Panned(p.scene, p.drag.lastX-x))
	p.drag.lastX = x
	c.redraw(ctx)
	ctx.PreventUpdate() // the page catches up when the drag ends
}

func (c *PaneView) dragEnd(ctx app.Context, e app.Event) {
	i := c.Pane
	c.hideTip()
	p := c.panes[i]
	if p.drag.down && p.drag.moved {
		c.changed(ctx) // the link records where the view ended up
	}
	p.drag.down = false
}
