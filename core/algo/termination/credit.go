package termination

import (
	"fmt"
	"strconv"

	"spacetime/core/sim"
)

// Credit recovery's message kind.
const KindCredit = "CREDIT"

// CreditSpec registers credit recovery.
var CreditSpec = withTally(spec("credit-recovery", "Termination detection: credit recovery",
	"The root starts with credit 1. A process halves its credit with every WORK it sends and gives the message one half; an active process that receives more credit returns it at once, and a process that goes passive returns all it holds to the root. When the root has all its credit back, exactly 1, the computation has terminated. Credit is an exact fraction, never a float.",
	[]sim.KindSpec{{Name: KindCredit, Role: sim.RoleControl, Tone: sim.Gold, Glyph: sim.GlyphDiamond}},
	nil,
	own(CreditParams{Params: defaults()}, func(p *CreditParams) *Params { return &p.Params }, func(p CreditParams) detector {
		return &Credit{Base: Base{Work: Work{Params: p.Params}}, SeedParent: p.SeedParent}
	}),
	[]sim.Invariant{live, conserved, credits}, creditPanel,
	[]sim.KnownLimit{
		{Invariant: LiveName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "credit lost with a crashed process or a lost message never comes back, and a copied message makes more than 1, so the root never holds exactly 1 again"},
		{Invariant: conservedName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "a crash or a lost message destroys credit, and a copied message makes it"},
		{Invariant: SafeName, Faults: []string{"duplicate"}, Why: "a copied message makes credit, so the root can reach 1 while WORK is still under way"},
	}), newLedger)

func init() { CreditSpec.Learner.Switches = []sim.Switch{SeedParentSwitch} }

// CreditParams are credit recovery's params: the computation's, and
// whether credit goes back by seed 003's rule.
type CreditParams struct {
	Params
	// SeedParent returns credit to the parent, the process whose WORK
	// gave it, as seed 003 says, rather than to the root: a parent that
	// is already passive holds what comes back and never returns it.
	SeedParent bool `json:"seed_parent"`
}

// SeedParentSwitch is the switch to seed 003's rule for returning credit.
var SeedParentSwitch = sim.Switch{
	Param: "seed_parent", Label: "seed 003: credit to the parent",
	Help: "return credit to the parent, the process whose WORK gave it, as seed 003 says, rather than to the root: a parent that has gone passive keeps what comes back, and the root never gets all its credit back",
}

// withTally gives a spec its tally.
func withTally(s *sim.Spec, newTally func(n int) sim.Tally) *sim.Spec {
	s.Figures.NewTally = newTally
	return s
}

// Credit is a process under credit recovery. Its credit is a single power
// of two, 2^-Exp, while Holds: a process holds one share at a time, for an
// active one returns any more it is given.
type Credit struct {
	Base
	Holds bool
	Exp   int
	// SeedParent says credit goes back to Parent, the process whose WORK
	// gave this process its credit (CreditParams.SeedParent).
	SeedParent bool
	Parent     sim.NodeID
	// kept are the shares a process gains beyond its own by seed 003's
	// rule ("receive message → gain credit"), returned with it when it
	// goes passive; released are those it sent back in its latest step.
	kept, released []int
	// returned is the credit the root has got back (the root only), and
	// collected the shares it got back in its latest step.
	returned  *dyadic
	collected []int
}

// Step reacts to one event.
func (c *Credit) Step(env *sim.Env, ev sim.Event) {
	c.collected, c.released = nil, nil
	switch ev.Kind {
	case sim.Init:
		if env.Self() == Root {
			c.Holds, c.Exp, c.returned = true, 0, &dyadic{}
		}
	case sim.Recover:
		c.Forget(env)
		// its credit is lost with its memory, the shares it kept too
		// (they leave the books as if returned to nobody)
		c.Holds, c.released, c.kept = false, c.kept, nil
	}
	step(c, env, ev)
}

func (c *Credit) sendWork(env *sim.Env, to sim.NodeID, depth int) {
	c.Exp++ // halve: keep one half, send the other
	env.Send(to, workMessage(depth, []int64{int64(c.Exp)}))
}

func (c *Credit) receiveWork(env *sim.Env, ev sim.Event, activated bool) string {
	m := ev.Msg
	exp := 0
	if len(m.Data) > 0 {
		exp = int(m.Data[0])
	}
	if !c.Holds {
		c.Holds, c.Exp, c.Parent = true, exp, ev.From
		return ", with credit " + shareString(exp)
	}
	if c.SeedParent {
		c.keep(exp)
		return "; it already holds credit and, by seed 003's rule, gains this " + shareString(exp) + " too"
	}
	return "; it already holds credit, so it returns this " + shareString(exp) + c.giveBack(env, exp) + c.settle(env)
}

