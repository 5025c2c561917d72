package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Render draws the page around the canvases; each canvas is always the
// same element, painted from Go after each render. A page of one run is
// laid out for a projector: the header, then the diagram with its
// controls, caption and verdict filling the window's height, beside a
// column (topology, settings, actions, legend, panels) that scrolls on
// its own.
func (c *Lab) Render() app.UI {
	c.OnInit() // go-app's native engine renders before it initialises
	c.rev++    // the parts render again with it (parts.go)
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
		cls += fmt.Sprintf(" compare grid cols-%d", gridColumns(len(c.panes)))
	case c.several():
		cls += " compare enlarged"
	default:
		cls += " present"
	}
	if c.page.Theme == "dark" {
		cls += " dark"
	}
	body := []app.UI{
		app.If(!c.embed, func() app.UI { return c.header() }),
		app.If(c.problem != "", func() app.UI {
			return app.Div().Class("problem").Attr("role", "alert").Body(
				app.Span().Text(c.problem),
				app.Button().Class("dismiss").Text("Dismiss").OnClick(func(ctx app.Context, e app.Event) { c.problem = "" }),
			)
		}),
		app.If(c.loading && !c.embed, func() app.UI { return c.importer() }),
		app.If(c.together(), func() app.UI {
			// the controls of every pane stepping together, drawn once
			shared := c.controlsOf(0)
			shared.Shared = true
			return shared
		}),
	}
	var panes []app.UI
	for i := range c.panes {
		if c.shown(i) {
			panes = append(panes, c.paneOf(i))
		}
	}
	if !c.several() || c.embed {
		body = append(body, app.If(c.several(), func() app.UI { return c.comparison() }))
		body = append(body, panes...)
		return app.Div().Class(attrText(cls)).Body(body...)
	}
	// a compare view: the runs in a grid, the table of their figures
	// under it (an enlarged run alone, the table under it too)
	body = append(body, app.Div().Class("runs").Body(panes...), c.comparison())
	return app.Div().Class(attrText(cls)).Body(body...)
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
