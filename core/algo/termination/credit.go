package termination

import (
	"fmt"
	"math/big"
	"strconv"

	"spacetime/core/sim"
)

// Credit recovery's message kind.
const KindCredit = "CREDIT"

// CreditSpec registers credit recovery.
var CreditSpec = spec("credit-recovery", "Termination detection: credit recovery",
	"The root starts with credit 1. A process halves its credit with every WORK it sends and gives the message one half; an active process that receives more credit returns it at once, and a process that goes passive returns all it holds to the root. When the root has all its credit back, exactly 1, the computation has terminated. Credit is an exact fraction, never a float.",
	[]sim.KindSpec{{Name: KindCredit, Role: sim.RoleControl, Tone: sim.Gold, Glyph: sim.GlyphDiamond}},
	nil,
	plain(func(p Params) detector { return &Credit{Base: Base{Work: Work{Params: p}}} }),
	[]sim.Invariant{live, conserved}, creditPanel,
	[]sim.KnownLimit{
		{Invariant: LiveName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "credit lost with a crashed process or a lost message never comes back, and a copied message makes more than 1, so the root never holds exactly 1 again"},
		{Invariant: conservedName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "a crash or a lost message destroys credit, and a copied message makes it"},
		{Invariant: SafeName, Faults: []string{"duplicate"}, Why: "a copied message makes credit, so the root can reach 1 while WORK is still under way"},
	})

// Credit is a process under credit recovery. Its credit is a single power
// of two, 2^-Exp, while Holds: a process holds one share at a time, for an
// active one returns any more it is given.
type Credit struct {
	Base
	Holds bool
	Exp   int
	// Returned is the credit the root has got back (the root only).
	Returned *big.Rat
}

// share is 2^-exp.
func share(exp int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(exp)))
}

// Step reacts to one event.
func (c *Credit) Step(env *sim.Env, ev sim.Event) {
	switch ev.Kind {
	case sim.Init:
		if env.Self() == Root {
			c.Holds, c.Exp, c.Returned = true, 0, new(big.Rat)
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
		return fmt.Sprintf(", with credit %s", share(exp).RatString())
	}
	return "; it already holds credit, so it returns this " + share(exp).RatString() + c.giveBack(env, exp)
}

func (c *Credit) passive(env *sim.Env) string {
	if !c.Holds {
		return ""
	}
	c.Holds = false
	return ", and returns its credit " + share(c.Exp).RatString() + c.giveBack(env, c.Exp)
}

// giveBack returns a share to the root (the root keeps its own).
func (c *Credit) giveBack(env *sim.Env, exp int) string {
	if env.Self() == Root {
		return c.collect(env, exp)
	}
	c.send(env, Root, sim.Message{Kind: KindCredit, Value: int64(exp), Label: "CREDIT " + share(exp).RatString()})
	return " to " + env.Name(Root)
}

// collect is the root's rule for credit that comes back.
func (c *Credit) collect(env *sim.Env, exp int) string {
	c.Returned.Add(c.Returned, share(exp))
	text := fmt.Sprintf("; the root has %s of its credit back", c.Returned.RatString())
	if c.Returned.Cmp(big.NewRat(1, 1)) == 0 && !c.Active() && !c.Said {
		c.announce(env)
		text += ": all of it, so the computation has terminated"
	}
	return text
}

func (c *Credit) control(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind != KindCredit || env.Self() != Root {
		return
	}
	env.Explain("%s gets credit %s back from %s%s", env.Name(env.Self()), share(int(ev.Msg.Value)).RatString(), env.Name(ev.From), c.collect(env, int(ev.Msg.Value)))
}

// Inspect shows the process's credit.
func (c *Credit) Inspect() []sim.Field {
	f := []sim.Field{{Name: "active", Value: strconv.FormatBool(c.Active())}, {Name: "credit", Value: c.held().RatString()}}
	if c.Returned != nil {
		f = append(f, sim.Field{Name: "returned", Value: c.Returned.RatString()})
	}
	return f
}

// held is the credit the process holds.
func (c *Credit) held() *big.Rat {
	if !c.Holds {
		return new(big.Rat)
	}
	return share(c.Exp)
}

// Clone copies the process.
func (c *Credit) Clone() sim.Node {
	d := *c
	d.Work = c.Work.clone()
	if c.Returned != nil {
		d.Returned = new(big.Rat).Set(c.Returned)
	}
	return &d
}

// inFlight is the credit on its way, in WORK and CREDIT messages.
func inFlight(v sim.View) *big.Rat {
	sum := new(big.Rat)
	for from := range v.N() {
		for to := range v.N() {
			for _, id := range v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
				m := v.Envelope(id)
				switch {
				case m.Kind == KindWork && len(m.Data) > 0:
					sum.Add(sum, share(int(m.Data[0])))
				case m.Kind == KindCredit:
					sum.Add(sum, share(int(m.Value)))
				}
			}
		}
	}
	return sum
}

// held is the credit the processes hold, and the root's returned.
func holdings(v sim.View) (held, returned *big.Rat) {
	held = new(big.Rat)
	for i := range v.N() {
		c := v.Node(sim.NodeID(i)).(*Credit)
		held.Add(held, c.held())
	}
	returned = new(big.Rat)
	if r := v.Node(Root).(*Credit).Returned; r != nil {
		returned.Set(r)
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
		total := new(big.Rat).Add(held, inFlight(v))
		total.Add(total, returned)
		if total.Cmp(big.NewRat(1, 1)) == 0 {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("held %s + in flight %s + returned %s = %s, not 1", held.RatString(), inFlight(v).RatString(), returned.RatString(), total.RatString())}
	},
}

func creditPanel(v sim.View) sim.Panel {
	held, returned := holdings(v)
	p := sim.Panel{Title: "Credit", Note: fmt.Sprintf("held %s + in flight %s + returned to the root %s", held.RatString(), inFlight(v).RatString(), returned.RatString()), Columns: []string{"process", "state", "tasks", "credit"}}
	for i := range v.N() {
		c := v.Node(sim.NodeID(i)).(*Credit)
		p.Rows = append(p.Rows, sim.Row{Cells: append(rows(v, sim.NodeID(i)), c.held().RatString())})
	}
	return p
}
