package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// Render draws the page around the canvases; each canvas is always the
// same element, painted from Go after each render. A page of one run is
// laid out for a projector: the header, then the diagram with its
// controls, caption and verdict filling the window's height, beside a
// column (topology, settings, actions, legend, panels) that scrolls on
// its own.
func (c *Lab) Render() app.UI {
	c.OnInit() // go-app's native engine renders before it initialises
	if c.index {
		return c.courseIndex()
	}
	if c.page == nil {
		return app.Div().Class("lab").Body(app.P().Text("Loading…"))
	}
	cls := "lab text-" + c.textSize()
	switch {
	case c.embed && c.several():
		cls += " embed compare" // runs one above the other, sharing the frame
	case c.embed:
		cls += " embed"
	case c.gridded():
		cls += fmt.Sprintf(" compare grid cols-%d", c.columns())
	case c.several():
		cls += " compare enlarged"
	default:
		cls += " present"
	}
	if c.page.Theme == "dark" {
		cls += " dark"
	}
	body := []app.UI{
		app.If(!c.embed, c.header),
		app.If(c.problem != "", func() app.UI {
			return app.Div().Class("problem").Attr("role", "alert").Body(
				app.Span().Text(c.problem),
				app.Button().Class("dismiss").Text("Dismiss").OnClick(func(ctx app.Context, e app.Event) { c.problem = "" }),
			)
		}),
		app.If(c.loading && !c.embed, c.loader),
		app.If(c.together(), func() app.UI { return c.controls(0, true) }),
	}
	var panes []app.UI
	for i := range c.panes {
		if c.shown(i) {
			panes = append(panes, c.renderPane(i))
		}
	}
	if !c.several() || c.embed {
		body = append(body, app.If(c.several(), c.sideBySide))
		body = append(body, panes...)
		return app.Div().Class(attrText(cls)).Body(body...)
	}
	// a compare view: the runs in a grid, the table of their figures
	// under it (an enlarged run alone, the table under it too)
	body = append(body, app.Div().Class("runs").Body(panes...), c.sideBySide())
	return app.Div().Class(attrText(cls)).Body(body...)
}

// renderPane draws one run: its pictures and controls, caption and
// verdict, and beside them its settings, actions, legend and panels.
func (c *Lab) renderPane(i int) app.UI {
	p := c.panes[i]
	s := c.sess(i)
	changes := s.Changes()
	cls := "pane"
	if c.several() && i == c.focus {
		cls += " active"
	}
	verdict, holds := s.Verdict()
	main := app.Div().Class("main").Body(
		app.If(c.gridded(), func() app.UI { return c.gridBar(i) }),
		app.If(c.several() && !c.embed && !c.gridded(), func() app.UI { return c.paneBar(i) }),
		app.Div().Class("stage").Body(
			c.diagram(i),
			c.eventList(i),
			// in a slide with the keyboard, how to give it back (shown by
			// web/spacetime.css when the frame has the focus)
			app.If(c.embed && i == 0, func() app.UI { return app.Div().Class("slides-hint").Text("Esc: keys back to the slides") }),
			app.If(p.menu.kind != menuNone && !p.menu.topology, func() app.UI { return c.renderMenu(i) }),
			// feedback on a click sits over the diagram's foot, so that
			// the diagram keeps its size (and what was clicked its place)
			app.If(p.notice != "" || s.Cut.On || p.search != nil, func() app.UI {
				return app.Div().Class("notes").Body(
					app.If(p.search != nil, func() app.UI { return c.searchStatus(i) }),
					app.If(p.notice != "", func() app.UI {
						return app.Div().ID(p.id("notice")).Class("notice").Attr("role", "status").Text(p.notice)
					}),
					app.If(s.Cut.On, func() app.UI {
						return app.Div().ID(p.id("cut-verdict")).Class("notice cut").Attr("role", "status").Text(s.CutText())
					}),
				)
			}),
		),
		// a tour's stop takes its room from the diagram rather than
		// covering any of it
		app.If(s.TourStop() > 0, func() app.UI { return c.narration(i) }),
		app.If(s.QuizOn(), func() app.UI { return c.quizBox(i) }),
		app.If(!c.together(), func() app.UI { return c.controls(i, false) }),
		// stepping together in the grid, the run's position is in its bar
		app.If(c.together() && !c.gridded(), func() app.UI { return app.Div().Class("controls").Body(c.position(i)) }),
		c.words(i, verdict, holds),
		app.If(s.Stopped() != "", func() app.UI {
			return app.Div().ID(p.id("stopped")).Class("notice stopped").Attr("role", "status").Text(s.Stopped())
		}),
		app.If(len(changes) > 0, func() app.UI {
			return app.Div().ID(p.id("changes")).Class("notice changes").Text("Changed: " + strings.Join(changes, "; ") + ".")
		}),
	)
	var side []app.UI
	if c.gridded() {
		// in the grid a run shows its diagram and words; enlarged, the rest
	} else if c.showTopology(i) {
		side = append(side, app.Div().Class("topology").Body(
			c.topology(i),
			app.If(p.menu.kind != menuNone && p.menu.topology, func() app.UI { return c.renderMenu(i) }),
		))
	}
	if !c.embed && !c.gridded() {
		if !c.several() {
			side = append(side, app.Div().Class("settings").Body(c.runToggles(i)...))
		}
		side = append(side,
			app.Div().Class("tools").Body(c.paneTools(i)...),
			c.legend(i),
			c.panels(i),
		)
		side = append(side, c.exports())
	}
	return app.Section().ID(p.id("pane")).Class(attrText(cls)).Attr("aria-label", "run "+strconv.Itoa(i+1)).
		On("focusin", func(ctx app.Context, e app.Event) { c.setFocus(i) }, app.EventScope(p.n, i)).
		On("mousedown", func(ctx app.Context, e app.Event) { c.setFocus(i) }, app.EventScope(p.n, i)).
		Body(main, app.If(len(side) > 0, func() app.UI { return app.Aside().Class("side").Body(side...) }))
}

