package diagram

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Axis is what the horizontal axis measures.
type Axis string

// The axes.
const (
	AxisTime    Axis = "time"
	AxisLamport Axis = "lamport"
)

// Options shape a diagram.
type Options struct {
	// Width and Height are the drawing's size in CSS pixels.
	Width, Height float64
	Axis          Axis
	// Span is how many ticks are visible (the zoom); a run shorter than
	// that is fitted whole. 0 means DefaultSpan.
	Span float64
	// Pinned fixes the window at Start (the learner panned or zoomed at a
	// point); otherwise the window follows the present.
	Pinned bool
	Start  float64
	// Highlight lists messages to point at (an invariant's culprits).
	Highlight []int
	// Cut is the learner's own cut: a point of the axis per process (NaN
	// where not placed yet), drawn as a line through them.
	Cut []float64
	// Selected is an event (a step) whose causal past and future are
	// ringed, or -1 (or 0 with HasSelected false) for none.
	Selected    int
	HasSelected bool
	// Other is a second event compared with the selected one, ringed too.
	Other    int
	HasOther bool
	// Lines are the algorithm's lines through the processes' pasts at
	// the step on screen (Spec.Lines).
	Lines []sim.Line
	// Stamps writes every event's Lamport timestamp or vector clock (the
	// engine's, kept for every algorithm) under its dot.
	Stamps Stamps
	// Marks name events the lesson talks about, written beside their dots.
	Marks []Mark
	// Frame is an interval of the axis that holds the lesson's point
	// ([from, to], to > from): unpinned, the window frames it while the
	// present and the selection are inside it.
	Frame [2]float64
	// Scale is how many CSS pixels a layout unit is: the text size (1
	// draws 12 px text, TextScale("L") 16 px), with lines and marks in
	// step. 0 means 1.
	Scale float64
}

// Mark names an event (by its step, counted from 0) on the diagram.
type Mark struct {
	Step int
	Name string
}

// Stamps says which clock's value is written under every event.
type Stamps string

// The stamps.
const (
	StampsNone    Stamps = ""
	StampsLamport Stamps = "lamport"
	StampsVector  Stamps = "vector"
)

// Stamp is a record's stamp as the diagram writes it: "7", or "[2,0,1]".
func Stamp(r *trace.Record, which Stamps) string {
	switch which {
	case StampsLamport:
		return strconv.FormatInt(int64(r.Lamport), 10)
	case StampsVector:
		return r.Vector.String()
	}
	return ""
}

// HeightFor is the height a diagram of n processes is drawn at, on the page
// and in exports alike.
func HeightFor(n int) float64 { return min(max(80+90*float64(n), 240), 680) }

// DefaultSpan is the time window shown when a run is too long to fit.
const DefaultSpan = 160

// Margins of the plot area.
const (
	marginLeft   = 64
	marginRight  = 28
	marginTop    = 30
	marginBottom = 46
)

// arrow is a drawn message, kept for hit-testing.
type arrow struct {
	msg            int
	x1, y1, x2, y2 float64
	inFlight       bool
}

// dot is a drawn event, kept for hit-testing.
type dot struct {
	step int
	x, y float64
}

// Scene is a laid-out diagram: the shapes to draw and what they stand for.
type Scene struct {
	Width, Height float64
	Shapes        []Shape
	// T0 and T1 bound the visible window of the axis.
	T0, T1 float64
	// Older says messages sent before the window and on their way into it
	// were left out past the newest maxEarlier of them (a note says so).
	Older bool
	// FontSize is the text's size in CSS pixels.
	FontSize float64
	// Hidden counts the texts left out for want of room.
	Hidden  int
	u       float64
	lanes   []float64
	laneGap float64
	arrows  []arrow
	dots    []dot
	// nodes and edges are a topology view's processes and links.
	nodes [][2]float64
	nodeR float64
	edges []edgeHit
}

