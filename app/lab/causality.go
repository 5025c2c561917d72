package lab

import (
	"fmt"

	"spacetime/core/clock"
	"spacetime/core/trace"
)

// Select shows the causal past and future of the event at step (a step
// index already on screen), or clears the selection with -1. Selecting the
// selected event again clears it.
func (s *Session) Select(step int) {
	s.Other = -1
	if step == s.Selected || step < 0 || step >= s.step {
		s.Selected = -1
		return
	}
	s.Selected = step
}

// Compare sets the event compared with the selected one (a step index on
// screen; with nothing selected it selects it instead). Comparing the
// selected event or the compared one again clears the comparison.
func (s *Session) Compare(step int) {
	switch {
	case s.Selected < 0:
		s.Select(step)
	case step == s.Selected || step == s.Other || step < 0 || step >= s.step || s.run.Trace().Records[step].Node < 0:
		s.Other = -1
	default:
		s.Other = step
	}
}

// RelationText says how the selected and the compared event are related,
// and why, entry by entry of their vector clocks: "a → b", "b → a" or
// concurrent.
func (s *Session) RelationText() string {
	if s.Selected < 0 || s.Other < 0 || s.Selected >= s.step || s.Other >= s.step {
		return ""
	}
	recs := s.run.Trace().Records
	a, b := &recs[s.Selected], &recs[s.Other]
	name := func(r *trace.Record, k int) string {
		return fmt.Sprintf("step %d (%s, %s)", k+1, s.scn.Names[r.Node], r.Vector)
	}
	an, bn := name(a, s.Selected), name(b, s.Other)
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

// Causality counts, among the events on screen, those that happened before
// the selected one, after it, and concurrently with it, by their vector
// stamps.
func (s *Session) Causality() (past, future, concurrent int) {
	if s.Selected < 0 || s.Selected >= s.step {
		return 0, 0, 0
	}
	recs := s.run.Trace().Records
	sel := recs[s.Selected].Vector
	for i, r := range recs[:s.step] {
		if i == s.Selected {
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

// SelectionText says what the selection shows, for the page.
func (s *Session) SelectionText() string {
	if s.Selected < 0 || s.Selected >= s.step {
		return ""
	}
	r := s.run.Trace().Records[s.Selected]
	if r.Node < 0 {
		return "" // a step of the whole network is no process's event
	}
	past, future, concurrent := s.Causality()
	return fmt.Sprintf("Step %d (%s, vector %s): %s — %d events happened before it (blue rings), %d after it (orange), %d are concurrent with it (grey). Shift-click another event (or step to it and press Shift+E) to compare the two.",
		s.Selected+1, s.scn.Names[r.Node], r.Vector, r.Caption, past, future, concurrent)
}
