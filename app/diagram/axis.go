package diagram

// The axis: which window of it is shown, and its lanes, ticks and the
// present.

import (
	"fmt"
	"math"

	"spacetime/core/sim"
)

// axis chooses the visible window of the axis. Unless the learner pinned
// it, the window frames the action: from the start to a little past the
// present (and the selected event), growing in round steps as the run
// goes on, so that the first events of a long run do not sit in a corner
// of an axis drawn for all of it; once that would pass the zoom's span,
// the window follows the present.
func (l *layout) axis() {
	l.now = l.ix.upTo[l.k] + 0.5
	l.t0, l.t1 = l.ix.Window(l.k, l.opt)
	l.s0 = l.ix.firstStepAt(l.t0)
	l.s.T0, l.s.T1 = l.t0, l.t1
}

// Window is the part of the axis a diagram of the first k steps shows
// with these options: the window pinned, the lesson's frame, the whole
// run when it fits in opt.Span (DefaultSpan if 0), else the last Span
// before the present. A TikZ figure draws the same.
func (ix *Index) Window(k int, opt Options) (t0, t1 float64) {
	k = min(max(k, 0), ix.tr.Len())
	span := opt.Span
	if span <= 0 {
		span = DefaultSpan
	}
	now := ix.upTo[k] + 0.5
	reach := now
	if opt.HasSelected && opt.Selected >= 0 && opt.Selected < k {
		reach = max(reach, ix.xs[opt.Selected])
	}
	lesson := opt.Frame
	switch frame := FrameEnd(reach, ix.end); {
	case opt.Pinned:
		return opt.Start, opt.Start + span
	case lesson[1] > lesson[0] && reach <= lesson[1]:
		return lesson[0], lesson[1]
	case frame <= span:
		return 0, frame
	default:
		pad := span * 0.05
		t1 = max(now+pad, span)
		return t1 - span, t1
	}
}

// minFrame is the least of the axis a window frames: a run's first events
// are spaced as a few ticks apart.
const minFrame = 20

// FrameEnd is where a window framing the action up to reach ends: half as
// far again, rounded up to a round number, and the run's end when that is
// near. A compare view frames its shared window the same way.
func FrameEnd(reach, end float64) float64 {
	g := max(reach*1.5, minFrame)
	q := niceStep(g / 5)
	g = math.Ceil(g/q) * q
	if end > 0 && end <= g*1.25 {
		return max(end, 1)
	}
	return g
}

// TimeAt maps a pixel column of the scene back to the axis.
func (s *Scene) TimeAt(x float64) float64 {
	return s.T0 + (x-s.leftMargin()*s.unit())*(s.T1-s.T0)/s.PlotWidth()
}

// XOf maps a point of the axis to a pixel column of the scene.
func (s *Scene) XOf(t float64) float64 {
	return s.leftMargin()*s.unit() + (t-s.T0)*s.PlotWidth()/(s.T1-s.T0)
}

// PlotWidth is the width of the plot area in pixels.
func (s *Scene) PlotWidth() float64 { return s.Width - (s.leftMargin()+marginRight)*s.unit() }

// leftMargin is the plot's left margin, in layout units.
func (s *Scene) leftMargin() float64 {
	if s.left <= 0 {
		return marginLeft
	}
	return s.left
}

// X maps an axis value to a pixel column.
func (l *layout) X(t float64) float64 {
	w := l.opt.Width - l.left - marginRight
	return l.left + (t-l.t0)*w/(l.t1-l.t0)
}

// countTrue counts the true values among the first n of bs.
func countTrue(bs []bool, n int) int {
	c := 0
	for i, b := range bs {
		if i < n && b {
			c++
		}
	}
	return c
}

// drawn says whether a process's lane is drawn (not hidden).
func (s *Scene) drawn(id sim.NodeID) bool {
	return int(id) >= 0 && int(id) < len(s.lanes) && !math.IsNaN(s.lanes[id])
}

