package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// PaneView is one run: its pictures and controls, caption and verdict, and
// beside them its settings, actions, legend and panels.
type PaneView struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render draws one run: its pictures and controls, caption and
// verdict, and beside them its settings, actions, legend and panels.
func (c *PaneView) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	changes := s.Switches().Changes()
	cls := "pane"
	if c.several() && i == c.focus {
		cls += " active"
	}
	if c.writes(i) {
		cls += " writing"
	}
	verdict := s.Verdicts().Now()
	// what the page says beside the run (a tour's stop, a search, a
	// notice, the cut's verdict) has room of its own at the top of the
	// side column, so that the diagram keeps its height and nothing of it
	// is covered; a slide and a grid cell have no side column
	beside := !c.embed && !c.gridded()
	main := app.Div().Class("main").Body(
		app.If(c.gridded(), func() app.UI { return c.gridBar() }),
		app.If(c.several() && !c.embed && !c.gridded(), func() app.UI { return c.paneBar() }),
		app.Div().Class("stage").Body(
			c.diagram(),
			c.eventList(),
			// in a slide with the keyboard, how to give it back (shown by
			// web/spacetime.css when the frame has the focus)
			app.If(c.embed && i == 0, func() app.UI { return app.Div().Class("slides-hint").Text("Esc: keys back to the slides") }),
			app.If(p.menu.kind != menuNone && !p.menu.topology, func() app.UI { return c.menuOf(i) }),
			// in a slide or a grid cell, feedback on a click sits over the
			// diagram's foot, so that the diagram keeps its size (and what
			// was clicked its place)
			app.If(!beside && c.hasNotes(), func() app.UI { return c.notes("notes") }),
		),
		// a tour's stop takes its room from the diagram rather than
		// covering any of it
		app.If(!beside && s.Tour().Stop() > 0, func() app.UI { return c.tourOf(i) }),
		app.If(s.Quiz().On(), func() app.UI { return c.quizOf(i) }),
		app.If(!c.together(), func() app.UI { return c.controlsOf(i) }),
		// stepping together in the grid, the run's position is in its bar
		app.If(c.together() && !c.gridded(), func() app.UI { return app.Div().Class("controls").Body(c.controlsOf(i).position()) }),
		c.words(verdict),
		app.If(s.Stopped() != "", func() app.UI {
			return app.Div().ID(p.id("stopped")).Class("notice stopped").Attr("role", "status").Text(s.Stopped())
		}),
		app.If(len(changes) > 0, func() app.UI {
			return app.Div().ID(p.id("changes")).Class("notice changes").Text("Changed: " + strings.Join(changes, "; ") + ".")
		}),
	)
	var side []app.UI
	if beside && (s.Tour().Stop() > 0 || c.hasNotes()) {
		side = append(side, app.Div().Class("beside").Body(
			app.If(s.Tour().Stop() > 0, func() app.UI { return c.tourOf(i) }),
			app.If(c.hasNotes(), func() app.UI { return c.notes("notes beside") }),
		))
	}
	if c.gridded() {
		// in the grid a run shows its diagram and words; enlarged, the rest
	} else if c.showTopology() {
		side = append(side, app.Div().Class("topology").Body(
			c.topology(),
			app.If(p.menu.kind != menuNone && p.menu.topology, func() app.UI { return c.menuOf(i) }),
		))
	}
	if !c.embed && !c.gridded() {
		if !c.several() {
			side = append(side, c.settingsOf(i))
		}
		side = append(side,
			c.toolsOf(i),
			c.legendOf(i),
			c.panelsOf(i),
		)
		side = append(side, c.exporter())
	}
	return app.Section().ID(p.id("pane")).Class(attrText(cls)).Attr("aria-label", "run "+strconv.Itoa(i+1)).
		On("focusin", func(ctx app.Context, e app.Event) { c.setFocus(i) }, app.EventScope(p.n, i)).
		On("mousedown", func(ctx app.Context, e app.Event) { c.setFocus(i) }, app.EventScope(p.n, i)).
		Body(main,
			app.If(c.writes(i), func() app.UI { return c.writerOf(i) }),
			app.If(len(side) > 0, func() app.UI { return app.Aside().Class("side").Body(side...) }))
}

