package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/core/sim"
)

// panels are the tables under the diagram: the algorithm's own panels,
// invariants, message counts and every process's state.
func (c *Lab) panels() app.UI {
	var items []app.UI
	for _, p := range c.sess.Panels() {
		items = append(items, panelTable(p))
	}
	items = append(items, c.invariants(), c.messages(), c.processes())
	return app.Div().Class("panels").Body(items...)
}

// panelTable renders any algorithm's panel the same way.
func panelTable(p sim.Panel) app.UI {
	head := make([]app.UI, len(p.Columns))
	for i, col := range p.Columns {
		head[i] = app.Th().Text(col)
	}
	rows := make([]app.UI, len(p.Rows))
	for i, r := range p.Rows {
		cells := make([]app.UI, len(r.Cells))
		for j, cell := range r.Cells {
			td := app.Td().Text(cell)
			if j < len(r.CellEmphasis) && r.CellEmphasis[j] != "" {
				td = td.Class(r.CellEmphasis[j])
			}
			cells[j] = td
		}
		rows[i] = app.Tr().Class(r.Emphasis).Body(cells...)
	}
	return app.Section().Class("panel").DataSet("panel", p.Title).Body(
		app.H2().Text(p.Title),
		app.Table().Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
		app.If(p.Note != "", func() app.UI { return app.P().Class("note").Text(p.Note) }),
	)
}

func (c *Lab) invariants() app.UI {
	rep := c.sess.Report()
	rows := make([]app.UI, len(rep.Invariants))
	for i, inv := range rep.Invariants {
		status, cls := "holds", "good"
		if !inv.OK {
			status, cls = fmt.Sprintf("fails at step %d", *inv.FirstFailingStep), "bad"
			if inv.Expected {
				status += " (this lesson's point)"
			}
		}
		rows[i] = app.Li().Class(cls).Body(
			app.Strong().Text(inv.Name+": "),
			app.Span().Class("status").Text(status),
			app.If(inv.Detail != "", func() app.UI { return app.Div().Class("detail").Text(inv.Detail) }),
		)
	}
	return app.Section().ID("invariants").Class("panel").Body(app.H2().Text("Invariants"), app.Ul().Body(rows...))
}

func (c *Lab) messages() app.UI {
	rep := c.sess.Report()
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
	if f := c.sess.Spec().Formula; f != nil {
		formula = append(formula, app.P().Class("note").Text(f(c.sess.State().View())))
	}
	return app.Section().ID("messages").Class("panel").Body(
		app.H2().Text("Messages"),
		app.Table().Body(app.TBody().Body(rows...)),
		app.Range(formula).Slice(func(i int) app.UI { return formula[i] }),
		app.If(rep.Messages.Note != "", func() app.UI { return app.P().Class("note").Text(rep.Messages.Note) }),
	)
}

func (c *Lab) processes() app.UI {
	procs := c.sess.Processes()
	rows := make([]app.UI, len(procs))
	for i, p := range procs {
		fields := make([]string, len(p.Fields))
		for j, f := range p.Fields {
			fields[j] = f.Name + " " + f.Value
		}
		rows[i] = app.Tr().Class(p.Health).Body(
			app.Td().Body(app.Strong().Text(p.Name)),
			app.Td().Text(p.Health),
			app.Td().Text(strings.Join(fields, "; ")),
			app.Td().Text(p.Lamport),
			app.Td().Text(p.Vector),
		)
	}
	return app.Section().ID("processes").Class("panel").Body(
		app.H2().Text("Processes"),
		app.Table().Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("process"), app.Th().Text("health"), app.Th().Text("state"), app.Th().Text("Lamport"), app.Th().Text("vector"))),
			app.TBody().Body(rows...),
		),
		app.P().Class("note").Text(c.processesHint()),
	)
}

// processesHint says what clicking the diagram does, naming the algorithm's
// commands.
func (c *Lab) processesHint() string {
	var names []string
	for _, cmd := range c.sess.Spec().Commands {
		names = append(names, cmd.Name)
	}
	hint := "Click a process line to crash, recover or GC-pause it"
	if len(names) > 0 {
		hint += " or to run " + strings.Join(names, " or ") + " there"
	}
	return hint + "; click a message still in flight to deliver it next; click an event for its causal past and future."
}
