package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// comparisonPrefix marks a picker's option that opens a comparison.
const comparisonPrefix = "compare:"

// comparisonOptions are the pickers' entries for the built-in comparisons.
func comparisonOptions() []app.UI {
	var out []app.UI
	for _, cmp := range scenario.Comparisons() {
		out = append(out, option(comparisonPrefix+cmp.ID, "Compare: "+cmp.Title, false))
	}
	return out
}

// openComparison replaces the page with a comparison's runs, stepped
// together; it reports whether value named one.
func (c *Lab) openComparison(ctx app.Context, value string) bool {
	id, ok := strings.CutPrefix(value, comparisonPrefix)
	if !ok {
		return false
	}
	page, err := lab.OpenComparison(id)
	if err != nil {
		c.problem = err.Error()
		return true
	}
	for _, p := range c.panes {
		p.playing = false
	}
	c.setPage(page)
	c.focus = 0
	c.problem = ""
	c.changed(ctx)
	return true
}

// sideBySide is a compare view's table of every run's figures.
func (c *Lab) sideBySide() app.UI {
	return app.Div().ID("side-by-side").Class("panels side-by-side").Body(panelTable(lab.SideBySide(c.page)))
}
