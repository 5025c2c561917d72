package diagram

// Lines through the processes' pasts: snapshots' cuts, an algorithm's
// lines (a recovery line) and the learner's own cut.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"spacetime/core/sim"
)

// cuts draws the recording points of every cut role's group joined into a
// cut line, solid once every process has recorded, labelled with what its
// halo roles recorded.
func (l *layout) cuts() {
	type cutKey struct {
		role  string
		group int
	}
	groups := map[cutKey][]point{}
	notes := map[cutKey][]string{}
	var order []cutKey
	for _, s := range stepsBefore(l.ix.cutNoted, l.k) {
		r := &l.tr.Records[s]
		for _, a := range r.Annotations() {
			rs, ok := l.role(a.Role)
			if !ok {
				continue
			}
			if rs.Style == sim.StyleHalo && rs.Of != "" && a.Msg >= 0 && a.Msg < len(l.tr.Msgs) {
				msg := &l.tr.Msgs[a.Msg]
				k := cutKey{rs.Of, a.Group}
				notes[k] = append(notes[k], fmt.Sprintf("%s→%s %s", l.tr.Names[msg.From], l.tr.Names[msg.To], a.Text))
			}
			if rs.Style != sim.StyleCut || !l.s.drawn(r.Node) {
				continue
			}
			k := cutKey{a.Role, a.Group}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], point{l.X(l.xs[s]), l.s.lanes[r.Node]})
		}
	}
	for _, g := range order {
		rs, _ := l.role(g.role)
		pts := groups[g]
		flags := uint8(0)
		if len(pts) < len(l.tr.Names) {
			flags = FlagDashed
		}
		label := fmt.Sprintf("cut %d", g.group)
		if ns := notes[g]; len(ns) > 0 {
			label = listWithin(label+" · "+l.noteWords(g.role)+": ", ns, l.opt.Width-l.left-marginRight)
		}
		l.tag = tagOf(WhatCut).as(g.role)
		l.staircase(pts, ToneColor(rs.Tone), flags, label)
		l.tag = Tag{}
	}
}

// point is a place on the drawing.
type point struct{ x, y float64 }

// staircase joins points on the lanes into a cut line: a vertical stroke
// through each point, joined between the lanes, so that it never hides
// the messages that run from one point to the next, with its label on
// top. A line wholly outside the window is not drawn.
func (l *layout) staircase(pts []point, color Color, flags uint8, label string) {
	xmin, xmax := l.X(l.t0), l.X(l.t1)
	outside := true
	for _, p := range pts {
		outside = outside && (p.x < xmin || p.x > xmax)
	}
	if len(pts) == 0 || outside {
		return
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].y < pts[j].y })
	half := l.s.laneGap / 2
	top := pts[0].y - half*0.8
	for i, p := range pts {
		y0, y1 := p.y-half, p.y+half
		if i == 0 {
			y0 = top
		}
		if i == len(pts)-1 {
			y1 = p.y + half*0.8
		}
		l.add(Shape{Op: OpLine, X1: p.x, Y1: y0, X2: p.x, Y2: y1, Color: color, Width: 2, Flags: flags})
		if i > 0 {
			q := pts[i-1]
			l.add(Shape{Op: OpLine, X1: q.x, Y1: q.y + half, X2: p.x, Y2: p.y - half, Color: color, Width: 2, Flags: flags})
		}
	}
	align, x := AlignCenter, pts[0].x
	if len(label) > 8 {
		// a long label reads away from the nearer edge
		align, x = AlignLeft, x-12
		if pts[0].x > l.opt.Width*0.55 {
			align, x = AlignRight, pts[0].x+12
		}
	}
	if align == AlignLeft {
		x = max(x, xmin)
	}
	l.text(Shape{X1: x, Y1: top - 4, Color: color, Align: align, Flags: FlagBold, Text: label}, prioCut, 0)
}

