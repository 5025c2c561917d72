package lab

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"spacetime/core/report"
)

// A Judgement is the page's verdict on the run at the step on screen,
// under the caption so that the lesson's point is never below the fold.
// It leads with what went wrong, in the algorithm's words, then names the
// invariant: the one the lesson is about (scenario.PointInvariant) when it
// fails, else the first to fail (one the lesson expects before any
// other); then what else stands, so that a lesson about one invariant says
// where that one stands while another fails. When the lesson's point
// holds and only what the lesson expects fails (fencing tokens save the
// data while two clients believe they hold the lease), it leads with the
// point.
type Judgement struct {
	// OK is true when no invariant fails.
	OK bool
	// PointHolds says the lesson's invariant holds while only invariants
	// the lesson expects to fail do: the verdict is the point's (Rule),
	// and the failures as expected follow (Rest).
	PointHolds bool
	// Unchecked says the algorithm checks no invariant (Rule says so).
	Unchecked bool
	// Why is the failing invariant's account of what went wrong ("" when
	// none fails or it gives none).
	Why string
	// Rule names the invariant and where it stands: "no deadlock: fails
	// at step 10 (this lesson's point)", or "holds: a · b".
	Rule string
	// Rest is where the others stand, when it matters: the lesson's
	// invariant holding while another fails, or the others failing too.
	Rest string
	// Counted are invariants that hold which Rule counts rather than
	// names ("and 3 more"), so that it reads whole beside the diagram;
	// Text names them.
	Counted []string
}

// Text is the whole verdict in one line: the tooltip, a screen reader's
// and a slide deck's.
func (j Judgement) Text() string {
	mark := j.Mark()
	text := mark + j.Rule
	if len(j.Counted) > 0 {
		text = mark + j.Rule[:strings.LastIndex(j.Rule, " · ")] + " · " + strings.Join(j.Counted, " · ")
	}
	if j.Why != "" {
		text = mark + j.Why + " — " + j.Rule
	}
	if j.Rest != "" {
		text += ". " + j.Rest
	}
	return text
}

// Mark is the verdict's sign: "✓ " when it holds (or the lesson's point
// does, PointHolds), "✗ " when it fails, none when nothing is checked.
func (j Judgement) Mark() string {
	switch {
	case j.Unchecked:
		return ""
	case j.Good():
		return "✓ "
	}
	return "✗ "
}

// Good says the verdict is a tick: every invariant holds, or the lesson's
// point holds and only what the lesson expects fails.
func (j Judgement) Good() bool { return j.OK || j.PointHolds }

// Verdicts is the session's part that judges the run: its verdict at the
// step on screen, as a judgement or in words, and the longest it gives.
type Verdicts struct{ s *Session }

// Verdicts is the session's verdicts (see Judgement).
func (s *Session) Verdicts() Verdicts { return Verdicts{s} }

// Now is the verdict at the step on screen (see Judgement).
func (v Verdicts) Now() Judgement {
	return judge(v.s.Report().Invariants, v.s.scn.PointInvariant())
}

// Longest is the longest verdict the run gives at any step: the page
// keeps its room under the caption, so that the diagram keeps one height
// as the verdict changes. A verdict changes only where an invariant first
// fails.
func (v Verdicts) Longest() Judgement {
	s := v.s
	s.fresh()
	point := s.scn.PointInvariant()
	longest := Judgement{}
	consider := func(k int) {
		if j := judge(report.Invariants(s.scn, s.run, k), point); len(j.Text()) > len(longest.Text()) {
			longest = j
		}
	}
	consider(0)
	for _, f := range s.run.FailuresAt(s.Len()) {
		if f.Step >= 0 {
			consider(f.Step + 1)
		}
	}
	return longest
}

// maxHoldsText bounds a verdict that holds, in characters: it names its
// invariants while they fit, and counts the rest. Chandy–Lamport's five
// (213 characters) read whole beside the diagram on a 1280×720 projector
// at the largest text; checkpointing's seven do not.
const maxHoldsText = 214

