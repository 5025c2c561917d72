package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// legend says what the diagram's marks mean: the algorithm's message kinds,
// drawn as the diagram draws them, then the marks every diagram has.
func (c *Lab) legend() app.UI {
	var items []app.UI
	line := func(color diagram.Color, width float64, dashed bool, label string) {
		style := "solid"
		if dashed {
			style = "dashed"
		}
		items = append(items, app.Span().Class("key").Body(
			app.Span().Class("swatch line").Style("border-top", fmt.Sprintf("%.0fpx %s %s", max(width, 2), style, diagram.Palette[color])),
			app.Text(label),
		))
	}
	glyph := func(text string, color diagram.Color, label string) {
		items = append(items, app.Span().Class("key").Body(
			app.Span().Class("swatch").Style("color", diagram.Palette[color]).Text(text),
			app.Text(label),
		))
	}
	for _, k := range c.sess.Spec().Kinds {
		color, width, flags := diagram.RoleStyle(k.Role)
		line(color, width, flags&diagram.FlagDashed != 0, k.Name)
	}
	glyph("◆", diagram.CutColor, "state recorded")
	line(diagram.CutColor, 2, false, "snapshot cut")
	line(diagram.ChannelColor, 4, false, "recorded in a channel")
	line(diagram.NowColor, 1, true, "now (messages still in flight end here)")
	glyph("✕", diagram.CrashColor, "crash")
	glyph("▬", diagram.PauseColor, "GC pause")
	glyph("◯", diagram.PastColor, "causal past")
	glyph("◯", diagram.FutureColor, "causal future")
	return app.Div().ID("legend").Class("legend").Body(items...)
}