func (l *layout) lanes() {
	n := len(l.tr.Names)
	hidden := func(i int) bool { return false }
	if shown := n - countTrue(l.opt.Hidden, n); shown > 0 && shown < n {
		hidden = func(i int) bool { return i < len(l.opt.Hidden) && l.opt.Hidden[i] }
		n = shown
	}
	gap := (l.opt.Height - l.top - l.bottom) / float64(max(n, 1))
	l.s.laneGap = gap
	x0, x1 := l.X(l.t0), l.X(l.t1)
	// lanes closer than a line of text name every second (or third…)
	// one, from the first, rather than print names over each other
	every := 1
	if line := float64(textAscent + textDescent); gap > 0 && gap < line {
		every = int(math.Ceil(line / gap))
	}
	row := 0
	for i, name := range l.tr.Names {
		if hidden(i) {
			// no lane: whatever is drawn on it is left out (see drawn)
			l.s.lanes = append(l.s.lanes, math.NaN())
			continue
		}
		y := l.top + gap*(float64(row)+0.5)
		row++
		l.s.lanes = append(l.s.lanes, y)
		l.tag = tagOf(WhatLane).at(sim.NodeID(i))
		l.add(Shape{Op: OpLine, X1: x0, Y1: y, X2: x1, Y2: y, Color: LaneColor, Width: 1.5})
		l.tag = tagOf(WhatName).at(sim.NodeID(i))
		label := laneLabel(name, l.left)
		if (row-1)%every != 0 || label != name {
			l.s.shortened = append(l.s.shortened, sim.NodeID(i)) // its tip says it
		}
		if (row-1)%every == 0 {
			l.text(Shape{X1: l.left - laneNameGap, Y1: y + 4, Color: Ink, Align: AlignRight, Flags: FlagBold, Text: label}, prioFixed, 0)
		}
		if c, skew := l.ix.Clock(sim.NodeID(i), l.k); skew != 0 || c.Drift != 0 {
			// a clock that is off (◷, a clock face every font has, unlike
			// the stopwatch emoji): how far it reads ahead (+) or behind
			// (−) now, and its rate if it drifts, under the name; where
			// lanes are too close for that, a movable text (the process
			// panel says it too)
			prio := prioFixed
			if gap < 2*(textAscent+textDescent) {
				prio = prioCut
			}
			l.text(Shape{X1: l.left - laneNameGap, Y1: y + 17, Color: UserCutColor, Align: AlignRight, Text: fmt.Sprintf("◷%+d", skew)}, prio, 0, point{l.left + 4, y - 4})
			if c.Drift != 0 {
				// its rate, a line lower
				l.text(Shape{X1: l.left - laneNameGap, Y1: y + 30, Color: UserCutColor, Align: AlignRight, Text: "×" + sim.RateText(c.Rate())}, prioCut, 0, point{l.left + 4, y + 9})
			}
		}
	}
	l.tag = tagOf(WhatAxis)
	defer func() { l.tag = Tag{} }()
	// time ticks along the bottom; at most a few dozen, however large the
	// axis values (at 1e308, t += step no longer moves t)
	// at most 8, fewer where their numbers would not fit side by side
	room := (l.opt.Width - l.left - marginRight) / (TextWidth(fmt.Sprintf("%g", l.t1), false) + 14)
	step := niceStep((l.t1 - l.t0) / min(8, max(room, 2)))
	yb := l.opt.Height - l.bottom + 16
	for t, i := math.Ceil(l.t0/step)*step, 0; t <= l.t1 && i < maxTicks; t, i = t+step, i+1 {
		x := l.X(t)
		l.add(Shape{Op: OpLine, X1: x, Y1: l.top - 6, X2: x, Y2: l.opt.Height - l.bottom + 4, Color: Grid, Width: 0.5})
		l.text(Shape{X1: x, Y1: yb, Color: Faint, Align: AlignCenter, Text: fmt.Sprintf("%g", t)}, prioFixed, 0)
	}
	label := "time (ticks)"
	if l.opt.Axis == AxisLamport {
		label = "Lamport time"
	}
	if l.compact() {
		// no room for a line of its own: a word left of the ticks
		label = "time"
		if l.opt.Axis == AxisLamport {
			label = "Lamport"
		}
		// (left out should a long first tick need its room)
		l.text(Shape{X1: l.left - 22, Y1: yb, Color: Faint, Align: AlignRight, Text: label}, prioCut, 0)
		return
	}
	l.text(Shape{X1: l.X(l.t1), Y1: yb + 15, Color: Faint, Align: AlignRight, Text: label + " →"}, prioFixed, 0)
}

// maxTicks bounds the time ticks of the axis.
const maxTicks = 40

// niceStep rounds a raw tick interval to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func (l *layout) nowLine() {
	if !l.visible(l.now, l.now) {
		return
	}
	x := l.X(l.now)
	defer l.tagging(tagOf(WhatNow))()
	l.add(Shape{Op: OpLine, X1: x, Y1: l.top - 12, X2: x, Y2: l.opt.Height - l.bottom + 4, Color: NowColor, Width: 1, Flags: FlagDashed})
	l.text(Shape{X1: x, Y1: l.top - 16, Color: NowColor, Align: AlignCenter, Text: "now"}, prioFixed, 0)
}
