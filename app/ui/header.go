package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Header is the page's header: the title, the lesson picker and finder,
// the looks, the compare picker and the load button.
type Header struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render draws the header: the title, the lesson picker and finder (or,
// with several runs, stepping them together), the looks, the compare
// picker and the load button.
func (c *Header) Render() app.UI {
	// the title leads to the course's index, on the site's own path
	items := []app.UI{app.H1().Body(app.A().Href("./").Title("The course: every claim and its lesson").Text("Spacetime"))}
	if !c.several() {
		items = append(items, c.paneOf(0).scenarioPicker(), c.finder())
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
		app.Button().ID("load").Text("Load…").Title("Paste a scenario file").OnClick(func(ctx app.Context, e app.Event) { c.importer().toggleLoader() }),
	)
	return app.Header().Class("top").Body(items...)
}
