package diagram

// Stretches that hold for a while: a process down or paused, a cut link,
// a pending timer, an algorithm's intervals and a held token.

import (
	"fmt"

	"spacetime/core/sim"
)

// spans draws the stretches that hold for a while: a crashed process's
// lane dashed red, a paused one's under an orange band, a cut link, a
// pending timer, and every interval an algorithm annotated, in its role's
// style.
func (l *layout) spans() {
	// held tokens go over the bars, so that a holder in the critical
	// section shows both
	var tokens []Shape
	defer func() { l.s.Shapes = append(l.s.Shapes, tokens...) }()
	for i := range l.ix.spans {
		sp := &l.ix.spans[i]
		if sp.from >= l.k || !l.s.drawn(sp.node) || sp.kind == spanLink && !l.s.drawn(sp.peer) {
			continue // not yet, or on a hidden process's lane
		}
		from := 0.0
		if sp.from >= 0 {
			from = l.xs[sp.from]
		}
		until, open := l.now, true
		if sp.to >= 0 && sp.to < l.k {
			until, open = l.xs[sp.to], false
		}
		at := tagOf(WhatFault).at(sp.node).when(sp.from)
		switch sp.kind {
		case spanDown, spanPaused:
			l.tag = at.as(sp.text) // the fault that caused it
			l.health(sp, from, until)
		case spanLink:
			l.tag = at.as(sp.text)
			l.cutLink(sp, from)
		case spanTimer:
			l.tag = tagOf(WhatTimer).at(sp.node).when(sp.from).as(sp.text)
			l.timer(sp, from, until, open)
		case spanRole:
			if rs, ok := l.role(sp.role); ok && rs.Style == sim.StyleToken {
				l.tag = tagOf(WhatToken).at(sp.node).when(sp.from).as(sp.role)
				tokens = append(tokens, l.shapesOf(func() { l.heldToken(sp, from, until, ToneColor(rs.Tone)) })...)
				continue
			}
			l.tag = tagOf(WhatInterval).at(sp.node).when(sp.from).as(sp.role)
			l.interval(sp, from, until)
		}
	}
	l.tag = Tag{}
}

// clampX maps a stretch of the axis to pixel columns inside the window.
func (l *layout) clampX(from, until float64) (float64, float64) {
	return max(l.X(from), l.X(l.t0)), min(l.X(until), l.X(l.t1))
}

func (l *layout) health(sp *span, from, until float64) {
	if !l.visible(from, until) {
		return
	}
	x1, x2 := l.clampX(from, until)
	y := l.s.lanes[sp.node]
	if sp.kind == spanDown {
		l.add(Shape{Op: OpLine, X1: x1, Y1: y, X2: x2, Y2: y, Color: CrashColor, Width: 3, Flags: FlagDashed})
	} else {
		l.add(Shape{Op: OpRect, X1: x1, Y1: y - 5, X2: x2 - x1, Y2: 10, Color: PauseColor})
	}
}

// cutLink marks where a link was cut: a grey dashed stroke between the two
// lines with a cross on it.
func (l *layout) cutLink(sp *span, at float64) {
	if !l.visible(at, at) || sp.node == sp.peer {
		return
	}
	x, y1, y2 := l.X(at), l.s.lanes[sp.node], l.s.lanes[sp.peer]
	l.add(Shape{Op: OpLine, X1: x, Y1: y1, X2: x, Y2: y2, Color: ControlColor, Width: 1.5, Flags: FlagDashed})
	l.add(Shape{Op: OpCross, X1: x, Y1: y1 + (y2-y1)*0.5, X2: 5, Color: ControlColor, Width: 2})
}