// layout holds the coordinate mapping while a scene is built.
type layout struct {
	ix     *Index
	tr     *trace.Trace
	k      int
	spec   *sim.Spec
	opt    Options
	xs     []float64 // the axis value of each step of the whole run
	t0, t1 float64
	now    float64
	// s0 is the first step inside the window.
	s0 int
	// dense says the window holds too many messages to draw in detail.
	dense bool
	s     *Scene
	roles map[string]sim.RoleSpec
	// labels are the texts waiting to be placed (placeLabels), and
	// obstacles what they must keep off besides each other.
	labels    []label
	obstacles []box
	// timerLabels counts the countdowns written on each lane.
	timerLabels map[sim.NodeID]int
}

// Layout lays out the first k steps of a run. The scale is fitted to the
// whole run (so stepping fills the picture in without rescaling), or, for a
// long run, to a window that follows step k. It indexes the trace first; to
// lay out many steps of one run, index it once and call Index.Layout.
func Layout(tr *trace.Trace, k int, spec *sim.Spec, opt Options) *Scene {
	return NewIndex(tr, opt.Axis, spec).Layout(k, spec, opt)
}

// Layout lays out the first k steps of the indexed run (opt.Axis is the
// index's). Only what falls inside the visible window is visited.
func (ix *Index) Layout(k int, spec *sim.Spec, opt Options) *Scene {
	tr := ix.tr
	k = min(max(k, 0), tr.Len())
	if opt.Span <= 0 {
		opt.Span = DefaultSpan
	}
	opt.Axis = ix.axis
	u := opt.Scale
	if u <= 0 {
		u = 1
	}
	opt.Width, opt.Height = opt.Width/u, opt.Height/u
	l := &layout{ix: ix, tr: tr, k: k, spec: spec, opt: opt, xs: ix.xs, s: &Scene{Width: opt.Width, Height: opt.Height}}
	l.axis()
	l.lanes()
	l.spans()
	l.cuts()
	l.lines()
	l.userCut()
	l.messages()
	l.events()
	l.nowLine()
	l.placeLabels()
	l.s.scale(u)
	return l.s
}

// axis chooses the visible window of the axis. Unless the learner pinned
// it, the window frames the action: from the start to a little past the
// present (and the selected event), growing in round steps as the run
// goes on, so that the first events of a long run do not sit in a corner
// of an axis drawn for all of it; once that would pass the zoom's span,
// the window follows the present.
func (l *layout) axis() {
	end := l.ix.end
	l.now = l.ix.upTo[l.k] + 0.5
	reach := l.now
	if l.opt.HasSelected && l.opt.Selected >= 0 && l.opt.Selected < l.k {
		reach = max(reach, l.xs[l.opt.Selected])
	}
	lesson := l.opt.Frame
	switch frame := FrameEnd(reach, end); {
	case l.opt.Pinned:
		l.t0, l.t1 = l.opt.Start, l.opt.Start+l.opt.Span
	case lesson[1] > lesson[0] && reach <= lesson[1]:
		l.t0, l.t1 = lesson[0], lesson[1]
	case frame <= l.opt.Span:
		l.t0, l.t1 = 0, frame
	default:
		pad := l.opt.Span * 0.05
		l.t1 = max(l.now+pad, l.opt.Span)
		l.t0 = l.t1 - l.opt.Span
	}
	l.s0 = l.ix.firstStepAt(l.t0)
	l.s.T0, l.s.T1 = l.t0, l.t1
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
	return s.T0 + (x-marginLeft*s.unit())*(s.T1-s.T0)/s.PlotWidth()
}

// XOf maps a point of the axis to a pixel column of the scene.
func (s *Scene) XOf(t float64) float64 {
	return marginLeft*s.unit() + (t-s.T0)*s.PlotWidth()/(s.T1-s.T0)
}

// PlotWidth is the width of the plot area in pixels.
func (s *Scene) PlotWidth() float64 { return s.Width - (marginLeft+marginRight)*s.unit() }

