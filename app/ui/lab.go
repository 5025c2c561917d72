// Package ui holds the page's go-app components. They stay thin: the session
// (app/lab) computes everything, app/diagram lays the picture out, and these
// components render controls, panels and a canvas, and forward clicks and
// keys.
package ui

import (
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Speeds are the play speeds offered, in steps per second.
var Speeds = []int{1, 2, 4, 8, 16, 60}

// Lab is the whole page: a scenario, its diagram, controls and panels.
type Lab struct {
	app.Compo

	sess *lab.Session
	// problem is bad input the learner should read (a link or scenario that
	// could not be opened); the view keeps what it had.
	problem string
	// notice is feedback on the last action, such as a refused delivery.
	notice string
	menu   processMenu
	embed  bool

	playing bool
	playGen int
	speed   int

	pauseTicks int
	loading    bool
	loadText   string
	drag       drag
	scrubGen   int
	// commandNode is the process the command bar acts at, with many processes.
	commandNode sim.NodeID

	scene   *diagram.Scene
	painter painter
	// width is the canvas's width in CSS pixels, as last observed, and
	// viewport the window's height.
	width, viewport float64
	observing       bool
	ctx             app.Context
	mounted         bool
	onKey           app.Func
	onSize          app.Func
}

// drag is a pan of the diagram in progress with the mouse.
type drag struct {
	down  bool
	lastX float64
	// moved says the mouse travelled far enough that the press is a drag,
	// not a click.
	moved bool
	from  float64
}

// processMenu is the little menu opened by clicking a process.
type processMenu struct {
	open bool
	node sim.NodeID
	x, y float64
	// target and arg are the chosen target and number of a command that
	// takes them.
	target sim.NodeID
	arg    int64
}

// OnInit sets the defaults, on the server and in the browser alike.
func (c *Lab) OnInit() {
	if c.speed == 0 {
		c.speed = 4
	}
	if c.pauseTicks == 0 {
		c.pauseTicks = 15
	}
}

// OnMount listens to the keyboard and to the canvas's size.
func (c *Lab) OnMount(ctx app.Context) {
	c.ctx, c.mounted = ctx, true
	c.onKey = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) > 0 {
			c.key(args[0])
		}
		return nil
	})
	c.onSize = app.FuncOf(func(_ app.Value, args []app.Value) any {
		width, viewport := args[0].Float(), args[1].Float()
		c.ctx.Dispatch(func(ctx app.Context) {
			if width != c.width || (c.embed && viewport != c.viewport) {
				c.width, c.viewport = width, viewport
				c.redraw(ctx)
			}
		})
		return nil
	})
	app.Window().Call("addEventListener", "keydown", c.onKey)
	c.redraw(ctx)
}

// OnDismount releases the window listeners.
func (c *Lab) OnDismount() {
	c.playing, c.mounted, c.observing = false, false, false
	if c.onKey != nil {
		app.Window().Call("removeEventListener", "keydown", c.onKey)
		if js := app.Window().Get("spacetime"); js.Truthy() {
			js.Call("observe", app.Null(), nil)
		}
		c.onKey.Release()
		c.onSize.Release()
	}
}

// OnNav opens the view the URL describes.
func (c *Lab) OnNav(ctx app.Context) {
	c.open(ctx.Page().URL().Query())
	c.redraw(ctx)
}

// open builds the session from a link. A bad link keeps the current view
// (or the default lesson) and says what is wrong with it.
func (c *Lab) open(q url.Values) {
	c.embed = q.Get("embed") == "1"
	sess, err := lab.FromQuery(q)
	if err != nil {
		c.problem = "This link could not be opened: " + err.Error()
		if c.sess == nil {
			def, _ := scenario.Builtin(scenario.Default)
			c.sess, _ = lab.Open(def)
		}
		return
	}
	c.sess, c.problem, c.notice = sess, "", ""
}

// changed records the new view in the URL and repaints.
func (c *Lab) changed(ctx app.Context) {
	if c.sess == nil {
		return
	}
	u := *ctx.Page().URL()
	q := c.sess.Query()
	if c.embed {
		q.Set("embed", "1")
	}
	u.RawQuery = lab.EncodeQuery(q)
	ctx.Page().ReplaceURL(&u)
	c.redraw(ctx)
}