// diagram is the pane's canvas. The server's prerendered page has the same
// picture as inline SVG instead, so that the diagram is on screen before
// the client has loaded; the client's canvas then takes its place.
func (c *PaneView) diagram() app.UI {
	i := c.Pane
	p := c.panes[i]
	if app.IsServer {
		c.sess(i).Scale = c.paneScale(i)
		width := float64(prerenderWidth)
		switch {
		case c.gridded():
			width = gridCell(len(c.panes))[0]
		case !c.fills():
			width = comparePrerenderWidth
		}
		svg := c.page.Scene(i, width, c.canvasHeight()).SVGIn(c.palette())
		mark := ""
		if i == 0 {
			mark = "<script>" + InlineScripts[0] + "</script>"
		}
		return app.Raw(`<div class="prerender">` + string(svg) + mark + `</div>`)
	}
	return app.Canvas().ID(p.id("diagram")).Class("diagram").Attr("aria-label", "space-time diagram").Attr("aria-describedby", p.id("events")).DataSet("fill", c.fills()).
		OnClick(func(ctx app.Context, e app.Event) { c.click(ctx, e) }, app.EventScope(p.n, i)).
		OnContextMenu(func(ctx app.Context, e app.Event) { c.contextMenu(ctx, e) }, app.EventScope(p.n, i)).
		OnWheel(func(ctx app.Context, e app.Event) { c.wheel(ctx, e) }, app.EventScope(p.n, i)).
		OnMouseDown(func(ctx app.Context, e app.Event) { c.dragStart(ctx, e) }, app.EventScope(p.n, i)).
		OnMouseMove(func(ctx app.Context, e app.Event) { c.dragMove(ctx, e) }, app.EventScope(p.n, i)).
		OnMouseUp(func(ctx app.Context, e app.Event) { c.dragEnd(ctx, e) }, app.EventScope(p.n, i)).
		OnMouseLeave(func(ctx app.Context, e app.Event) { c.dragEnd(ctx, e) }, app.EventScope(p.n, i))
}

// topology is the pane's topology view, prerendered on the server as the
// diagram is.
func (c *PaneView) topology() app.UI {
	i := c.Pane
	p := c.panes[i]
	if app.IsServer {
		c.sess(i).Scale = c.scale()
		if sc := c.sess(i).Diagram().TopologyScene(topologyWidth, c.topologyHeight()); sc != nil {
			return app.Raw(`<div class="prerender">` + string(sc.SVGIn(c.palette())) + `</div>`)
		}
		return app.Div()
	}
	return app.Canvas().ID(p.id("topology")).Class("topology-view").Attr("aria-label", "process graph").
		OnClick(func(ctx app.Context, e app.Event) { c.clickTopology(ctx, e) }, app.EventScope(p.n, i)).
		OnMouseMove(func(ctx app.Context, e app.Event) { c.hover(e, true); ctx.PreventUpdate() }, app.EventScope(p.n, i)).
		OnMouseLeave(func(ctx app.Context, e app.Event) { c.hideTip(); ctx.PreventUpdate() }, app.EventScope(p.n, i))
}

// scenarioPicker chooses the pane's lesson.
func (c *PaneView) scenarioPicker() app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i).Scenario()
	builtin := false
	for _, b := range scenario.BuiltinList() {
		builtin = builtin || b.ID == s.ID
	}
	options := lessonOptions(s.ID, !c.several(), c.find)
	if !builtin && scenario.ComparisonOf(s.ID) != "" && c.sess(i).IsLesson() {
		// a comparison's run, in its compare view
		options = append(options, option(s.ID, s.Title, true))
		builtin = true
	}
	if !builtin {
		options = append(options, option("", "(your scenario) "+s.Title, true))
	}
	// A closed picker's arrow keys move its choice without opening it (the
	// accessible pattern), so that neither a keyboard nor a presenter's
	// remote lands in another lesson by accident: Enter opens the choice,
	// Escape or leaving the picker puts back the lesson on screen. A choice
	// made with the pointer, or in the open list, opens at once.
	open := func(ctx app.Context) {
		p.browsing = false
		if id := ctx.JSSrc().Get("value").String(); id != "" && id != s.ID && !c.header().openComparison(ctx, id) {
			c.switchScenario(ctx, id)
		}
	}
	putBack := func(ctx app.Context) {
		p.browsing = false
		ctx.JSSrc().Set("value", s.ID)
	}
	return app.Select().ID(p.id("scenario")).Attr("aria-label", "scenario").Title("Lessons: the arrow keys choose, Enter opens").Body(options...).
		OnKeyDown(func(ctx app.Context, e app.Event) {
			switch e.Get("key").String() {
			case "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End":
				// (a remote's PageUp and PageDown step the lesson: keys.go;
				// on a Mac the arrows open the list, whose choice opens)
				p.browsing = !strings.Contains(app.Window().Get("navigator").Get("platform").String(), "Mac")
			case "Enter":
				e.PreventDefault()
				open(ctx)
			case "Escape":
				if p.browsing {
					putBack(ctx)
				}
			}
		}, app.EventScope(p.n, i)).
		OnChange(func(ctx app.Context, e app.Event) {
			if !p.browsing {
				open(ctx)
			}
		}, app.EventScope(p.n, i)).
		// the pointer's choice opens at once, whatever the keys did before
		OnMouseDown(func(ctx app.Context, e app.Event) { p.browsing = false }, app.EventScope(p.n, i)).
		OnBlur(func(ctx app.Context, e app.Event) {
			if p.browsing {
				putBack(ctx)
			}
		}, app.EventScope(p.n, i))
}

