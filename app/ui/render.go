package ui

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Render draws the page around the canvas; the canvas itself is always the
// same element, painted from Go after each render.
func (c *Lab) Render() app.UI {
	c.OnInit() // go-app's native engine renders before it initialises
	if c.sess == nil {
		return app.Div().Class("lab").Body(app.P().Text("Loading…"))
	}
	cls := "lab"
	if c.embed {
		cls += " embed"
	}
	return app.Div().Class(cls).Body(
		app.If(!c.embed, c.header),
		app.If(c.problem != "", func() app.UI {
			return app.Div().Class("problem").Attr("role", "alert").Body(
				app.Span().Text(c.problem),
				app.Button().Class("dismiss").Text("Dismiss").OnClick(func(ctx app.Context, e app.Event) { c.problem = "" }),
			)
		}),
		app.If(c.loading && !c.embed, c.loader),
		app.Div().Class("stage").Body(
			c.diagram(),
			app.If(c.menu.open, c.processMenu),
		),
		app.If(!c.embed, c.legend),
		c.controls(),
		app.Div().ID("caption").Class("caption "+c.sess.CaptionSource()).Attr("aria-live", "polite").Text(c.sess.Caption()),
		app.If(c.notice != "", func() app.UI {
			return app.Div().ID("notice").Class("notice").Attr("role", "status").Text(c.notice)
		}),
		app.If(c.sess.Cut.On, func() app.UI {
			return app.Div().ID("cut-verdict").Class("notice cut").Attr("role", "status").Text(c.sess.CutText())
		}),
		app.If(!c.embed, c.panels),
	)
}

// diagram is the canvas the client paints. The server's prerendered page has
// the same picture as inline SVG instead, so that the diagram is on screen
// before the client has loaded; the client's canvas then takes its place.
func (c *Lab) diagram() app.UI {
	if app.IsServer {
		svg := c.sess.Scene(prerenderWidth, c.canvasHeight()).SVG()
		return app.Raw(`<div class="prerender">` + string(svg) +
			`<script>performance.mark("spacetime-first-diagram-static")</script></div>`)
	}
	return app.Canvas().ID("diagram").Class("diagram").Attr("aria-label", "space-time diagram").
		OnClick(c.click).OnWheel(c.wheel).
		OnMouseDown(c.dragStart).OnMouseMove(c.dragMove).OnMouseUp(c.dragEnd).OnMouseLeave(c.dragEnd)
}

// prerenderWidth is the width the server lays the diagram out at; the page
// scales it to the window.
const prerenderWidth = 1200

// checkbox is a checkbox input. The browser gets its state as a property
// (go-app sets it so), but the server's prerendered HTML must leave a false
// one out: checked="false" would still tick the box.
func checkbox(id string, on bool) app.HTMLInput {
	in := app.Input().ID(id).Type("checkbox")
	if on || app.IsClient {
		in = in.Checked(on)
	}
	return in
}

// option is a select's option; like checkbox, a false selection is left out
// of the prerendered HTML.
func option(value any, text string, selected bool) app.HTMLOption {
	o := app.Option().Value(value).Text(text)
	if selected || app.IsClient {
		o = o.Selected(selected)
	}
	return o
}

