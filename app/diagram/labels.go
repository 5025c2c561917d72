package diagram

import (
	"cmp"
	"slices"
)

// Labels are placed, not just drawn: every text gets a box, and a text
// whose box would overlap one placed before it, or leave the drawing, is
// moved to its next candidate place or, failing all, left out. Texts are
// placed in order of priority, so that the lesson's point (the messages a
// failing invariant names, the cut, the recovery line) keeps its place and
// repeated message labels give way first.

// Priorities of texts: a higher one is placed first.
const (
	// prioFixed texts (process names, the axis) never move and are never
	// left out.
	prioFixed = 1000
	// prioPoint is the lesson's point: labels of highlighted messages.
	prioPoint = 900
	// prioCut is a cut's or an algorithm line's label, and notes.
	prioCut = 800
	// prioMark is the text of a glyph or a clock value on an event.
	prioMark = 700
	// prioInterval is an annotated interval's label ("in", "leader").
	prioInterval = 600
	// prioTimer is a timer's countdown and a network mark.
	prioTimer = 500
	// prioStamp is an event's timestamp.
	prioStamp = 400
	// prioMessage is a message's label; the newest are placed first.
	prioMessage = 300
	// prioMoreTimers is a lane's second and later countdowns.
	prioMoreTimers = 250
)

// label is a text waiting to be placed.
type label struct {
	sh   Shape
	prio int
	// order breaks ties between equal priorities: higher first (the step
	// of a message's sending, so that the newest keep their labels).
	order float64
	// alts are other anchors to try, in order, before the nudges every
	// movable text gets.
	alts []point
}

// fontSize is the size of the diagram's text in layout units; Options.Text
// scales the whole drawing, text included.
const fontSize = 12

// Text box extents around a baseline, in layout units.
const (
	textAscent  = 10
	textDescent = 3
)

// TextWidth is the width a text takes at the layout's 12 px font. Its
// printable ASCII characters are measured as DejaVu Sans draws them (the
// widest of the common sans-serif fonts browsers pick, and Debian's), with
// 2% to spare; anything else counts a full em (arrows, symbols). Texts
// that do not overlap here do not overlap on screen: a browser test
// measures every lesson's texts in the page's font.
func TextWidth(text string, bold bool) float64 {
	table := &glyphWidths[0]
	if bold {
		table = &glyphWidths[1]
	}
	w := 0.0
	for _, r := range text {
		if r >= ' ' && r <= '~' {
			w += table[r-' ']
		} else {
			w += 1.0
		}
	}
	return w * 1.02 * fontSize
}

// glyphWidths are the advances of the printable ASCII characters, from
// ' ' to '~', in ems, of DejaVu Sans and DejaVu Sans Bold (to a
// hundredth).
var glyphWidths = [2][95]float64{
	{
		0.32, 0.4, 0.46, 0.84, 0.64, 0.95, 0.78, 0.27, 0.39, 0.39, 0.5, 0.84, 0.32, 0.36, 0.32, 0.34,
		0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.34, 0.34, 0.84, 0.84, 0.84, 0.53,
		1, 0.68, 0.69, 0.7, 0.77, 0.63, 0.58, 0.77, 0.75, 0.29, 0.29, 0.66, 0.56, 0.86, 0.75, 0.79,
		0.6, 0.79, 0.69, 0.63, 0.61, 0.73, 0.68, 0.99, 0.69, 0.61, 0.69, 0.39, 0.34, 0.39, 0.84, 0.5,
		0.5, 0.61, 0.63, 0.55, 0.63, 0.62, 0.35, 0.63, 0.63, 0.28, 0.28, 0.58, 0.28, 0.97, 0.63, 0.61,
		0.63, 0.63, 0.41, 0.52, 0.39, 0.63, 0.59, 0.82, 0.59, 0.59, 0.52, 0.64, 0.34, 0.64, 0.84,
	},
	{
		0.35, 0.46, 0.52, 0.84, 0.7, 1, 0.87, 0.31, 0.46, 0.46, 0.52, 0.84, 0.38, 0.42, 0.38, 0.37,
		0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.84, 0.84, 0.84, 0.58,
		1, 0.77, 0.76, 0.73, 0.83, 0.68, 0.68, 0.82, 0.84, 0.37, 0.37, 0.77, 0.64, 1, 0.84, 0.85,
		0.73, 0.85, 0.77, 0.72, 0.68, 0.81, 0.77, 1.1, 0.77, 0.72, 0.73, 0.46, 0.37, 0.46, 0.84, 0.5,
		0.5, 0.67, 0.72, 0.59, 0.72, 0.68, 0.44, 0.72, 0.71, 0.34, 0.34, 0.67, 0.34, 1.04, 0.71, 0.69,
		0.72, 0.72, 0.49, 0.6, 0.48, 0.71, 0.65, 0.92, 0.65, 0.65, 0.58, 0.71, 0.37, 0.71, 0.84,
	},
}

