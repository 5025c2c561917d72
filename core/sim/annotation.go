package sim

import "fmt"

// Phase says whether an annotation marks a point of a process's history or
// opens or closes an interval of it.
type Phase uint8

// The phases of an annotation.
const (
	// Point marks the step itself (a recorded state, a rejected write).
	Point Phase = iota
	// Begin opens an interval on the stepping process (a critical section,
	// a lease it believes it holds); the interval is known by its role and
	// group, so several may be open on one process at once.
	Begin
	// End closes the interval of the same role and group.
	End
)

var phaseNames = [...]string{"point", "begin", "end"}

// String names the phase.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, n := range phaseNames {
		if n == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("unknown annotation phase %q", b)
}

// Annotation is what an algorithm says about a step beyond its caption, for
// the diagram, the legend and the checkers: a role the algorithm names
// ("critical-section", "recorded", "leader"), a group that ties annotations
// together (a snapshot's number, a lease's epoch), an optional peer process
// or message, a text, and a phase. The algorithm's Spec says how each role
// is drawn (RoleSpec); the diagram knows no role by name.
type Annotation struct {
	Role  string `json:"role"`
	Phase Phase  `json:"phase,omitempty"`
	Group int    `json:"group,omitempty"`
	// Peer is another process the annotation points at (a wait-for edge,
	// a parent in a tree), or None.
	Peer NodeID `json:"peer"`
	// Msg is the message the annotation is about (one recorded as channel
	// state, a rejected write), or None.
	Msg  int    `json:"msg"`
	Text string `json:"text,omitempty"`
}

// At is an annotation of the step itself.
func At(role string, group int, text string) Annotation {
	return Annotation{Role: role, Phase: Point, Group: group, Peer: None, Msg: None, Text: text}
}

// Opens is an annotation that opens an interval of role and group.
func Opens(role string, group int, text string) Annotation {
	return Annotation{Role: role, Phase: Begin, Group: group, Peer: None, Msg: None, Text: text}
}

// Closes is an annotation that closes the open interval of role and group.
func Closes(role string, group int) Annotation {
	return Annotation{Role: role, Phase: End, Group: group, Peer: None, Msg: None}
}

// To points the annotation at another process.
func (a Annotation) To(peer NodeID) Annotation { a.Peer = peer; return a }

// About ties the annotation to a message (a delivered one's Event.MsgID).
func (a Annotation) About(msg int) Annotation { a.Msg = msg; return a }

// Style is how the diagram draws the annotations of a role.
type Style uint8

// The styles.
const (
	// StyleHidden is for the checkers only: not drawn, not in the legend.
	StyleHidden Style = iota
	// StyleGlyph draws a glyph on the event, with the annotation's text.
	StyleGlyph
	// StyleBar draws an interval as a thick bar on the process's line.
	StyleBar
	// StyleOutline draws an interval as a hollow bar on the line: a state
	// that is weaker than a bar's (waiting for a lock, a lease only believed).
	StyleOutline
	// StyleBand draws an interval as a band across every process line
	// (the whole system is terminated, a recovery line holds).
	StyleBand
	// StyleArrow draws an arrow from the event to its peer's line; an
	// interval keeps a line to the peer while it is open (waits for, parent).
	StyleArrow
	// StyleHalo haloes the message the annotation is about.
	StyleHalo
	// StyleCut draws each process's point of one group with a glyph and
	// joins them into a cut line (a snapshot's recording points).
	StyleCut
	// StyleToken draws an interval as a token held on the process's line:
	// a gold strip with a coin where the token was taken, and a coin at
	// the present while it is still held.
	StyleToken
	// StyleLabel writes the annotation's text beside the event, with no
	// glyph (a clock's value after the event).
	StyleLabel

	// The overlays' styles (see Overlay).

	// StyleState writes an overlay's text, a process's state, under its
	// circle in the process graph and in its tooltip.
	StyleState
	// StyleWait draws an arrow beside the link from the overlay's Node to
	// its Peer in the process graph: Node waits for Peer.
	StyleWait
	// StyleHeld draws the link from Node to Peer in the process graph as
	// held back: Peer takes nothing from it for now.
	StyleHeld
	// StyleLine draws a line through the overlay's Points on the lanes,
	// labelled with its Text, and the work its Undone points lost.
	StyleLine
	// StyleCells draws an overlay's Cells as a row of boxes for its Node,
	// in a table under the process graph: a process's log, each box
	// coloured by its cell's Group (a Raft entry's term).
	StyleCells
)

