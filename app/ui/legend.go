package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// Legend is a pane's legend: what each mark of its diagram means.
type Legend struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render says what the pane's diagram draws: the entries the diagram lists
// for the algorithm on screen, each drawn as the diagram draws it.
func (c *Legend) Render() app.UI {
	i := c.Pane
	var items []app.UI
	for _, e := range c.sess(i).Diagram().Legend() {
		color := c.palette()[e.Color]
		var swatch app.UI
		switch e.Swatch {
		case diagram.SwatchLine:
			style := "solid"
			if e.Dashed {
				style = "dashed"
			}
			swatch = app.Span().Class("swatch line").Style("border-top", attrText(fmt.Sprintf("%.0fpx %s %s", max(e.Width, 2), style, color)))
			if e.Symbol != "" {
				swatch = app.Span().Body(swatch, app.Span().Class("swatch mark").Style("color", attrText(color)).Text(e.Symbol))
			}
		case diagram.SwatchGlyph:
			swatch = app.Span().Class("swatch").Style("color", attrText(color)).Text(e.Symbol)
		case diagram.SwatchBar:
			swatch = app.Span().Class("swatch bar").Style("background", attrText(color))
		case diagram.SwatchOutline:
			swatch = app.Span().Class("swatch bar outline").Style("border", attrText("1.5px dashed "+color))
		case diagram.SwatchBand:
			swatch = app.Span().Class("swatch bar band").Style("background", attrText(color))
		}
		items = append(items, app.Span().Class("key").Body(swatch, app.Text(e.Label)))
	}
	return app.Div().ID(c.panes[i].id("legend")).Class("legend").Body(items...)
}
