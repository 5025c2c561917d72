package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Tools are a pane's actions on its run: the cut tool, the network's menu,
// reset, the tour, the quiz, the search and the algorithm's commands.
type Tools struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// commandBar offers the pane's algorithm commands that need no target, at
// the processes that take them: a button per process ("snapshot from A")
// for a handful of processes, else one button beside a process picker.
func (c *Tools) commandBar() app.UI {
	i := c.Pane
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
					c.paneOf(i).act(ctx, func() error { return c.sess(i).Command(node, cmdName, sim.None, 0) })
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
					c.paneOf(i).act(ctx, func() error { return c.sess(i).Command(node, cmdName, sim.None, 0) })
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

// Render draws the pane's actions on its run: the cut tool, the
// network's menu, reset and the algorithm's commands.
func (c *Tools) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	return app.Div().Class("tools").Body(
		c.cutToolOf(i),
		app.Button().ID(p.id("network")).Title("Heal links, partition the network, switch FIFO order from this step").Text("Network…").
			OnClick(func(ctx app.Context, e app.Event) {
				pn := c.panes[i]
				if pn.menu.kind == menuNetwork {
					pn.menu.kind = menuNone
					return
				}
				pn.openMenu(menuNetwork, 40, 10, false, func(*menu) {})
			}, app.EventScope(p.n, i)),
		app.Button().ID(p.id("reset")).Title("Forget your inputs and start over").Text("Reset").OnClick(func(ctx app.Context, e app.Event) { c.paneOf(i).reset(ctx) }, app.EventScope(p.n, i)),
		app.If(len(c.sess(i).Tour().Stops()) > 0, func() app.UI { return c.tourOf(i).tourButton() }),
		app.If(!c.several(), func() app.UI { return c.quizOf(i).quizButton() }),
		app.If(c.searchOf(i).searchable(), func() app.UI { return c.searchOf(i).searchButton() }),
		c.commandBar(),
		app.If(c.codeHref() != "", func() app.UI { return c.openAsCode() }),
		app.If(c.exerciseHref() != "", func() app.UI { return c.openExercise() }),
	)
}

// openExercise is the link that opens the pane's lesson, when it is an
// exercise, in the Write view with its skeleton: the algorithm with a
// rule left for the learner to write, and Check my answer.
func (c *Tools) openExercise() app.UI {
	p := c.panes[c.Pane]
	return app.A().ID(p.id("open-exercise")).Class("open-as-code").Href(attrText(c.exerciseHref())).
		Title("Write this lesson's rule yourself in the Write view, then check your answer on 200 runs").Text("Exercise: write the rule").
		OnClick(func(ctx app.Context, e app.Event) {
			e.Call("stopPropagation") // a page of its own, loaded whole (see openAsCode)
			ctx.PreventUpdate()
		}, app.EventScope(p.n, c.Pane))
}

// exerciseHref is the Write view's link to the pane's lesson as an
// exercise (lab.ExerciseQuery), relative to the page, or "" when the pane
// shows no lesson that is one.
func (c *Tools) exerciseHref() string {
	if !c.sess(c.Pane).IsLesson() {
		return ""
	}
	return c.writeLinks().exercise
}

// openAsCode is the link that opens the pane's lesson in the Write view,
// run by its algorithm's port (core/algo/python/ports): the same lesson,
// its algorithm as a program to read, change and run. Only a lesson as
// written whose algorithm has a port has it.
func (c *Tools) openAsCode() app.UI {
	p := c.panes[c.Pane]
	return app.A().ID(p.id("open-as-code")).Class("open-as-code").Href(attrText(c.codeHref())).
		Title("Open this lesson in the Write view, its algorithm as a Python program you can change and run").Text("Open as code").
		OnClick(func(ctx app.Context, e app.Event) {
			// a page with a client of its own (the Write view's), loaded
			// whole as the browser follows a link: kept from go-app, which
			// would route it in place and then find it must load it
			e.Call("stopPropagation")
			ctx.PreventUpdate()
		}, app.EventScope(p.n, c.Pane))
}

// codeHref is the Write view's link to the pane's lesson (as written)
// run by its algorithm's port, relative to the page (a site may be served
// below a path), or "" when the pane shows no lesson whose algorithm has
// a port.
func (c *Tools) codeHref() string {
	if c.sess(c.Pane).Scenario().Code != "" {
		return ""
	}
	return c.writeLinks().code
}

// writeLinks are the Write view's links to one lesson, as code and as an
// exercise ("" where it has none), made once for the lesson: they pack
// a program, which takes longer than a frame in the browser, and the
// tools render at every step.
type writeLinks struct {
	lesson, algorithm string
	code, exercise    string
}

// writeLinks are the Write view's links to the pane's lesson, by its id
// and algorithm (a program run on a lesson, or a lesson changed by the
// learner, is refused by codeHref and exerciseHref).
func (c *Tools) writeLinks() writeLinks {
	p := c.panes[c.Pane]
	s := c.sess(c.Pane).Scenario()
	if p.writeLinks.lesson == s.ID && p.writeLinks.algorithm == s.Algorithm {
		return p.writeLinks
	}
	l := writeLinks{lesson: s.ID, algorithm: s.Algorithm}
	if lesson, err := scenario.Builtin(s.ID); s.ID != "" && err == nil && lesson.Algorithm == s.Algorithm {
		if code, ok := ports.For(s.Algorithm); ok {
			l.code = "." + WritePath + "?" + lab.EncodeQuery(lab.CodeQuery(s.ID, code))
		}
		if q, ok := lab.ExerciseQuery(s.ID); ok {
			l.exercise = "." + WritePath + "?" + lab.EncodeQuery(q)
		}
	}
	p.writeLinks = l
	return l
}
