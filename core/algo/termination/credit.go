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
	plain(func(p Params) detector { return &Credit{Base: Base{Work: Work{Params: p}}} }),
	[]sim.Invariant{live, conserved}, creditPanel,
	[]sim.KnownLimit{
		{Invariant: LiveName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "credit lost with a crashed process or a lost message never comes back, and a copied message makes more than 1, so the root never holds exactly 1 again"},
		{Invariant: conservedName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "a crash or a lost message destroys credit, and a copied message makes it"},
		{Invariant: SafeName, Faults: []string{"duplicate"}, Why: "a copied message makes credit, so the root can reach 1 while WORK is still under way"},
	}), func(int) sim.Tally { return &flightCredit{} })

// withTally gives a spec its tally.
func withTally(s *sim.Spec, newTally func(n int) sim.Tally) *sim.Spec {
	s.NewTally = newTally
	return s
}

// Credit is a process under credit recovery. Its credit is a single power
// of two, 2^-Exp, while Holds: a process holds one share at a time, for an
// active one returns any more it is given.
type Credit struct {
	Base
	Holds bool
	Exp   int
	// returned is the credit the root has got back (the root only).
	returned *dyadic
}

// Step reacts to one event.
func (c *Credit) Step(env *sim.Env, ev sim.Event) {
	switch ev.Kind {
	case sim.Init:
		if env.Self() == Root {
			c.Holds, c.Exp, c.returned = true, 0, &dyadic{}
		}
	case sim.Recover:
		c.Forget(env)
		c.Holds = false // its credit is lost with its memory
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
		c.Holds, c.Exp = true, exp
		return ", with credit " + shareString(exp)
	}
	return "; it already holds credit, so it returns this " + shareString(exp) + c.giveBack(env, exp)
}

func (c *Credit) passive(env *sim.Env) string {
	if !c.Holds {
		return ""
	}
	c.Holds = false
	return ", and returns its credit " + shareString(c.Exp) + c.giveBack(env, c.Exp)
}

// giveBack returns a share to the root (the root keeps its own).
func (c *Credit) giveBack(env *sim.Env, exp int) string {
	if env.Self() == Root {
		return c.collect(env, exp)
	}
	c.send(env, Root, sim.Message{Kind: KindCredit, Value: int64(exp), Label: "CREDIT " + shareString(exp)})
	return " to " + env.Name(Root)
}

// collect is the root's rule for credit that comes back.
func (c *Credit) collect(env *sim.Env, exp int) string {
	c.returned.addShare(exp, 1)
	text := fmt.Sprintf("; the root has %s of its credit back", c.returned)
	if c.returned.isOne() && !c.Active() && !c.Said {
		c.announce(env)
		text += ": all of it, so the computation has terminated"
	}
	return text
}

func (c *Credit) control(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind != KindCredit || env.Self() != Root {
		return
	}
	env.Explain("%s gets credit %s back from %s%s", env.Name(env.Self()), shareString(int(ev.Msg.Value)), env.Name(ev.From), c.collect(env, int(ev.Msg.Value)))
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
	return shareString(c.Exp)
}

// Clone copies the process.
func (c *Credit) Clone() sim.Node {
	d := *c
	d.Work = c.Work.clone()
	if c.returned != nil {
		d.returned = &dyadic{}
		d.returned.set(c.returned)
	}
	return &d
}

// flightCredit is the credit on its way, in WORK and CREDIT messages,
// kept as messages join and leave the channels rather than added up
// every step.
type flightCredit struct{ sum dyadic }

// credit is the share a message carries, if any.
func credit(m sim.Message) (exp int, ok bool) {
	switch {
	case m.Kind == KindWork && len(m.Data) > 0:
		return int(m.Data[0]), true
	case m.Kind == KindCredit:
		return int(m.Value), true
	}
	return 0, false
}

func (f *flightCredit) Joined(m sim.Message) {
	if e, ok := credit(m); ok {
		f.sum.addShare(e, 1)
	}
}

func (f *flightCredit) Left(m sim.Message) {
	if e, ok := credit(m); ok {
		f.sum.addShare(e, -1)
	}
}

// Note takes nothing from annotations: the credit is in the messages.
func (f *flightCredit) Note(sim.Time, sim.NodeID, []sim.Annotation) {}

func (f *flightCredit) Clone() sim.Tally {
	c := &flightCredit{}
	c.sum.set(&f.sum)
	return c
}

// inFlight is the credit on its way.
func inFlight(v sim.View) *dyadic { return &v.Tally().(*flightCredit).sum }

// holdings are the credit the processes hold, and the root's returned.
func holdings(v sim.View) (held, returned *dyadic) {
	held, returned = &dyadic{}, &dyadic{}
	for i := range v.N() {
		if c := v.Node(sim.NodeID(i)).(*Credit); c.Holds {
			held.addShare(c.Exp, 1)
		}
	}
	if r := v.Node(Root).(*Credit).returned; r != nil {
		returned.set(r)
	}
	return held, returned
}

const conservedName = "credit is conserved: held, in flight and returned add up to 1"

// conserved is credit recovery's own invariant, the reason it works.
var conserved = sim.Invariant{
	Name: conservedName,
	Help: "the credit the processes hold, the credit in messages and the credit returned to the root always add up to exactly 1",
	Check: func(v sim.View) sim.Verdict {
		held, returned := holdings(v)
		var total dyadic
		total.set(held)
		total.add(inFlight(v))
		total.add(returned)
		if total.isOne() {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("held %s + in flight %s + returned %s = %s, not 1", held, inFlight(v), returned, &total)}
	},
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
