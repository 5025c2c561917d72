package diagram

import (
	"strconv"

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
	// Hidden lists processes whose lanes are left out (a run of many
	// processes, filtered to those the learner watches): the others
	// share the height, and a message to or from a hidden process is not
	// drawn. Nil, or every process hidden, shows them all.
	Hidden []bool
	// Selected is an event (a step) whose causal past and future are
	// ringed, or -1 (or 0 with HasSelected false) for none.
	Selected    int
	HasSelected bool
	// Other is a second event compared with the selected one, ringed too.
	Other    int
	HasOther bool
	// Overlays are the algorithm's overlays at the step on screen
	// (Spec.Picture.Overlays): the lanes draw its lines through the processes'
	// pasts.
	Overlays []sim.Overlay
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

// leftMargin is the plot's left margin for these lane names: marginLeft,
// or wider for a long name (a log's host "client-testGetEveryNSeconds"),
// up to a third of the drawing and maxLeftMargin; a name longer still
// is shortened (laneLabel).
func leftMargin(names []string, width float64) float64 {
	widest := 0.0
	for _, n := range names {
		widest = max(widest, TextWidth(n, true))
	}
	return min(max(marginLeft, widest+laneNameGap+6), max(marginLeft, min(maxLeftMargin, width/3)))
}

// laneLabel is a lane's name as drawn left of it: whole, or shortened in
// its middle with "…" to the room the margin leaves, so that names that
// share a start ("client-testGet…", "client-testPut…") or an end still
// differ; the whole name is the lane's tip and text alternative.
func laneLabel(name string, left float64) string {
	room := left - laneNameGap - 2
	if TextWidth(name, true) <= room {
		return name
	}
	r := []rune(name)
	head, tail := (len(r)+1)/2, len(r)/2
	for head+tail > 1 {
		if head > tail {
			head--
		} else {
			tail--
		}
		if TextWidth(string(r[:head])+"…"+string(r[len(r)-tail:]), true) <= room {
			break
		}
	}
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

const (
	// laneNameGap is the room between a lane's name and the lane.
	laneNameGap = 10
	// maxLeftMargin bounds the left margin, in layout units.
	maxLeftMargin = 220
)

// Margins of the plot area. A short drawing (a run in a compare view's
// grid) has the compact top and bottom margins: its axis keeps its ticks
// and gives its title a short form beside them.
const (
	marginLeft          = 64
	marginRight         = 28
	marginTop           = 30
	marginBottom        = 46
	compactMarginTop    = 27
	compactMarginBottom = 26
	// compactHeight is the height, in layout units, under which a drawing
	// is short.
	compactHeight = 240
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
	Hidden int
	u      float64
	// left is the plot's left margin, in layout units: room for the
	// longest lane name (0: marginLeft).
	left    float64
	lanes   []float64
	laneGap float64
	// shortened lists the lanes whose name is drawn shortened (laneLabel)
	// or not at all (lanes too close to name each).
	shortened []sim.NodeID
	arrows    []arrow
	dots      []dot
	// nodes and edges are a topology view's processes and links.
	nodes [][2]float64
	nodeR float64
	edges []edgeHit
}

// layout holds the coordinate mapping while a scene is built.
type layout struct {
	ix   *Index
	tr   *trace.Trace
	k    int
	spec *sim.Spec
	opt  Options
	xs   []float64 // the axis value of each step of the whole run
	// left is the plot's left margin (leftMargin).
	left   float64
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
	// tag is what the shapes being added stand for (tagging).
	tag Tag
	// timerLabels counts the countdowns written on each lane.
	timerLabels map[sim.NodeID]int
	// top and bottom are the plot's margins: marginTop and marginBottom,
	// or their compact forms in a short drawing.
	top, bottom float64
}

// compact says the drawing is short, with compact margins.
func (l *layout) compact() bool { return l.opt.Height < compactHeight }

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
	l.left = leftMargin(tr.Names, opt.Width)
	l.s.left = l.left
	l.top, l.bottom = marginTop, marginBottom
	if l.compact() {
		l.top, l.bottom = compactMarginTop, compactMarginBottom
	}
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

func (l *layout) visible(a, b float64) bool { return b >= l.t0 && a <= l.t1 }

// add draws a shape, stamped with the layout's current tag unless it has
// its own.
func (l *layout) add(s Shape) {
	if s.Tag.What == WhatNone {
		s.Tag = l.tag
	}
	l.s.Shapes = append(l.s.Shapes, s)
}

// role finds an annotation role of the algorithm on screen.
func (l *layout) role(name string) (sim.RoleSpec, bool) {
	if l.spec == nil {
		return sim.RoleSpec{}, false
	}
	if l.roles == nil {
		l.roles = make(map[string]sim.RoleSpec, len(l.spec.Picture.Roles))
		for _, r := range l.spec.Picture.Roles {
			l.roles[r.Name] = r
		}
	}
	r, ok := l.roles[name]
	return r, ok
}

// shapesOf collects the shapes draw adds, instead of adding them.
func (l *layout) shapesOf(draw func()) []Shape {
	n := len(l.s.Shapes)
	draw()
	out := append([]Shape(nil), l.s.Shapes[n:]...)
	l.s.Shapes = l.s.Shapes[:n]
	return out
}
