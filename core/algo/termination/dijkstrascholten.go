package termination

import (
	"fmt"
	"strconv"

	"spacetime/core/sim"
)

// Dijkstra–Scholten's message kind and role.
const (
	KindAck = "ACK"
	// RoleParent is a process's link to its parent in the spanning tree,
	// open while it is engaged.
	RoleParent = "parent"
)

// DSSpec registers Dijkstra–Scholten.
var DSSpec = spec("dijkstra-scholten", "Termination detection: Dijkstra–Scholten",
	"Every WORK message is acknowledged. A passive process that receives WORK joins a spanning tree under its sender and acknowledges that message only when it leaves: once it is passive and all it sent has been acknowledged. When the root is passive with nothing unacknowledged, the computation has terminated.",
	[]sim.KindSpec{{Name: KindAck, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing}},
	[]sim.RoleSpec{{Name: RoleParent, Style: sim.StyleArrow, Tone: sim.Purple, Legend: "the process's parent in the spanning tree (while it is engaged)"}},
	plain(func(p Params) detector { return &DS{Base: Base{Work: Work{Params: p}}, Parent: sim.None} }),
	[]sim.Invariant{live, tree}, dsPanel,
	[]sim.KnownLimit{
		{Invariant: LiveName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "the tree waits for every acknowledgement: a crashed process or a lost WORK or ACK leaves a deficit that never reaches zero, and a copied message is acknowledged once too often"},
		{Invariant: SafeName, Faults: []string{"crash", "duplicate"}, Why: "a crash forgets a process's tasks and its deficit, and a copied WORK is acknowledged twice, so the deficits stop counting what is really outstanding"},
	})

// DS is a process under Dijkstra–Scholten.
type DS struct {
	Base
	// Parent is the process it joined the tree under (None when it is
	// not engaged, and for the root), and Deficit counts its WORK not yet
	// acknowledged.
	Parent  sim.NodeID
	Engaged bool
	Deficit int
}

// Step reacts to one event.
func (d *DS) Step(env *sim.Env, ev sim.Event) {
	if ev.Kind == sim.Recover {
		d.Forget(env)
		if d.Engaged {
			env.Annotate(sim.Closes(RoleParent, 0))
		}
		d.Engaged, d.Parent, d.Deficit = false, sim.None, 0
	}
	step(d, env, ev)
}

func (d *DS) sendWork(env *sim.Env, to sim.NodeID, depth int) {
	env.Send(to, workMessage(depth, nil))
	d.Deficit++
}

func (d *DS) receiveWork(env *sim.Env, ev sim.Event, activated bool) string {
	from := ev.From
	if env.Self() == Root || d.Engaged {
		d.send(env, from, sim.Message{Kind: KindAck, Label: KindAck})
		return fmt.Sprintf(", and acknowledges it at once: it is %s", map[bool]string{true: "the root", false: "already in the tree"}[env.Self() == Root])
	}
	d.Engaged, d.Parent = true, from
	env.Annotate(sim.Opens(RoleParent, 0, "").To(from))
	return fmt.Sprintf(", and joins the tree under %s: it will acknowledge this WORK when it leaves", env.Name(from))
}

func (d *DS) passive(env *sim.Env) string { return d.tryLeave(env) }

func (d *DS) control(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind != KindAck {
		return
	}
	d.Deficit--
	env.Explain("%s gets an ACK from %s: %d of its WORK unacknowledged%s", env.Name(env.Self()), env.Name(ev.From), d.Deficit, d.tryLeave(env))
}

// tryLeave is the tree's rule: a passive process with nothing
// unacknowledged leaves the tree, acknowledging its parent; the root
// announces termination.
func (d *DS) tryLeave(env *sim.Env) string {
	if d.Active() || d.Deficit > 0 {
		if d.Deficit > 0 && !d.Active() {
			return fmt.Sprintf("; it waits for %d ACK(s) before it can leave the tree", d.Deficit)
		}
		return ""
	}
	if env.Self() == Root {
		if d.Said {
			return ""
		}
		d.announce(env)
		return "; the root is passive and all its WORK is acknowledged: the computation has terminated"
	}
	if !d.Engaged {
		return ""
	}
	parent := d.Parent
	d.send(env, parent, sim.Message{Kind: KindAck, Label: KindAck})
	env.Annotate(sim.Closes(RoleParent, 0))
	d.Engaged, d.Parent = false, sim.None
	return fmt.Sprintf("; with everything acknowledged it leaves the tree: ACK to its parent %s", env.Name(parent))
}

// Inspect shows the process's place in the tree.
func (d *DS) Inspect() []sim.Field {
	parent := "–"
	if d.Parent != sim.None {
		parent = strconv.Itoa(d.Parent.Number())
	}
	return []sim.Field{{Name: "active", Value: strconv.FormatBool(d.Active())}, {Name: "parent", Value: parent}, {Name: "deficit", Value: strconv.Itoa(d.Deficit)}}
}

// Clone copies the process.
func (d *DS) Clone() sim.Node {
	c := *d
	c.Work = d.Work.clone()
	return &c
}

func dsPanel(v sim.View) sim.Panel {
	p := sim.Panel{Title: "Spanning tree", Note: "deficit: the process's WORK not yet acknowledged", Columns: []string{"process", "state", "tasks", "parent", "deficit"}}
	for i := range v.N() {
		d := v.Node(sim.NodeID(i)).(*DS)
		parent := "–"
		switch {
		case sim.NodeID(i) == Root:
			parent = "root"
		case d.Engaged:
			parent = v.Name(d.Parent)
		}
		p.Rows = append(p.Rows, sim.Row{Cells: append(rows(v, sim.NodeID(i)), parent, strconv.Itoa(d.Deficit))})
	}
	return p
}
