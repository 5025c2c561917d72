package ui

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// Exports are the side column's buttons that save the run in the focused
// pane.
type Exports struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// exports are the buttons that save the run in the focused pane.
func (c *Exports) Render() app.UI {
	return app.Div().Class("exports").Body(
		app.Text("Export: "),
		c.exportButton("svg", "SVG"),
		c.exportButton("png", "PNG"),
		c.pngScalePicker(),
		c.exportButton("json", "trace JSON"),
		c.exportButton("shiviz", "ShiViz log"),
		c.exportButton("tikz", "TikZ"),
		c.exportButton("mermaid", "Mermaid"),
		c.exportButton("scenario", "scenario"),
	)
}

// pngScalePicker chooses how large a PNG is exported.
func (c *Exports) pngScalePicker() app.UI {
	options := make([]app.UI, len(pngScales))
	for j, s := range pngScales {
		options[j] = option(strconv.Itoa(s), strconv.Itoa(s)+"×", s == c.pngScale)
	}
	return app.Select().ID("png-scale").Attr("aria-label", "PNG scale").Title("The PNG's size: 1× as on screen, 2× for print and slides").Body(options...).
		OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && slices.Contains(pngScales, v) {
				c.pngScale = v
			}
		})
}

func (c *Exports) exportButton(format, label string) app.UI {
	return app.Button().Class("link").ID(attrText("export-"+format)).Text(label).OnClick(func(ctx app.Context, e app.Event) { c.export(c.focus, format) }, app.EventScope(format))
}

// export offers pane i's diagram, trace or scenario as a file.
func (c *Exports) export(i int, format string) {
	s := c.sess(i)
	r := s.Run()
	name := s.Scenario().ID
	if name == "" {
		name = "scenario"
	}
	name += "-step" + strconv.Itoa(s.Step())
	switch format {
	case "svg":
		download(name+".svg", "image/svg+xml", c.shownScene(i).SVGIn(c.palette()))
	case "png":
		savePNG(name+".png", c.shownScene(i), c.palette(), float64(c.pngScale))
	case "json":
		data, _ := r.Trace().JSON(s.Step())
		download(name+".json", "application/json", data)
	case "shiviz":
		download(name+".log", "text/plain", r.Trace().ShiVizCuts(s.Step(), s.Spec().IsCut))
	case "tikz":
		spec := s.Spec()
		opt := diagram.TikZOptions{Title: s.Scenario().Title, Highlight: s.Diagram().Highlight()}
		if sc := c.panes[i].scene; sc != nil {
			opt.From, opt.To = sc.T0, sc.T1 // the window the pane shows
		}
		download(name+".tex", "application/x-tex", s.Diagram().Index().TikZ(s.Step(), spec, opt))
	case "mermaid":
		download(name+".mmd", "text/plain", r.Trace().Mermaid(s.Step(), s.Scenario().Title))
	case "scenario":
		download(name+".scenario.json", "application/json", s.Plan().Scenario().JSON())
	}
}

// shownScene is pane i's diagram as on screen, for a file: its size, its
// text size and its step.
func (c *Exports) shownScene(i int) *diagram.Scene {
	width := 1200.0
	if p := c.panes[i]; p.scene != nil {
		width = p.scene.Width
	}
	return c.page.Scene(i, width, c.paneOf(i).canvasHeight())
}

// pngScales are the scales a PNG can be exported at: 1× is the size on
// screen, 4× a poster's.
var pngScales = []int{1, 2, 3, 4}