func (c *Lab) header() app.UI {
	s := c.sess.Scenario()
	list := scenario.BuiltinList()
	options := make([]app.UI, 0, len(list)+1)
	builtin := false
	for _, b := range list {
		options = append(options, option(b.ID, b.Title, b.ID == s.ID))
		builtin = builtin || b.ID == s.ID
	}
	if !builtin {
		options = append(options, option("", "(your scenario) "+s.Title, true))
	}
	return app.Header().Class("top").Body(
		app.H1().Text("Spacetime"),
		app.Select().ID("scenario").Attr("aria-label", "scenario").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
			if id := ctx.JSSrc().Get("value").String(); id != "" {
				c.switchScenario(ctx, id)
			}
		}),
		app.Label().Class("toggle").Body(
			checkbox("fifo", s.FIFO()).OnChange(func(ctx app.Context, e app.Event) { c.toggleFIFO(ctx) }),
			app.Text(" FIFO channels"),
		),
		app.Label().Class("toggle").Body(
			checkbox("lamport", c.sess.Axis == diagram.AxisLamport).OnChange(func(ctx app.Context, e app.Event) {
				if ctx.JSSrc().Get("checked").Bool() {
					c.setAxis(ctx, diagram.AxisLamport)
				} else {
					c.setAxis(ctx, diagram.AxisTime)
				}
			}),
			app.Text(" Lamport time axis"),
		),
		app.Span().Class("spacer"),
		app.Button().ID("load").Text("Load scenario…").OnClick(func(ctx app.Context, e app.Event) {
			c.loading = !c.loading
			if c.loading && c.loadText == "" {
				c.loadText = string(s.JSON())
			}
		}),
		app.Span().Class("exports").Body(
			app.Text("Export: "),
			c.exportButton("svg", "SVG"),
			c.exportButton("json", "trace JSON"),
			c.exportButton("shiviz", "ShiViz log"),
			c.exportButton("scenario", "scenario"),
		),
	)
}

func (c *Lab) exportButton(format, label string) app.UI {
	return app.Button().Class("link").ID("export-"+format).Text(label).OnClick(func(ctx app.Context, e app.Event) { c.export(format) }, app.EventScope(format))
}

func (c *Lab) loader() app.UI {
	return app.Div().Class("loader").Body(
		app.P().Text("Paste a scenario file (JSON). Its format is described in the README; the current scenario is shown as an example."),
		app.Textarea().ID("scenario-text").Rows(14).Text(c.loadText).OnInput(func(ctx app.Context, e app.Event) {
			c.loadText = ctx.JSSrc().Get("value").String()
		}),
		app.Div().Body(
			app.Button().ID("load-apply").Text("Open this scenario").OnClick(func(ctx app.Context, e app.Event) { c.loadPasted(ctx) }),
			app.Button().Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { c.loading = false }),
		),
	)
}

func (c *Lab) controls() app.UI {
	n := c.sess.Len()
	play := "▶ Play"
	if c.playing {
		play = "❚❚ Pause"
	}
	speeds := make([]app.UI, len(Speeds))
	for i, s := range Speeds {
		speeds[i] = option(s, fmt.Sprintf("%d steps/s", s), s == c.speed)
	}
	return app.Div().Class("controls").Body(
		app.Button().ID("home").Title("First step (Home)").Text("|◀").OnClick(func(ctx app.Context, e app.Event) { c.playing = false; c.home(ctx) }),
		app.Button().ID("back").Title("Step back (←, PageUp)").Text("◀ Back").OnClick(func(ctx app.Context, e app.Event) { c.playing = false; c.back(ctx) }),
		app.Button().ID("play").Title("Play or pause (Space)").Text(play).OnClick(func(ctx app.Context, e app.Event) { c.togglePlay(ctx) }),
		app.Button().ID("forward").Title("Step forward (→, PageDown)").Text("Step ▶").OnClick(func(ctx app.Context, e app.Event) { c.playing = false; c.forward(ctx) }),
		app.Button().ID("end").Title("Last step (End)").Text("▶|").OnClick(func(ctx app.Context, e app.Event) { c.playing = false; c.end(ctx) }),
		app.Select().ID("speed").Attr("aria-label", "speed").Body(speeds...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v > 0 {
				c.speed = v
			}
		}),
		app.Input().ID("scrubber").Type("range").Min(0).Max(n).Value(c.sess.Step()).Attr("aria-label", "step").OnInput(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
				c.scrub(ctx, v)
			}
		}),
		app.Span().ID("position").Class("position").Textf("step %d / %d · time %d", c.sess.Step(), n, c.sess.Now()),
		app.Span().Class("zoom").Body(
			app.Button().ID("zoom-out").Title("Zoom out (−; or the mouse wheel over the diagram)").Text("−").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, zoomStep) }),
			app.Button().ID("zoom-in").Title("Zoom in (+)").Text("+").OnClick(func(ctx app.Context, e app.Event) { c.zoom(ctx, 1/zoomStep) }),
			app.Button().ID("cut-tool").Title("Draw your own cut and see whether it is consistent (C)").Attr("aria-pressed", c.sess.Cut.On).
				Text("Cut tool").OnClick(func(ctx app.Context, e app.Event) { c.toggleCut(ctx) }),
			app.If(c.sess.View.Pinned, func() app.UI {
				return app.Button().ID("follow").Title("Follow the present again (F; drag the diagram or Shift+arrows to pan)").Text("Follow now").
					OnClick(func(ctx app.Context, e app.Event) { c.follow(ctx) })
			}),
		),
		app.Button().ID("reset").Title("Forget your inputs and start over").Text("Reset").OnClick(func(ctx app.Context, e app.Event) { c.reset(ctx) }),
		c.commandBar(),
	)
}