// box is an axis-aligned rectangle: left, top, right, bottom.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// textBox is the box a text shape covers.
func textBox(sh Shape) box { return boxOfWidth(sh, TextWidth(sh.Text, sh.Flags&FlagBold != 0)) }

// boxOfWidth is the box of a text shape whose width is known.
func boxOfWidth(sh Shape, w float64) box {
	x0 := sh.X1
	switch sh.Align {
	case AlignCenter:
		x0 -= w / 2
	case AlignRight:
		x0 -= w
	}
	return box{x0, sh.Y1 - textAscent, x0 + w, sh.Y1 + textDescent}
}

// TextBoxes are the boxes of a scene's texts, in drawing units, in the
// order they are drawn: what the overlap checks measure.
func (s *Scene) TextBoxes() []TextBox {
	var out []TextBox
	u := s.unit()
	for _, sh := range s.Shapes {
		if sh.Op != OpText {
			continue
		}
		logical := sh
		logical.X1, logical.Y1 = sh.X1/u, sh.Y1/u
		b := textBox(logical)
		out = append(out, TextBox{Text: sh.Text, X0: b.x0 * u, Y0: b.y0 * u, X1: b.x1 * u, Y1: b.y1 * u})
	}
	return out
}

// TextBox is where a text of a scene is drawn.
type TextBox struct {
	Text           string
	X0, Y0, X1, Y1 float64
}

// Overlaps says whether two text boxes share more than a sliver (half a
// pixel either way is the slack of rounding).
func (a TextBox) Overlaps(b TextBox) bool {
	const slack = 0.5
	return a.X0+slack < b.X1 && b.X0+slack < a.X1 && a.Y0+slack < b.Y1 && b.Y0+slack < a.Y1
}

// maxLabels bounds the texts a scene places; past it the lowest priorities
// are left out unseen (a picture with more is unreadable anyway).
const maxLabels = 600

// text queues a text for placing.
func (l *layout) text(sh Shape, prio int, order float64, alts ...point) {
	sh.Op = OpText
	if sh.Tag.What == WhatNone {
		sh.Tag = l.tag
	}
	l.labels = append(l.labels, label{sh: sh, prio: prio, order: order, alts: alts})
}

// placeLabels places every queued text and appends those that found room,
// over everything else; it counts the ones left out in the scene. Texts
// keep off each other and off the marks already drawn (events, tokens,
// glyphs), so that no label hides an event.
func (l *layout) placeLabels() {
	ls := l.labels
	slices.SortStableFunc(ls, func(a, b label) int {
		if a.prio != b.prio {
			return cmp.Compare(b.prio, a.prio)
		}
		return cmp.Compare(b.order, a.order)
	})
	frame := box{1, 1, l.opt.Width - 1, l.opt.Height - 1}
	taken := newBoxGrid(l.opt.Width, l.opt.Height)
	for _, b := range l.obstacles {
		taken.add(b)
	}
	// the lines drawn (arrows, lanes, crash lines, boxes' edges), which a
	// text keeps off where it can: a text struck through is hard to read
	// (in a window too dense to draw in detail no place is free of them:
	// texts go where they belong, each on a plate that masks the lines)
	lines := &segGrid{boxGrid: newBoxGrid(l.opt.Width, l.opt.Height)}
	avoid := lines
	if l.dense {
		avoid = &segGrid{boxGrid: newBoxGrid(l.opt.Width, l.opt.Height)}
	}
	for _, sh := range l.s.Shapes {
		if b, ok := markBox(sh); ok && !l.dense {
			taken.add(b)
		}
		lines.addShape(sh)
	}
	// where each message label's text was placed: a repeat close by says
	// nothing new (a run of HEARTBEATs), so it gives way
	said := map[string][]point{}
	// leader lines join texts placed far from their place to it; they go
	// under every text
	var leaders []Shape
	under := len(l.s.Shapes)
	for i := range ls {
		lb := &ls[i]
		if lb.sh.Text == "" {
			continue
		}
		if i >= maxLabels && lb.prio < prioFixed {
			l.s.Hidden++
			continue
		}
		if lb.prio >= prioFixed {
			taken.add(textBox(lb.sh))
			l.s.Shapes = append(l.s.Shapes, plated(lb.sh, lines)...)
			continue
		}
		if lb.prio == prioMessage && repeats(said[lb.sh.Text], lb.sh.X1, lb.sh.Y1) {
			l.s.Hidden++
			continue
		}
		sh, far, ok := fit(lb, frame, taken, avoid)
		if !ok {
			l.s.Hidden++
			continue
		}
		taken.add(textBox(sh))
		l.s.Shapes = append(l.s.Shapes, plated(sh, lines)...)
		if far {
			leaders = append(leaders, leader(lb.sh, sh))
		}
		if lb.prio <= prioMessage {
			said[sh.Text] = append(said[sh.Text], point{sh.X1, sh.Y1})
		}
	}
	l.s.Shapes = slices.Insert(l.s.Shapes, under, leaders...)
	l.labels = l.labels[:0]
}