// diagram is pane i's canvas. The server's prerendered page has the same
// picture as inline SVG instead, so that the diagram is on screen before
// the client has loaded; the client's canvas then takes its place.
func (c *Lab) diagram(i int) app.UI {
	p := c.panes[i]
	if app.IsServer {
		c.sess(i).Scale = c.paneScale(i)
		width := float64(prerenderWidth)
		switch {
		case c.gridded():
			width = c.gridCell()[0]
		case !c.fills():
			width = comparePrerenderWidth
		}
		svg := c.page.Scene(i, width, c.canvasHeight(i)).SVGIn(c.palette())
		mark := ""
		if i == 0 {
			mark = "<script>" + InlineScripts[0] + "</script>"
		}
		return app.Raw(`<div class="prerender">` + string(svg) + mark + `</div>`)
	}
	return app.Canvas().ID(p.id("diagram")).Class("diagram").Attr("aria-label", "space-time diagram").Attr("aria-describedby", p.id("events")).DataSet("fill", c.fills()).
		OnClick(func(ctx app.Context, e app.Event) { c.click(ctx, i, e) }, app.EventScope(p.n, i)).
		OnContextMenu(func(ctx app.Context, e app.Event) { c.contextMenu(ctx, i, e) }, app.EventScope(p.n, i)).
		OnWheel(func(ctx app.Context, e app.Event) { c.wheel(ctx, i, e) }, app.EventScope(p.n, i)).
		OnMouseDown(func(ctx app.Context, e app.Event) { c.dragStart(ctx, i, e) }, app.EventScope(p.n, i)).
		OnMouseMove(func(ctx app.Context, e app.Event) { c.dragMove(ctx, i, e) }, app.EventScope(p.n, i)).
		OnMouseUp(func(ctx app.Context, e app.Event) { c.dragEnd(ctx, i, e) }, app.EventScope(p.n, i)).
		OnMouseLeave(func(ctx app.Context, e app.Event) { c.dragEnd(ctx, i, e) }, app.EventScope(p.n, i))
}

