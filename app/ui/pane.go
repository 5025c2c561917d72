package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/sim"
)

// pane is the page's state for one run: what the learner is doing to it
// (a menu, a drag, playing) and what was laid out for its canvases. The run
// itself is the page's view of the same index.
type pane struct {
	// n numbers the pane for its element ids: the first pane's are plain
	// ("diagram", "forward"), the others' suffixed ("diagram-2").
	n int

	playing bool
	playGen int
	menu    menu
	// browsing says the lesson picker's choice was moved from the keyboard
	// and waits for Enter (PaneView.scenarioPicker).
	browsing bool
	// notice is feedback on the last action, such as a refused delivery.
	notice string
	// search is the search for a breaking schedule under way (nil: none);
	// searchGen counts the searches started and stopped, so that a slice
	// of an old one does nothing.
	search    *searching
	searchGen int
	// quizResult is what the page says of the quiz's last answer.
	quizResult quizResult
	drag       drag
	scrubGen   int
	// commandNode is the process the command bar acts at, with many processes.
	commandNode sim.NodeID
	// form holds what the learner typed into the menus' inputs, by input
	// ("pause.for"), so that a menu opened again keeps it.
	form map[string]string
	// write is the Write view's editor (writer.go).
	write writing
	// answer is the check of the pane's answer to an exercise.
	answer answering
	// writeLinks are the Write view's links to the pane's lesson
	// (Tools.writeLinks).
	writeLinks writeLinks

	scene, topo          *diagram.Scene
	painter, topoPainter painter
	// width and height are the lanes canvas's size in CSS pixels as last
	// observed, viewport the window's height, topoWidth the topology
	// canvas's width.
	width, height, viewport, topoWidth float64
	// observed and topoObserved are the canvases observed (nil: none); a
	// run put back from an enlarged one gets new canvases, observed anew.
	observed, topoObserved app.Value
}

func newPane(n int) *pane { return &pane{n: n, form: map[string]string{}} }

// reset forgets what belonged to the run the pane showed before.
func (p *pane) reset() {
	p.playing, p.menu, p.notice = false, menu{}, ""
	if p.search != nil {
		p.search = nil
		p.searchGen++
	}
}

// id is an element id of this pane: name for the first pane, name-N for
// the N-th. A name may hold an algorithm's words (a command's), so the id
// is quote-proof (attrText).
func (p *pane) id(name string) string {
	if p.n == 1 {
		return attrText(name)
	}
	return attrText(name + "-" + strconv.Itoa(p.n))
}

func (p *pane) stopObserving() {
	if p.observed == nil && p.topoObserved == nil {
		return
	}
	if js := app.Window().Get("spacetime"); js.Truthy() {
		for _, name := range []string{"diagram", "topology"} {
			if cv := app.Window().GetElementByID(p.id(name)); cv.Truthy() {
				js.Call("observe", cv, nil)
			}
		}
	}
	p.observed, p.topoObserved = nil, nil
}

// sess is pane i's session.
func (c *state) sess(i int) *lab.Session { return c.page.Views[i] }

// canvasHeight is the pane's diagram height. A page of one run gives the
// diagram the height its window leaves after the header, controls,
// caption and verdict (the stage's, as measured; the prerender's before
// that). A compare view's is set by the number of processes or, embedded
// in a slide, shares what the frame leaves.
func (c *PaneView) canvasHeight() float64 {
	i := c.Pane
	if c.fills() {
		if h := c.panes[i].height; h > 0 {
			return h
		}
		if c.gridded() {
			return gridCell(len(c.panes))[1]
		}
		return prerenderHeight
	}
	n := len(c.sess(i).Scenario().Names)
	// the window's height as the first pane last saw it
	if vh := c.panes[0].viewport; c.embed && vh > 0 {
		return max((vh-embedChrome)/float64(len(c.panes)), 160)
	}
	h := diagram.HeightFor(n)
	if c.several() {
		h = min(h, 420) // room for the others
	}
	return h
}

// fills says the diagram fills the height its stage has: on a page of one
// run, in the browser or embedded, and in a compare view's grid or
// enlarged run (not in a slide of several runs, which stacks them).
func (c *state) fills() bool { return !(c.embed && c.several()) }

// embedChrome is the height an embedded page keeps for its controls and a
// caption of up to three lines.
const embedChrome = 170

// layoutPane lays out the pane's pictures at the width its canvases last had
// (a default before they were measured), so that clicks resolve.
func (c *PaneView) layoutPane() {
	c.layoutLanes()
	c.layoutTopology()
}

func (c *PaneView) layoutLanes() {
	i := c.Pane
	p := c.panes[i]
	width := p.width
	if width <= 0 {
		width = prerenderWidth
	}
	c.sess(i).Scale = c.paneScale(i)
	p.scene = c.page.Scene(i, width, c.canvasHeight())
}

func (c *PaneView) layoutTopology() {
	i := c.Pane
	p := c.panes[i]
	p.topo = nil
	if c.showTopology() {
		c.sess(i).Scale = c.scale()
		tw := p.topoWidth
		if tw <= 0 {
			tw = topologyWidth
		}
		p.topo = c.sess(i).Diagram().TopologyScene(tw, c.topologyHeight())
	}
}

// topologyWidth is the topology view's width before it is measured.
const topologyWidth = 340

// showTopology says whether the pane draws its algorithm's topology beside
// the lanes: when the algorithm has one, and not in a slide.
func (c *PaneView) showTopology() bool {
	i := c.Pane
	return !c.embed && c.sess(i).Spec().Picture.Topology != nil
}

// paintPane lays out and paints the pane; it reports whether its canvas was
// there to paint on.
func (c *PaneView) paintPane() bool {
	p := c.panes[c.Pane]
	cv := app.Window().GetElementByID(p.id("diagram"))
	if !cv.Truthy() {
		c.layoutPane() // no canvas yet: lay out at a default width
		return false
	}
	js := app.Window().Get("spacetime")
	if (p.observed == nil || !p.observed.Equal(cv)) && c.onSize != nil && js.Truthy() {
		// the canvas exists from the first render with a session on: from
		// then on the painter reports its size (and the window's) to us
		js.Call("observe", cv, c.onSize)
		p.observed = cv
		p.width = 0 // measured again below, until the observer reports
	}
	if p.width <= 0 {
		// reading the width makes the browser lay the page out: do it only
		// until the canvas observer reports it
		p.width = cv.Get("clientWidth").Float()
		p.height = cv.Get("clientHeight").Float()
		p.viewport = app.Window().Get("innerHeight").Float()
	}
	tv := app.Window().GetElementByID(p.id("topology"))
	if tv.Truthy() && p.topoWidth <= 0 {
		p.topoWidth = tv.Get("clientWidth").Float()
	}
	if tv.Truthy() && (p.topoObserved == nil || !p.topoObserved.Equal(tv)) && c.onSize != nil && js.Truthy() {
		js.Call("observe", tv, c.onSize)
		p.topoObserved = tv
		p.topoWidth = tv.Get("clientWidth").Float()
	}
	// the lanes first: they are what the learner waits for
	c.layoutLanes()
	p.painter.paint(cv, p.scene, c.palette())
	c.layoutTopology()
	if p.topo != nil && tv.Truthy() {
		p.topoPainter.paint(tv, p.topo, c.palette())
	}
	return true
}

// topologyHeight is the pane's process graph's height: room for its
// processes at the page's text size.
func (c *PaneView) topologyHeight() float64 {
	i := c.Pane
	return diagram.TopologyHeight(c.sess(i).Spec(), len(c.sess(i).Scenario().Names)) * c.scale()
}
