package diagram

import "spacetime/core/sim"

// What says what a shape stands for. Tests find shapes by it rather than
// by colour, and the SVG export writes it (data-what), so that a picture
// can be read by meaning; the painter ignores it.
type What uint8

// What shapes stand for.
const (
	WhatNone What = iota
	// WhatLane is a process's line; WhatName its name (and clock skew).
	WhatLane
	WhatName
	// WhatAxis is a tick, its rule or the axis's title; WhatNow the
	// present's line and word.
	WhatAxis
	WhatNow
	// WhatMessage is a message's arrow, its loss's cross and the glyph of
	// its kind; WhatMessageLabel its label; WhatHighlight the glow under
	// a message an invariant or a cut points at, or a halo role's.
	WhatMessage
	WhatMessageLabel
	WhatHighlight
	// WhatEvent is an event's dot; WhatSelection a ring of the causal
	// past or future, or of a selected event; WhatStamp a timestamp;
	// WhatEventName a name the lesson gives an event.
	WhatEvent
	WhatSelection
	WhatStamp
	WhatEventName
	// WhatInterval is an annotated interval, WhatToken a held token,
	// WhatMark an annotation's glyph or label on an event.
	WhatInterval
	WhatToken
	WhatMark
	// WhatFault is a fault's mark (a crash's dashes, a pause's band, a cut
	// link); WhatTimer a timer and its countdown; WhatNetwork a change of
	// the whole network.
	WhatFault
	WhatTimer
	WhatNetwork
	// WhatCut is a snapshot's cut and its label, WhatLine an algorithm's
	// line (a recovery line), WhatUserCut the learner's cut, WhatNote a
	// note about the picture.
	WhatCut
	WhatLine
	WhatUserCut
	WhatNote
	// WhatProcess, WhatLink and WhatWait are the process graph's circles
	// (and their state lines), links and waits.
	WhatProcess
	WhatLink
	WhatWait
)

var whatNames = [...]string{"", "lane", "name", "axis", "now", "message", "message-label", "highlight",
	"event", "selection", "stamp", "event-name", "interval", "token", "mark", "fault", "timer", "network",
	"cut", "line", "user-cut", "note", "process", "link", "wait"}

func (w What) String() string {
	if int(w) < len(whatNames) {
		return whatNames[w]
	}
	return "?"
}

// Tag is what a shape stands for: what it is, and the process, message,
// step and role (an annotation's, or a message's kind) it draws, where it
// draws one.
type Tag struct {
	What What
	// node, msg and step are one more than the process, message and step
	// (0: none), so that the zero Tag names nothing.
	node int16
	msg  int32
	step int32
	Role string
}

// Process is the process a shape draws, if one.
func (t Tag) Process() (sim.NodeID, bool) { return sim.NodeID(t.node - 1), t.node > 0 }

// Message is the message a shape draws, if one.
func (t Tag) Message() (int, bool) { return int(t.msg - 1), t.msg > 0 }

// Step is the step whose event a shape draws, if one.
func (t Tag) Step() (int, bool) { return int(t.step - 1), t.step > 0 }

func tagOf(w What) Tag { return Tag{What: w} }

// at, of, when and as name a tag's process, message, step and role.
func (t Tag) at(n sim.NodeID) Tag {
	if n >= 0 {
		t.node = int16(n) + 1
	}
	return t
}
func (t Tag) of(msg int) Tag {
	if msg >= 0 {
		t.msg = int32(msg) + 1
	}
	return t
}
func (t Tag) when(step int) Tag {
	if step >= 0 {
		t.step = int32(step) + 1
	}
	return t
}
func (t Tag) as(role string) Tag { t.Role = role; return t }

// tagging sets the tag the layout stamps on the shapes it adds, until the
// returned func restores the one before: `defer l.tagging(t)()`.
func (l *layout) tagging(t Tag) func() {
	old := l.tag
	l.tag = t
	return func() { l.tag = old }
}

// stamp gives shapes without a tag the layout's current one.
func (l *layout) stamp(shapes []Shape) []Shape {
	for i := range shapes {
		if shapes[i].Tag.What == WhatNone {
			shapes[i].Tag = l.tag
		}
	}
	return shapes
}
