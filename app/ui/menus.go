package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Menu is a pane's open menu: a process's, a message's, a link's or the
// network's.
type Menu struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// menuKind is which menu is open.
type menuKind uint8

// The menus: a process's, a message's, a link's and the network's.
const (
	menuNone menuKind = iota
	menuProcess
	menuMessage
	menuLink
	menuNetwork
)

// menu is the little menu opened by clicking a process, a message, a link,
// or the network button.
type menu struct {
	kind menuKind
	// node is the process (or the link's near end), peer the link's far
	// end, msg the message.
	node, peer sim.NodeID
	msg        int
	x, y       float64
	// topology says the menu was opened on the topology view.
	topology bool
	// target and arg are the chosen target and number of a command that
	// takes them.
	target sim.NodeID
	arg    int64
}

// openMenu opens a menu at (x, y), keeping the command choices made before.
func (p *pane) openMenu(kind menuKind, x, y float64, topology bool, set func(*menu)) {
	m := menu{kind: kind, x: x, y: y, topology: topology, target: p.menu.target, arg: max(p.menu.arg, 10), msg: -1}
	set(&m)
	p.menu = m
}

// faultMenu is the registry's menu a menu kind offers faults of.
func faultMenu(k menuKind) faults.Menu {
	return map[menuKind]faults.Menu{menuProcess: faults.MenuProcess, menuMessage: faults.MenuMessage,
		menuLink: faults.MenuLink, menuNetwork: faults.MenuNetwork}[k]
}

// Render draws the pane's open menu: its title, the faults of the
// registry it offers (each with inputs for its arguments) and, for a
// process, the algorithm's commands that process takes.
func (c *Menu) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	m := p.menu
	s := c.sess(i)
	st := s.State()
	var title string
	var items []app.UI
	switch m.kind {
	case menuProcess:
		h := st.Health(m.node)
		title = fmt.Sprintf("%s (%s)", s.Scenario().Names[m.node], h.State)
	case menuMessage:
		title = s.Diagram().Describe(m.msg)
		if st.Check(engine.Deliver(m.msg)) == nil {
			items = append(items, app.Button().ID(p.id("menu-deliver")).Text("Deliver it next").OnClick(func(ctx app.Context, e app.Event) {
				msg := c.panes[i].menu.msg
				c.paneOf(i).act(ctx, func() error { return c.sess(i).Deliver(msg) })
			}, app.EventScope(p.n, i)))
		}
		switch {
		case s.Run().Trace().Msgs[m.msg].ReceivedAt(s.Step()):
			title += " (delivered)"
		case s.Run().Trace().Msgs[m.msg].DroppedAt(s.Step()):
			title += " (lost)"
		default:
			title += " (in flight)"
		}
	case menuLink:
		names := s.Scenario().Names
		title = fmt.Sprintf("Link %s–%s: %s→%s %s, %s→%s %s", names[m.node], names[m.peer],
			names[m.node], names[m.peer], upCut(st.LinkUp(m.node, m.peer)), names[m.peer], names[m.node], upCut(st.LinkUp(m.peer, m.node)))
	case menuNetwork:
		title = "The network"
	}
	for _, f := range faults.Registry {
		if !f.Offered(faultMenu(m.kind)) {
			continue
		}
		for _, on := range c.flagChoices(f) {
			if c.offered(f, on) {
				items = append(items, c.faultRow(f, on))
			}
		}
	}
	if m.kind == menuMessage {
		// the message's channel: cut or heal it from here
		msg := s.Run().Trace().Msgs[m.msg]
		for _, f := range faults.Registry {
			if f.Offered(faults.MenuLink) && c.linkOffered(f, msg.From, msg.To) {
				items = append(items, c.linkRow(f, msg.From, msg.To))
			}
		}
	}
	if m.kind == menuProcess && st.Health(m.node).Running() && !s.Spec().Learner.Record {
		for _, cmd := range s.Spec().Learner.Commands {
			if s.Takes(m.node, cmd) {
				items = append(items, c.menuCommand(m.node, cmd))
			}
		}
	}
	switch {
	case s.Spec().Learner.Record:
		// the engine refuses them all: say why rather than "nothing"
		items = []app.UI{app.P().Class("note").Text("A log records what happened: it takes no faults, commands or deliveries. Step through it, rewind it, check its cuts.")}
	case len(items) == 0 && !s.Cut().On():
		items = append(items, app.P().Class("note").Text("Nothing can be done here at this step."))
	}
	if m.kind == menuProcess && s.Cut().On() {
		// the cut tool from the keyboard: this process's point at the present
		node := m.node
		cut := app.Button().ID(p.id("menu-cut-here")).Text(fmt.Sprintf("Cut here: %s's events so far inside the cut", s.Scenario().Names[node])).
			OnClick(func(ctx app.Context, e app.Event) {
				c.sess(i).Cut().PlaceNow(node)
				c.panes[i].menu.kind = menuNone
				c.changed(ctx)
			}, app.EventScope(p.n, i, int(node)))
		items = append([]app.UI{cut}, items...)
	}
	items = append([]app.UI{app.Div().Class("menu-title").Text(title)}, items...)
	items = append(items, app.Button().Class("link").Text("Close").OnClick(func(ctx app.Context, e app.Event) { c.panes[i].menu.kind = menuNone }, app.EventScope(p.n, i)))
	id := map[menuKind]string{menuProcess: "process-menu", menuMessage: "message-menu", menuLink: "link-menu", menuNetwork: "network-menu"}[m.kind]
	// the page keeps it within the window (web/spacetime.js, fitMenu)
	return app.Div().ID(p.id(id)).Class("menu").DataSet("x", fmt.Sprintf("%.0f", m.x+8)).DataSet("y", fmt.Sprintf("%.0f", m.y+8)).
		Style("left", fmt.Sprintf("%.0fpx", m.x+8)).Style("top", fmt.Sprintf("%.0fpx", m.y+8)).Body(items...)
}