// redraw lays the diagram out again and paints it. Once the page is mounted
// it paints at once, without waiting for go-app's next frame, so that
// stepping and scrubbing answer quickly; the panels follow in that frame.
// Before that it defers until the canvas exists, on the Lab's own context
// once mounted: an element whose handler asked may be gone after the render
// (a menu button that closes its menu), and its deferred work with it.
func (c *Lab) redraw(ctx app.Context) {
	if c.mounted && c.paint() {
		return
	}
	if c.mounted {
		ctx = c.ctx
	}
	ctx.Defer(func(app.Context) { c.paint() })
}

// paint lays out and paints the diagram; it reports whether the canvas was
// there to paint on.
func (c *Lab) paint() bool {
	if c.sess == nil {
		return false
	}
	cv := app.Window().GetElementByID("diagram")
	if !cv.Truthy() {
		// no canvas yet: lay out at a default width, so clicks resolve
		c.scene = c.sess.Scene(900, c.canvasHeight())
		return false
	}
	if !c.observing && c.onSize != nil {
		// the canvas exists from the first render with a session on: from
		// then on the painter reports its size (and the window's) to us
		if js := app.Window().Get("spacetime"); js.Truthy() {
			js.Call("observe", cv, c.onSize)
			c.observing = true
		}
	}
	if c.width <= 0 {
		// reading the width makes the browser lay the page out: do it only
		// until the canvas observer reports it
		c.width = cv.Get("clientWidth").Float()
		c.viewport = app.Window().Get("innerHeight").Float()
	}
	width := c.width
	if width <= 0 {
		width = 900
	}
	c.scene = c.sess.Scene(width, c.canvasHeight())
	c.painter.paint(cv, c.scene)
	return true
}

// canvasHeight is the diagram's height: set by the number of processes, or,
// embedded in a slide, what the frame leaves after the controls and caption.
func (c *Lab) canvasHeight() float64 {
	if c.embed && c.viewport > 0 {
		return max(c.viewport-embedChrome, 160)
	}
	return diagram.HeightFor(len(c.sess.Scenario().Names))
}

// embedChrome is the height an embedded page keeps for its controls and a
// caption of up to three lines.
const embedChrome = 170

// step moves the view and stops the menu and notices that belonged to the
// old step.
func (c *Lab) step(ctx app.Context, move func() bool) {
	move()
	c.notice = ""
	c.menu.open = false
	c.changed(ctx)
}

func (c *Lab) forward(ctx app.Context) { c.step(ctx, c.sess.Forward) }
func (c *Lab) back(ctx app.Context)    { c.step(ctx, c.sess.Back) }
func (c *Lab) home(ctx app.Context) {
	c.step(ctx, func() bool { c.sess.Seek(0); return true })
}
func (c *Lab) end(ctx app.Context) {
	c.step(ctx, func() bool { c.sess.Seek(c.sess.Len()); return true })
}

// key handles the keyboard: arrows and PageUp/PageDown step (presenter
// remotes send the latter), Space plays, Home and End jump.
func (c *Lab) key(ev app.Value) {
	// keys with Ctrl, Cmd or Alt are the browser's (zoom, find, back)
	if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
		return
	}
	// keys typed into a field, or moving the scrubber, belong to that field;
	// Space on a focused button or checkbox presses it
	k := ev.Get("key").String()
	target := ev.Get("target")
	switch target.Get("tagName").String() {
	case "TEXTAREA", "SELECT":
		return
	case "INPUT":
		if t := target.Get("type").String(); t != "checkbox" || k == " " {
			return
		}
	case "BUTTON":
		if k == " " || k == "Enter" {
			return
		}
	}
	var act func(app.Context)
	if ev.Get("shiftKey").Bool() && (k == "ArrowRight" || k == "ArrowLeft") {
		dir := 1.0
		if k == "ArrowLeft" {
			dir = -1
		}
		k = "pan"
		act = func(ctx app.Context) { c.pan(ctx, dir*panStep) }
	}
	switch k {
	case "pan":
	case "ArrowRight", "PageDown":
		act = c.forward
	case "ArrowLeft", "PageUp":
		act = c.back
	case "Home":
		act = c.home
	case "End":
		act = c.end
	case " ", "Spacebar":
		act = c.togglePlay
	case "Escape":
		act = func(ctx app.Context) {
			c.menu.open, c.notice = false, ""
			c.sess.Select(-1)
			c.changed(ctx)
		}
	case "+", "=":
		act = func(ctx app.Context) { c.zoom(ctx, 1/zoomStep) }
	case "-", "_":
		act = func(ctx app.Context) { c.zoom(ctx, zoomStep) }
	case "0":
		act = func(ctx app.Context) { c.sess.ResetView(); c.changed(ctx) }
	case "f", "F":
		act = c.follow
	case "c", "C":
		act = c.toggleCut
	default:
		return
	}
	ev.Call("preventDefault")
	c.ctx.Dispatch(func(ctx app.Context) {
		if k == "ArrowRight" || k == "ArrowLeft" || k == "PageDown" || k == "PageUp" || k == "Home" || k == "End" {
			c.playing = false
		}
		act(ctx)
	})
}

