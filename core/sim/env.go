package sim

import (
	"fmt"
	"unsafe"
)

// Send is a message a node asked to send during one step.
type Send struct {
	To  NodeID
	Msg Message
}

// TimerRequest sets (After >= 0) or cancels (Cancel) the node's timer Tag.
type TimerRequest struct {
	Tag    string
	After  Time
	Cancel bool
}

// Mark annotates a step for the diagram and the panels. The diagram knows
// these kinds:
//   - MarkRecord: a process records its local state for a snapshot or cut;
//     the marks of one Group, one per process, make a cut line.
//   - MarkChannel: the message delivered in this step is part of a recorded
//     channel state of snapshot Group.
//   - MarkEnter and MarkLeave: the process enters and leaves an interval,
//     such as a critical section or a lease it believes it holds; the
//     diagram draws a thick bar between them, labelled with Text.
type Mark struct {
	Kind  string `json:"kind"`
	Group int    `json:"group,omitempty"`
	Text  string `json:"text,omitempty"`
}

// The mark kinds the diagram draws.
const (
	MarkRecord  = "record"
	MarkChannel = "channel-state"
	MarkEnter   = "enter"
	MarkLeave   = "leave"
)

// Env is the world as one node sees it during one Step, and the collector of
// that step's effects. The engine fills the read-only part before Step and
// applies the effects after it.
type Env struct {
	self  NodeID
	n     int
	now   Time
	names []string
	rand  Rand
	// quiet skips the caption: the step is only being replayed.
	quiet bool
	text  textArena

	// Sends, Timers, Marks and Caption are the effects of the step, read by
	// the engine once Step returns.
	Sends   []Send
	Timers  []TimerRequest
	Marks   []Mark
	Caption string
}

// Reset prepares env for a step of node self at time now. The engine calls
// it; quiet says the step is replayed to seek, so its caption is not needed.
func (e *Env) Reset(self NodeID, now Time, names []string, r Rand, quiet bool) {
	e.self, e.n, e.now, e.names, e.rand, e.quiet = self, len(names), now, names, r, quiet
	e.Sends = e.Sends[:0]
	e.Timers = e.Timers[:0]
	e.Marks = e.Marks[:0]
	e.Caption = ""
}

// Self is the stepping node.
func (e *Env) Self() NodeID { return e.self }

// N is the number of processes.
func (e *Env) N() int { return e.n }

// Now is the current simulated time.
func (e *Env) Now() Time { return e.now }

// Name is a process's display name.
func (e *Env) Name(id NodeID) string { return e.names[id] }

// Rand is the node's random stream.
func (e *Env) Rand() Rand { return e.rand }

// Send queues a message to another process.
func (e *Env) Send(to NodeID, m Message) { e.Sends = append(e.Sends, Send{To: to, Msg: m}) }

// SendToOthers sends m to every other process, in id order.
func (e *Env) SendToOthers(m Message) {
	for q := 0; q < e.n; q++ {
		if NodeID(q) != e.self {
			e.Send(NodeID(q), m)
		}
	}
}

// SetTimer (re)arms the timer tag to fire after the given number of ticks.
func (e *Env) SetTimer(tag string, after Time) {
	e.Timers = append(e.Timers, TimerRequest{Tag: tag, After: after})
}

// CancelTimer disarms the timer tag if it is armed.
func (e *Env) CancelTimer(tag string) {
	e.Timers = append(e.Timers, TimerRequest{Tag: tag, Cancel: true})
}

// Mark annotates this step; group ties together the marks of one snapshot.
func (e *Env) Mark(kind string, group int, text string) {
	e.Marks = append(e.Marks, Mark{Kind: kind, Group: group, Text: text})
}

// Explain sets the step's caption: which rule fired and why, in plain words.
func (e *Env) Explain(format string, args ...any) {
	if !e.quiet {
		e.Caption = e.text.appendf(format, args...)
	}
}

// textArena keeps the captions of many steps in large blocks: a long run
// then holds a few hundred objects for its captions instead of one per step,
// and the garbage collector's work (a pause, in the browser) grows with the
// number of objects.
type textArena struct{ block []byte }

// appendf formats into the current block and returns the text as a string
// that shares the block's memory. The block is only ever appended to, so
// the strings already handed out never change.
func (a *textArena) appendf(format string, args ...any) string {
	if cap(a.block)-len(a.block) < 512 {
		a.block = make([]byte, 0, 64<<10)
	}
	start := len(a.block)
	a.block = fmt.Appendf(a.block, format, args...)
	text := a.block[start:]
	if len(text) == 0 {
		return ""
	}
	return unsafe.String(&text[0], len(text))
}