// holds is the verdict when every invariant holds, the lesson's point
// first: their names, as many as fit in maxHoldsText, and how many more.
func holds(holding []string) Judgement {
	length := utf8.RuneCountInString
	rule := "holds: " + strings.Join(holding, " · ")
	if length(rule) <= maxHoldsText {
		return Judgement{OK: true, Rule: rule}
	}
	rule = "holds: " + holding[0]
	named := 1
	for ; named < len(holding); named++ {
		more := fmt.Sprintf(" · and %d more", len(holding)-named-1)
		if length(rule+" · "+holding[named]+more) > maxHoldsText {
			break
		}
		rule += " · " + holding[named]
	}
	return Judgement{OK: true, Rule: fmt.Sprintf("%s · and %d more", rule, len(holding)-named), Counted: holding[named:]}
}

// judge is the verdict on invariants where they stand, about point (see
// Judgement).
func judge(invariants []report.Invariant, point string) Judgement {
	failing := -1
	var holding, also []string
	for i, inv := range invariants {
		switch {
		case inv.OK:
			if inv.Name == point {
				holding = append([]string{inv.Name}, holding...)
			} else {
				holding = append(holding, inv.Name)
			}
		case failing < 0, inv.Name == point, inv.Expected && !invariants[failing].Expected && invariants[failing].Name != point:
			failing = i
		}
	}
	if failing < 0 {
		if len(holding) == 0 {
			return Judgement{OK: true, Unchecked: true, Rule: "No invariant is checked for this algorithm."}
		}
		return holds(holding)
	}
	if j, ok := pointHolds(invariants, point, holding); ok {
		return j
	}
	inv := invariants[failing]
	j := Judgement{Why: inv.Detail, Rule: inv.Name + ": fails"}
	if inv.FirstFailingStep != nil {
		j.Rule += fmt.Sprintf(" at step %d", *inv.FirstFailingStep)
	}
	switch {
	case inv.Name == point, point == "" && inv.Expected:
		j.Rule += " (this lesson's point)"
	case inv.Expected:
		j.Rule += " (as the lesson expects)"
	}
	for i, other := range invariants {
		if i != failing && !other.OK {
			name := other.Name
			if other.FirstFailingStep != nil {
				name += fmt.Sprintf(" (step %d)", *other.FirstFailingStep)
			}
			also = append(also, name)
		}
	}
	var rest []string
	if len(holding) > 0 && holding[0] == point {
		rest = append(rest, "✓ "+point+" holds (this lesson's point)")
	}
	if len(also) > 0 {
		rest = append(rest, "Also fails: "+strings.Join(also, "; "))
	}
	j.Rest = strings.Join(rest, ". ")
	return j
}

// pointHolds is the verdict when the lesson's point holds and every
// invariant that fails is one the lesson expects to fail: the point first,
// then each failure as expected, with its account.
func pointHolds(invariants []report.Invariant, point string, holding []string) (Judgement, bool) {
	if point == "" || len(holding) == 0 || holding[0] != point {
		return Judgement{}, false
	}
	var expected []string
	for _, inv := range invariants {
		if inv.OK {
			continue
		}
		if !inv.Expected {
			return Judgement{}, false
		}
		text := inv.Name + " fails"
		if inv.FirstFailingStep != nil {
			text += fmt.Sprintf(" at step %d", *inv.FirstFailingStep)
		}
		if inv.Detail != "" {
			text += ": " + inv.Detail
		}
		expected = append(expected, text)
	}
	return Judgement{PointHolds: true, Rule: point + " holds (this lesson's point)", Rest: "As the lesson expects, " + strings.Join(expected, "; ")}, true
}

// Text is the verdict's whole text (Judgement.Text) and whether every
// invariant holds.
func (v Verdicts) Text() (text string, ok bool) {
	j := v.Now()
	return j.Text(), j.OK
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
