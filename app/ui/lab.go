// Package ui holds the page's go-app components. They stay thin: the
// session and page (app/lab) compute everything, app/diagram lays the
// pictures out, and these components render controls, panels and
// canvases, and forward clicks and keys. The page is made of parts, one
// go-app component per region, on one pattern (parts.go): each holds a
// pointer to the page's shared state (state.go), its pane's index and the
// Lab's render count. lab.go is the top component: the layout (render.go),
// routing and lifecycle; keys.go its keyboard. A pane (PaneView:
// paneview.go, pane.go the pane's state and painting, click.go, view.go,
// tip.go) holds the Controls (play.go), Settings, Tools (commands.go)
// with the CutTool (cut.go), Tour, Quiz and Search, its Menu (menus.go),
// Legend and Panels;
// the page has a Header (header.go, find.go, looks.go), Exports, the
// Importer (load.go), the compare grid (grid.go) with its Comparison
// (sidebyside.go), the CourseIndex (course.go) and the slide bridge
// (slides.go). canvas.go paints.
package ui

import (
	"cmp"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// Speeds are the play speeds offered, in steps per second.
var Speeds = []int{1, 2, 4, 8, 16, 60}

// Lab is the whole page: one run, or several one above the other (a
// compare view), each in a pane with its own canvas, controls and panels.
// It lays the parts out, routes (OnNav) and dispatches the keyboard; the
// parts (parts.go) draw and act.
type Lab struct {
	app.Compo
	state

	// keysOn says the keyboard listener is on (after the first page).
	keysOn bool
	onKey  app.Func
	onDrop app.Func
}

// OnInit sets the defaults, on the server and in the browser alike.
func (c *Lab) OnInit() {
	if c.speed == 0 {
		c.speed = 4
	}
	if c.pngScale == 0 {
		c.pngScale = 2 // sharp in print and on a slide
	}
	if app.IsClient && c.page == nil && !c.index {
		// the page's start shows the index from the first render, as the
		// server sent it, rather than "Loading…" until OnNav
		u := app.Window().URL()
		q, err := lab.ParseLinkQuery(u.RawQuery)
		c.index = err == nil && !isWritePath(u.Path) && lab.IsCourseIndex(q, strings.HasSuffix(u.Path, "/compare"))
	}
}

// OnMount listens to the keyboard and to the canvases' sizes.
func (c *Lab) OnMount(ctx app.Context) {
	c.ctx, c.mounted = ctx, true
	c.onKey = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) > 0 {
			c.key(args[0])
		}
		return nil
	})
	c.onSize = app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) < 5 {
			return nil
		}
		width, viewport, id, height, window := args[0].Float(), args[1].Float(), args[2].String(), args[3].Float(), args[4].Float()
		c.ctx.Dispatch(func(ctx app.Context) { c.resized(ctx, id, width, height, viewport, window) })
		return nil
	})
	c.winWidth = app.Window().Get("innerWidth").Float()
	c.slides().listenToSlides()
	if js := app.Window().Get("spacetime"); js.Truthy() && !c.embed {
		// a scenario file dropped on the page opens (web/spacetime.js)
		c.onDrop = app.FuncOf(func(_ app.Value, args []app.Value) any {
			if len(args) > 0 {
				c.importer().loadFile(args[0])
			}
			return nil
		})
		js.Set("dropped", c.onDrop)
	}
	c.redraw(ctx)
	ctx.Defer(func(app.Context) { c.slides().announce() }) // the slides learn the page is ready
}

// listenToKeys turns the keyboard on once the page has a run to act on,
// and replays the keys pressed while the client was loading (the page's
// script kept them), so that a presenter's early clicks are not lost.
func (c *Lab) listenToKeys() {
	if c.keysOn || c.onKey == nil || c.page == nil {
		return
	}
	c.keysOn = true
	app.Window().Call("addEventListener", "keydown", c.onKey)
	js := app.Window().Get("spacetime")
	if !js.Truthy() || !js.Get("takeEarlyKeys").Truthy() {
		return
	}
	early := js.Call("takeEarlyKeys")
	for j := 0; j < early.Length(); j++ {
		c.key(early.Index(j))
	}
}

// OnDismount releases the window listeners.
func (c *Lab) OnDismount() {
	c.mounted = false
	for _, p := range c.panes {
		p.playing = false
		p.observed, p.topoObserved = nil, nil
	}
	if c.onKey != nil {
		app.Window().Call("removeEventListener", "keydown", c.onKey)
		c.keysOn = false
		if js := app.Window().Get("spacetime"); js.Truthy() {
			js.Call("observe", app.Null(), nil)
		}
		c.onKey.Release()
		c.onSize.Release()
	}
	if c.onDrop != nil {
		if js := app.Window().Get("spacetime"); js.Truthy() {
			js.Set("dropped", app.Null())
		}
		c.onDrop.Release()
		c.onDrop = nil
	}
	if c.onMessage != nil {
		app.Window().Call("removeEventListener", "message", c.onMessage)
		c.onMessage.Release()
		c.onMessage = nil
	}
}

// OnNav opens the view the URL describes.
func (c *Lab) OnNav(ctx app.Context) {
	u := ctx.Page().URL()
	// a static site serves /compare and /write below its own path
	c.compare = strings.HasSuffix(u.Path, "/compare")
	c.write = isWritePath(u.Path)
	if c.loadOwnClient(u) {
		return
	}
	if q, err := lab.ParseLinkQuery(u.RawQuery); err != nil {
		// what does parse may still say the page is framed in a slide
		partial, _ := url.ParseQuery(u.RawQuery)
		c.embed = partial.Get("embed") == "1"
		c.refuse(err)
	} else {
		c.open(q)
	}
	c.nameThePage(ctx)
	c.redraw(ctx)
	ctx.Defer(func(app.Context) { c.listenToKeys(); c.slides().announce() })
}

