package lab

import (
	"fmt"

	"spacetime/core/clock"
)

// Select shows the causal past and future of the event at step (a step
// index already on screen), or clears the selection with -1. Selecting the
// selected event again clears it.
func (s *Session) Select(step int) {
	if step == s.Selected || step < 0 || step >= s.step {
		s.Selected = -1
		return
	}
	s.Selected = step
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
	return fmt.Sprintf("Step %d (%s, vector %v): %s — %d events happened before it (blue rings), %d after it (orange), %d are concurrent with it.",
		s.Selected+1, s.scn.Names[r.Node], r.Vector, r.Caption, past, future, concurrent)
}