// timer draws an armed timer as a thin line under its lane, from its
// arming to its firing or cancelling; a pending one runs on, dashed, to
// its due time and says how long it has left.
func (l *layout) timer(sp *span, from, until float64, open bool) {
	y := l.s.lanes[sp.node] + 9
	due := float64(sp.due)
	if l.opt.Axis == AxisLamport {
		due = until // the due time is simulated time, not Lamport time
	}
	if l.visible(from, until) {
		x1, x2 := l.clampX(from, until)
		l.add(Shape{Op: OpLine, X1: x1, Y1: y, X2: x2, Y2: y, Color: ControlColor, Width: 1})
	}
	if !open {
		return
	}
	if due > until && l.visible(until, due) {
		x1, x2 := l.clampX(until, due)
		l.add(Shape{Op: OpLine, X1: x1, Y1: y, X2: x2, Y2: y, Color: ControlColor, Width: 1, Flags: FlagDashed})
		if x := l.X(due); x <= l.X(l.t1) {
			l.add(Shape{Op: OpLine, X1: x, Y1: y - 4, X2: x, Y2: y + 4, Color: ControlColor, Width: 1.5})
		}
	}
	if l.visible(until, until) && l.k > 0 {
		left := sp.due - l.tr.Records[l.k-1].Time
		// plain words: a timer glyph is missing from many fonts
		text := "timer " + sp.text
		if left > 0 {
			text += fmt.Sprintf(" in %d", left)
		}
		// a lane's first countdown is worth more than its messages' labels;
		// more on the same lane (a busy client's) give way to them
		prio := prioTimer
		if l.timerLabels[sp.node] > 0 {
			prio = prioMoreTimers
		}
		if l.timerLabels == nil {
			l.timerLabels = map[sim.NodeID]int{}
		}
		l.timerLabels[sp.node]++
		l.text(Shape{X1: l.X(until) + 4, Y1: y + 11, Color: ControlColor, Align: AlignLeft, Text: text}, prio, -float64(sp.due))
	}
}

// interval draws an annotated interval in its role's style.
func (l *layout) interval(sp *span, from, until float64) {
	rs, ok := l.role(sp.role)
	if !ok || rs.Style == sim.StyleHidden {
		return
	}
	color := ToneColor(rs.Tone)
	y := l.s.lanes[sp.node]
	switch rs.Style {
	case sim.StyleBar, sim.StyleOutline:
		if !l.visible(from, until) {
			return
		}
		x1, x2 := l.clampX(from, until)
		top := y - 6 - float64(sp.track)*14
		sh := Shape{Op: OpRect, X1: x1, Y1: top, X2: max(x2-x1, 1), Y2: 12, Color: color}
		if rs.Style == sim.StyleOutline {
			sh.Flags, sh.Width = FlagHollow|FlagDashed, 1.5
		}
		l.add(sh)
		if sp.text != "" && l.visible(from, from) {
			ty := y + 20
			if sp.track > 0 {
				ty = top - 3
			}
			l.text(Shape{X1: x1 + 3, Y1: ty, Color: color, Align: AlignLeft, Flags: FlagBold, Text: sp.text}, prioInterval, from)
		}
	case sim.StyleBand:
		if !l.visible(from, until) {
			return
		}
		x1, x2 := l.clampX(from, until)
		l.add(Shape{Op: OpRect, X1: x1, Y1: l.top - 4, X2: max(x2-x1, 1), Y2: l.opt.Height - l.top - l.bottom + 8, Color: color, Flags: FlagFaint})
		if sp.text != "" && l.visible(from, from) {
			l.text(Shape{X1: x1 + 3, Y1: l.opt.Height - l.bottom - 2, Color: color, Align: AlignLeft, Flags: FlagBold, Text: sp.text}, prioInterval, from)
		}
	case sim.StyleArrow:
		if sp.peer >= 0 && l.visible(from, from) {
			l.peerArrow(l.X(from), y, sp.peer, color, sp.text)
		}
	case sim.StyleGlyph:
		if l.visible(from, from) {
			l.glyph(rs.Glyph, l.X(from), y, color, sp.text)
		}
	}
}

// heldToken draws a token held on a process's line: a gold strip along
// the line, a coin where it was taken, and a coin at the present while it
// is still held, so that the holder can be read off at any step.
func (l *layout) heldToken(sp *span, from, until float64, color Color) {
	if !l.visible(from, until) {
		return
	}
	y := l.s.lanes[sp.node]
	x1, x2 := l.clampX(from, until)
	l.add(Shape{Op: OpRect, X1: x1, Y1: y - 2.5, X2: max(x2-x1, 1), Y2: 5, Color: color, Flags: FlagSolid})
	if l.visible(from, from) {
		l.glyph(sim.GlyphToken, x1, y, color, sp.text)
	}
	if sp.to < 0 || sp.to >= l.k {
		if l.visible(until, until) {
			l.glyph(sim.GlyphToken, x2, y, color, "")
		}
	}
}
