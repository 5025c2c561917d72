package termination

import (
	"fmt"
	"maps"

	"spacetime/core/sim"
)

// The credit schemes' books: what observes credit as the run goes, for
// the invariants that it is conserved. They sit here, with what observes
// rather than what runs, so that the mutation campaign leaves them alone.

// ledger keeps credit recovery's books as the run goes: the credit the
// processes hold, the credit in messages and the credit returned to the
// root, added up, less 1. Each step moves a few shares (a process halves
// its credit and a message carries the half away), so the books change by
// a few powers of two a step and stay at 0 while credit is conserved:
// checking them costs what moved, however small the shares have become.
type ledger struct {
	// off is the total less 1, as signed binary digits by exponent: digit
	// d at e stands for d·2^-e, and every digit is -1 or 1 (a sum of such
	// digits is 0 only when there are none).
	off map[int]int
	// held is what each process held after its latest step: its share's
	// exponent, or -1 for none.
	held []int
}

func newLedger(n int) sim.Tally {
	l := &ledger{off: map[int]int{}, held: make([]int, n)}
	for i := range l.held {
		l.held[i] = -1
	}
	l.add(0, -1) // nobody holds the credit yet
	return l
}

// add adds sign·2^-e to the books, carrying a digit of 2 or -2 to the
// next larger power.
func (l *ledger) add(e, sign int) {
	for {
		d := l.off[e] + sign
		switch {
		case d == 0:
			delete(l.off, e)
			return
		case d == 1 || d == -1:
			l.off[e] = d
			return
		case e == 0:
			// a total of 3 or -1: a digit of 2 or more at 1, which is not 0
			l.off[e] = d
			return
		}
		delete(l.off, e) // 2·2^-e is 2^-(e-1)
		e--
	}
}

// balanced says the books are at 0: credit is conserved.
func (l *ledger) balanced() bool { return len(l.off) == 0 }

func (l *ledger) Joined(m sim.Message) {
	if e, ok := credit(m); ok {
		l.add(e, 1)
	}
}

func (l *ledger) Left(m sim.Message) {
	if e, ok := credit(m); ok {
		l.add(e, -1)
	}
}

// Stepped books what the process holds now in place of what it held, and
// what the root got back.
func (l *ledger) Stepped(id sim.NodeID, n sim.Node) {
	c := n.(*Credit)
	now := -1
	if c.Holds {
		now = c.Exp
	}
	// what comes in first, then what goes: the books never pass through
	// a long borrow
	if now >= 0 && now != l.held[id] {
		l.add(now, 1)
	}
	for _, e := range c.collected {
		l.add(e, 1)
	}
	for _, e := range c.released {
		l.add(e, -1)
	}
	if was := l.held[id]; was >= 0 && was != now {
		l.add(was, -1)
	}
	l.held[id] = now
}

// Note takes nothing from annotations: the credit is in the processes and
// the messages.
func (l *ledger) Note(sim.Time, sim.NodeID, []sim.Annotation) {}

func (l *ledger) Clone() sim.Tally {
	return &ledger{off: maps.Clone(l.off), held: append([]int(nil), l.held...)}
}

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

// inFlight is the credit on its way, in WORK and CREDIT messages: a visit
// of every channel, for the panel and a failure's detail, not each step.
func inFlight(v sim.View) *dyadic {
	sum := &dyadic{}
	for from := range v.N() {
		for to := range v.N() {
			for _, id := range v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
				if e, ok := credit(v.Envelope(id).Message); ok {
					sum.addShare(e, 1)
				}
			}
		}
	}
	return sum
}

// holdings are the credit the processes hold, and the root's returned.
func holdings(v sim.View) (held, returned *dyadic) {
	held, returned = &dyadic{}, &dyadic{}
	for i := range v.N() {
		if c := v.Node(sim.NodeID(i)).(*Credit); c.Holds {
			held.addShare(c.Exp, 1)
			for _, e := range c.kept {
				held.addShare(e, 1)
			}
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
		if v.Tally().(*ledger).balanced() {
			return sim.Verdict{OK: true}
		}
		held, returned := holdings(v)
		flight := inFlight(v)
		var total dyadic
		total.set(held)
		total.add(flight)
		total.add(returned)
		return sim.Verdict{Detail: fmt.Sprintf("held %s + in flight %s + returned %s = %s, not 1", held, flight, returned, &total)}
	},
}

// unitBooks keep the whole-unit scheme's books as the run goes, as
// credit recovery's ledger does: the units each process holds (the root's
// returned ones with its own), their sum, and the units in messages on
// their way, so that checking them costs what moved in a step.
type unitBooks struct {
	held        []int64
	sum, flight int64
}

func newUnitBooks(n int) sim.Tally { return &unitBooks{held: make([]int64, n)} }

// carried is the units a message carries: a WORK's, or a CREDIT's.
func carried(m sim.Message) int64 {
	switch {
	case m.Kind == KindWork && len(m.Data) > 0:
		return m.Data[0]
	case m.Kind == KindCredit:
		return m.Value
	}
	return 0
}

func (b *unitBooks) Joined(m sim.Message) { b.flight += carried(m) }
func (b *unitBooks) Left(m sim.Message)   { b.flight -= carried(m) }

// Stepped books what the process holds now in place of what it held.
func (b *unitBooks) Stepped(id sim.NodeID, n sim.Node) {
	c := n.(*IntegerCredit)
	now := c.Units + c.Returned
	b.sum += now - b.held[id]
	b.held[id] = now
}

// Note takes nothing from annotations: the units are in the processes
// and the messages.
func (b *unitBooks) Note(sim.Time, sim.NodeID, []sim.Annotation) {}

func (b *unitBooks) Clone() sim.Tally {
	c := *b
	c.held = append([]int64(nil), b.held...)
	return &c
}

// unitsTotals are the units the processes hold, those in messages on
// their way, and those returned to the root.
func unitsTotals(v sim.View) (held, flight, returned, total int64) {
	for i := range v.N() {
		c := v.Node(sim.NodeID(i)).(*IntegerCredit)
		held += c.Units
		returned += c.Returned
		if sim.NodeID(i) == Root {
			total = c.Total
		}
	}
	for from := range v.N() {
		for to := range v.N() {
			for _, id := range v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
				flight += carried(v.Envelope(id).Message)
			}
		}
	}
	return held, flight, returned, total
}

const unitsConservedName = "units are conserved: held, in flight and returned add up to the root's start"

// unitsConserved is the whole-unit scheme's books: no unit is made or
// lost (it holds even when the root declares too early).
var unitsConserved = sim.Invariant{
	Name: unitsConservedName,
	Help: "the units the processes hold, the units in messages and the units returned to the root always add up to the root's units at the start",
	Check: func(v sim.View) sim.Verdict {
		if b := v.Tally().(*unitBooks); b.sum+b.flight == v.Node(Root).(*IntegerCredit).Total {
			return sim.Verdict{OK: true}
		}
		// the books are off: visit every process and channel to say how
		held, flight, returned, total := unitsTotals(v)
		return sim.Verdict{Detail: fmt.Sprintf("held %d + in flight %d + returned %d = %d, not %d", held, flight, returned, held+flight+returned, total)}
	},
}