// topology is pane i's topology view, prerendered on the server as the
// diagram is.
func (c *Lab) topology(i int) app.UI {
	p := c.panes[i]
	if app.IsServer {
		c.sess(i).Scale = c.scale()
		if sc := c.sess(i).TopologyScene(topologyWidth, c.topologyHeight(i)); sc != nil {
			return app.Raw(`<div class="prerender">` + string(sc.SVGIn(c.palette())) + `</div>`)
		}
		return app.Div()
	}
	return app.Canvas().ID(p.id("topology")).Class("topology-view").Attr("aria-label", "process graph").
		OnClick(func(ctx app.Context, e app.Event) { c.clickTopology(ctx, i, e) }, app.EventScope(p.n, i)).
		OnMouseMove(func(ctx app.Context, e app.Event) { c.hover(i, e, true); ctx.PreventUpdate() }, app.EventScope(p.n, i)).
		OnMouseLeave(func(ctx app.Context, e app.Event) { c.hideTip(); ctx.PreventUpdate() }, app.EventScope(p.n, i))
}

// InlineScripts are the scripts the prerendered page carries inline (the
// server's Content-Security-Policy allows them by their hashes): the first
// marks the moment the static diagram is on screen, for the benchmarks.
var InlineScripts = []string{`performance.mark("spacetime-first-diagram-static")`}

// prerenderWidth and prerenderHeight are the size the server lays a page
// of one run out at: its diagram's on a 1280×720 projector, where it is
// shown as is (elsewhere the page scales it to the stage until the client
// draws). A compare view's diagrams are laid out comparePrerenderWidth
// wide.
const (
	prerenderWidth        = 880
	prerenderHeight       = 420
	comparePrerenderWidth = 1200
)

// checkbox is a checkbox input. The browser gets its state as a property
// (go-app sets it so), but the server's prerendered HTML must leave a false
// one out: checked="false" would still tick the box.
func checkbox(id string, on bool) app.HTMLInput {
	in := app.Input().ID(attrText(id)).Type("checkbox")
	if on || app.IsClient {
		in = in.Checked(on)
	}
	return in
}

// option is a select's option; like checkbox, a false selection is left out
// of the prerendered HTML.
func option(value, text string, selected bool) app.HTMLOption {
	o := app.Option().Value(attrText(value)).Text(text)
	if selected || app.IsClient {
		o = o.Selected(selected)
	}
	return o
}

func (c *Lab) header() app.UI {
	// the title leads to the course's index, on the site's own path
	items := []app.UI{app.H1().Body(app.A().Href("./").Title("The course: every claim and its lesson").Text("Spacetime"))}
	if !c.several() {
		items = append(items, c.scenarioPicker(0), c.finder())
	} else {
		items = append(items, app.Label().Class("toggle").Body(
			checkbox("together", c.page.Together).OnChange(func(ctx app.Context, e app.Event) {
				c.setTogether(ctx, ctx.JSSrc().Get("checked").Bool())
			}),
			app.Text(" Step the runs together (in time order)"),
		))
	}
	adds := append([]app.UI{option("", "Compare with…", true)}, lessonOptions("", true, "")...)
	items = append(items,
		app.Span().Class("spacer"),
		c.looks(),
		app.Select().ID("add-view").Attr("aria-label", "compare with another lesson").Body(adds...).OnChange(func(ctx app.Context, e app.Event) {
			if id := ctx.JSSrc().Get("value").String(); id != "" {
				ctx.JSSrc().Set("value", "")
				if !c.openComparison(ctx, id) {
					c.addView(ctx, id)
				}
			}
		}),
		app.Button().ID("load").Text("Load…").Title("Paste a scenario file").OnClick(func(ctx app.Context, e app.Event) { c.toggleLoader() }),
	)
	return app.Header().Class("top").Body(items...)
}

// exports are the buttons that save the run in the focused pane.
func (c *Lab) exports() app.UI {
	return app.Div().Class("exports").Body(
		app.Text("Export: "),
		c.exportButton("svg", "SVG"),
		c.exportButton("png", "PNG"),
		c.pngScalePicker(),
		c.exportButton("json", "trace JSON"),
		c.exportButton("shiviz", "ShiViz log"),
		c.exportButton("tikz", "TikZ"),
		c.exportButton("scenario", "scenario"),
	)
}

// pngScalePicker chooses how large a PNG is exported.
func (c *Lab) pngScalePicker() app.UI {
	options := make([]app.UI, len(pngScales))
	for j, s := range pngScales {
		options[j] = option(strconv.Itoa(s), strconv.Itoa(s)+"×", s == c.pngScale)
	}
	return app.Select().ID("png-scale").Attr("aria-label", "PNG scale").Title("The PNG's size: 1× as on screen, 2× for print and slides").Body(options...).
		OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && slices.Contains(pngScales, v) {
				c.pngScale = v
			}
		})
}

