package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/core/sim"
)

// Panels are a pane's panels: the summary, the algorithm's own panels,
// the invariants, the message counts and the processes.
type Panels struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// Render draws the tables beside the pane's diagram: the algorithm's own
// panels, invariants, message counts and every process's state.
func (c *Panels) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	var items []app.UI
	if cut, ok := c.sess(i).Cut().Panel(); ok {
		items = append(items, panelTable(cut))
	}
	for _, panel := range c.sess(i).Panels() {
		items = append(items, panelTable(panel))
	}
	items = append(items, c.invariants(), c.messages(), c.processes())
	return app.Div().ID(p.id("panels")).Class("panels").Body(items...)
}

// summary is a compare view grid cell's line about its run, as its bar's
// tooltip: its invariants and messages.
func (c *Panels) summary() string {
	i := c.Pane
	rep := c.sess(i).Report()
	failing := 0
	for _, inv := range rep.Invariants {
		if !inv.OK {
			failing++
		}
	}
	verdict := "every invariant holds"
	if failing > 0 {
		verdict = fmt.Sprintf("%d invariant(s) fail", failing)
	}
	return fmt.Sprintf("Panels · %s · %d messages", verdict, rep.Messages.Total)
}

// panelTable renders any algorithm's panel the same way.
func panelTable(p sim.Panel) app.UI { return panelTableWith(p, nil) }

// panelTableWith draws a panel whose rows may each be followed by one of
// after's (nil: none).
func panelTableWith(p sim.Panel, after func(row int) app.UI) app.UI {
	head := make([]app.UI, len(p.Columns))
	for i, col := range p.Columns {
		head[i] = app.Th().Text(col)
	}
	rows := make([]app.UI, 0, len(p.Rows))
	for i, r := range p.Rows {
		cells := make([]app.UI, len(r.Cells))
		for j, cell := range r.Cells {
			td := app.Td().Text(cell)
			if j < len(r.Strips) && r.Strips[j] != nil {
				td = app.Td().Title(attrText(cell)).Body(strip(r.Strips[j])...)
			}
			if j < len(r.CellEmphasis) && r.CellEmphasis[j] != "" {
				td = td.Class(attrText(r.CellEmphasis[j]))
			}
			cells[j] = td
		}
		rows = append(rows, app.Tr().Class(attrText(r.Emphasis)).Body(cells...))
		if after != nil {
			if extra := after(i); extra != nil {
				rows = append(rows, extra)
			}
		}
	}
	return app.Section().Class("panel").DataSet("panel", attrText(p.Title)).Body(
		app.H2().Text(p.Title),
		app.Table().Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
		app.If(p.Note != "", func() app.UI { return app.P().Class("note").Text(p.Note) }),
	)
}

// strip is a panel cell drawn as boxes, coloured by group as the process
// graph colours them, hollow while tentative.
func strip(cells []sim.Cell) []app.UI {
	out := make([]app.UI, len(cells))
	for i, c := range cells {
		class := "cell tone-" + string(diagram.CellTone(c.Group))
		if c.Tentative {
			class += " tentative"
		}
		out[i] = app.Span().Class(attrText(class)).Text(c.Text)
	}
	return out
}

func (c *Panels) invariants() app.UI {
	i := c.Pane
	rep := c.sess(i).Report()
	rows := make([]app.UI, len(rep.Invariants))
	for j, inv := range rep.Invariants {
		status, cls := "holds", "good"
		if !inv.OK {
			status, cls = fmt.Sprintf("fails at step %d", *inv.FirstFailingStep), "bad"
			if inv.Expected {
				status += " (this lesson's point)"
			}
		}
		rows[j] = app.Li().Class(attrText(cls)).Body(
			app.Strong().Text(inv.Name+": "),
			app.Span().Class("status").Text(status),
			app.If(inv.Detail != "", func() app.UI { return app.Div().Class("detail").Text(inv.Detail) }),
		)
	}
	return app.Section().ID(c.panes[i].id("invariants")).Class("panel").Body(app.H2().Text("Invariants"), app.Ul().Body(rows...))
}

