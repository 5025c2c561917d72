// Command floor is the smallest go-app client that draws a diagram: one
// component with one canvas, on which it paints a few lanes and arrows
// when it mounts. make bench builds it as Spacetime's client is built,
// serves it with Spacetime's server in place of app.wasm, and measures
// the page against it: what is left above it is Spacetime's own.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// diagram is the floor's one component.
type diagram struct{ app.Compo }

func (d *diagram) Render() app.UI {
	return app.Canvas().ID("floor-diagram").Width(800).Height(300)
}

// OnMount paints three lanes and two messages, then marks the first
// diagram the way Spacetime's painter does, so that the harness reads both
// pages alike.
func (d *diagram) OnMount(ctx app.Context) {
	g := app.Window().GetElementByID("floor-diagram").Call("getContext", "2d")
	g.Set("lineWidth", 2)
	for i := range 3 {
		y := 60 + 90*i
		g.Call("beginPath")
		g.Call("moveTo", 40, y)
		g.Call("lineTo", 760, y)
		g.Call("stroke")
		g.Call("fillText", string(rune('A'+i)), 20, y+4)
	}
	g.Call("beginPath")
	g.Call("moveTo", 120, 60)
	g.Call("lineTo", 300, 150)
	g.Call("moveTo", 400, 150)
	g.Call("lineTo", 560, 240)
	g.Call("stroke")
	app.Window().Set("spacetimeFrames", 1)
	app.Window().Get("performance").Call("mark", "spacetime-first-diagram")
}

func main() {
	app.Route("/", func() app.Composer { return &diagram{} })
	app.RunWhenOnBrowser()
}