// scenarioPicker chooses pane i's lesson.
func (c *Lab) scenarioPicker(i int) app.UI {
	p := c.panes[i]
	s := c.sess(i).Scenario()
	builtin := false
	for _, b := range scenario.BuiltinList() {
		builtin = builtin || b.ID == s.ID
	}
	options := lessonOptions(s.ID, !c.several(), c.find)
	if !builtin && scenario.ComparisonOf(s.ID) != "" && scenario.IsBuiltin(s) {
		// a comparison's run, in its compare view
		options = append(options, option(s.ID, s.Title, true))
		builtin = true
	}
	if !builtin {
		options = append(options, option("", "(your scenario) "+s.Title, true))
	}
	return app.Select().ID(p.id("scenario")).Attr("aria-label", "scenario").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
		if id := ctx.JSSrc().Get("value").String(); id != "" && !c.openComparison(ctx, id) {
			c.switchScenario(ctx, i, id)
		}
	}, app.EventScope(p.n, i))
}

// runToggles are pane i's checkboxes: FIFO channels, the algorithm's
// switches (fencing, epochs) and the Lamport axis, and its timestamps.
func (c *Lab) runToggles(i int) []app.UI {
	p := c.panes[i]
	s := c.sess(i)
	var toggles []app.UI
	if !s.Spec().Learner.Record {
		// a log's channels did what the log says
		toggles = append(toggles, app.Label().Class("toggle").Title("Run this scenario again with the other channel discipline, keeping your inputs").Body(
			checkbox(p.id("fifo"), s.Scenario().FIFO()).OnChange(func(ctx app.Context, e app.Event) { c.toggleFIFO(ctx, i) }, app.EventScope(p.n, i)),
			app.Text(" FIFO channels"),
		))
	}
	for _, sw := range s.Spec().Learner.Switches {
		toggles = append(toggles, app.Label().Class("toggle").Title(attrText(sw.Help)).Body(
			checkbox(p.id("switch-"+sw.Param), s.Scenario().Switched(sw)).OnChange(func(ctx app.Context, e app.Event) { c.toggleSwitch(ctx, i, sw) }, app.EventScope(p.n, i)),
			app.Text(" "+sw.Label),
		))
	}
	return append(toggles,
		app.Label().Class("toggle").Body(
			checkbox(p.id("lamport"), s.Axis == diagram.AxisLamport).OnChange(func(ctx app.Context, e app.Event) {
				axis := diagram.AxisTime
				if ctx.JSSrc().Get("checked").Bool() {
					axis = diagram.AxisLamport
				}
				c.setAxis(ctx, i, string(axis))
			}, app.EventScope(p.n, i)),
			app.Text(" Lamport time axis"),
		),
		app.Select().ID(p.id("stamps")).Attr("aria-label", "timestamps").Title("Write every event's Lamport timestamp or vector clock under its dot").Body(
			option("none", "no timestamps", s.Stamps == diagram.StampsNone),
			option(string(diagram.StampsLamport), "Lamport timestamps", s.Stamps == diagram.StampsLamport),
			option(string(diagram.StampsVector), "vector clocks", s.Stamps == diagram.StampsVector),
		).OnChange(func(ctx app.Context, e app.Event) {
			c.setStamps(ctx, i, ctx.JSSrc().Get("value").String())
		}, app.EventScope(p.n, i)),
	)
}

// paneBar is a compare view pane's own header: its lesson, its toggles and
// a button to take it off the page.
func (c *Lab) paneBar(i int) app.UI {
	p := c.panes[i]
	items := []app.UI{app.Strong().Textf("Run %d", i+1), c.scenarioPicker(i)}
	items = append(items, c.runToggles(i)...)
	items = append(items, app.Span().Class("spacer"),
		app.Button().ID("all-runs").Title("Back to every run of the page, side by side (Escape)").Text(fmt.Sprintf("All %d runs", len(c.panes))).
			OnClick(func(ctx app.Context, e app.Event) { c.enlarge(ctx, -1) }),
		app.Button().ID(p.id("remove")).Class("link").Title("Take this run off the page").Text("Remove").OnClick(func(ctx app.Context, e app.Event) {
			c.removeView(ctx, i)
		}, app.EventScope(p.n, i)))
	return app.Div().Class("pane-bar").Body(items...)
}