// plated is a text as drawn: alone where no line passes through it, or
// else on a plate of paper that masks the lines under it, so that no text
// is struck through where the placer found no place free of lines (the
// lines pass under it, as roads under a map's names).
func plated(sh Shape, lines *segGrid) []Shape {
	b := textBox(sh)
	if !lines.strikes(box{b.x0 + 0.5, b.y0 + 0.5, b.x1 - 0.5, b.y1 - 0.5}) {
		return []Shape{sh}
	}
	plate := Shape{Op: OpRect, X1: b.x0 - 1, Y1: b.y0 - 1, X2: b.x1 - b.x0 + 2, Y2: b.y1 - b.y0 + 2, Color: Paper, Flags: FlagSolid | FlagPlate, Tag: sh.Tag}
	return []Shape{plate, sh}
}

// leader is the thin line from where a text was to go (the middle of its
// box there) to the nearest point of the box it was placed in instead.
func leader(want, got Shape) Shape {
	w := TextWidth(want.Text, want.Flags&FlagBold != 0)
	a, b := boxOfWidth(want, w), boxOfWidth(got, w)
	x, y := (a.x0+a.x1)/2, (a.y0+a.y1)/2
	return Shape{Op: OpLine, X1: x, Y1: y, X2: min(max(x, b.x0), b.x1), Y2: min(max(y, b.y0), b.y1), Color: want.Color, Width: 1, Tag: want.Tag}
}

// markBox is the box of a mark a label must not hide: an event's dot, a
// token's coin, a glyph. Lines, bars and bands may be written over.
func markBox(sh Shape) (box, bool) {
	switch sh.Op {
	case OpCircle, OpDiamond, OpTriangle, OpCross:
		r := sh.X2 - 0.5 // a hair's overlap with a dot's rim is no harm
		if r <= 0 {
			return box{}, false
		}
		return box{sh.X1 - r, sh.Y1 - r, sh.X1 + r, sh.Y1 + r}, true
	}
	return box{}, false
}

// boxGrid finds the boxes near a place quickly: a picture may hold
// thousands of marks, and each label tries a dozen places. Cells cover
// the drawing; a box past its edge lands in the edge's cells.
type boxGrid struct {
	cols, rows int
	cells      [][]int32
	boxes      []box
}

// gridCell is the size of a boxGrid's cells, in layout units.
const gridCell = 40

func newBoxGrid(width, height float64) *boxGrid {
	cols := int(min(max(width, 1), 1e5)/gridCell) + 1
	rows := int(min(max(height, 1), 1e5)/gridCell) + 1
	return &boxGrid{cols: cols, rows: rows, cells: make([][]int32, cols*rows)}
}

// cellRange is the cells a box covers, clamped to the grid.
func (g *boxGrid) cellRange(b box) (x0, y0, x1, y1 int) {
	c := func(v float64, n int) int { return min(max(int(max(min(v/gridCell, 1e6), -1)), 0), n-1) }
	return c(b.x0, g.cols), c(b.y0, g.rows), c(b.x1, g.cols), c(b.y1, g.rows)
}

func (g *boxGrid) add(b box) {
	id := int32(len(g.boxes))
	g.boxes = append(g.boxes, b)
	x0, y0, x1, y1 := g.cellRange(b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			g.cells[y*g.cols+x] = append(g.cells[y*g.cols+x], id)
		}
	}
}