func upCut(up bool) string {
	if up {
		return "up"
	}
	return "cut"
}

// subject fills in the arguments a menu fixes: its process, its message,
// its link's ends.
func (c *Menu) subject() faults.Args {
	i := c.Pane
	m := c.panes[i].menu
	a := faults.NoArgs()
	switch m.kind {
	case menuProcess:
		a.Node = m.node
	case menuMessage:
		a.Msg = m.msg
	case menuLink:
		a.Node, a.Target = m.node, m.peer
	}
	return a
}

// fixed says whether a menu's subject gives a param: the clicked
// process, message or link.
func fixed(k menuKind, p faults.Param) bool {
	switch k {
	case menuProcess:
		return p.Kind == faults.ParamNode
	case menuMessage:
		return p.Kind == faults.ParamMsg
	case menuLink:
		return p.Kind == faults.ParamNode || p.Kind == faults.ParamTarget
	}
	return false
}

// choosesFlag says the param is a required true-or-false argument: the
// menu offers a button for each value rather than a check box.
func choosesFlag(p faults.Param) bool { return p.Kind.Input.Type == faults.InputCheck && !p.Optional }

// flagChoices are the values a menu offers a fault with for its required
// true-or-false argument ("on"): one button each; a fault without one gets
// one button.
func (c *Menu) flagChoices(f *faults.Fault) []bool {
	for _, p := range f.Params {
		if choosesFlag(p) {
			return []bool{true, false}
		}
	}
	return []bool{false}
}

// offered says whether the fault can happen now from the pane's open menu,
// for some choice of the arguments the learner picks.
func (c *Menu) offered(f *faults.Fault, on bool) bool {
	i := c.Pane
	m := c.panes[i].menu
	if m.kind == menuNetwork && f.Takes("node") && !hasOptional(f, "node") {
		return false
	}
	if m.kind == menuProcess && f.Takes("target") {
		return len(c.targets(f)) > 0
	}
	if _, err := c.faultArgs(f, on); err == nil {
		return true
	}
	// offered if it can happen with its optional flags as they are by
	// default (a link cut one way can still be cut both ways); the
	// learner's choice is checked when the button is pressed
	p := c.panes[i]
	saved := p.form
	p.form = map[string]string{}
	_, err := c.faultArgs(f, on)
	p.form = saved
	return err == nil
}