// paneBar is a compare view pane's own header: its lesson, its toggles and
// a button to take it off the page.
func (c *PaneView) paneBar() app.UI {
	i := c.Pane
	p := c.panes[i]
	items := []app.UI{app.Strong().Textf("Run %d", i+1), c.scenarioPicker()}
	items = append(items, c.settingsOf(i).runToggles()...)
	items = append(items, app.Span().Class("spacer"),
		app.Button().ID("all-runs").Title("Back to every run of the page, side by side (Escape)").Text(fmt.Sprintf("All %d runs", len(c.panes))).
			OnClick(func(ctx app.Context, e app.Event) { c.enlarge(ctx, -1) }),
		app.Button().ID(p.id("remove")).Class("link").Title("Take this run off the page").Text("Remove").OnClick(func(ctx app.Context, e app.Event) {
			c.removeView(ctx)
		}, app.EventScope(p.n, i)))
	return app.Div().Class("pane-bar").Body(items...)
}

// eventList is the pane's diagram in words, for a screen reader (not shown):
// its last events up to the step, oldest first (lab.Session.EventLines).
func (c *PaneView) eventList() app.UI {
	i := c.Pane
	lines, earlier := c.sess(i).Diagram().EventLines(eventLines)
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

// words are the pane's caption and verdict, one under the other, each
// whole: they wrap, and the diagram above gives them the room. The
// verdict leads with what went wrong, then names the invariant, then
// where the others stand (lab.Judgement). In a grid cell the caption
// keeps two lines (the whole of it in its tip), led by the verdict's mark
// (the whole verdict in its tip; a failure's whole under the run's row
// of the table, Comparison).
func (c *PaneView) words(verdict lab.Judgement) app.UI {
	i := c.Pane
	p := c.panes[i]
	caption := app.Div().ID(p.id("caption")).Class(attrText("caption "+c.sess(i).CaptionSource())).Attr("aria-live", "polite").Text(c.page.Caption(i))
	room := c.page.Caption(i)
	if s := c.sess(i); s.Tour().Stop() > 0 {
		// through a tour the caption keeps the room of its longest stop's,
		// so that the diagram keeps one height from stop to stop
		for _, st := range s.Tour().Stops() {
			if text := s.CaptionAt(st.Step); len(text) > len(room) {
				room = text
			}
		}
	}
	cls := map[bool]string{true: "verdict good", false: "verdict bad"}[verdict.Good()]
	whole := verdict.Text()
	if !c.gridded() {
		// the verdict sits in a room as tall as the run's longest, which
		// an invisible copy of that one holds open
		longest := c.sess(i).Verdicts().Longest()
		return app.Div().Class("words").Body(app.Div().Class("caption-room").Body(
			caption,
			app.If(room != c.page.Caption(i), func() app.UI { return app.Div().Class("caption sizer").Aria("hidden", true).Text(room) }),
		), app.Div().Class("verdict-room").Body(
			app.Div().ID(p.id("verdict")).Class(attrText(cls)).Attr("aria-label", attrText(whole)).Body(verdictParts(verdict)...),
			app.Div().Class(attrText(map[bool]string{true: "verdict good sizer", false: "verdict bad sizer"}[longest.Good()])).Aria("hidden", true).Body(verdictParts(longest)...),
		))
	}
	// the mark leads the caption's first line, the whole verdict in its
	// tip (and, for a failure, under the run's row of the table)
	mark := app.Span().ID(p.id("verdict")).Class(attrText(cls+" mark")).Title(attrText(whole)).Attr("aria-label", attrText(whole)).Text(strings.TrimSpace(verdict.Mark()))
	return app.Div().Class("words").Body(caption.Title(attrText(c.page.Caption(i))).Body(mark, app.Text(c.page.Caption(i))))
}

// verdictParts are a verdict's words: what went wrong in bold, then the
// invariant and where the others stand. Each part after the first starts
// with its space, so that it reads the same with or without the line
// breaks of the server's HTML between them.
func verdictParts(j lab.Judgement) []app.UI {
	mark := j.Mark()
	rule := j.Rule
	if j.Rest != "" {
		rule += "."
	}
	var parts []app.UI
	if j.Why != "" {
		parts = append(parts, app.Strong().Class("why").Text(mark+j.Why), app.Span().Class("rule").Text(" — "+rule))
	} else {
		parts = append(parts, app.Strong().Class("rule").Text(mark+rule))
	}
	if j.Rest != "" {
		parts = append(parts, app.Span().Class("rest").Text(" "+j.Rest))
	}
	return parts
}

// hasNotes says whether the pane has feedback to show: a search, a
// notice, the cut's verdict.
func (c *PaneView) hasNotes() bool {
	p := c.panes[c.Pane]
	return p.notice != "" || c.sess(c.Pane).Cut().On() || p.search != nil
}

// notes are the pane's feedback, in a box of class cls.
func (c *PaneView) notes(cls string) app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	return app.Div().Class(attrText(cls)).Body(
		app.If(p.search != nil, func() app.UI { return c.searchOf(i) }),
		app.If(p.notice != "", func() app.UI {
			return app.Div().ID(p.id("notice")).Class("notice").Attr("role", "status").Text(p.notice)
		}),
		app.If(s.Cut().On(), func() app.UI {
			return app.Div().ID(p.id("cut-verdict")).Class("notice cut").Attr("role", "status").Text(s.Cut().Text())
		}),
	)
}