func (c *Lab) exportButton(format, label string) app.UI {
	return app.Button().Class("link").ID(attrText("export-"+format)).Text(label).OnClick(func(ctx app.Context, e app.Event) { c.export(c.focus, format) }, app.EventScope(format))
}

func (c *Lab) loader() app.UI {
	shown := "the current scenario is shown as an example."
	if c.loadText == "" && c.sess(c.focus).File() == nil {
		shown = fmt.Sprintf("the current scenario's file is larger than %d KiB, too large to show here (Export → scenario saves it).", lab.MaxPacked>>10)
	}
	return app.Div().Class("loader").Body(
		app.P().Text("Open a scenario file (JSON) or a ShiViz or GoVector log, drop one anywhere on the page, or paste one below. Their formats are described in the README; "+shown),
		app.Input().ID("scenario-file").Type("file").Accept(".json,.log,.txt,application/json,text/plain").Attr("aria-label", "open a scenario file or a log").
			OnChange(func(ctx app.Context, e app.Event) {
				if files := ctx.JSSrc().Get("files"); files.Truthy() && files.Length() > 0 {
					c.loadFile(files.Index(0))
				}
				ctx.JSSrc().Set("value", "") // the same file can be picked again
			}),
		app.Textarea().ID("scenario-text").Rows(14).Text(c.loadText).OnInput(func(ctx app.Context, e app.Event) {
			c.loadText = ctx.JSSrc().Get("value").String()
		}),
		app.Div().Body(
			app.Button().ID("load-apply").Text("Open this scenario").OnClick(func(ctx app.Context, e app.Event) { c.loadPasted(ctx) }),
			app.Button().Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { c.loading = false }),
		),
	)
}

// eventList is pane i's diagram in words, for a screen reader (not shown):
// its last events up to the step, oldest first (lab.Session.EventLines).
func (c *Lab) eventList(i int) app.UI {
	lines, earlier := c.sess(i).EventLines(eventLines)
	items := make([]app.UI, 0, len(lines)+1)
	if earlier > 0 {
		items = append(items, app.Li().Textf("%d earlier events", earlier))
	}
	for _, l := range lines {
		items = append(items, app.Li().Text(l))
	}
	return app.Ol().ID(c.panes[i].id("events")).Class("sr-only").Attr("aria-label", "the diagram's events, up to the step shown").Body(items...)
}

// eventLines is how many events the diagram's text alternative lists.
const eventLines = 30

// words are pane i's caption and verdict, one under the other. In a grid
// cell they share one line, the verdict first: a tick when everything
// holds (the whole verdict in its tip), the failure in full when one
// fails, which is the comparison's point.
func (c *Lab) words(i int, verdict string, holds bool) app.UI {
	p := c.panes[i]
	caption := app.Div().ID(p.id("caption")).Class(attrText("caption "+c.sess(i).CaptionSource())).Attr("aria-live", "polite").Title(attrText(c.page.Caption(i))).Text(c.page.Caption(i))
	cls, text := map[bool]string{true: "verdict good", false: "verdict bad"}[holds], verdict
	if !c.gridded() {
		return app.Div().Class("words").Body(caption, app.Div().ID(p.id("verdict")).Class(attrText(cls)).Title(attrText(verdict)).Text(text))
	}
	if holds {
		text = "✓"
	}
	return app.Div().Class("words").Body(app.Div().ID(p.id("verdict")).Class(attrText(cls)).Title(attrText(verdict)).Attr("aria-label", attrText(verdict)).Text(text), caption)
}

