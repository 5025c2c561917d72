package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// CutTool is a pane's cut tool button: the learner's own cut, said
// consistent or not.
type CutTool struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render draws the cut tool's button.
func (c *CutTool) Render() app.UI {
	p := c.panes[c.Pane]
	return app.Button().ID(p.id("cut-tool")).Title("Draw your own cut and see whether it is consistent (C)").Attr("aria-pressed", c.sess(c.Pane).Cut().On()).
		Text("Cut tool").OnClick(func(ctx app.Context, e app.Event) { c.toggleCut(ctx) }, app.EventScope(p.n, c.Pane))
}

// toggleCut turns the pane's cut tool on or off.
func (c *CutTool) toggleCut(ctx app.Context) {
	i := c.Pane
	c.sess(i).Cut().Toggle()
	c.panes[i].menu.kind = menuNone
	c.changed(ctx)
}
