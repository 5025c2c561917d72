package diagram

// Messages: which a window visits, and how each is drawn (in flight,
// delivered, lost), in layers.

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// maxEarlier bounds the messages sent before the window that a layout
// visits for those still on their way into it: a process down for a long
// time can have a million waiting, which no picture could show and no
// frame could afford. The newest are drawn, and a note says older ones
// are not.
const maxEarlier = 2000

// messageRange is the messages the layout visits: those sent inside the
// window, and before it those still on their way when it starts (older
// says some of these are left out).
func (l *layout) messageRange() (first, last int, older bool) {
	last = len(l.tr.MsgsBefore(l.k))
	first = last
	if l.s0 < l.k {
		first = l.tr.Records[l.s0].FirstSent
	}
	inside := first
	for first > 0 && l.ix.reach[first-1] >= l.s0 {
		if inside-first >= maxEarlier {
			return first, last, true
		}
		first--
	}
	return first, last, false
}

// Cost is how many events and messages a Layout of step k in opt's window
// visits: what laying it out and drawing it will cost, known beforehand
// for what a link asks for.
func (ix *Index) Cost(k int, opt Options) int {
	k = min(max(k, 0), ix.tr.Len())
	if opt.Span <= 0 {
		opt.Span = DefaultSpan
	}
	l := &layout{ix: ix, tr: ix.tr, k: k, opt: opt, xs: ix.xs, s: &Scene{}}
	l.axis()
	first, last, _ := l.messageRange()
	return (k - l.s0) + (last - first)
}

// TopologyCost is how many messages a Topology of step k visits.
func (ix *Index) TopologyCost(k int) int {
	k = min(max(k, 0), ix.tr.Len())
	first := sort.Search(len(ix.reach), func(i int) bool { return ix.reach[i] >= k })
	return min(max(len(ix.tr.MsgsBefore(k))-first, 0), maxEarlier)
}

func (l *layout) messages() {
	highlight := map[int]bool{}
	for _, id := range l.opt.Highlight {
		highlight[id] = true
	}
	first, last, older := l.messageRange()
	if older {
		l.s.Older = true
		l.text(Shape{X1: l.left + 4, Y1: l.top - 16, Color: NowColor, Align: AlignLeft, Tag: tagOf(WhatNote),
			Text: fmt.Sprintf("older messages still on their way are not drawn (the newest %d are)", maxEarlier)}, prioCut, 0)
	}
	// in-flight messages of one channel fan out along the now line, the
	// oldest furthest along
	queued := map[[2]sim.NodeID]int{}
	xmin, xmax := l.X(l.t0), l.X(l.t1)
	// drawn in layers (halos under lines under crosses under labels), lines
	// grouped by style, so that the painter strokes each group at once
	var halos, lines, crosses, marks []Shape
	var labels []label
	for i := first; i < last; i++ {
		m := &l.tr.Msgs[i]
		sx := l.xs[m.SendStep]
		if !l.s.drawn(m.From) || !l.s.drawn(m.To) {
			continue // to or from a hidden process
		}
		y1, yTo := l.s.lanes[m.From], l.s.lanes[m.To]
		a := arrow{msg: m.ID, x1: l.X(sx), y1: y1}
		var end float64
		lost := false
		switch {
		case m.ReceivedAt(l.k):
			end = l.xs[m.RecvStep]
			a.x2, a.y2 = l.X(end), yTo
		case m.DroppedAt(l.k):
			// lost near its sender, so the cross is not mistaken for an
			// event of a process in between
			end = max(l.xs[m.DropStep], sx+0.4)
			a.x2, a.y2 = l.X(end), y1+(yTo-y1)*0.3
			lost = true
		default:
			end = l.now
			ch := [2]sim.NodeID{m.From, m.To}
			f := l.progress(m, l.due(m), queued[ch])
			if m.Duplicate() {
				f = max(f-0.12, 0.1) // just behind its original, not hidden under it
			}
			a.x2, a.y2 = l.X(end), y1+(yTo-y1)*f
			queued[ch]++
			a.inFlight = true
		}
		if !l.visible(sx, end) {
			continue
		}
		a = clip(a, xmin, xmax)
		color, width, flags := l.style(m.Kind)
		tag := tagOf(WhatMessage).of(m.ID).as(m.Kind)
		if highlight[m.ID] {
			halos = append(halos, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: HighlightColor, Width: width + 7, Tag: tagOf(WhatHighlight).of(m.ID)})
		}
		if h, ok := l.ix.halo[m.ID]; ok && h.step < l.k {
			if rs, ok := l.role(h.role); ok && rs.Style == sim.StyleHalo {
				halos = append(halos, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: ToneColor(rs.Tone), Width: width + 4, Tag: tagOf(WhatHighlight).of(m.ID).as(h.role)})
			}
		}
		if !lost {
			flags |= FlagArrow
		}
		if m.Duplicate() {
			flags |= FlagDashed // the network's copy
		}
		lines = append(lines, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: color, Width: width, Flags: flags, Tag: tag})
		if lost {
			crosses = append(crosses, Shape{Op: OpCross, X1: a.x2, Y1: a.y2, X2: 5, Color: CrashColor, Width: 2, Tag: tag})
		}
		glyphs := len(marks)
		mx, my := a.x1+(a.x2-a.x1)*0.55, a.y1+(a.y2-a.y1)*0.55
		labelAt := mx + 4
		if g := l.glyphOf(m.Kind); g == sim.GlyphToken {
			// the token travels: its coin rides at the head while in flight
			if a.inFlight {
				marks = append(marks, l.coin(a.x2, a.y2, color)...)
			} else if !lost {
				marks = append(marks, l.coin(mx, my, color)...)
				labelAt = mx + 9
			}
		} else if g != sim.GlyphNone {
			marks = append(marks, kindMark(g, mx, my, color)...)
			labelAt = mx + 7
		}
		for j := glyphs; j < len(marks); j++ {
			marks[j].Tag = tag
		}
		if m.Label != "" {
			// other places along the arrow, should that one be taken
			var alts []point
			for _, f := range []float64{0.35, 0.75, 0.2, 0.88} {
				alts = append(alts, point{a.x1 + (a.x2-a.x1)*f + labelAt - mx, a.y1 + (a.y2-a.y1)*f - 3})
			}
			prio := prioMessage
			if highlight[m.ID] || l.selects(m) {
				prio = prioPoint // the lesson's point, or what the learner picked
			}
			labels = append(labels, label{sh: Shape{Op: OpText, X1: labelAt, Y1: my - 3, Color: color, Align: AlignLeft, Text: m.Label, Tag: tagOf(WhatMessageLabel).of(m.ID).as(m.Kind)},
				prio: prio, order: float64(m.SendStep), alts: alts})
		}
		l.s.arrows = append(l.s.arrows, a)
	}
	if len(lines) > denseMessages {
		// too many to read one by one: no labels, and hairlines without
		// dashes or heads (time runs rightwards, so the direction shows),
		// which rasterize many times faster
		labels, marks = nil, nil
		for i := range lines {
			lines[i].Width, lines[i].Flags = 1, 0
		}
		l.dense = true
	}
	slices.SortStableFunc(lines, func(a, b Shape) int { return cmp.Compare(styleKey(a), styleKey(b)) })
	l.s.Shapes = append(append(append(append(l.s.Shapes, halos...), lines...), crosses...), marks...)
	l.labels = append(l.labels, labels...)
}