func (c *Lab) togglePlay(ctx app.Context) {
	if c.playing {
		c.playing = false
		return
	}
	if c.sess.Step() >= c.sess.Len() {
		c.sess.Seek(0)
	}
	c.playing = true
	c.playGen++
	c.tick(ctx, c.playGen)
}

// tick advances one step per beat while playing.
func (c *Lab) tick(ctx app.Context, gen int) {
	ctx.After(time.Second/time.Duration(c.speed), func(ctx app.Context) {
		if !c.playing || gen != c.playGen {
			return
		}
		if !c.sess.Forward() {
			c.playing = false
		}
		c.changed(ctx)
		if c.playing {
			c.tick(ctx, gen)
		}
	})
}

// act runs a learner action and shows its effect or why it was refused.
func (c *Lab) act(ctx app.Context, do func() error) {
	c.playing = false
	c.menu.open = false
	if err := do(); err != nil {
		c.notice = err.Error()
	} else {
		c.notice = ""
	}
	c.changed(ctx)
}

// toggleCut turns the cut tool on or off.
func (c *Lab) toggleCut(ctx app.Context) {
	c.sess.ToggleCut()
	c.menu.open = false
	c.changed(ctx)
}

// scrub follows the scrubber: the diagram is repainted at once, while the
// page around it (panels, caption, link) is brought up to date only once the
// learner pauses, so that dragging through a long run stays smooth.
func (c *Lab) scrub(ctx app.Context, k int) {
	c.playing, c.menu.open, c.notice = false, false, ""
	c.sess.Seek(k)
	c.redraw(ctx)
	ctx.PreventUpdate()
	c.scrubGen++
	gen := c.scrubGen
	ctx.After(scrubSettle, func(ctx app.Context) {
		if gen == c.scrubGen {
			c.changed(ctx)
		}
	})
}

// scrubSettle is how long the scrubber rests before the page catches up.
const scrubSettle = 120 * time.Millisecond

// zoomStep is one step of zooming out; its inverse zooms in.
const zoomStep = 1.25

// panStep is the share of the window one pan key moves it by.
const panStep = 0.2

// zoom zooms by factor around the present (or the middle, when pinned).
func (c *Lab) zoom(ctx app.Context, factor float64) {
	if c.scene == nil {
		return
	}
	c.sess.Zoom(c.scene, factor)
	c.changed(ctx)
}

// pan moves the window by a share of its width.
func (c *Lab) pan(ctx app.Context, share float64) {
	if c.scene == nil {
		return
	}
	c.sess.Pan(c.scene, share*c.scene.PlotWidth())
	c.changed(ctx)
}

func (c *Lab) follow(ctx app.Context) {
	c.sess.Follow()
	c.changed(ctx)
}

// wheel zooms at the mouse; with Shift, or a sideways scroll, it pans.
func (c *Lab) wheel(ctx app.Context, e app.Event) {
	if c.scene == nil {
		return
	}
	e.PreventDefault()
	dx, dy := e.Get("deltaX").Float(), e.Get("deltaY").Float()
	if e.Get("shiftKey").Bool() || math.Abs(dx) > math.Abs(dy) {
		c.sess.Pan(c.scene, dx+dy)
	} else {
		c.sess.ZoomAt(c.scene, e.Get("offsetX").Float(), math.Exp(dy*0.0015))
	}
	c.changed(ctx)
}

func (c *Lab) dragStart(ctx app.Context, e app.Event) {
	x := e.Get("offsetX").Float()
	c.drag = drag{down: true, lastX: x, from: x}
}

