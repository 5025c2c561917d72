package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/core/sim"
)

// click handles a click on the pane's space-time diagram: a message in
// flight is delivered next, a delivered one opens its channel's menu, an
// event shows its causal past and future (with Shift, a second event is
// compared with the selected one), a process line opens its menu;
// with the cut tool on, it places the cut's point on the nearest line.
func (c *PaneView) click(ctx app.Context, e app.Event) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	if p.scene == nil {
		return
	}
	if p.drag.moved { // the end of a drag, not a click
		p.drag.moved = false
		return
	}
	x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
	s := c.sess(i)
	if s.Cut().On() {
		if lane, ok := p.scene.LaneAt(y); ok {
			s.Cut().Place(lane, p.scene.TimeAt(x))
			c.changed(ctx)
		}
		return
	}
	hit := p.scene.Hit(x, y)
	switch hit.Kind {
	case diagram.HitMessage:
		if hit.InFlight {
			c.act(ctx, func() error { return s.Deliver(hit.Msg) })
			return
		}
		p.openMenu(menuMessage, x, y, false, func(m *menu) { m.msg = hit.Msg })
	case diagram.HitEvent:
		c.selectEvent(ctx, hit.Step, e.Get("shiftKey").Bool())
	case diagram.HitProcess:
		p.openMenu(menuProcess, x, y, false, func(m *menu) { m.node = hit.Node })
	default:
		p.menu.kind = menuNone
	}
}

// contextMenu opens, on a right click, the menu of what lies under the
// pointer: a message's (lose, delay or duplicate it), or a process's.
func (c *PaneView) contextMenu(ctx app.Context, e app.Event) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	if p.scene == nil {
		return
	}
	x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
	hit := p.scene.Hit(x, y)
	switch hit.Kind {
	case diagram.HitMessage:
		e.PreventDefault()
		p.openMenu(menuMessage, x, y, false, func(m *menu) { m.msg = hit.Msg })
	case diagram.HitProcess:
		e.PreventDefault()
		p.openMenu(menuProcess, x, y, false, func(m *menu) { m.node = hit.Node })
	}
}

// clickTopology handles a click on the pane's topology view: a process opens
// its menu, a link its menu (cut or heal it), a message on its way its menu.
func (c *PaneView) clickTopology(ctx app.Context, e app.Event) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	if p.topo == nil {
		return
	}
	x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
	hit := p.topo.Hit(x, y)
	switch hit.Kind {
	case diagram.HitProcess:
		p.openMenu(menuProcess, x, y, true, func(m *menu) { m.node = hit.Node })
	case diagram.HitLink:
		p.openMenu(menuLink, x, y, true, func(m *menu) { m.node, m.peer = hit.Node, hit.Peer })
	case diagram.HitMessage:
		p.openMenu(menuMessage, x, y, true, func(m *menu) { m.msg = hit.Msg })
	default:
		p.menu.kind = menuNone
	}
}

// openProcessMenu opens process node's menu beside its line, as a click
// on the line does, for the keyboard (the Processes panel's names are
// buttons), and gives the menu the keyboard: Tab moves through its
// choices, Enter takes one, Escape closes it.
func (c *PaneView) openProcessMenu(ctx app.Context, node sim.NodeID) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	y := 40.0
	if p.scene != nil {
		y = p.scene.ProcessY(node)
	}
	p.openMenu(menuProcess, 24, y, false, func(m *menu) { m.node = node })
	focusMenu(ctx, p.id("process-menu"))
}

// focusMenu gives the keyboard to the first choice of the menu id once it
// is drawn.
func focusMenu(ctx app.Context, id string) {
	ctx.Defer(func(app.Context) {
		if menu := app.Window().GetElementByID(id); menu.Truthy() {
			if first := menu.Call("querySelector", "button, input, select"); first.Truthy() {
				first.Call("focus")
			}
		}
	})
}

// nextMessageMenu opens, from the keyboard, the menu of a message in
// flight beside its arrow, as a click on it does (deliver it next, lose,
// delay or duplicate it): the oldest first, and on each press the next
// one after the message whose menu is open, round again after the last.
func (c *PaneView) nextMessageMenu(ctx app.Context) {
	i := c.Pane
	c.setFocus(i)
	p := c.panes[i]
	s := c.sess(i)
	if p.scene == nil {
		return
	}
	k := s.Step()
	var flying []int
	for _, m := range s.Run().Trace().MsgsBefore(k) {
		if m.InFlightAt(k) {
			if _, _, drawn := p.scene.MessageAt(m.ID, 0.5); drawn {
				flying = append(flying, m.ID)
			}
		}
	}
	if len(flying) == 0 {
		p.menu.kind, p.notice = menuNone, "No message is in flight at this step."
		c.changed(ctx)
		return
	}
	id := flying[0]
	if p.menu.kind == menuMessage {
		for _, f := range flying {
			if f > p.menu.msg {
				id = f
				break
			}
		}
	}
	x, y, _ := p.scene.MessageAt(id, 0.5)
	p.openMenu(menuMessage, x, y, false, func(m *menu) { m.msg = id })
	focusMenu(ctx, p.id("message-menu"))
}

// selectLatestEvent does from the keyboard what a click on an event does:
// it selects the latest process event shown (its causal past and future
// ringed), or with compare relates it to the selected one. Pressing it
// again on the same event clears the selection.
func (c *PaneView) selectLatestEvent(ctx app.Context, compare bool) {
	i := c.Pane
	s := c.sess(i)
	recs := s.Run().Trace().Records
	step := -1
	for k := min(s.Step(), len(recs)) - 1; k >= 0; k-- {
		if recs[k].Node >= 0 {
			step = k
			break
		}
	}
	if step >= 0 {
		c.selectEvent(ctx, step, compare)
	}
}

// selectEvent selects the event of step in the pane, ringing its causal past
// and future, or with compare relates it to the selected one, and says so
// in the pane's notice. Selecting the selected event again clears it.
func (c *PaneView) selectEvent(ctx app.Context, step int, compare bool) {
	i := c.Pane
	s := c.sess(i)
	if compare && s.Causality().Selected() >= 0 {
		s.Causality().Compare(step) // a second event, related to the first
	} else {
		s.Causality().Select(step)
	}
	p := c.panes[i]
	p.notice = s.Causality().Relation()
	if p.notice == "" {
		p.notice = s.Causality().Text()
	}
	c.changed(ctx)
}
