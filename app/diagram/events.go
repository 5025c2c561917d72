package diagram

// Events: their dots and what stands on them, network-wide marks, and how
// each stands to the selected event.

import (
	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

func (l *layout) events() {
	// dots first, then what stands on them
	var marks []Shape
	defer func() { l.s.Shapes = append(l.s.Shapes, marks...) }()
	for s := l.s0; s < l.k; s++ {
		r := &l.tr.Records[s]
		x := l.xs[s]
		if !l.visible(x, x) {
			if l.ix.monotone && x > l.t1 {
				break
			}
			continue
		}
		if r.Node < 0 {
			restore := l.tagging(tagOf(WhatNetwork).when(s).as(r.Tag()))
			l.networkMark(r, l.X(x))
			restore()
			continue
		}
		if !l.s.drawn(r.Node) {
			continue // a hidden process's event
		}
		px, py := l.X(x), l.s.lanes[r.Node]
		event := tagOf(WhatEvent).at(r.Node).when(s)
		restore := l.tagging(event)
		switch r.Kind {
		case trace.Fault:
			if f, ok := faults.Lookup(r.Tag()); ok {
				l.tag = tagOf(WhatFault).at(r.Node).when(s).as(f.Name)
				if f.Takes("msg") { // drawn on the message, not on a lane
					l.tag = l.tag.of(r.Msg)
					l.messageFault(f, r, px)
					restore()
					continue
				}
				l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
				marks = append(marks, l.faultGlyph(f, r, px, py)...)
			}
			restore()
			continue
		case trace.Wake:
			l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
			l.add(Shape{Op: OpRect, X1: px - 2, Y1: py - 8, X2: 4, Y2: 16, Color: PauseColor, Tag: event.as("wake")})
			restore()
			continue
		case trace.Skip:
			l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
			l.add(Shape{Op: OpCircle, X1: px, Y1: py, X2: 4, Color: Faint, Width: 1, Flags: FlagOutline | FlagDashed})
			restore()
			continue
		}
		l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
		ink := Ink
		rel, selected := l.relation(s)
		if selected && rel == clock.Concurrent { // greyed: neither before nor after the selection
			ink = Faint
		}
		switch r.Kind {
		case trace.Init:
			l.add(Shape{Op: OpCircle, X1: px, Y1: py, X2: 4, Color: ink, Width: 1.5, Flags: FlagHollow})
		default:
			if l.dense { // a square pixel block fills far faster than a disc
				l.add(Shape{Op: OpRect, X1: px - 1.5, Y1: py - 1.5, X2: 3, Y2: 3, Color: ink})
			} else {
				l.add(Shape{Op: OpCircle, X1: px, Y1: py, X2: 3.2, Color: ink})
			}
		}
		if ring, ok := causalRing(rel, px, py); selected && ok {
			ring.Tag = tagOf(WhatSelection).at(r.Node).when(s)
			marks = append(marks, ring)
		}
		for _, m := range l.opt.Marks {
			if m.Step == s {
				// the lesson's name for the event, up and to the left of it
				l.text(Shape{X1: px - 7, Y1: py - 9, Color: Ink, Align: AlignRight, Flags: FlagBold, Text: m.Name, Tag: tagOf(WhatEventName).at(r.Node).when(s)}, prioPoint, float64(s),
					point{px - 7, py + 21}, point{px + 8, py - 9})
			}
		}
		if l.opt.HasOther && s == l.opt.Other {
			marks = append(marks, Shape{Op: OpCircle, X1: px, Y1: py, X2: 9, Color: Ink, Width: 2.5, Flags: FlagOutline | FlagDashed, Tag: tagOf(WhatSelection).at(r.Node).when(s)})
		}
		if l.opt.Stamps != StampsNone && !l.dense {
			l.text(Shape{X1: px, Y1: py + 16, Color: ink, Align: AlignCenter, Text: Stamp(r, l.opt.Stamps), Tag: tagOf(WhatStamp).at(r.Node).when(s)}, prioStamp, float64(s))
		}
		for _, a := range r.Annotations() {
			if a.Phase != sim.Point {
				continue
			}
			rs, ok := l.role(a.Role)
			if !ok {
				continue
			}
			color := ToneColor(rs.Tone)
			l.tag = tagOf(WhatMark).at(r.Node).when(s).as(a.Role)
			switch rs.Style {
			case sim.StyleGlyph, sim.StyleCut:
				marks = append(marks, l.shapesOf(func() { l.glyph(rs.Glyph, px, py, color, a.Text) })...)
			case sim.StyleLabel:
				l.text(eventLabel(px, py, color, a.Text), prioMark, float64(s), point{px + 4, py + 18})
			case sim.StyleArrow:
				if a.Peer >= 0 {
					marks = append(marks, l.shapesOf(func() { l.peerArrow(px, py, a.Peer, color, a.Text) })...)
				}
			}
		}
		restore()
	}
}

// networkMark marks a fault of the whole network (a partition, every link
// healed, FIFO switched) at the top of the diagram.
func (l *layout) networkMark(r *trace.Record, px float64) {
	text := r.What()
	color := ControlColor
	if f, ok := faults.Lookup(r.Tag()); ok {
		color = ToneColor(f.Tone)
		if a, _, ok := r.Args(); ok && f.Mark != nil {
			text = f.Mark(a)
		}
	}
	y := float64(l.top - 4)
	l.add(Shape{Op: OpTriangle, X1: px, Y1: y, X2: 5, Color: color})
	l.add(Shape{Op: OpLine, X1: px, Y1: y, X2: px, Y2: l.opt.Height - l.bottom + 4, Color: color, Width: 1, Flags: FlagDashed})
	l.text(Shape{X1: px + 7, Y1: y + 4, Color: color, Align: AlignLeft, Text: text}, prioTimer, px)
}

// relation is how event s stands to the selected event, by their vector
// stamps (Equal for the selected event itself); false when nothing is
// selected.
func (l *layout) relation(s int) (clock.Order, bool) {
	sel := l.opt.Selected
	if !l.opt.HasSelected || sel < 0 || sel >= l.k || l.tr.Records[sel].Node < 0 {
		return clock.Equal, false
	}
	if s == sel {
		return clock.Equal, true
	}
	return clock.Compare(l.tr.Records[s].Vector, l.tr.Records[sel].Vector), true
}