// commandBar offers the algorithm's commands that need no target, at any
// process: a button per process ("snapshot from A") for a handful of
// processes, else one button beside a process picker.
func (c *Lab) commandBar() app.UI {
	names := c.sess.Scenario().Names
	var items []app.UI
	for _, cmd := range c.sess.Spec().Commands {
		if cmd.Target {
			continue
		}
		cmdName := cmd.Name
		if len(names) > maxCommandButtons {
			items = append(items, app.Button().Class("cmd").ID("cmd-"+cmd.Name).Title(cmd.Help).
				Textf("%s from %s", cmd.Name, names[c.commandNode]).
				OnClick(func(ctx app.Context, e app.Event) {
					c.act(ctx, func() error { return c.sess.Command(c.commandNode, cmdName, 0, 0) })
				}, app.EventScope(cmd.Name)))
			continue
		}
		for i, name := range names {
			node := sim.NodeID(i)
			items = append(items, app.Button().Class("cmd").ID("cmd-"+cmd.Name+"-"+name).Title(cmd.Help).
				Textf("%s from %s", cmd.Name, name).
				OnClick(func(ctx app.Context, e app.Event) {
					c.act(ctx, func() error { return c.sess.Command(node, cmdName, 0, 0) })
				}, app.EventScope(cmd.Name, name)))
		}
	}
	if len(names) > maxCommandButtons && len(items) > 0 {
		options := make([]app.UI, len(names))
		for i, name := range names {
			options[i] = option(i, name, sim.NodeID(i) == c.commandNode)
		}
		picker := app.Select().ID("command-node").Attr("aria-label", "process").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v >= 0 && v < len(names) {
				c.commandNode = sim.NodeID(v)
			}
		})
		items = append([]app.UI{picker}, items...)
	}
	return app.Span().Class("commands").Body(items...)
}

// maxCommandButtons is how many processes get a button each per command.
const maxCommandButtons = 6

