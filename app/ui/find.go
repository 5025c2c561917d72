package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// finder is the header's field that finds a lesson by typing: as words are
// typed the picker narrows to the lessons and comparisons whose title, id
// or topic hold them all, and the browser suggests their titles; Enter
// opens the first, a suggested title chosen opens at once, Escape clears
// the field. The "/" key brings the keyboard here (web/spacetime.js).
func (c *Header) finder() app.UI {
	n := 0
	var titles []app.UI
	for _, p := range picks(true) {
		if p.matches(c.find) {
			n++
		}
		titles = append(titles, app.Option().Value(attrText(p.title)))
	}
	hint := "Find a lesson by words of its title or topic; Enter opens the first"
	if c.find != "" {
		hint = fmt.Sprintf("%d lessons match; Enter opens the first", n)
	}
	cls := "find"
	if c.findMiss {
		cls += " miss"
	}
	return app.Span().Class("finder").Body(
		app.Input().ID("find").Type("search").Class(attrText(cls)).Placeholder("Find… /").Attr("aria-label", "find a lesson").
			Title(attrText(hint)).Attr("list", "lesson-titles").Value(attrText(c.find)).Attr("autocomplete", "off").
			OnInput(func(ctx app.Context, e app.Event) {
				c.find, c.findMiss = ctx.JSSrc().Get("value").String(), false
				for _, p := range picks(true) {
					if p.title == c.find { // chosen from the suggestions
						c.openPick(ctx, p, ctx.JSSrc())
						return
					}
				}
			}).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				switch e.Get("key").String() {
				case "Enter":
					e.PreventDefault()
					for _, p := range picks(true) {
						if p.matches(c.find) {
							c.openPick(ctx, p, ctx.JSSrc())
							return
						}
					}
					c.findMiss = true
				case "Escape":
					c.find, c.findMiss = "", false
					ctx.JSSrc().Set("value", "")
					ctx.JSSrc().Call("blur")
				}
			}),
		app.DataList().ID("lesson-titles").Body(titles...),
	)
}

// openPick opens a picker's entry found by the finder, clears the field and
// gives the keyboard back to the lesson.
func (c *Header) openPick(ctx app.Context, p pick, field app.Value) {
	c.find, c.findMiss = "", false
	field.Set("value", "")
	field.Call("blur")
	if !c.openComparison(ctx, p.value) {
		c.paneOf(0).switchScenario(ctx, p.value)
	}
}
