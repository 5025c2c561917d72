package lab

import (
	"fmt"

	"spacetime/core/clock"
	"spacetime/core/trace"
)

// Causality is the learner's selection of events: the event whose causal
// past and future are shown, and another compared with it.
type Causality struct {
	s *Session
	// selected is the selected event's step index, or -1, and other the
	// event compared with it, or -1.
	selected, other int
}

// Causality is the session's selection of events.
func (s *Session) Causality() *Causality { return &s.causality }

// Selected is the step index of the event whose causal past and future
// are shown, or -1.
func (c *Causality) Selected() int { return c.selected }

// Other is the step index of the event compared with the selected one,
// or -1.
func (c *Causality) Other() int { return c.other }

// Select shows the causal past and future of the event at step (a step
// index already on screen), or clears the selection with -1. Selecting the
// selected event again clears it.
func (c *Causality) Select(step int) {
	c.other = -1
	if step == c.selected || step < 0 || step >= c.s.step {
		c.selected = -1
		return
	}
	c.selected = step
}

// Compare sets the event compared with the selected one (a step index on
// screen; with nothing selected it selects it instead). Comparing the
// selected event or the compared one again clears the comparison.
func (c *Causality) Compare(step int) {
	switch {
	case c.selected < 0:
		c.Select(step)
	case step == c.selected || step == c.other || step < 0 || step >= c.s.step || c.s.run.Trace().Records[step].Node < 0:
		c.other = -1
	default:
		c.other = step
	}
}

// Relation says how the selected and the compared event are related,
// and why, entry by entry of their vector clocks: "a → b", "b → a" or
// concurrent.
func (c *Causality) Relation() string {
	s := c.s
	if c.selected < 0 || c.other < 0 || c.selected >= s.step || c.other >= s.step {
		return ""
	}
	recs := s.run.Trace().Records
	a, b := &recs[c.selected], &recs[c.other]
	name := func(r *trace.Record, k int) string {
		return fmt.Sprintf("step %d (%s, %s)", k+1, s.scn.Names[r.Node], r.Vector)
	}
	an, bn := name(a, c.selected), name(b, c.other)
	// larger names the first entry where x's vector is larger than y's
	// (there is one: the caller knows the order)
	larger := func(x, y *trace.Record) string {
		i := 0
		for i < len(x.Vector)-1 && (i >= len(y.Vector) || x.Vector[i] <= y.Vector[i]) {
			i++
		}
		return fmt.Sprintf("%d > %d in %s's entry", x.Vector[i], y.Vector[i], s.scn.Names[i])
	}
	switch clock.Compare(a.Vector, b.Vector) {
	case clock.Before:
		return fmt.Sprintf("a → b: %s happened before %s. Every entry of a's vector is at most b's, and b's is larger somewhere (%s): b's process had heard of everything a's had when a happened.", an, bn, larger(b, a))
	case clock.After:
		return fmt.Sprintf("b → a: %s happened before %s. Every entry of b's vector is at most a's, and a's is larger somewhere (%s).", bn, an, larger(a, b))
	case clock.Concurrent:
		return fmt.Sprintf("a and b are concurrent: %s and %s. a's vector is larger in one entry (%s) and b's in another (%s), so neither heard of the other: no chain of messages joins them, whatever their Lamport timestamps (%d and %d) say.",
			an, bn, larger(a, b), larger(b, a), a.Lamport, b.Lamport)
	}
	return fmt.Sprintf("%s and %s have equal vectors: they are one event.", an, bn)
}

// Counts counts, among the events on screen, those that happened before
// the selected one, after it, and concurrently with it, by their vector
// stamps.
func (c *Causality) Counts() (past, future, concurrent int) {
	s := c.s
	if c.selected < 0 || c.selected >= s.step {
		return 0, 0, 0
	}
	recs := s.run.Trace().Records
	sel := recs[c.selected].Vector
	for i, r := range recs[:s.step] {
		if i == c.selected {
			continue
		}
		switch clock.Compare(r.Vector, sel) {
		case clock.Before:
			past++
		case clock.After:
			future++
		case clock.Concurrent:
			concurrent++
		}
	}
	return past, future, concurrent
}

// Text says what the selection shows, for the page.
func (c *Causality) Text() string {
	s := c.s
	if c.selected < 0 || c.selected >= s.step {
		return ""
	}
	r := s.run.Trace().Records[c.selected]
	if r.Node < 0 {
		return "" // a step of the whole network is no process's event
	}
	past, future, concurrent := c.Counts()
	return fmt.Sprintf("Step %d (%s, vector %s): %s — %d events happened before it (blue rings), %d after it (orange), %d are concurrent with it (grey). Shift-click another event (or step to it and press Shift+E) to compare the two.",
		c.selected+1, s.scn.Names[r.Node], r.Vector, r.Caption, past, future, concurrent)
}
