package termination

import (
	"encoding/json"
	"fmt"
	"strconv"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// IntegerCreditSpec registers credit recovery as seed 003 describes it,
// with whole units of credit: the root starts with params.credit units
// ("credit equal to the total number of messages in the system", which
// nobody knows in advance), a WORK takes one unit from its sender ("send
// message → forward credit 1"), its receiver gains it, and a process
// that goes passive returns all it holds to the root. A unit cannot be
// split: a process that has given away its last unit has none for its
// next WORK, which the text does not provide for; here it goes without,
// and the root can then get all its units back while that WORK is still
// on its way. credit-recovery halves exact fractions instead, which never
// run out.
var IntegerCreditSpec = withTally(spec("credit-integer", "Termination detection: whole units of credit (seed 003)",
	"Seed 003's credit scheme with whole units: the root starts with a number of units, a WORK takes one unit from its sender to its receiver, a passive process returns its units to the root, and the root declares termination when it has them all back and is passive. A process out of units sends WORK without credit, and the root can declare too early.",
	[]sim.KindSpec{{Name: KindCredit, Role: sim.RoleControl, Tone: sim.Gold, Glyph: sim.GlyphDiamond}},
	nil,
	newIntegerCredit,
	[]sim.Invariant{live, unitsConserved, unitsRule}, integerPanel,
	[]sim.KnownLimit{
		{Invariant: LiveName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "units lost with a crashed process or a lost message never come back, and a copied message makes more, so the root never holds them all again"},
		{Invariant: unitsConservedName, Faults: []string{"crash", "drop", "duplicate", "cut", "partition"}, Why: "a crash or a lost message destroys units, and a copied message makes them"},
		{Invariant: SafeName, Always: true, Why: "whole units run out: a process that has given away its last unit sends WORK with none, and the root can get every unit back while that WORK is on its way (credit-recovery's exact fractions never run out)"},
	}), newUnitBooks)

// IntegerParams are credit-integer's params: the computation's, and the
// units the root starts with.
type IntegerParams struct {
	Params
	// Credit is the root's units at the start (default 4).
	Credit int64 `json:"credit"`
}

// MaxUnits bounds params.credit.
const MaxUnits = 1_000_000

// newIntegerCredit builds the processes: the computation's params and
// the root's units, each checked.
func newIntegerCredit(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := IntegerParams{Params: defaults(), Credit: 4}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.Params.check(); err != nil {
		return nil, err
	}
	if p.Credit < 1 || p.Credit > MaxUnits {
		return nil, strictjson.FieldErrorf("params.credit", "want units from 1 to %d, got %d", MaxUnits, p.Credit)
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &IntegerCredit{Base: Base{Work: Work{Params: p.Params}}, Total: p.Credit}
	}
	return nodes, nil
}

// IntegerCredit is a process under whole-unit credit recovery.
type IntegerCredit struct {
	Base
	// Total is the root's units at the start, Units what the process
	// holds and Returned what the root has got back (the root only).
	Total, Units, Returned int64
	// Without counts the WORK it sent with no unit to give.
	Without int
}

// Step reacts to one event.
func (c *IntegerCredit) Step(env *sim.Env, ev sim.Event) {
	switch ev.Kind {
	case sim.Init:
		if env.Self() == Root {
			c.Units = c.Total
		}
	case sim.Recover:
		c.Forget(env)
		c.Units = 0 // its units are lost with its memory
	}
	step(c, env, ev)
}

func (c *IntegerCredit) sendWork(env *sim.Env, to sim.NodeID, depth int) {
	give := int64(0)
	if c.Units > 0 {
		give = 1
		c.Units--
	} else {
		c.Without++
	}
	env.Send(to, workMessage(depth, []int64{give}))
}

func (c *IntegerCredit) receiveWork(env *sim.Env, ev sim.Event, activated bool) string {
	got := int64(0)
	if len(ev.Msg.Data) > 0 {
		got = ev.Msg.Data[0]
	}
	c.Units += got
	if got == 0 {
		return fmt.Sprintf(", with no credit: its sender had no unit left to forward (it holds %s)", units(c.Units))
	}
	return fmt.Sprintf(", with 1 unit of credit (it holds %s)", units(c.Units))
}

func (c *IntegerCredit) passive(env *sim.Env) string {
	if env.Self() == Root {
		return c.check(env)
	}
	if c.Units == 0 {
		return ", with no credit to return"
	}
	held := c.Units
	c.Units = 0
	c.send(env, Root, sim.Message{Kind: KindCredit, Value: held, Label: "CREDIT " + strconv.FormatInt(held, 10)})
	return fmt.Sprintf(", and returns its %s to %s", units(held), env.Name(Root))
}

// check is the root's test: passive, with every unit back.
func (c *IntegerCredit) check(env *sim.Env) string {
	have := c.Units + c.Returned
	if c.Active() || c.Said {
		return ""
	}
	if have != c.Total {
		return fmt.Sprintf("; the root has %d of its %s", have, units(c.Total))
	}
	c.announce(env)
	return fmt.Sprintf("; the root has all %s back and is passive, so it declares that the computation has terminated", units(c.Total))
}

func (c *IntegerCredit) control(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind != KindCredit || env.Self() != Root {
		return
	}
	c.Returned += ev.Msg.Value
	env.Explain("%s gets %s back from %s%s", env.Name(env.Self()), units(ev.Msg.Value), env.Name(ev.From), c.check(env))
}

// units writes a number of units: "1 unit", "3 units".
func units(n int64) string {
	if n == 1 {
		return "1 unit"
	}
	return strconv.FormatInt(n, 10) + " units"
}

// Inspect shows the process's units.
func (c *IntegerCredit) Inspect() []sim.Field {
	f := []sim.Field{{Name: "active", Value: strconv.FormatBool(c.Active())}, {Name: "credit", Value: units(c.Units)}}
	if c.Without > 0 {
		f = append(f, sim.Field{Name: "WORK sent without credit", Value: strconv.Itoa(c.Without)})
	}
	return f
}

// Clone copies the process.
func (c *IntegerCredit) Clone() sim.Node {
	d := *c
	d.Work = c.Work.clone()
	return &d
}

func integerPanel(v sim.View) sim.Panel {
	held, flight, returned, total := unitsTotals(v)
	p := sim.Panel{Title: "Credit in whole units", Note: fmt.Sprintf("held %d + in flight %d + returned to the root %d, of %d", held, flight, returned, total), Columns: []string{"process", "state", "tasks", "credit"}}
	for i := range v.N() {
		c := v.Node(sim.NodeID(i)).(*IntegerCredit)
		p.Rows = append(p.Rows, sim.Row{Cells: append(rows(v, sim.NodeID(i)), units(c.Units))})
	}
	return p
}
