package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
)

// A compare view shows its runs in a grid, all at once on a projector:
// each with its diagram, its caption and verdict under a one-line bar. A
// run can be enlarged to the whole page (its process graph, settings,
// tools and panels beside it) and put back.

// gridded says the page shows several runs in a grid.
func (c *state) gridded() bool { return c.several() && !c.embed && c.enlarged == 0 }

// shown says pane i is on the page: every pane, or the enlarged one.
func (c *state) shown(i int) bool { return c.enlarged == 0 || c.enlarged == i+1 }

// gridColumns is how many of a page's runs a row of the grid holds: two
// runs side by side, three in a row, four in two rows of two, five or six
// in two of three.
func gridColumns(runs int) int {
	switch n := runs; {
	case n <= 3:
		return max(n, 1)
	case n == 4:
		return 2
	default:
		return 3
	}
}

// gridCell is a grid cell's diagram size, for a page of that many runs,
// on a 1280×720 projector, which the server lays the pictures out at
// before the client measures them.
func gridCell(runs int) [2]float64 {
	cols := float64(gridColumns(runs))
	rows := math.Ceil(float64(runs) / cols)
	return [2]float64{(1252 / cols) - 24, max((720-44-44-170)/rows-80, 100)}
}

// paneScale is the drawing scale of pane i: the page's text size, or a
// smaller one in a grid cell too narrow for it.
func (c *state) paneScale(i int) float64 {
	size := c.textSize()
	if c.gridded() {
		w := c.panes[i].width
		if w <= 0 {
			w = gridCell(len(c.panes))[0]
		}
		fit := "L"
		switch {
		case w < 520:
			fit = "S"
		case w < 800:
			fit = "M"
		}
		if slices.Index(lab.TextSizes, fit) < slices.Index(lab.TextSizes, size) {
			size = fit
		}
	}
	return diagram.TextScale(size)
}

// enlarge shows run i alone (or, with -1, every run again).
func (c *state) enlarge(ctx app.Context, i int) {
	c.enlarged = i + 1
	if i >= 0 {
		c.focus = i
	}
	for _, p := range c.panes {
		p.menu.kind = menuNone
	}
	c.redraw(ctx)
}

// gridBar is a grid cell's one line: the run's number and lesson, where it
// stands when the runs step together, and buttons to enlarge it or take
// it off the page (symbols, so that the lesson's title keeps the room).
func (c *PaneView) gridBar() app.UI {
	i := c.Pane
	p := c.panes[i]
	title := c.sess(i).Scenario().Title
	short := title
	if len(c.panes) > 1 {
		titles := make([]string, len(c.panes))
		for j := range c.panes {
			titles[j] = c.sess(j).Scenario().Title
		}
		short = strings.TrimPrefix(title, sharedHead(titles))
	}
	return app.Div().Class("pane-bar grid-bar").Body(
		app.Strong().Textf("Run %d", i+1),
		app.Span().Class("run-title").Title(attrText(title+" · "+c.panelsOf(i).summary())).Text(short),
		app.If(c.together(), func() app.UI { return c.controlsOf(i).position() }),
		app.Button().ID(p.id("enlarge")).Title(fmt.Sprintf("Enlarge run %d: show it alone, with its settings and panels", i+1)).
			Attr("aria-label", fmt.Sprintf("enlarge run %d", i+1)).Text("⤢").
			OnClick(func(ctx app.Context, e app.Event) { c.enlarge(ctx, i) }, app.EventScope(p.n, i)),
		app.Button().ID(p.id("remove")).Title(fmt.Sprintf("Take run %d off the page", i+1)).
			Attr("aria-label", fmt.Sprintf("remove run %d", i+1)).Text("✕").
			OnClick(func(ctx app.Context, e app.Event) { c.removeView(ctx) }, app.EventScope(p.n, i)),
	)
}

// sharedHead is the longest start, up to a ": ", that every title has and
// none is only: "Six mutual exclusions, low contention: " of a
// comparison's runs, which a grid cell need not repeat.
func sharedHead(titles []string) string {
	head := ""
	for n := 0; ; {
		j := strings.Index(titles[0][n:], ": ")
		if j < 0 {
			return head
		}
		cand := titles[0][:n+j+2]
		for _, t := range titles {
			if !strings.HasPrefix(t, cand) || len(t) == len(cand) {
				return head
			}
		}
		head, n = cand, len(cand)
	}
}