var styleNames = [...]string{"hidden", "glyph", "bar", "outline", "band", "arrow", "halo", "cut", "token", "label", "state", "wait", "held", "line", "cells"}

// String names the style.
func (s Style) String() string {
	if int(s) < len(styleNames) {
		return styleNames[s]
	}
	return "unknown"
}

// Known reports whether the style is one of the styles above.
func (s Style) Known() bool { return int(s) < len(styleNames) }

// Overlays reports whether the style draws overlays rather than
// annotations.
func (s Style) Overlays() bool { return s >= StyleState && s.Known() }

// Intervals reports whether the style draws intervals (Begin to End) rather
// than points.
func (s Style) Intervals() bool {
	return s == StyleBar || s == StyleOutline || s == StyleBand || s == StyleToken
}

// Glyph is a small mark on an event.
type Glyph uint8

// The glyphs. GlyphNone is no mark where a mark is optional (a message
// kind's), and a dot where one is drawn anyway (an event's).
const (
	GlyphNone Glyph = iota
	GlyphDot
	GlyphDiamond
	GlyphSquare
	GlyphTriangle
	GlyphCross
	GlyphRing
	GlyphBar
	// GlyphToken is a token: a gold coin, drawn on a token's arrow and on
	// the lane of the process that holds it.
	GlyphToken
	// The open glyphs are the outlines of the filled ones, and GlyphPlus
	// an upright cross: with them every message kind of an algorithm can
	// have a shape of its own, told apart without its colour.
	GlyphOpenDiamond
	GlyphOpenSquare
	GlyphOpenTriangle
	GlyphPlus
)

var glyphSymbols = [...]string{"●", "●", "◆", "■", "▲", "✕", "◯", "▮", "◉", "◇", "□", "△", "✚"}

var glyphNames = [...]string{"none", "dot", "diamond", "square", "triangle", "cross", "ring", "bar", "token", "open-diamond", "open-square", "open-triangle", "plus"}

// Symbol is the glyph as a character, for legends.
func (g Glyph) Symbol() string {
	if int(g) < len(glyphSymbols) {
		return glyphSymbols[g]
	}
	return "?"
}

// MarshalText writes the glyph's name, for the algorithms' descriptions.
func (g Glyph) MarshalText() ([]byte, error) {
	if int(g) < len(glyphNames) {
		return []byte(glyphNames[g]), nil
	}
	return nil, fmt.Errorf("unknown glyph %d", g)
}

// Tone is one of the diagram's colours, by meaning-free name, so that an
// algorithm can pick one without knowing the palette.
type Tone string

// The tones.
const (
	Ink    Tone = "ink"
	Blue   Tone = "blue"
	Red    Tone = "red"
	Gold   Tone = "gold"
	Grey   Tone = "grey"
	Purple Tone = "purple"
	Orange Tone = "orange"
	Teal   Tone = "teal"
	Green  Tone = "green"
	Cyan   Tone = "cyan"
)

// Tones lists every tone, for validation.
var Tones = []Tone{Ink, Blue, Red, Gold, Grey, Purple, Orange, Teal, Green, Cyan}

// RoleSpec says how the annotations of one role are drawn and explained.
type RoleSpec struct {
	Name  string
	Style Style
	// Glyph marks the events of glyph and cut styles.
	Glyph Glyph
	Tone  Tone
	// Legend explains the role in the legend under the diagram.
	Legend string
	// Of names the cut role whose group these annotations belong to: a
	// halo role of messages recorded as a snapshot's channel state is Of
	// the recording role, and the cut's label lists them.
	Of string
}
