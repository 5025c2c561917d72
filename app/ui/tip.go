package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// hover shows, in a tip beside the pointer, what lies under it on the pane's
// diagram (topo false) or process graph: the whole of a message, an event
// or a process (lab.Session.HoverText), labels the picture had no room for
// included. The tip moves only when what lies under the pointer changes.
func (c *PaneView) hover(e app.Event, topo bool) {
	i := c.Pane
	p := c.panes[i]
	sc := p.scene
	if topo {
		sc = p.topo
	}
	var hit diagram.Hit
	if sc != nil && !p.drag.down {
		x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
		hit = sc.Hit(x, y)
		if _, short := sc.NameShortenedAt(x, y); !topo && hit.Kind == diagram.HitProcess && !short {
			hit = diagram.Hit{} // the lane's name is drawn whole
		}
	}
	at := tipAt{pane: i, topo: topo, hit: hit}
	if at == c.tipAt {
		return // the pointer is still on the same thing
	}
	c.tipAt = at
	text := c.sess(i).Diagram().HoverText(hit)
	if text == c.tip {
		return
	}
	c.tip = text
	app.Window().Get("spacetime").Call("tip", text, e.Get("clientX").Float(), e.Get("clientY").Float())
}

// hideTip takes the tip away: the picture under it changed or the pointer
// left.
func (c *state) hideTip() {
	c.tipAt = tipAt{} // the picture changed: ask again
	if c.tip == "" || app.IsServer {
		return
	}
	c.tip = ""
	app.Window().Get("spacetime").Call("tip", "", 0, 0)
}

// tipAt is what the tip was last asked about: a pane's diagram or process
// graph, and what lay under the pointer there.
type tipAt struct {
	pane int
	topo bool
	hit  diagram.Hit
}
