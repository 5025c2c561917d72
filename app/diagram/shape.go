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
	// FlagPlate marks a solid rectangle of paper under a text that masks
	// the lines it would be struck through by (labels.go, plated).
	FlagPlate = 1 << 7
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
	// LaneColor is a process's line, and a link of the process graph.
	LaneColor
	// Paper is the background; it stays last (the painter reads it there).
	Paper
)

// Palette holds the CSS colour of every Color in the light theme, shared
// by canvas and SVG. Against Paper, every colour a text is written in
// stands at 4.5:1 or more and every line at 3:1 or more (a test computes
// it), so that the back row of a lecture hall reads them from a projector;
// only Grid (the time axis's background rules) and HighlightColor (a glow
// under what it marks) are lighter.
var Palette = []string{
	Ink:            "#1f2933",
	Grid:           "#d9e2ec",
	MessageColor:   "#2563c9",
	MarkerColor:    "#c23030",
	TokenColor:     "#946c00",
	ControlColor:   "#5c6875",
	CutColor:       "#8e44ad",
	CrashColor:     "#c0392b",
	PauseColor:     "#b35600",
	HighlightColor: "#f7c948",
	NowColor:       "#52606d",
	ChannelColor:   "#0b7565",
	Faint:          "#616e7c",
	PastColor:      "#1565c0",
	FutureColor:    "#b84f00",
	UserCutColor:   "#00717c",
	GreenColor:     "#2e7d32",
	LaneColor:      "#7d8a98",
	Paper:          "#ffffff",
}

// DarkPalette is the dark theme's, held to the same contrasts against
// its own Paper.
var DarkPalette = []string{
	Ink:            "#e4e7eb",
	Grid:           "#2b333d",
	MessageColor:   "#6ea2ff",
	MarkerColor:    "#ff7b7b",
	TokenColor:     "#e3b93a",
	ControlColor:   "#a7b1bd",
	CutColor:       "#cf9cf0",
	CrashColor:     "#ff7464",
	PauseColor:     "#ffa557",
	HighlightColor: "#7a6418",
	NowColor:       "#b6c0cb",
	ChannelColor:   "#45c9b4",
	Faint:          "#9aa5b1",
	PastColor:      "#74b2ff",
	FutureColor:    "#ffab66",
	UserCutColor:   "#4fd0dc",
	GreenColor:     "#6ccf74",
	LaneColor:      "#74808e",
	Paper:          "#121619",
}

// ColourBlindPalette is the light theme with its tones chosen to stay
// apart for readers with protanopia, deuteranopia or tritanopia, at the
// same contrasts against its paper: a test simulates each (Machado et
// al.'s matrices) and holds every two tones at least 14 apart (CIE ΔE),
// where the light theme's come within 2. Seen that way red, orange, gold
// and green differ mostly in lightness, so its orange is a brown.
var ColourBlindPalette = []string{
	Ink:            "#1f2933",
	Grid:           "#d9e2ec",
	MessageColor:   "#376fcd",
	MarkerColor:    "#d92f41",
	TokenColor:     "#9e6809",
	ControlColor:   "#4f4949",
	CutColor:       "#7b0b97",
	CrashColor:     "#d92f41",
	PauseColor:     "#763204",
	HighlightColor: "#f7c948",
	NowColor:       "#52606d",
	ChannelColor:   "#0c826c",
	Faint:          "#616e7c",
	PastColor:      "#376fcd",
	FutureColor:    "#763204",
	UserCutColor:   "#014c5e",
	GreenColor:     "#4a7637",
	LaneColor:      "#7d8a98",
	Paper:          "#ffffff",
}

// Themes are the palettes by name: "light" (the default), "dark" and
// "colour-blind".
var Themes = map[string][]string{"light": Palette, "dark": DarkPalette, "colour-blind": ColourBlindPalette}

// PaletteOf is a theme's palette; an unknown name is the light theme.
func PaletteOf(theme string) []string {
	if p, ok := Themes[theme]; ok {
		return p
	}
	return Palette
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
	// Tag says what the shape stands for (see What).
	Tag Tag
}