func hasOptional(f *faults.Fault, field string) bool {
	for _, p := range f.Params {
		if p.Field == field {
			return p.Optional
		}
	}
	return false
}

// targets lists the processes a fault of the pane's process menu may name as
// its target: those for which it can happen now.
func (c *Menu) targets(f *faults.Fault) []sim.NodeID {
	i := c.Pane
	s := c.sess(i)
	st := s.State()
	base := c.subject()
	var out []sim.NodeID
	for t := range len(s.Scenario().Names) {
		a := c.optionalFlags(f, base)
		a.Target = sim.NodeID(t)
		if st.Check(engine.Fault(f.Name, a)) == nil {
			out = append(out, sim.NodeID(t))
		}
	}
	return out
}

// faultArgs reads a fault's arguments from the pane's open menu and the
// inputs the learner filled in, and checks that it can happen now.
func (c *Menu) faultArgs(f *faults.Fault, on bool) (faults.Args, error) {
	i := c.Pane
	p := c.panes[i]
	m := p.menu
	a := c.subject()
	for _, prm := range f.Params {
		if fixed(m.kind, prm) {
			continue
		}
		key := f.Name + "." + prm.Field
		in := prm.Kind.Input
		switch in.Type {
		case faults.InputProcess:
			if m.kind == menuNetwork {
				continue
			}
			ts := c.targets(f)
			if len(ts) == 0 {
				return a, fmt.Errorf("no process to %s with", f.Name)
			}
			t := ts[0]
			if v, err := strconv.Atoi(p.form[key]); err == nil {
				for _, x := range ts {
					if int(x) == v {
						t = x
					}
				}
			}
			a = prm.Set(a, prm.Kind.Num(int64(t)))
		case faults.InputNumber:
			a = prm.Set(a, prm.Kind.Num(c.formNumber(key, in.Default)))
		case faults.InputCheck:
			if choosesFlag(prm) {
				a = prm.Set(a, prm.Kind.Bool(on)) // the menu's button says which
			} else {
				a = prm.Set(a, prm.Kind.Bool(c.formFlag(key)))
			}
		case faults.InputText:
			v, err := in.Parse(p.form[key], c.sess(i).Scenario().Names)
			if err != nil {
				return a, err
			}
			a = prm.Set(a, v)
		}
	}
	return a, c.sess(i).State().Check(engine.Fault(f.Name, a))
}

func (c *Menu) formNumber(key string, def int64) int64 {
	i := c.Pane
	if v, err := strconv.ParseInt(strings.TrimSpace(c.panes[i].form[key]), 10, 64); err == nil {
		return v
	}
	return def
}

func (c *Menu) formFlag(key string) bool { i := c.Pane; return c.panes[i].form[key] == "1" }

// optionalFlags is a with the optional true-or-false arguments of f set
// as the pane's menu has them ("one way only").
func (c *Menu) optionalFlags(f *faults.Fault, a faults.Args) faults.Args {
	for _, p := range f.Params {
		if p.Kind.Input.Type == faults.InputCheck && p.Optional {
			a = p.Set(a, p.Kind.Bool(c.formFlag(f.Name+"."+p.Field)))
		}
	}
	return a
}