// open builds the page from a link. A bad link keeps the current view (or
// the default lesson) and says what is wrong with it.
func (c *Lab) open(q url.Values) {
	c.embed = q.Get("embed") == "1"
	prep, token := takePrepared(q)
	c.prepared = token
	if !c.writing() && lab.IsCourseIndex(q, c.compare) {
		c.showIndex()
		return
	}
	if c.writing() {
		q = lab.WriteDefault(q) // a learner starts from a program
	}
	var page *lab.Page
	var err error
	if app.IsServer && prep != nil {
		// the server opened the link within its budget; past it, the
		// page goes without its pictures and the client opens the link
		if page, err = prep.Page, prep.Err; page == nil && err == nil {
			return
		}
	} else {
		page, err = lab.PageFromQuery(q, c.compare)
	}
	if err != nil {
		if c.goElsewhere(err) {
			return
		}
		c.refuse(err)
		return
	}
	c.setPage(page)
	c.problem = ""
}

// refuse says what is wrong with a link, keeping the view (or, on a page
// that has none yet, opening the default lesson).
func (c *Lab) refuse(err error) {
	c.problem = "This link could not be opened: " + err.Error()
	if c.page == nil {
		def, _ := scenario.Builtin(scenario.Default)
		s, _ := lab.Open(def)
		c.setPage(lab.OpenPage(s))
	}
}

// setPage shows a page, keeping the panes' state where a pane stays. The
// page is embedded when this page is, so that its link (Page.Query) keeps
// embed=1: a link it did not come from (the slides' load, the default
// lesson of a refused link) does not say so itself.
func (c *state) setPage(p *lab.Page) {
	if old := c.page; old != nil && old != p {
		// the learner's presentation stays with whatever opens next (a
		// comparison, a file): the text size, the theme, and the one site
		// whose slides may drive an embedded page
		p.Text = cmp.Or(p.Text, old.Text)
		p.Theme = cmp.Or(p.Theme, old.Theme)
		p.Origin = cmp.Or(p.Origin, old.Origin)
	}
	c.page, c.index = p, false
	p.Embed = c.embed
	for len(c.panes) < len(p.Views) {
		c.nextPane++
		c.panes = append(c.panes, newPane(c.nextPane))
	}
	for _, gone := range c.panes[len(p.Views):] {
		gone.stopObserving()
	}
	c.panes = c.panes[:len(p.Views)]
	for i, pn := range c.panes {
		pn.reset()
		// what the link asked for that is shown otherwise, said once
		pn.notice, p.Views[i].LinkNote = p.Views[i].LinkNote, ""
	}
	if c.enlarged > len(c.panes) || len(c.panes) < 2 {
		c.enlarged = 0
	}
	c.focus = min(c.focus, len(c.panes)-1)
}

// several says the page holds more than one run.
func (c *state) several() bool { return c.page != nil && len(c.page.Views) > 1 }

// together says the page steps its runs as one.
func (c *state) together() bool { return c.several() && c.page.Together }

// changed repaints and records the new view in the URL: the picture
// first, as the learner waits for it, and the address after it (a dozen
// calls into the browser, which the picture need not wait for).
func (c *state) changed(ctx app.Context) {
	if c.page == nil {
		return
	}
	c.redraw(ctx)
	u := *ctx.Page().URL()
	u.RawQuery = lab.EncodeQuery(c.page.Query())
	ctx.Page().ReplaceURL(&u)
	c.nameThePage(ctx)
	c.slides().announce()
}

// redraw lays the pictures out again and paints them. Once the page is
// mounted it paints at once, without waiting for go-app's next frame, so
// that stepping and scrubbing answer quickly; the panels follow in that
// frame. Before that it defers until the canvases exist, on the Lab's own
// context once mounted: an element whose handler asked may be gone after
// the render (a menu button that closes its menu), and its deferred work
// with it.
func (c *state) redraw(ctx app.Context) {
	c.hideTip()
	if c.mounted && c.paint() {
		return
	}
	if c.mounted {
		ctx = c.ctx
	}
	ctx.Defer(func(app.Context) { c.paint() })
}

// paint lays out and paints every pane; it reports whether the canvases
// were there to paint on.
func (c *state) paint() bool {
	if c.page == nil {
		return false
	}
	ok := true
	for i := range c.panes {
		if c.shown(i) {
			ok = c.paneOf(i).paintPane() && ok
		}
	}
	return ok
}

// resized records a canvas's new size and the window's, and repaints.
func (c *state) resized(ctx app.Context, id string, width, height, viewport, window float64) {
	c.winWidth = window
	for _, p := range c.panes {
		switch id {
		case p.id("diagram"):
			if width != p.width || height != p.height || viewport != p.viewport {
				p.width, p.height, p.viewport = width, height, viewport
				c.redraw(ctx)
			}
		case p.id("topology"):
			if width != p.topoWidth {
				p.topoWidth = width
				c.redraw(ctx)
			}
		}
	}
}

// setFocus makes pane i the one the keyboard acts on.
func (c *state) setFocus(i int) {
	if i >= 0 && i < len(c.panes) {
		c.focus = i
	}
}
