package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// hover shows, in a tip beside the pointer, what lies under it on pane i's
// diagram (topo false) or process graph: the whole of a message, an event
// or a process (lab.Session.HoverText), labels the picture had no room for
// included. The tip moves only when what lies under the pointer changes.
func (c *Lab) hover(i int, e app.Event, topo bool) {
	p := c.panes[i]
	sc := p.scene
	if topo {
		sc = p.topo
	}
	text := ""
	if sc != nil && !p.drag.down {
		hit := sc.Hit(e.Get("offsetX").Float(), e.Get("offsetY").Float())
		if topo || hit.Kind != diagram.HitProcess { // a lane's name is always drawn
			text = c.sess(i).HoverText(hit)
		}
	}
	if text == c.tip {
		return
	}
	c.tip = text
	app.Window().Get("spacetime").Call("tip", text, e.Get("clientX").Float(), e.Get("clientY").Float())
}

// hideTip takes the tip away: the picture under it changed or the pointer
// left.
func (c *Lab) hideTip() {
	if c.tip == "" || app.IsServer {
		return
	}
	c.tip = ""
	app.Window().Get("spacetime").Call("tip", "", 0, 0)
}
