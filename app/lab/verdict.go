package lab

import (
	"fmt"
	"strings"
)

// Verdict is the page's one line on the run at the step on screen, shown
// under the caption so that the lesson's point is never below the fold:
// the invariant that fails (the one the lesson declares first), at which
// step and why, or that every invariant checked holds. ok is false when
// one fails.
func (s *Session) Verdict() (text string, ok bool) {
	rep := s.Report()
	failing := -1
	var holding []string
	for i, inv := range rep.Invariants {
		switch {
		case inv.OK:
			holding = append(holding, inv.Name)
		case failing < 0, inv.Expected && !rep.Invariants[failing].Expected:
			failing = i
		}
	}
	if failing >= 0 {
		inv := rep.Invariants[failing]
		text = "✗ " + inv.Name + ": fails"
		if inv.FirstFailingStep != nil {
			text += fmt.Sprintf(" at step %d", *inv.FirstFailingStep)
		}
		if inv.Detail != "" {
			text += " — " + inv.Detail
		}
		if inv.Expected {
			text += " (this lesson's point)"
		}
		return text, false
	}
	if len(holding) == 0 {
		return "No invariant is checked for this algorithm.", true
	}
	return "✓ holds: " + strings.Join(holding, " · "), true
}

// OpeningStep is where the lesson is shown when a slide names no step:
// the step its lesson block names, or else the first at which a message
// has arrived (before it, the diagram is bare lanes).
func (s *Session) OpeningStep() int {
	if l := s.scn.Lesson; l != nil && l.Opens > 0 {
		return min(l.Opens, s.Len())
	}
	first := -1
	for _, m := range s.run.Trace().Msgs {
		if m.RecvStep >= 0 && (first < 0 || m.RecvStep < first) {
			first = m.RecvStep
		}
	}
	return first + 1
}

// frame is the interval of the time axis the lesson's point lies in, if
// its lesson block names one.
func (s *Session) frame() (from, to float64, ok bool) {
	if l := s.scn.Lesson; l != nil && len(l.Frame) == 2 {
		return float64(l.Frame[0]), float64(l.Frame[1]), true
	}
	return 0, 0, false
}