// controls are the step, play and scrub controls of pane i, or, shared,
// of every pane stepping together (drawn once, above them).
func (c *Lab) controls(i int, shared bool) app.UI {
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
		app.Button().ID(attrText(id("home"))).Title("First step (Home)").Text("|◀").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.home(ctx, i) }, scope),
		app.Button().ID(attrText(id("back"))).Title("Step back (←, PageUp)").Text("◀ Back").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.back(ctx, i) }, scope),
		app.Button().ID(attrText(id("play"))).Title("Play or pause (Space)").Text(play).OnClick(func(ctx app.Context, e app.Event) { c.togglePlay(ctx, i) }, scope),
		app.Button().ID(attrText(id("forward"))).Title("Step forward (→, PageDown)").Text("Step ▶").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.forward(ctx, i) }, scope),
		app.Button().ID(attrText(id("end"))).Title("Last step (End)").Text("▶|").OnClick(func(ctx app.Context, e app.Event) { c.stopPlaying(i); c.end(ctx, i) }, scope),
		app.Select().ID(attrText(id("speed"))).Attr("aria-label", "speed").Body(speeds...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v > 0 {
				c.speed = v
			}
		}, scope),
		app.Input().ID(attrText(id("scrubber"))).Type("range").Min(0).Max(c.page.Len(i)).Value(c.page.Position(i)).Attr("aria-label", "step").OnInput(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
				c.scrub(ctx, i, v)
			}
		}, scope),
	}
	if shared {
		items = append(items, app.Span().ID("position").Class("position").Textf("event %d / %d, in time order", c.page.Position(0), c.page.Len(0)),
			c.zoomButtons(i, true))
		return app.Div().Class("controls shared").Body(items...)
	}
	items = append(items, c.position(i), c.zoomButtons(i, false))
	return app.Div().Class("controls").Body(items...)
}

// position says where pane i stands.
func (c *Lab) position(i int) app.UI {
	p := c.panes[i]
	s := c.sess(i)
	id := "position"
	if c.together() {
		id = "pane-position"
	}
	return app.Span().ID(p.id(id)).Class("position").Textf("step %d / %d · time %d", s.Step(), s.Len(), s.Now())
}

// paneTools are pane i's actions on its run: the cut tool, the network's
// menu, reset and the algorithm's commands.
func (c *Lab) paneTools(i int) []app.UI {
	p := c.panes[i]
	items := []app.UI{}
	items = append(items,
		app.Button().ID(p.id("cut-tool")).Title("Draw your own cut and see whether it is consistent (C)").Attr("aria-pressed", c.sess(i).Cut.On).
			Text("Cut tool").OnClick(func(ctx app.Context, e app.Event) { c.toggleCut(ctx, i) }, app.EventScope(p.n, i)),
		app.Button().ID(p.id("network")).Title("Heal links, partition the network, switch FIFO order from this step").Text("Network…").
			OnClick(func(ctx app.Context, e app.Event) {
				pn := c.panes[i]
				if pn.menu.kind == menuNetwork {
					pn.menu.kind = menuNone
					return
				}
				pn.openMenu(menuNetwork, 40, 10, false, func(*menu) {})
			}, app.EventScope(p.n, i)),
		app.Button().ID(p.id("reset")).Title("Forget your inputs and start over").Text("Reset").OnClick(func(ctx app.Context, e app.Event) { c.reset(ctx, i) }, app.EventScope(p.n, i)),
		app.If(len(c.sess(i).Tour()) > 0, func() app.UI { return c.tourButton(i) }),
		app.If(!c.several(), func() app.UI { return c.quizButton(i) }),
		app.If(c.searchable(i), func() app.UI { return c.searchButton(i) }),
		c.commandBar(i),
	)
	return items
}

// zoomButtons zoom pane i's window (the shared one when together).
func (c *Lab) zoomButtons(i int, shared bool) app.UI {
	p := c.panes[i]
	id := p.id
	if shared {
		id = func(name string) string { return name }
	}
	scope := app.EventScope(p.n, i, shared)
	return app.Span().Class("zoom").Body(
		app.Button().ID(attrText(id("zoom-out"))).Title("Zoom out (−; or the mouse wheel over the diagram)").Text("−").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, i, zoomStep) }, scope),
		app.Button().ID(attrText(id("zoom-in"))).Title("Zoom in (+)").Text("+").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, i, 1/zoomStep) }, scope),
		app.If(c.page.ViewOf(i).Pinned, func() app.UI {
			return app.Button().ID(attrText(id("follow"))).Title("Follow the present again (F; drag the diagram or Shift+arrows to pan)").Text("Follow now").
				OnClick(func(ctx app.Context, e app.Event) { c.follow(ctx, i) }, scope)
		}),
	)
}