// faultRow is one fault of a menu: its button, and inputs for the
// arguments the learner picks ("GC-pause B for [15] ticks").
func (c *Menu) faultRow(f *faults.Fault, on bool) app.UI {
	i := c.Pane
	p := c.panes[i]
	m := p.menu
	s := c.sess(i)
	names := s.Scenario().Names
	label := f.LabelIn(faultMenu(m.kind))
	if m.node >= 0 && int(m.node) < len(names) {
		label = strings.ReplaceAll(label, "{node}", names[m.node])
	}
	label = strings.ReplaceAll(label, "{msg}", "it")
	label = strings.ReplaceAll(label, "{on}", map[bool]string{true: "on", false: "off"}[on])
	name := f.Name
	row := []app.UI{app.Button().ID(p.id("menu-"+f.Name)).Title(attrText(f.Help)).Text(label).OnClick(func(ctx app.Context, e app.Event) {
		fl, _ := faults.Lookup(name)
		a, err := c.faultArgs(fl, on)
		if err != nil {
			c.panes[i].notice = err.Error()
			c.panes[i].menu.kind = menuNone
			return
		}
		c.paneOf(i).act(ctx, func() error { return c.sess(i).Fault(name, a) })
	}, app.EventScope(p.n, i, f.Name, on))}
	for _, prm := range f.Params {
		if fixed(m.kind, prm) || (m.kind == menuNetwork && prm.Optional) || choosesFlag(prm) {
			continue
		}
		row = append(row, c.paramInput(f, prm)...)
	}
	return app.Div().Class("menu-row").Body(row...)
}

// paramInput is the input for one argument of a fault, with its words.
func (c *Menu) paramInput(f *faults.Fault, prm faults.Param) []app.UI {
	i := c.Pane
	p := c.panes[i]
	key := f.Name + "." + prm.Field
	id := p.id("menu-" + f.Name + "-" + prm.Field)
	store := func(ctx app.Context, e app.Event) {
		src := ctx.JSSrc()
		if src.Get("type").String() == "checkbox" {
			c.panes[i].form[key] = map[bool]string{true: "1", false: "0"}[src.Get("checked").Bool()]
			return
		}
		c.panes[i].form[key] = src.Get("value").String()
	}
	var out []app.UI
	if prm.Before != "" {
		out = append(out, app.Text(" "+prm.Before+" "))
	}
	in := prm.Kind.Input
	switch in.Type {
	case faults.InputProcess:
		names := c.sess(i).Scenario().Names
		ts := c.targets(f)
		chosen := sim.NodeID(-1)
		if a, err := c.faultArgs(f, false); err == nil {
			if v, ok := prm.Get(a); ok {
				chosen = sim.NodeID(v.Int)
			}
		}
		options := make([]app.UI, len(ts))
		for j, t := range ts {
			options[j] = option(strconv.Itoa(int(t)), names[t], t == chosen)
		}
		out = append(out, app.Select().ID(attrText(id)).Attr("aria-label", attrText(prm.Field)).Body(options...).OnChange(store, app.EventScope(p.n, i, key)))
	case faults.InputNumber:
		out = append(out, app.Input().ID(attrText(id)).Type("number").Value(c.formNumber(key, in.Default)).Min(in.Min).Max(in.Max).OnChange(store, app.EventScope(p.n, i, key)))
	case faults.InputCheck:
		out = append(out, app.Label().Body(checkbox(id, c.formFlag(key)).OnChange(store, app.EventScope(p.n, i, key)), app.Text(" "+prm.After)))
		return out
	case faults.InputText:
		example := ""
		if in.Placeholder != nil {
			example = in.Placeholder(c.sess(i).Scenario().Names)
		}
		out = append(out, app.Input().ID(attrText(id)).Type("text").Placeholder(attrText(example)).Value(attrText(p.form[key])).OnChange(store, app.EventScope(p.n, i, key)))
	}
	if prm.After != "" {
		out = append(out, app.Text(" "+prm.After))
	}
	return out
}

// linkOffered says whether a link fault can happen now on from↔to.
func (c *Menu) linkOffered(f *faults.Fault, from, to sim.NodeID) bool {
	i := c.Pane
	a := faults.NoArgs()
	a.Node, a.Target = from, to
	return c.sess(i).State().Check(engine.Fault(f.Name, a)) == nil
}