// denseMessages is how many visible messages still get their labels.
const denseMessages = 400

// styleKey orders shapes of one layer so that those drawn alike are adjacent.
func styleKey(sh Shape) uint32 {
	return uint32(sh.Color)<<16 | uint32(sh.Flags)<<8 | uint32(sh.Width*10)&0xff
}

// clip cuts an arrow to the plot's columns, so that a message sent before
// a long run's window does not cross the process names.
func clip(a arrow, xmin, xmax float64) arrow {
	at := func(x float64) float64 {
		if a.x2 == a.x1 {
			return a.y1
		}
		return a.y1 + (a.y2-a.y1)*(x-a.x1)/(a.x2-a.x1)
	}
	if a.x1 < xmin {
		a.x1, a.y1 = xmin, at(xmin)
	}
	if a.x2 > xmax {
		a.x2, a.y2 = xmax, at(xmax)
	}
	return a
}

// due is when message m may arrive as of the step on screen: when the
// network said at its sending, unless a delay pushed it back since.
func (l *layout) due(m *trace.Msg) sim.Time {
	if d, ok := valueAt(l.ix.delays[m.ID], l.k); ok {
		return sim.Time(d)
	}
	return m.Due
}

// progress is how far along its way an in-flight message is drawn; queued
// is how many older messages of its channel are also in flight.
func (l *layout) progress(m *trace.Msg, due sim.Time, queued int) float64 {
	if due <= m.SendTime {
		// no delay to show (Random scheduler): the head of the channel
		// furthest along, the others fanned out behind it
		return max(0.72-0.13*float64(queued), 0.2)
	}
	f := (l.now - float64(m.SendTime)) / float64(due-m.SendTime)
	return min(max(f, 0.15), 0.85)
}

// messageFault marks a fault of one message on its arrow: a delay where it
// was delayed, a duplicate where it was copied; a fault that lost the
// message is its arrow's cross.
func (l *layout) messageFault(f *faults.Fault, r *trace.Record, px float64) {
	if r.Msg < 0 || r.Msg >= len(l.tr.Msgs) || l.tr.Msgs[r.Msg].DropStep == r.Step {
		return
	}
	for _, a := range l.s.arrows {
		if a.msg != r.Msg || a.x2 == a.x1 {
			continue
		}
		t := min(max((px-a.x1)/(a.x2-a.x1), 0), 1)
		l.glyph(f.Glyph, px, a.y1+(a.y2-a.y1)*t, ToneColor(f.Tone), "")
		return
	}
}

// selects says whether a message was sent or received by the selected
// event or the one compared with it: the learner picked it, so its label
// is placed before the others.
func (l *layout) selects(m *trace.Msg) bool {
	on := func(has bool, step int) bool {
		return has && step >= 0 && (m.SendStep == step || (m.RecvStep == step && m.ReceivedAt(l.k)))
	}
	return on(l.opt.HasSelected, l.opt.Selected) || on(l.opt.HasOther, l.opt.Other)
}
