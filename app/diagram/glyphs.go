package diagram

// How things look: glyphs, the token's coin, the styles of message kinds
// and the marks of faults and events.

import (
	"math"

	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// peerArrow is a dashed arrow from a point on a lane to another lane.
func (l *layout) peerArrow(x, y float64, peer sim.NodeID, color Color, text string) {
	if !l.s.drawn(peer) {
		return // its lane is hidden
	}
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
		l.s.Shapes = append(l.s.Shapes, l.stamp(l.coin(x, y, color))...)
	case sim.GlyphOpenDiamond, sim.GlyphOpenSquare, sim.GlyphOpenTriangle, sim.GlyphPlus:
		for _, sh := range openGlyph(g, x, y, 7, 2.5, color) {
			l.add(sh)
		}
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
	case sim.GlyphOpenDiamond, sim.GlyphOpenSquare, sim.GlyphOpenTriangle, sim.GlyphPlus:
		return openGlyph(g, x, y, r+1, 1.7, color)
	}
	return nil
}

// openGlyph draws an open glyph of radius r centred on (x, y), its strokes
// w wide: an outline as the filled glyph with paper inside it (the
// painters fill these shapes and stroke only circles and rectangles), the
// plus as two strokes.
func openGlyph(g sim.Glyph, x, y, r, w float64, color Color) []Shape {
	switch g {
	case sim.GlyphOpenDiamond:
		// the paper diamond's edges lie w inside the ink's
		return []Shape{{Op: OpDiamond, X1: x, Y1: y, X2: r + 1, Color: color}, {Op: OpDiamond, X1: x, Y1: y, X2: r + 1 - w*math.Sqrt2, Color: Paper}}
	case sim.GlyphOpenSquare:
		return []Shape{{Op: OpRect, X1: x - r + 0.5, Y1: y - r + 0.5, X2: 2*r - 1, Y2: 2*r - 1, Color: color, Width: w, Flags: FlagHollow}}
	case sim.GlyphOpenTriangle:
		// shrunk about its centroid (0.2 of its radius below its centre),
		// whose inradius is 0.59 of its radius: edges w inside
		outer := r + 1
		inner := max(outer-w/0.59, 0.5)
		return []Shape{{Op: OpTriangle, X1: x, Y1: y, X2: outer, Color: color}, {Op: OpTriangle, X1: x, Y1: y + 0.2*(outer-inner), X2: inner, Color: Paper}}
	case sim.GlyphPlus:
		return []Shape{{Op: OpLine, X1: x - r, Y1: y, X2: x + r, Y2: y, Color: color, Width: w}, {Op: OpLine, X1: x, Y1: y - r, X2: x, Y2: y + r, Color: color, Width: w}}
	}
	return nil
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
	if ks.Dashed {
		flags |= FlagDashed
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

// eventLabel is a short text above an event's dot (a clock's value).
func eventLabel(px, py float64, color Color, text string) Shape {
	return Shape{Op: OpText, X1: px + 4, Y1: py - 8, Color: color, Align: AlignLeft, Flags: FlagBold, Text: text}
}

// faultGlyph is a fault's mark on its process's lane, from the registry.
func (l *layout) faultGlyph(f *faults.Fault, r *trace.Record, px, py float64) []Shape {
	text := ""
	if a, _, ok := r.Args(); ok && f.Mark != nil {
		text = f.Mark(a)
	}
	return l.shapesOf(func() { l.glyph(f.Glyph, px, py, ToneColor(f.Tone), text) })
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
