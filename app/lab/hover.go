package lab

import (
	"fmt"
	"strings"

	"spacetime/app/diagram"
)

// HoverText says in full what lies under the pointer, for a tip beside it:
// a message's kind, label, ends and times; an event's step, process and
// caption; a process with its health and its state line in the process
// graph. A label the diagram left out for want of room is read here. It is
// "" for nothing.
func (s *Session) HoverText(h diagram.Hit) string {
	tr := s.run.Trace()
	time := func(step int) string { return fmt.Sprintf("%d", tr.Records[step].Time) }
	switch h.Kind {
	case diagram.HitMessage:
		if h.Msg < 0 || h.Msg >= len(tr.Msgs) {
			return ""
		}
		m := &tr.Msgs[h.Msg]
		var fate string
		switch {
		case m.ReceivedAt(s.step):
			fate = "received at " + time(m.RecvStep)
		case m.DroppedAt(s.step):
			fate = "lost at " + time(m.DropStep)
		default:
			fate = "on its way (click to deliver it next)"
		}
		text := fmt.Sprintf("%s · sent at %s, %s", s.Describe(h.Msg), time(m.SendStep), fate)
		if m.Duplicate() {
			text += " · the network's copy"
		}
		return text
	case diagram.HitEvent:
		if h.Step < 0 || h.Step >= s.step {
			return ""
		}
		r := tr.Records[h.Step]
		if r.Node < 0 || int(r.Node) >= len(s.scn.Names) {
			return ""
		}
		return fmt.Sprintf("step %d · %s at %d: %s", h.Step+1, s.scn.Names[r.Node], r.Time, r.Caption)
	case diagram.HitProcess:
		ps := s.Processes()
		if int(h.Node) < 0 || int(h.Node) >= len(ps) {
			return ""
		}
		p := ps[h.Node]
		parts := []string{fmt.Sprintf("%s (%s)", p.Name, p.Health)}
		if state := s.StateOf(h.Node); state != "" {
			parts = append(parts, state)
		}
		return strings.Join(parts, ": ")
	}
	return ""
}

// EventLines are the last (at most max) events on screen, oldest first,
// one plain line each ("step 12 · B at 14: B receives $3 from A"): the
// diagram's text alternative, for a screen reader. earlier counts the
// events before them.
func (s *Session) EventLines(max int) (lines []string, earlier int) {
	recs := s.run.Trace().Records[:s.step]
	first := len(recs) - min(max, len(recs))
	for k := first; k < len(recs); k++ {
		r := recs[k]
		who := "the network"
		if r.Node >= 0 && int(r.Node) < len(s.scn.Names) {
			who = s.scn.Names[r.Node]
		}
		lines = append(lines, fmt.Sprintf("step %d · %s at %d: %s", k+1, who, r.Time, r.Caption))
	}
	return lines, first
}