// X maps an axis value to a pixel column.
func (l *layout) X(t float64) float64 {
	w := l.opt.Width - marginLeft - marginRight
	return marginLeft + (t-l.t0)*w/(l.t1-l.t0)
}

func (l *layout) visible(a, b float64) bool { return b >= l.t0 && a <= l.t1 }

func (l *layout) add(s Shape) { l.s.Shapes = append(l.s.Shapes, s) }

func (l *layout) lanes() {
	n := len(l.tr.Names)
	gap := (l.opt.Height - marginTop - marginBottom) / float64(max(n, 1))
	l.s.laneGap = gap
	x0, x1 := l.X(l.t0), l.X(l.t1)
	for i, name := range l.tr.Names {
		y := marginTop + gap*(float64(i)+0.5)
		l.s.lanes = append(l.s.lanes, y)
		l.add(Shape{Op: OpLine, X1: x0, Y1: y, X2: x1, Y2: y, Color: LaneColor, Width: 1.5})
		l.text(Shape{X1: marginLeft - 10, Y1: y + 4, Color: Ink, Align: AlignRight, Flags: FlagBold, Text: name}, prioFixed, 0)
		if skew := l.ix.Skew(sim.NodeID(i), l.k); skew != 0 {
			// a skewed clock: how far it runs ahead (+) or behind (−)
			l.text(Shape{X1: marginLeft - 10, Y1: y + 17, Color: UserCutColor, Align: AlignRight, Text: fmt.Sprintf("⏱%+d", skew)}, prioFixed, 0)
		}
	}
	// time ticks along the bottom; at most a few dozen, however large the
	// axis values (at 1e308, t += step no longer moves t)
	step := niceStep((l.t1 - l.t0) / 8)
	yb := l.opt.Height - marginBottom + 16
	for t, i := math.Ceil(l.t0/step)*step, 0; t <= l.t1 && i < maxTicks; t, i = t+step, i+1 {
		x := l.X(t)
		l.add(Shape{Op: OpLine, X1: x, Y1: marginTop - 6, X2: x, Y2: l.opt.Height - marginBottom + 4, Color: Grid, Width: 0.5})
		l.text(Shape{X1: x, Y1: yb, Color: Faint, Align: AlignCenter, Text: fmt.Sprintf("%g", t)}, prioFixed, 0)
	}
	label := "time (ticks)"
	if l.opt.Axis == AxisLamport {
		label = "Lamport time"
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
		if sp.from >= l.k {
			continue
		}
		from := 0.0
		if sp.from >= 0 {
			from = l.xs[sp.from]
		}
		until, open := l.now, true
		if sp.to >= 0 && sp.to < l.k {
			until, open = l.xs[sp.to], false
		}
		switch sp.kind {
		case spanDown, spanPaused:
			l.health(sp, from, until)
		case spanLink:
			l.cutLink(sp, from)
		case spanTimer:
			l.timer(sp, from, until, open)
		case spanRole:
			if rs, ok := l.role(sp.role); ok && rs.Style == sim.StyleToken {
				tokens = append(tokens, l.shapesOf(func() { l.heldToken(sp, from, until, ToneColor(rs.Tone)) })...)
				continue
			}
			l.interval(sp, from, until)
		}
	}
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
		l.add(Shape{Op: OpRect, X1: x1, Y1: marginTop - 4, X2: max(x2-x1, 1), Y2: l.opt.Height - marginTop - marginBottom + 8, Color: color, Flags: FlagFaint})
		if sp.text != "" && l.visible(from, from) {
			l.text(Shape{X1: x1 + 3, Y1: l.opt.Height - marginBottom - 2, Color: color, Align: AlignLeft, Flags: FlagBold, Text: sp.text}, prioInterval, from)
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

// peerArrow is a dashed arrow from a point on a lane to another lane.
func (l *layout) peerArrow(x, y float64, peer sim.NodeID, color Color, text string) {
	py := l.s.lanes[peer]
	dy := 8.0
	if py < y {
		dy = -8
	}
	l.add(Shape{Op: OpLine, X1: x, Y1: y + dy, X2: x + 14, Y2: py - dy, Color: color, Width: 1.5, Flags: FlagDashed | FlagArrow})
	if text != "" {
		l.text(Shape{X1: x + 12, Y1: y + (py-y)*0.5, Color: color, Align: AlignLeft, Text: text}, prioMark, x)
	}
}

// glyph draws a glyph centred on (x, y), and its text beside it.
func (l *layout) glyph(g sim.Glyph, x, y float64, color Color, text string) {
	switch g {
	case sim.GlyphDiamond:
		l.add(Shape{Op: OpDiamond, X1: x, Y1: y, X2: 7, Color: color})
	case sim.GlyphSquare:
		l.add(Shape{Op: OpRect, X1: x - 5, Y1: y - 5, X2: 10, Y2: 10, Color: color, Flags: FlagSolid})
	case sim.GlyphTriangle:
		l.add(Shape{Op: OpTriangle, X1: x, Y1: y, X2: 7, Color: color})
	case sim.GlyphCross:
		l.add(Shape{Op: OpCross, X1: x, Y1: y, X2: 7, Color: color, Width: 3})
	case sim.GlyphRing:
		l.add(Shape{Op: OpCircle, X1: x, Y1: y, X2: 6, Color: color, Width: 2, Flags: FlagOutline})
	case sim.GlyphBar:
		l.add(Shape{Op: OpRect, X1: x - 2, Y1: y - 8, X2: 4, Y2: 16, Color: color})
	case sim.GlyphToken:
		l.s.Shapes = append(l.s.Shapes, l.coin(x, y, color)...)
	default:
		l.add(Shape{Op: OpCircle, X1: x, Y1: y, X2: 5, Color: color})
	}
	if text != "" {
		l.text(Shape{X1: x + 9, Y1: y - 9, Color: color, Align: AlignLeft, Flags: FlagBold, Text: text}, prioMark, x, point{x + 9, y + 20})
	}
}

// coin is the token's glyph: a gold disc ringed in ink with a paper
// centre, so that it reads as a token on a lane and on an arrow alike.
func (l *layout) coin(x, y float64, color Color) []Shape {
	return []Shape{
		{Op: OpCircle, X1: x, Y1: y, X2: 7, Color: color},
		{Op: OpCircle, X1: x, Y1: y, X2: 7, Color: Ink, Width: 1, Flags: FlagOutline},
		{Op: OpCircle, X1: x, Y1: y, X2: 2.5, Color: Paper},
	}
}

// kindMark is a message kind's glyph on its arrow, small, at (x, y).
func kindMark(g sim.Glyph, x, y float64, color Color) []Shape {
	const r = 4
	switch g {
	case sim.GlyphDiamond:
		return []Shape{{Op: OpDiamond, X1: x, Y1: y, X2: r + 1, Color: color}}
	case sim.GlyphSquare:
		return []Shape{{Op: OpRect, X1: x - r + 0.5, Y1: y - r + 0.5, X2: 2*r - 1, Y2: 2*r - 1, Color: color, Flags: FlagSolid}}
	case sim.GlyphTriangle:
		return []Shape{{Op: OpTriangle, X1: x, Y1: y, X2: r + 1, Color: color}}
	case sim.GlyphCross:
		return []Shape{{Op: OpCross, X1: x, Y1: y, X2: r, Color: color, Width: 2}}
	case sim.GlyphRing:
		return []Shape{{Op: OpCircle, X1: x, Y1: y, X2: r, Color: color, Width: 1.5, Flags: FlagHollow}}
	case sim.GlyphBar:
		return []Shape{{Op: OpRect, X1: x - 1.5, Y1: y - r - 1, X2: 3, Y2: 2*r + 2, Color: color, Flags: FlagSolid}}
	case sim.GlyphDot:
		return []Shape{{Op: OpCircle, X1: x, Y1: y, X2: r, Color: color}}
	}
	return nil
}

// role finds an annotation role of the algorithm on screen.
func (l *layout) role(name string) (sim.RoleSpec, bool) {
	if l.spec == nil {
		return sim.RoleSpec{}, false
	}
	if l.roles == nil {
		l.roles = make(map[string]sim.RoleSpec, len(l.spec.Roles))
		for _, r := range l.spec.Roles {
			l.roles[r.Name] = r
		}
	}
	r, ok := l.roles[name]
	return r, ok
}

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
	for _, s := range stepsBefore(l.ix.noted, l.k) {
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
			if rs.Style != sim.StyleCut || r.Node < 0 {
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
			label += " · " + l.noteWords(g.role) + ": " + strings.Join(ns, ", ")
		}
		l.staircase(pts, ToneColor(rs.Tone), flags, label)
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
// recovery line), each point where its process made the annotation that
// names it; a point not reached yet is left out.
func (l *layout) lines() {
	for _, line := range l.opt.Lines {
		var pts []point
		for _, p := range line.Points {
			s := l.ix.pointStep(p)
			if s < 0 || s >= l.k || int(p.Node) >= len(l.s.lanes) || p.Node < 0 {
				continue
			}
			pts = append(pts, point{l.X(l.xs[s]), l.s.lanes[p.Node]})
		}
		flags := uint8(0)
		if line.Dashed {
			flags = FlagDashed
		}
		l.staircase(pts, ToneColor(line.Tone), flags, line.Label)
		l.undone(line)
	}
}

// undone draws, on each lane, the stretch from the process's point on the
// line to the step that undid it, as a faint band: the work lost.
func (l *layout) undone(line sim.Line) {
	from := map[sim.NodeID]int{}
	for _, p := range line.Points {
		from[p.Node] = l.ix.pointStep(p)
	}
	for _, u := range line.Undone {
		s0, ok := from[u.Node]
		s1 := l.ix.pointStep(u)
		if !ok || s0 < 0 || s1 <= s0 || s1 >= l.k || int(u.Node) >= len(l.s.lanes) || u.Node < 0 {
			continue
		}
		x0, x1 := l.clampX(l.xs[s0], l.xs[s1])
		if x1 <= x0 {
			continue
		}
		y := l.s.lanes[u.Node]
		l.add(Shape{Op: OpRect, X1: x0, Y1: y - 9, X2: x1 - x0, Y2: 18, Color: ToneColor(line.Tone), Flags: FlagFaint})
	}
}

// noteWords is how a cut's label introduces what its halo roles recorded:
// their legend.
func (l *layout) noteWords(cut string) string {
	for _, r := range l.spec.Roles {
		if r.Of == cut && r.Style == sim.StyleHalo {
			return r.Legend
		}
	}
	return "recorded"
}

// userCut draws the learner's cut: a mark on each process line at its
// point, joined from line to line.
func (l *layout) userCut() {
	var prev *[2]float64
	for i, t := range l.opt.Cut {
		if math.IsNaN(t) || i >= len(l.s.lanes) {
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

// glyphOf is the glyph a message kind's arrows carry.
func (l *layout) glyphOf(kind string) sim.Glyph {
	if l.spec != nil {
		if ks, ok := l.spec.Kind(kind); ok {
			return ks.Glyph
		}
	}
	return sim.GlyphNone
}

// style is how a message kind is drawn.
func (l *layout) style(kind string) (Color, float64, uint8) {
	if l.spec != nil {
		if ks, ok := l.spec.Kind(kind); ok {
			return KindStyle(ks)
		}
	}
	return RoleStyle(sim.RoleMessage)
}

// KindStyle is how messages of a kind are drawn: its role's style, in its
// own tone if it has one.
func KindStyle(ks sim.KindSpec) (Color, float64, uint8) {
	color, width, flags := RoleStyle(ks.Role)
	if ks.Tone != "" {
		color = ToneColor(ks.Tone)
	}
	return color, width, flags
}

// RoleStyle is how messages of a role are drawn: colour, width, flags.
func RoleStyle(role sim.Role) (Color, float64, uint8) {
	switch role {
	case sim.RoleMarker:
		return MarkerColor, 1.6, FlagDashed
	case sim.RoleToken:
		return TokenColor, 3, 0
	case sim.RoleControl:
		return ControlColor, 1.2, 0
	}
	return MessageColor, 1.4, 0
}

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
		l.text(Shape{X1: marginLeft + 4, Y1: marginTop - 16, Color: NowColor, Align: AlignLeft,
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
		if highlight[m.ID] {
			halos = append(halos, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: HighlightColor, Width: width + 7})
		}
		if h, ok := l.ix.halo[m.ID]; ok && h.step < l.k {
			if rs, ok := l.role(h.role); ok && rs.Style == sim.StyleHalo {
				halos = append(halos, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: ToneColor(rs.Tone), Width: width + 4})
			}
		}
		if !lost {
			flags |= FlagArrow
		}
		if m.Duplicate() {
			flags |= FlagDashed // the network's copy
		}
		lines = append(lines, Shape{Op: OpLine, X1: a.x1, Y1: a.y1, X2: a.x2, Y2: a.y2, Color: color, Width: width, Flags: flags})
		if lost {
			crosses = append(crosses, Shape{Op: OpCross, X1: a.x2, Y1: a.y2, X2: 5, Color: CrashColor, Width: 2})
		}
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
		if m.Label != "" {
			// other places along the arrow, should that one be taken
			var alts []point
			for _, f := range []float64{0.35, 0.75, 0.2, 0.88} {
				alts = append(alts, point{a.x1 + (a.x2-a.x1)*f + labelAt - mx, a.y1 + (a.y2-a.y1)*f - 3})
			}
			prio := prioMessage
			if highlight[m.ID] {
				prio = prioPoint
			}
			labels = append(labels, label{sh: Shape{Op: OpText, X1: labelAt, Y1: my - 3, Color: color, Align: AlignLeft, Text: m.Label}, prio: prio, order: float64(m.SendStep), alts: alts})
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
	sort.SliceStable(lines, func(i, j int) bool { return styleKey(lines[i]) < styleKey(lines[j]) })
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
			l.networkMark(r, l.X(x))
			continue
		}
		px, py := l.X(x), l.s.lanes[r.Node]
		switch r.Kind {
		case trace.Fault:
			if f, ok := faults.Lookup(r.Tag()); ok {
				if f.Takes("msg") { // drawn on the message, not on a lane
					l.messageFault(f, r, px)
					continue
				}
				l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
				marks = append(marks, l.faultGlyph(f, r, px, py)...)
			}
			continue
		case trace.Wake:
			l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
			l.add(Shape{Op: OpRect, X1: px - 2, Y1: py - 8, X2: 4, Y2: 16, Color: PauseColor})
			continue
		case trace.Skip:
			l.s.dots = append(l.s.dots, dot{step: s, x: px, y: py})
			l.add(Shape{Op: OpCircle, X1: px, Y1: py, X2: 4, Color: Faint, Width: 1, Flags: FlagOutline | FlagDashed})
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
			marks = append(marks, ring)
		}
		for _, m := range l.opt.Marks {
			if m.Step == s {
				// the lesson's name for the event, up and to the left of it
				l.text(Shape{X1: px - 7, Y1: py - 9, Color: Ink, Align: AlignRight, Flags: FlagBold, Text: m.Name}, prioPoint, float64(s),
					point{px - 7, py + 21}, point{px + 8, py - 9})
			}
		}
		if l.opt.HasOther && s == l.opt.Other {
			marks = append(marks, Shape{Op: OpCircle, X1: px, Y1: py, X2: 9, Color: Ink, Width: 2.5, Flags: FlagOutline | FlagDashed})
		}
		if l.opt.Stamps != StampsNone && !l.dense {
			l.text(Shape{X1: px, Y1: py + 16, Color: ink, Align: AlignCenter, Text: Stamp(r, l.opt.Stamps)}, prioStamp, float64(s))
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
	}
}

// eventLabel is a short text above an event's dot (a clock's value).
func eventLabel(px, py float64, color Color, text string) Shape {
	return Shape{Op: OpText, X1: px + 4, Y1: py - 8, Color: color, Align: AlignLeft, Flags: FlagBold, Text: text}
}

// shapesOf collects the shapes draw adds, instead of adding them.
func (l *layout) shapesOf(draw func()) []Shape {
	n := len(l.s.Shapes)
	draw()
	out := append([]Shape(nil), l.s.Shapes[n:]...)
	l.s.Shapes = l.s.Shapes[:n]
	return out
}

// faultGlyph is a fault's mark on its process's lane, from the registry.
func (l *layout) faultGlyph(f *faults.Fault, r *trace.Record, px, py float64) []Shape {
	text := ""
	if a, _, ok := r.Args(); ok && f.Takes("by") {
		text = fmt.Sprintf("%+d", a.By) // a link's faults are drawn between its lanes
	}
	return l.shapesOf(func() { l.glyph(f.Glyph, px, py, ToneColor(f.Tone), text) })
}

// messageFault marks a fault of one message on its arrow: a delay where it
// was delayed, a duplicate where it was copied (a loss is the arrow's cross).
func (l *layout) messageFault(f *faults.Fault, r *trace.Record, px float64) {
	if f.Name == "drop" || r.Msg < 0 {
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

// networkMark marks a fault of the whole network (a partition, every link
// healed, FIFO switched) at the top of the diagram.
func (l *layout) networkMark(r *trace.Record, px float64) {
	text := r.What()
	color := ControlColor
	if f, ok := faults.Lookup(r.Tag()); ok {
		color = ToneColor(f.Tone)
		if a, _, ok := r.Args(); ok && f.Name == "fifo" {
			text = "FIFO off"
			if a.On {
				text = "FIFO on"
			}
		}
	}
	y := float64(marginTop - 4)
	l.add(Shape{Op: OpTriangle, X1: px, Y1: y, X2: 5, Color: color})
	l.add(Shape{Op: OpLine, X1: px, Y1: y, X2: px, Y2: l.opt.Height - marginBottom + 4, Color: color, Width: 1, Flags: FlagDashed})
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

// causalRing rings an event in the selected event's causal past (blue) or
// future (orange), and the selected event itself.
func causalRing(rel clock.Order, px, py float64) (Shape, bool) {
	switch rel {
	case clock.Equal:
		return Shape{Op: OpCircle, X1: px, Y1: py, X2: 9, Color: Ink, Width: 2.5, Flags: FlagOutline}, true
	case clock.Before:
		return Shape{Op: OpCircle, X1: px, Y1: py, X2: 6.5, Color: PastColor, Width: 2, Flags: FlagOutline}, true
	case clock.After:
		return Shape{Op: OpCircle, X1: px, Y1: py, X2: 6.5, Color: FutureColor, Width: 2, Flags: FlagOutline}, true
	}
	return Shape{}, false
}

func (l *layout) nowLine() {
	if !l.visible(l.now, l.now) {
		return
	}
	x := l.X(l.now)
	l.add(Shape{Op: OpLine, X1: x, Y1: marginTop - 12, X2: x, Y2: l.opt.Height - marginBottom + 4, Color: NowColor, Width: 1, Flags: FlagDashed})
	l.text(Shape{X1: x, Y1: marginTop - 16, Color: NowColor, Align: AlignCenter, Text: "now"}, prioFixed, 0)
}
