// Package diagram turns a trace prefix into the shapes of a space-time
// diagram: one lane per process, events as dots, messages as arrows, markers,
// tokens, faults and snapshot cuts. It is pure Go (no go-app, no browser), so
// it is tested natively; the page paints its shapes on a canvas and the
// command line writes them as SVG, so both show the same picture.
package diagram

import "spacetime/core/sim"

// Op is a drawing primitive.
type Op uint8

// The primitives. Coordinates are CSS pixels.
const (
	// OpLine is a line from (X1,Y1) to (X2,Y2); FlagArrow adds a head at the end.
	OpLine Op = iota + 1
	// OpCircle is a disc at (X1,Y1) of radius X2.
	OpCircle
	// OpRect is a filled rectangle at (X1,Y1) of size X2 × Y2.
	OpRect
	// OpText is Text drawn at (X1,Y1); Align says which side (X1,Y1) is.
	OpText
	// OpCross is an × centred at (X1,Y1) of half-size X2.
	OpCross
	// OpDiamond is a filled diamond centred at (X1,Y1) of half-size X2.
	OpDiamond
	// OpTriangle is a filled triangle pointing up, centred at (X1,Y1) of
	// half-size X2.
	OpTriangle
)

// Flags modify a shape.
const (
	FlagArrow  = 1 << 0
	FlagDashed = 1 << 1
	FlagBold   = 1 << 2
	// FlagHollow draws a circle filled with paper and stroked, and a
	// rectangle stroked only.
	FlagHollow = 1 << 3
	// FlagOutline strokes a circle without filling it (a ring around an event).
	FlagOutline = 1 << 4
	// FlagSolid fills a rectangle fully (rectangles are translucent bands
	// otherwise), and FlagFaint fills it very lightly (a band across lanes).
	FlagSolid = 1 << 5
	FlagFaint = 1 << 6
)

// Align says where a text's anchor is.
type Align uint8

// Text anchors.
const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Color is an index into Palette.
type Color uint8

// The diagram's colours.
const (
	Ink Color = iota
	Grid
	MessageColor
	MarkerColor
	TokenColor
	ControlColor
	CutColor
	CrashColor
	PauseColor
	HighlightColor
	NowColor
	ChannelColor
	Faint
	PastColor
	FutureColor
	UserCutColor
	GreenColor
	// Paper is the background; it stays last (the painter reads it there).
	Paper
)

// Palette holds the CSS colour of every Color, shared by canvas and SVG.
var Palette = []string{
	Ink:            "#1f2933",
	Grid:           "#d9e2ec",
	MessageColor:   "#2f6fde",
	MarkerColor:    "#d64545",
	TokenColor:     "#c99a06",
	ControlColor:   "#7b8794",
	CutColor:       "#8e44ad",
	CrashColor:     "#c0392b",
	PauseColor:     "#e67e22",
	HighlightColor: "#f7c948",
	NowColor:       "#52606d",
	ChannelColor:   "#0f9d8a",
	Faint:          "#9aa5b1",
	PastColor:      "#1565c0",
	FutureColor:    "#ef6c00",
	UserCutColor:   "#00838f",
	GreenColor:     "#2e7d32",
	Paper:          "#ffffff",
}

// ToneColor is the palette colour an algorithm's tone names.
func ToneColor(t sim.Tone) Color {
	switch t {
	case sim.Blue:
		return MessageColor
	case sim.Red:
		return CrashColor
	case sim.Gold:
		return TokenColor
	case sim.Grey:
		return ControlColor
	case sim.Purple:
		return CutColor
	case sim.Orange:
		return PauseColor
	case sim.Teal:
		return ChannelColor
	case sim.Green:
		return GreenColor
	case sim.Cyan:
		return UserCutColor
	}
	return Ink
}

// Shape is one primitive to draw.
type Shape struct {
	Op             Op
	X1, Y1, X2, Y2 float64
	Color          Color
	Width          float64
	Flags          uint8
	Align          Align
	Text           string
}