// hits says whether b overlaps a box of the grid.
func (g *boxGrid) hits(b box) bool {
	x0, y0, x1, y1 := g.cellRange(b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, id := range g.cells[y*g.cols+x] {
				if b.overlaps(g.boxes[id]) {
					return true
				}
			}
		}
	}
	return false
}

// repeatGap is how near (in layout units) a message label's text may be
// repeated.
const repeatGap = 150

// repeats says a text placed at one of at is within repeatGap of (x, y).
func repeats(at []point, x, y float64) bool {
	for _, p := range at {
		if (p.x-x)*(p.x-x)+(p.y-y)*(p.y-y) < repeatGap*repeatGap {
			return true
		}
	}
	return false
}

// nudges are the moves every movable text may make, in layout units:
// up and down a line, then two, then aside.
var nudges = []point{{0, -14}, {0, 14}, {0, -28}, {0, 28}, {24, 0}, {-24, 0}, {24, -14}, {-24, -14}, {24, 14}, {-24, 14}}

// farNudges are the further moves of a text that must not be left out
// (the lesson's point, a cut's or a line's label), joined to its place
// by a leader line.
// They ring the place, nearer rings first, out to 140 units.
var farNudges = func() []point {
	var out []point
	for r := 42.0; r <= 140; r += 14 {
		for _, d := range []point{{0, -1}, {0, 1}, {1, -0.5}, {-1, -0.5}, {1, 0.5}, {-1, 0.5}, {1.5, 0}, {-1.5, 0}} {
			out = append(out, point{d.x * r, d.y * r})
		}
	}
	return out
}()

// fit finds the first place for a text, among its own anchor, its
// alternatives and the nudges of each, that stays inside the frame and
// overlaps no text placed before it; far says it is one of the far
// nudges, which only the texts of the lesson's point may make. Near
// places that cross no line come first, then near places that do, then
// far ones: a text stays by what it labels, and off the lines by it
// where it can.
func fit(lb *label, frame box, taken *boxGrid, lines *segGrid) (sh Shape, far, ok bool) {
	anchors := append([]point{{lb.sh.X1, lb.sh.Y1}}, lb.alts...)
	w := TextWidth(lb.sh.Text, lb.sh.Flags&FlagBold != 0)
	try := func(x, y float64, clear bool) (Shape, bool) {
		sh := lb.sh
		sh.X1, sh.Y1 = x, y
		b := boxOfWidth(sh, w)
		// inside the frame: shifted in from an edge, never cut by it
		if b.x0 < frame.x0 {
			sh.X1 += frame.x0 - b.x0
		} else if b.x1 > frame.x1 {
			sh.X1 -= b.x1 - frame.x1
		}
		if b.y0 < frame.y0 {
			sh.Y1 += frame.y0 - b.y0
		} else if b.y1 > frame.y1 {
			sh.Y1 -= b.y1 - frame.y1
		}
		b = boxOfWidth(sh, w)
		if b.x0 < frame.x0-0.01 || b.x1 > frame.x1+0.01 {
			return sh, false // wider than the drawing
		}
		return sh, !taken.hits(b) && (!clear || !lines.crosses(b))
	}
	near := func(clear bool) (Shape, bool) {
		for _, a := range anchors {
			if sh, ok := try(a.x, a.y, clear); ok {
				return sh, true
			}
		}
		for _, n := range nudges {
			for _, a := range anchors {
				if sh, ok := try(a.x+n.x, a.y+n.y, clear); ok {
					return sh, true
				}
			}
		}
		return Shape{}, false
	}
	for _, clear := range []bool{true, false} {
		if sh, ok := near(clear); ok {
			return sh, false, true
		}
	}
	if lb.prio < prioCut {
		return Shape{}, false, false
	}
	for _, clear := range []bool{true, false} {
		for _, n := range farNudges {
			for _, a := range anchors {
				if sh, ok := try(a.x+n.x, a.y+n.y, clear); ok {
					return sh, true, true
				}
			}
		}
	}
	return Shape{}, false, false
}

// segGrid finds the lines near a text's box quickly: each line is kept
// by its bounding box, and a box that meets that is tested against the
// line itself.
type segGrid struct {
	*boxGrid
	segs []seg
}

// seg is a line from (x1, y1) to (x2, y2).
type seg struct{ x1, y1, x2, y2 float64 }

