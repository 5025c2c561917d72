package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/core/sim"
)

// commandBar offers pane i's algorithm commands that need no target, at
// the processes that take them: a button per process ("snapshot from A")
// for a handful of processes, else one button beside a process picker.
func (c *Lab) commandBar(i int) app.UI {
	p := c.panes[i]
	s := c.sess(i)
	names := s.Scenario().Names
	var items []app.UI
	if s.Spec().Learner.Record {
		return app.Span().Class("commands") // a log takes no commands
	}
	for _, cmd := range s.Spec().Learner.Commands {
		if cmd.Target {
			continue
		}
		cmdName := cmd.Name
		if len(names) > maxCommandButtons {
			items = append(items, app.Button().Class("cmd").ID(p.id("cmd-"+cmd.Name)).Title(attrText(cmd.Help)).
				Textf("%s from %s", cmd.Name, names[p.commandNode]).
				OnClick(func(ctx app.Context, e app.Event) {
					node := c.panes[i].commandNode
					c.act(ctx, i, func() error { return c.sess(i).Command(node, cmdName, sim.None, 0) })
				}, app.EventScope(p.n, i, cmd.Name)))
			continue
		}
		for j, name := range names {
			node := sim.NodeID(j)
			if !s.Takes(node, cmd) {
				continue
			}
			items = append(items, app.Button().Class("cmd").ID(p.id("cmd-"+cmd.Name+"-"+name)).Title(attrText(cmd.Help)).
				Textf("%s from %s", cmd.Name, name).
				OnClick(func(ctx app.Context, e app.Event) {
					c.act(ctx, i, func() error { return c.sess(i).Command(node, cmdName, sim.None, 0) })
				}, app.EventScope(p.n, i, cmd.Name, name)))
		}
	}
	if len(names) > maxCommandButtons && len(items) > 0 {
		options := make([]app.UI, len(names))
		for j, name := range names {
			options[j] = option(strconv.Itoa(j), name, sim.NodeID(j) == p.commandNode)
		}
		picker := app.Select().ID(p.id("command-node")).Attr("aria-label", "process").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && v >= 0 && v < len(names) {
				c.panes[i].commandNode = sim.NodeID(v)
			}
		}, app.EventScope(p.n, i))
		items = append([]app.UI{picker}, items...)
	}
	return app.Span().Class("commands").Body(items...)
}

// maxCommandButtons is how many processes get a button each per command.
const maxCommandButtons = 6