// linkRow offers a link fault for the channel of a message.
func (c *Menu) linkRow(f *faults.Fault, from, to sim.NodeID) app.UI {
	i := c.Pane
	p := c.panes[i]
	names := c.sess(i).Scenario().Names
	name := f.Name
	label := fmt.Sprintf("%s the link %s↔%s", strings.ToUpper(name[:1])+name[1:], names[from], names[to])
	return app.Div().Class("menu-row").Body(app.Button().ID(p.id("menu-link-"+f.Name)).Title(attrText(f.Help)).Text(label).OnClick(func(ctx app.Context, e app.Event) {
		a := faults.NoArgs()
		a.Node, a.Target = from, to
		c.paneOf(i).act(ctx, func() error { return c.sess(i).Fault(name, a) })
	}, app.EventScope(p.n, i, f.Name, int(from), int(to))))
}

// menuCommand is one of the algorithm's commands in the process menu: a
// button, with a target picker and a number box when the command takes
// them ("transfer [20] to [B]").
func (c *Menu) menuCommand(id sim.NodeID, cmd sim.CommandSpec) app.UI {
	i := c.Pane
	p := c.panes[i]
	names := c.sess(i).Scenario().Names
	cmdName := cmd.Name
	if !cmd.Target && cmd.Arg == "" {
		return app.Button().ID(p.id("menu-cmd-"+cmd.Name)).Title(attrText(cmd.Help)).Textf("%s from %s", cmd.Name, names[id]).OnClick(func(ctx app.Context, e app.Event) {
			node := c.panes[i].menu.node
			c.paneOf(i).act(ctx, func() error { return c.sess(i).Command(node, cmdName, sim.None, 0) })
		}, app.EventScope(p.n, i, cmd.Name))
	}
	target := c.menuTarget(id)
	// the handler reads the menu's choices when clicked: go-app keeps the
	// first closure of an element, so values captured here would go stale
	row := []app.UI{app.Button().ID(p.id("menu-cmd-"+cmd.Name)).Title(attrText(cmd.Help)).Text(cmd.Name).OnClick(func(ctx app.Context, e app.Event) {
		node := c.panes[i].menu.node
		target := sim.NodeID(sim.None)
		if cmd, _ := c.sess(i).Spec().Command(cmdName); cmd.Target {
			target = c.menuTarget(node)
		}
		c.paneOf(i).act(ctx, func() error { return c.sess(i).Command(node, cmdName, target, c.panes[i].menu.arg) })
	}, app.EventScope(p.n, i, cmd.Name))}
	if cmd.Arg != "" {
		row = append(row, app.Input().ID(p.id("menu-arg-"+cmd.Name)).Type("number").Title(attrText(cmd.Arg)).Attr("min", cmd.ArgMin).Attr("max", cmd.ArgMax).Value(p.menu.arg).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.ParseInt(ctx.JSSrc().Get("value").String(), 10, 64); err == nil {
				c.panes[i].menu.arg = v
			}
		}, app.EventScope(p.n, i, cmd.Name)))
	}
	if cmd.Target {
		var options []app.UI
		for j, name := range names {
			if sim.NodeID(j) != id {
				options = append(options, option(strconv.Itoa(j), name, sim.NodeID(j) == target))
			}
		}
		row = append(row, app.Text(" to "), app.Select().ID(p.id("menu-target-"+cmd.Name)).Attr("aria-label", "to").Body(options...).OnChange(func(ctx app.Context, e app.Event) {
			if v, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
				c.panes[i].menu.target = sim.NodeID(v)
			}
		}, app.EventScope(p.n, i, cmd.Name)))
	}
	return app.Div().Class("menu-row").Body(row...)
}

// menuTarget is the target chosen in the pane's menu for commands of process
// id: any other process, the next one by default.
func (c *Menu) menuTarget(id sim.NodeID) sim.NodeID {
	i := c.Pane
	n := sim.NodeID(len(c.sess(i).Scenario().Names))
	if t := c.panes[i].menu.target; t != id && t >= 0 && t < n {
		return t
	}
	return (id + 1) % n
}

// lookupFault finds a fault of the registry by name.
func lookupFault(name string) (*faults.Fault, bool) { return faults.Lookup(name) }