// menuCommand is one of the algorithm's commands in the process menu: a
// button, with a target picker and a number box when the command takes
// them ("transfer [20] to [B]").
func (c *Lab) menuCommand(id sim.NodeID, cmd sim.CommandSpec) app.UI {
	names := c.sess.Scenario().Names
	cmdName := cmd.Name
	if !cmd.Target && cmd.Arg == "" {
		return app.Button().ID("menu-cmd-"+cmd.Name).Title(cmd.Help).Textf("%s from %s", cmd.Name, names[id]).OnClick(func(ctx app.Context, e app.Event) {
			c.act(ctx, func() error { return c.sess.Command(c.menu.node, cmdName, 0, 0) })
		}, app.EventScope(cmd.Name))
	}
	target := c.menuTarget(id)
	// the handler reads the menu's choices when clicked: go-app keeps the
	// first closure of an element, so values captured here would go stale
	row := []app.UI{app.Button().ID("menu-cmd-"+cmd.Name).Title(cmd.Help).Text(cmd.Name).OnClick(func(ctx app.Context, e app.Event) {
		node := c.menu.node
		c.act(ctx, func() error { return c.sess.Command(node, cmdName, c.menuTarget(node), c.menu.arg) })
	}, app.EventScope(cmd.Name))}
	if cmd.Arg != "" {
		row = append(row, app.Input().ID("menu-arg-"+cmd.Name).Type("number").Title(cmd.Arg).Value(c.menu.arg).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.ParseInt(ctx.JSSrc().Get("value").String(), 10, 64); err == nil {
				c.menu.arg = v
			}
		}, app.EventScope(cmd.Name)))
	}
	if cmd.Target {
		var options []app.UI
		for i, name := range names {
			if sim.NodeID(i) != id {
				options = append(options, option(i, name, sim.NodeID(i) == target))
			}
		}
		row = append(row, app.Text(" to "), app.Select().ID("menu-target-"+cmd.Name).Attr("aria-label", "to").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
				c.menu.target = sim.NodeID(v)
			}
		}, app.EventScope(cmd.Name)))
	}
	return app.Div().Class("menu-row").Body(row...)
}

// menuTarget is the target chosen in the menu for commands of process id:
// any other process, the next one by default.
func (c *Lab) menuTarget(id sim.NodeID) sim.NodeID {
	n := sim.NodeID(len(c.sess.Scenario().Names))
	if t := c.menu.target; t != id && t >= 0 && t < n {
		return t
	}
	return (id + 1) % n
}

// processMenu is the menu of the process c.menu.node. Its handlers read the
// process when clicked: go-app keeps an element's first closure, so a menu
// reopened on another process must not act on the first one.
func (c *Lab) processMenu() app.UI {
	id := c.menu.node
	name := c.sess.Scenario().Names[id]
	h := c.sess.State().Health(id)
	items := []app.UI{app.Div().Class("menu-title").Textf("%s (%s)", name, h.State)}
	if h.Running() || h.State.String() == "paused" {
		items = append(items, app.Button().ID("menu-crash").Textf("Crash %s", name).OnClick(func(ctx app.Context, e app.Event) {
			c.act(ctx, func() error { return c.sess.Crash(c.menu.node) })
		}))
	}
	if h.State.String() == "crashed" {
		items = append(items, app.Button().ID("menu-recover").Textf("Recover %s", name).OnClick(func(ctx app.Context, e app.Event) {
			c.act(ctx, func() error { return c.sess.Recover(c.menu.node) })
		}))
	}
	if h.Running() {
		items = append(items, app.Div().Class("menu-row").Body(
			app.Button().ID("menu-pause").Textf("GC-pause %s for", name).OnClick(func(ctx app.Context, e app.Event) {
				c.act(ctx, func() error { return c.sess.Pause(c.menu.node, sim.Time(c.pauseTicks)) })
			}),
			app.Input().ID("menu-pause-ticks").Type("number").Min(1).Max(10000).Value(c.pauseTicks).OnChange(func(ctx app.Context, e app.Event) {
				if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v > 0 {
					c.pauseTicks = v
				}
			}),
			app.Text(" ticks"),
		))
		for _, cmd := range c.sess.Spec().Commands {
			items = append(items, c.menuCommand(id, cmd))
		}
	}
	items = append(items, app.Button().Class("link").Text("Close").OnClick(func(ctx app.Context, e app.Event) { c.menu.open = false }))
	return app.Div().ID("process-menu").Class("menu").Style("left", fmt.Sprintf("%.0fpx", c.menu.x+8)).Style("top", fmt.Sprintf("%.0fpx", c.menu.y+8)).Body(items...)
}