// lines draws the algorithm's lines through the processes' pasts (a
// recovery line: its StyleLine overlays), each point where its process
// made the annotation that names it; a point not reached yet is left out.
func (l *layout) lines() {
	for _, line := range l.opt.Overlays {
		rs, ok := l.role(line.Role)
		if !ok || rs.Style != sim.StyleLine {
			continue
		}
		var pts []point
		for _, p := range line.Points {
			s := l.ix.pointStep(p)
			if s < 0 || s >= l.k || !l.s.drawn(p.Node) {
				continue
			}
			pts = append(pts, point{l.X(l.xs[s]), l.s.lanes[p.Node]})
		}
		flags := uint8(0)
		if line.Dashed {
			flags = FlagDashed
		}
		l.tag = tagOf(WhatLine).as(line.Text)
		l.staircase(pts, ToneColor(rs.Tone), flags, line.Text)
		l.undone(line, ToneColor(rs.Tone))
		l.tag = Tag{}
	}
}

// undone draws, on each lane, the stretch from the process's point on the
// line to the step that undid it, as a faint band: the work lost.
func (l *layout) undone(line sim.Overlay, color Color) {
	from := map[sim.NodeID]int{}
	for _, p := range line.Points {
		from[p.Node] = l.ix.pointStep(p)
	}
	for _, u := range line.Undone {
		s0, ok := from[u.Node]
		s1 := l.ix.pointStep(u)
		if !ok || s0 < 0 || s1 <= s0 || s1 >= l.k || !l.s.drawn(u.Node) {
			continue
		}
		x0, x1 := l.clampX(l.xs[s0], l.xs[s1])
		if x1 <= x0 {
			continue
		}
		y := l.s.lanes[u.Node]
		l.add(Shape{Op: OpRect, X1: x0, Y1: y - 9, X2: x1 - x0, Y2: 18, Color: color, Flags: FlagFaint})
	}
}

// noteWords is how a cut's label introduces what its halo roles recorded:
// their legend.
func (l *layout) noteWords(cut string) string {
	for _, r := range l.spec.Picture.Roles {
		if r.Of == cut && r.Style == sim.StyleHalo {
			return r.Legend
		}
	}
	return "recorded"
}

// userCut draws the learner's cut: a mark on each process line at its
// point, joined from line to line.
func (l *layout) userCut() {
	defer l.tagging(tagOf(WhatUserCut))()
	var prev *[2]float64
	for i, t := range l.opt.Cut {
		if math.IsNaN(t) || !l.s.drawn(sim.NodeID(i)) {
			prev = nil
			continue
		}
		x, y := min(max(l.X(t), l.X(l.t0)), l.X(l.t1)), l.s.lanes[i]
		l.add(Shape{Op: OpLine, X1: x, Y1: y - 12, X2: x, Y2: y + 12, Color: UserCutColor, Width: 3})
		if prev != nil {
			l.add(Shape{Op: OpLine, X1: prev[0], Y1: prev[1] + 12, X2: x, Y2: y - 12, Color: UserCutColor, Width: 2, Flags: FlagDashed})
		}
		prev = &[2]float64{x, y}
	}
}

// listWithin is head and the items, joined by commas, as many as fit in a
// bold line of the width (layout units); the rest are counted, not
// listed: "recorded in channels: A→B $5, A→B $13, … and 19 more".
func listWithin(head string, items []string, width float64) string {
	// texts are as wide as their parts together: count what fits, item by
	// item, with the count of the rest after it, and stop at the first
	// that does not (a cut may record hundreds, and this runs every frame)
	used, sep := TextWidth(head, true), TextWidth(", ", true)
	fit := 0
	for n, item := range items {
		used += TextWidth(item, true)
		if n > 0 {
			used += sep
		}
		rest := 0.0
		if n+1 < len(items) {
			rest = TextWidth(fmt.Sprintf(", … and %d more", len(items)-n-1), true)
		}
		if used+rest > width {
			break
		}
		fit = n + 1
	}
	switch fit {
	case len(items):
		return head + strings.Join(items, ", ")
	case 0:
		return head + fmt.Sprintf("%d messages", len(items))
	}
	return head + strings.Join(items[:fit], ", ") + fmt.Sprintf(", … and %d more", len(items)-fit)
}