// dragMove pans with the mouse: the picture follows the pointer.
func (c *Lab) dragMove(ctx app.Context, e app.Event) {
	if !c.drag.down || c.scene == nil {
		return
	}
	x := e.Get("offsetX").Float()
	if !c.drag.moved && math.Abs(x-c.drag.from) < 5 {
		return
	}
	c.drag.moved = true
	c.sess.Pan(c.scene, c.drag.lastX-x)
	c.drag.lastX = x
	c.redraw(ctx)
	ctx.PreventUpdate() // the page catches up when the drag ends
}

func (c *Lab) dragEnd(ctx app.Context, e app.Event) {
	if c.drag.down && c.drag.moved {
		c.changed(ctx) // the link records where the view ended up
	}
	c.drag.down = false
}

// click handles a click on the diagram.
func (c *Lab) click(ctx app.Context, e app.Event) {
	if c.scene == nil {
		return
	}
	if c.drag.moved { // the end of a drag, not a click
		c.drag.moved = false
		return
	}
	x, y := e.Get("offsetX").Float(), e.Get("offsetY").Float()
	if c.sess.Cut.On { // the cut tool places a point on the nearest line
		if lane, ok := c.scene.LaneAt(y); ok {
			c.sess.PlaceCut(lane, c.scene.TimeAt(x))
			c.changed(ctx)
		}
		return
	}
	hit := c.scene.Hit(x, y)
	switch hit.Kind {
	case diagram.HitMessage:
		if hit.InFlight {
			c.act(ctx, func() error { return c.sess.Deliver(hit.Msg) })
			return
		}
		c.notice = c.sess.Describe(hit.Msg) + " has already arrived."
	case diagram.HitEvent:
		c.sess.Select(hit.Step)
		c.notice = c.sess.SelectionText()
		c.changed(ctx)
	case diagram.HitProcess:
		c.menu = processMenu{open: true, node: hit.Node, x: x, y: y, target: c.menu.target, arg: max(c.menu.arg, 10)}
	default:
		c.menu.open = false
	}
}

func (c *Lab) switchScenario(ctx app.Context, id string) {
	s, err := scenario.Builtin(id)
	if err != nil {
		c.problem = err.Error()
		return
	}
	c.load(ctx, s)
}

// load opens a scenario in place of the current one.
func (c *Lab) load(ctx app.Context, s *scenario.Scenario) {
	sess, err := lab.Open(s)
	if err != nil {
		c.problem = "This scenario could not be opened: " + err.Error()
		return
	}
	sess.Axis = c.sess.Axis
	c.sess, c.problem, c.notice, c.playing, c.menu.open = sess, "", "", false, false
	if int(c.commandNode) >= len(s.Names) {
		c.commandNode = 0
	}
	c.changed(ctx)
}

// toggleFIFO switches to the scenario's counterpart with the other channel
// discipline: a built-in pair when the lesson has one, else the same
// scenario with FIFO flipped.
func (c *Lab) toggleFIFO(ctx app.Context) {
	s := c.sess.Scenario()
	if s.Counterpart != "" {
		c.switchScenario(ctx, s.Counterpart)
		return
	}
	flipped := s.Clone()
	fifo := !s.FIFO()
	flipped.Network.FIFO = &fifo
	c.load(ctx, flipped)
}

func (c *Lab) reset(ctx app.Context) {
	c.load(ctx, c.sess.Scenario())
}

func (c *Lab) setAxis(ctx app.Context, a diagram.Axis) {
	c.sess.Axis = a
	c.sess.Follow() // a pinned window is measured in the other axis's units
	c.changed(ctx)
}

func (c *Lab) loadPasted(ctx app.Context) {
	s, err := scenario.Parse([]byte(c.loadText))
	if err != nil {
		c.problem = "This scenario was not loaded: " + err.Error()
		return
	}
	c.loading = false
	c.load(ctx, s)
}

func (c *Lab) export(format string) {
	r := c.sess.Run()
	name := c.sess.Scenario().ID
	if name == "" {
		name = "scenario"
	}
	name += "-step" + strconv.Itoa(c.sess.Step())
	switch format {
	case "svg":
		width := 1200.0
		if c.scene != nil {
			width = c.scene.Width
		}
		download(name+".svg", "image/svg+xml", c.sess.Scene(width, c.canvasHeight()).SVG())
	case "json":
		data, _ := r.Trace().JSON(c.sess.Step())
		download(name+".json", "application/json", data)
	case "shiviz":
		download(name+".log", "text/plain", r.Trace().ShiViz(c.sess.Step()))
	case "scenario":
		download(name+".scenario.json", "application/json", c.sess.Scenario().JSON())
	}
}