func (c *Panels) messages() app.UI {
	i := c.Pane
	s := c.sess(i)
	rep := s.Report()
	kinds := make([]string, 0, len(rep.Messages.ByKind))
	for k := range rep.Messages.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	rows := []app.UI{}
	for _, k := range kinds {
		rows = append(rows, app.Tr().Body(app.Td().Text(k), app.Td().Text(rep.Messages.ByKind[k])))
	}
	var formula []app.UI
	if f := s.Spec().Figures.Formula; f != nil {
		formula = append(formula, app.P().Class("note").Text(f(s.State().View())))
	}
	return app.Section().ID(c.panes[i].id("messages")).Class("panel").Body(
		app.H2().Text("Messages"),
		app.Table().Body(app.TBody().Body(rows...)),
		app.Range(formula).Slice(func(j int) app.UI { return formula[j] }),
		app.If(rep.Messages.Note != "", func() app.UI { return app.P().Class("note").Text(rep.Messages.Note) }),
	)
}

func (c *Panels) processes() app.UI {
	i := c.Pane
	procs := c.sess(i).Processes()
	filter := c.sess(i).Filter()
	pane := c.panes[i]
	rows := make([]app.UI, len(procs))
	for j, p := range procs {
		fields := make([]string, len(p.Fields))
		for k, f := range p.Fields {
			fields[k] = f.Name + " " + f.Value
		}
		node := sim.NodeID(j)
		rows[j] = app.Tr().Class(attrText(p.Health)).Body(
			// whether its line is drawn (a run of many processes is read
			// a few lines at a time), and its menu from the keyboard, as
			// a click on its line
			app.Td().Body(
				checkbox(pane.id("shown-"+strconv.Itoa(j)), filter.Shown(node)).Class("lane-shown").
					Title(attrText("Draw "+p.Name+"'s line in the diagram")).Attr("aria-label", attrText(p.Name+"'s line drawn")).
					OnChange(func(ctx app.Context, e app.Event) { c.setShown(ctx, node, ctx.JSSrc().Get("checked").Bool()) }, app.EventScope(pane.n, i, j)),
				app.Button().Class("link proc").ID(pane.id("proc-"+strconv.Itoa(j))).Title(attrText("Open "+p.Name+"'s menu: what can happen to it at this step")).
					Body(app.Strong().Text(p.Name)).
					OnClick(func(ctx app.Context, e app.Event) { c.paneOf(i).openProcessMenu(ctx, node) }, app.EventScope(pane.n, i, j))),
			app.Td().Text(p.Health),
			app.Td().Text(strings.Join(fields, "; ")),
			app.Td().Text(p.Lamport),
			app.Td().Text(p.Vector),
		)
	}
	return app.Section().ID(c.panes[i].id("processes")).Class("panel").Body(
		app.H2().Text("Processes"),
		app.Table().Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("process"), app.Th().Text("health"), app.Th().Text("state"), app.Th().Text("Lamport"), app.Th().Text("vector"))),
			app.TBody().Body(rows...),
		),
		app.If(filter.Count(len(procs)) < len(procs), func() app.UI {
			return app.P().Class("note").Body(
				app.Text(fmt.Sprintf("The diagram draws %d of the %d processes' lines. ", filter.Count(len(procs)), len(procs))),
				app.Button().Class("link").ID(pane.id("show-all")).Text("Draw them all").
					OnClick(func(ctx app.Context, e app.Event) { c.showAll(ctx) }, app.EventScope(pane.n, i)))
		}),
		app.P().Class("note").Text(c.processesHint()),
	)
}

// setShown draws a process's line in the pane's diagram, or leaves it out.
func (c *Panels) setShown(ctx app.Context, id sim.NodeID, shown bool) {
	s := c.sess(c.Pane)
	s.Filter().Set(id, len(s.Scenario().Names), shown)
	if !shown && s.Filter().Shown(id) {
		ctx.JSSrc().Set("checked", true) // the last line drawn stays
	}
	c.changed(ctx)
}

// showAll draws every process's line in the pane's diagram again.
func (c *Panels) showAll(ctx app.Context) {
	c.sess(c.Pane).Filter().ShowAll()
	c.changed(ctx)
}

// processesHint says what clicking the diagram does, naming the algorithm's
// commands.
func (c *Panels) processesHint() string {
	i := c.Pane
	var names []string
	for _, cmd := range c.sess(i).Spec().Learner.Commands {
		names = append(names, cmd.Name)
	}
	hint := "Click a process line (or its name here) to crash, recover, GC-pause it, skew its clock or cut one of its links"
	if len(names) > 0 {
		hint += ", or to run " + strings.Join(names, " or ") + " there"
	}
	hint += "; click a message still in flight to deliver it next, and right-click it to lose, delay or duplicate it; click an event for its causal past and future. Untick a process to leave its line out of the diagram."
	if c.paneOf(i).showTopology() {
		hint += " In the process graph, click a link to cut or heal it."
	}
	return hint
}