// textClearance is how far (in layout units) a text keeps off a line: a
// line that grazes a text's box is as hard to read past as one through it.
const textClearance = 1.5

// addShape keeps the lines a shape draws: a line (but the grid's, which
// texts may sit on), or a stroked rectangle's four edges.
func (g *segGrid) addShape(sh Shape) {
	switch {
	case sh.Op == OpLine && sh.Color != Grid:
		g.add(seg{sh.X1, sh.Y1, sh.X2, sh.Y2})
	case sh.Op == OpRect && sh.Flags&FlagHollow != 0:
		x0, y0, x1, y1 := sh.X1, sh.Y1, sh.X1+sh.X2, sh.Y1+sh.Y2
		g.add(seg{x0, y0, x1, y0})
		g.add(seg{x1, y0, x1, y1})
		g.add(seg{x1, y1, x0, y1})
		g.add(seg{x0, y1, x0, y0})
	}
}

func (g *segGrid) add(s seg) {
	g.segs = append(g.segs, s)
	g.boxGrid.add(box{min(s.x1, s.x2), min(s.y1, s.y2), max(s.x1, s.x2), max(s.y1, s.y2)})
}

// crosses says whether a line passes through b (or within textClearance
// of it).
func (g *segGrid) crosses(b box) bool {
	return g.strikes(box{b.x0 - textClearance, b.y0 - textClearance, b.x1 + textClearance, b.y1 + textClearance})
}

// strikes says whether a line passes through b.
func (g *segGrid) strikes(b box) bool {
	x0, y0, x1, y1 := g.cellRange(b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, id := range g.cells[y*g.cols+x] {
				if bb := g.boxes[id]; (b.overlaps(bb) || bb.x0 == bb.x1 || bb.y0 == bb.y1) && segmentMeets(g.segs[id], b) {
					return true
				}
			}
		}
	}
	return false
}

// Meets says whether the line from (x1, y1) to (x2, y2) passes through
// the text's box.
func (b TextBox) Meets(x1, y1, x2, y2 float64) bool {
	return segmentMeets(seg{x1, y1, x2, y2}, box{b.X0, b.Y0, b.X1, b.Y1})
}

// segmentMeets says whether the segment passes through the box
// (Liang–Barsky clipping).
func segmentMeets(s seg, b box) bool {
	dx, dy := s.x2-s.x1, s.y2-s.y1
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, s.x1 - b.x0}, {dx, b.x1 - s.x1}, {-dy, s.y1 - b.y0}, {dy, b.y1 - s.y1}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// unit is how many CSS pixels a layout unit is.
func (s *Scene) unit() float64 {
	if s.u <= 0 {
		return 1
	}
	return s.u
}

// scale enlarges a scene laid out in layout units by u: positions, sizes
// and strokes alike, and the text with them (the painter reads FontSize).
func (s *Scene) scale(u float64) {
	s.u = u
	s.FontSize = fontSize * u
	if u == 1 {
		return
	}
	s.Width *= u
	s.Height *= u
	for i := range s.Shapes {
		sh := &s.Shapes[i]
		sh.X1 *= u
		sh.Y1 *= u
		switch sh.Op {
		case OpLine, OpRect:
			sh.X2 *= u
			sh.Y2 *= u
		case OpCircle, OpCross, OpDiamond, OpTriangle:
			sh.X2 *= u
		}
		sh.Width *= u
	}
	for i := range s.lanes {
		s.lanes[i] *= u
	}
	s.laneGap *= u
	for i := range s.arrows {
		a := &s.arrows[i]
		a.x1, a.y1, a.x2, a.y2 = a.x1*u, a.y1*u, a.x2*u, a.y2*u
	}
	for i := range s.dots {
		s.dots[i].x *= u
		s.dots[i].y *= u
	}
	for i := range s.nodes {
		s.nodes[i][0] *= u
		s.nodes[i][1] *= u
	}
	for i := range s.edges {
		e := &s.edges[i]
		e.x1, e.y1, e.x2, e.y2 = e.x1*u, e.y1*u, e.x2*u, e.y2*u
	}
}

// TextScale is how much larger than the layout's 12 px a text size draws:
// S 12 px, M 14, L 16, XL 20.
func TextScale(size string) float64 {
	switch size {
	case "S":
		return 1
	case "M":
		return 14.0 / 12
	case "XL":
		return 20.0 / 12
	}
	return 16.0 / 12
}