func (c *Credit) passive(env *sim.Env) string {
	if !c.Holds {
		return ""
	}
	held := c.heldString()
	c.Holds = false
	text := c.giveBack(env, c.Exp)
	for _, e := range c.kept {
		c.giveBack(env, e)
		c.released = append(c.released, e)
	}
	c.kept = nil
	return ", and returns its credit " + held + text + c.settle(env)
}

// keep adds a share to the credit the process holds beyond its own (seed
// 003's rule), booked as come in.
func (c *Credit) keep(exp int) {
	c.kept = append(c.kept, exp)
	c.collected = append(c.collected, exp)
}

// giveBack returns a share to the root (the root keeps its own), or by
// seed 003's rule to the parent.
func (c *Credit) giveBack(env *sim.Env, exp int) string {
	if env.Self() == Root {
		c.collect(exp)
		return ""
	}
	to := Root
	if c.SeedParent {
		to = c.Parent
	}
	c.send(env, to, sim.Message{Kind: KindCredit, Value: int64(exp), Label: "CREDIT " + shareString(exp)})
	if c.SeedParent {
		return " to its parent " + env.Name(to) + " (seed 003's rule)"
	}
	return " to " + env.Name(to)
}

// collect adds a share that came back to the root's.
func (c *Credit) collect(exp int) {
	c.returned.addShare(exp, 1)
	c.collected = append(c.collected, exp)
}

// settle is the root's test once credit has come back, judged when all
// that came back at a step is in (a process that goes passive returns
// what it kept too): with exactly 1 back, and passive, the computation
// has terminated. It says nothing at another process.
func (c *Credit) settle(env *sim.Env) string {
	if env.Self() != Root {
		return ""
	}
	text := fmt.Sprintf("; the root has %s of its credit back", c.returned)
	if c.returned.isOne() && !c.Active() && !c.Said {
		c.announce(env)
		text += ": all of it, so the computation has terminated"
	}
	return text
}

func (c *Credit) control(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind != KindCredit {
		return
	}
	if env.Self() != Root { // only by seed 003's rule: credit for a parent
		me, exp := env.Name(env.Self()), int(ev.Msg.Value)
		if c.Holds {
			c.keep(exp)
		} else {
			c.Holds, c.Exp = true, exp
		}
		if c.Active() {
			env.Explain("%s gets credit %s back from %s and keeps it until it goes idle (seed 003's rule); it holds %s", me, shareString(exp), env.Name(ev.From), c.heldString())
			return
		}
		env.Explain("%s gets credit %s back from %s and, passive already, keeps it: by seed 003's rule a process returns credit when it goes idle, and it has; it holds %s", me, shareString(exp), env.Name(ev.From), c.heldString())
		return
	}
	c.collect(int(ev.Msg.Value))
	env.Explain("%s gets credit %s back from %s%s", env.Name(env.Self()), shareString(int(ev.Msg.Value)), env.Name(ev.From), c.settle(env))
}

// Inspect shows the process's credit.
func (c *Credit) Inspect() []sim.Field {
	f := []sim.Field{{Name: "active", Value: strconv.FormatBool(c.Active())}, {Name: "credit", Value: c.heldString()}}
	if c.returned != nil {
		f = append(f, sim.Field{Name: "returned", Value: c.returned.String()})
	}
	return f
}

// heldString writes the credit the process holds.
func (c *Credit) heldString() string {
	if !c.Holds {
		return "0"
	}
	if len(c.kept) == 0 {
		return shareString(c.Exp)
	}
	sum := &dyadic{}
	sum.addShare(c.Exp, 1)
	for _, e := range c.kept {
		sum.addShare(e, 1)
	}
	return sum.String()
}

// Clone copies the process.
func (c *Credit) Clone() sim.Node {
	d := *c
	d.Work = c.Work.clone()
	d.kept = append([]int(nil), c.kept...)
	if c.returned != nil {
		d.returned = &dyadic{}
		d.returned.set(c.returned)
	}
	return &d
}

func creditPanel(v sim.View) sim.Panel {
	held, returned := holdings(v)
	p := sim.Panel{Title: "Credit", Note: fmt.Sprintf("held %s + in flight %s + returned to the root %s", held, inFlight(v), returned), Columns: []string{"process", "state", "tasks", "credit"}}
	for i := range v.N() {
		c := v.Node(sim.NodeID(i)).(*Credit)
		p.Rows = append(p.Rows, sim.Row{Cells: append(rows(v, sim.NodeID(i)), c.heldString())})
	}
	return p
}
