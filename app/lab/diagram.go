package lab

import (
	"fmt"
	"strings"

	"spacetime/app/diagram"
	"spacetime/core/sim"
)

// Diagram is the part of a session that draws it: the space-time diagram
// and the process graph at the step on screen, what they point at, their
// legend, and the words for what the pointer is over. It keeps nothing of
// its own: what it lays out is cached by the session (its index), and what
// it shows (the cut, the selection, the tour's messages) is the other
// parts'.
type Diagram struct{ s *Session }

// Diagram is the session's drawing part.
func (s *Session) Diagram() Diagram { return Diagram{s: s} }

// Highlight lists the messages that failed invariants point at, as of the
// step on screen.
func (d Diagram) Highlight() []int {
	s := d.s
	var ids []int
	for _, f := range s.run.FailuresAt(s.step) {
		ids = append(ids, f.Msgs...)
	}
	return ids
}

// Scene lays out the diagram at the step on screen, in the session's own
// window.
func (d Diagram) Scene(width, height float64) *diagram.Scene {
	s := d.s
	return d.SceneIn(width, height, s.View)
}

// SceneIn lays out the diagram at the step on screen in the given window
// (a compare page's shared one).
func (d Diagram) SceneIn(width, height float64, v View) *diagram.Scene {
	s := d.s
	var cut []float64
	if s.cut.on {
		cut = s.cut.points
	}
	opt := diagram.Options{Width: width, Height: height, Scale: s.Scale, Highlight: d.highlightAll(), Cut: cut, Overlays: d.Overlays(),
		Span: v.span(), Pinned: v.Pinned, Start: v.Start,
		Selected: s.causality.selected, HasSelected: s.causality.selected >= 0 && s.causality.selected < s.step,
		Other: s.causality.other, HasOther: s.causality.other >= 0 && s.causality.other < s.step, Stamps: s.Stamps,
		Hidden: s.filter.Hidden()}
	if l := s.scn.Lesson; l != nil {
		for _, m := range l.Marks {
			opt.Marks = append(opt.Marks, diagram.Mark{Step: m.Step - 1, Name: m.Name})
		}
	}
	if from, to, ok := d.frame(); ok && v.Span == 0 && s.Axis == diagram.AxisTime {
		opt.Frame = [2]float64{from, to} // the lesson's own, until the learner zooms
	}
	return s.index().Layout(s.step, s.Spec(), opt)
}

// highlightAll is what the diagram points at: the messages failing
// invariants name, and those that make the learner's cut inconsistent.
func (d Diagram) highlightAll() []int {
	s := d.s
	highlight := append(d.Highlight(), s.tour.messages()...)
	if s.cut.on {
		if _, bad := s.cut.Verdict(); len(bad) > 0 {
			highlight = append(highlight, bad...)
		}
	}
	return highlight
}

// Topology is the algorithm's process graph at the step on screen, or nil
// if it has none.
func (d Diagram) Topology() *sim.Topology {
	s := d.s
	if s.Spec().Picture.Topology == nil {
		return nil
	}
	return s.Spec().Picture.Topology(s.State().View())
}

// TopologyScene lays out the topology view at the step on screen, or
// returns nil for an algorithm without a topology.
func (d Diagram) TopologyScene(width, height float64) *diagram.Scene {
	s := d.s
	topo := d.Topology()
	if topo == nil {
		return nil
	}
	return s.index().Topology(s.step, s.Spec(), topo, diagram.TopologyOptions{Width: width, Height: height, Highlight: d.highlightAll(), Scale: s.Scale, Overlays: d.Overlays()})
}

// Overlays are the algorithm's overlays at the step on screen.
func (d Diagram) Overlays() []sim.Overlay {
	s := d.s
	if s.Spec().Picture.Overlays == nil {
		return nil
	}
	return s.Spec().Picture.Overlays(s.State().View())
}

// StateOf is the words an algorithm writes under process id at the step on
// screen (its StyleState overlay), or "".
func (d Diagram) StateOf(id sim.NodeID) string {
	s := d.s
	for _, o := range d.Overlays() {
		if o.Node != id {
			continue
		}
		for _, r := range s.Spec().Picture.Roles {
			if r.Name == o.Role && r.Style == sim.StyleState {
				return o.Text
			}
		}
	}
	return ""
}

// Legend lists what the diagram on screen draws.
func (d Diagram) Legend() []diagram.LegendEntry {
	s := d.s
	return s.index().Legend(s.Spec(), s.step, diagram.LegendOptions{
		Selected: s.causality.selected >= 0 && s.causality.selected < s.step, Other: s.causality.other >= 0 && s.causality.other < s.step,
		Cut: s.cut.on, Highlight: len(d.highlightAll()) > 0, Overlays: d.Overlays()})
}

// Index is the diagram's index of the run, for the current axis.
func (d Diagram) Index() *diagram.Index { return d.s.index() }

// Describe names a message for the learner: "transfer $14 A→B".
func (d Diagram) Describe(id int) string {
	s := d.s
	m := s.run.Trace().Msgs[id]
	return fmt.Sprintf("%s %s→%s", m.Describe(), s.scn.Names[m.From], s.scn.Names[m.To])
}

// HoverText says in full what lies under the pointer, for a tip beside it:
// a message's kind, label, ends and times; an event's step, process and
// caption; a process with its health and its state line in the process
// graph. A label the diagram left out for want of room is read here. It is
// "" for nothing.
func (d Diagram) HoverText(h diagram.Hit) string {
	s := d.s
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
		text := fmt.Sprintf("%s · sent at %s, %s", d.Describe(h.Msg), time(m.SendStep), fate)
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
		if state := d.StateOf(h.Node); state != "" {
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
func (d Diagram) EventLines(max int) (lines []string, earlier int) {
	s := d.s
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

// frame is the interval of the time axis the lesson's point lies in, if
// its lesson block names one.
func (d Diagram) frame() (from, to float64, ok bool) {
	if l := d.s.scn.Lesson; l != nil && len(l.Frame) == 2 {
		return float64(l.Frame[0]), float64(l.Frame[1]), true
	}
	return 0, 0, false
}
