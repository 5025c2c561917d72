package sim

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"spacetime/core/clock"
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

// Context is what the engine tells a node about the world before a step.
type Context struct {
	Self NodeID
	// Now is simulated time; Local is the node's own clock, which a skew
	// fault sets ahead of or behind it.
	Now, Local Time
	Names      []string
	Rand       Rand
	// Lamport and Vector are the stamps of this step's event, as the engine
	// keeps them for every process (the vector must not be modified).
	Lamport clock.Lamport
	Vector  clock.Vector
	// Quiet says the step is only replayed (to seek), so that its caption
	// is not needed.
	Quiet bool
}

// Env is the world as one node sees it during one Step, and the collector of
// that step's effects. The engine fills the read-only part before Step and
// applies the effects after it. A node makes effects only through its
// methods (Send, SetTimer, Annotate, Explain): what one part of a node
// did is passed to another by return values, never by rewriting them.
type Env struct {
	ctx     Context
	text    textArena
	data    dataArena
	effects Effects
}

// Effects are what one step asked of the world, in the order it asked.
// The engine reads them once Step returns (Env.Effects); the slices are
// the Env's and are reused by its next step.
type Effects struct {
	Sends       []Send
	Timers      []TimerRequest
	Annotations []Annotation
	// Caption is the step's caption ("" when the step is quiet).
	Caption string
	// Err says the node could not take the event (a learner's program
	// raised an error): the engine records the step and stops the run
	// there (see Fail).
	Err error
}

// Reset prepares env for a step. The engine calls it.
func (e *Env) Reset(c Context) {
	e.ctx = c
	e.effects = Effects{Sends: e.effects.Sends[:0], Timers: e.effects.Timers[:0], Annotations: e.effects.Annotations[:0]}
}

// Effects are the step's effects so far, for the engine to apply once
// Step returns (and for tests that step a node by hand).
func (e *Env) Effects() Effects { return e.effects }

// Self is the stepping node.
func (e *Env) Self() NodeID { return e.ctx.Self }

// N is the number of processes.
func (e *Env) N() int { return len(e.ctx.Names) }

// Now is the current simulated time, which no process can read in a real
// system: use it for what the simulator itself does (lesson captions), and
// LocalTime for what the process believes.
func (e *Env) Now() Time { return e.ctx.Now }

// LocalTime is the process's own clock: simulated time plus its skew.
func (e *Env) LocalTime() Time { return e.ctx.Local }

// Lamport is the Lamport timestamp the engine gives this step's event.
func (e *Env) Lamport() clock.Lamport { return e.ctx.Lamport }

// Vector is the vector timestamp the engine gives this step's event. Do not
// modify it.
func (e *Env) Vector() clock.Vector { return e.ctx.Vector }

// Name is a process's display name.
func (e *Env) Name(id NodeID) string { return e.ctx.Names[id] }

// NameList names processes in a caption: "1, 3, 4".
func (e *Env) NameList(ids []NodeID) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.ctx.Names[id])
	}
	return b.String()
}

// Rand is the node's random stream.
func (e *Env) Rand() Rand { return e.ctx.Rand }

// Send queues a message to another process. Its Data is copied now: the
// node may go on changing its array, and the message keeps what was sent.
func (e *Env) Send(to NodeID, m Message) {
	if len(m.Data) > 0 && !e.ctx.Quiet {
		m.Data = e.data.copy(m.Data)
	}
	e.effects.Sends = append(e.effects.Sends, Send{To: to, Msg: m})
}

// SendToOthers sends m to every other process, in id order.
func (e *Env) SendToOthers(m Message) {
	for q := range e.N() {
		if NodeID(q) != e.ctx.Self {
			e.Send(NodeID(q), m)
		}
	}
}

// SetTimer (re)arms the timer tag to fire after the given number of ticks.
func (e *Env) SetTimer(tag string, after Time) {
	e.effects.Timers = append(e.effects.Timers, TimerRequest{Tag: tag, After: after})
}

// CancelTimer disarms the timer tag if it is armed.
func (e *Env) CancelTimer(tag string) {
	e.effects.Timers = append(e.effects.Timers, TimerRequest{Tag: tag, Cancel: true})
}

// Annotate adds annotations to this step (see At, Opens and Closes).
func (e *Env) Annotate(as ...Annotation) {
	e.effects.Annotations = append(e.effects.Annotations, as...)
}

// Explain sets the step's caption: which rule fired and why, in plain words.
func (e *Env) Explain(format string, args ...any) {
	if !e.ctx.Quiet {
		e.effects.Caption = e.text.appendf(format, args...)
	}
}

// ExplainMore adds a clause to the step's caption, after a semicolon: a
// rule that fires after another one (a new coordinator settles once the
// election that made it is explained) says what it adds to it.
func (e *Env) ExplainMore(format string, args ...any) {
	if !e.ctx.Quiet {
		e.effects.Caption = e.text.appendWith(func(b []byte) []byte {
			b = append(b, e.effects.Caption...)
			b = append(b, "; "...)
			return fmt.Appendf(b, format, args...)
		})
	}
}

// ExplainWith sets the step's caption to what write appends to the bytes
// it is given: a caption built without formatting, for an algorithm whose
// every step of a long run is captioned (a replayed log's). write must
// only append, and is not called when the step is quiet.
func (e *Env) ExplainWith(write func(b []byte) []byte) {
	if !e.ctx.Quiet {
		e.effects.Caption = e.text.appendWith(write)
	}
}

// Numbered is prefix followed by n in decimal ("#3", "M2"), kept with the
// run's captions: a label made for every message or event of a long run
// then costs no allocation of its own, as a formatted one does.
func (e *Env) Numbered(prefix string, n int) string {
	return e.Text(func(b []byte) []byte { return strconv.AppendInt(append(b, prefix...), int64(n), 10) })
}

// Text is what write appends to the bytes it is given, kept with the
// run's captions as Numbered is. write must only append.
func (e *Env) Text(write func(b []byte) []byte) string { return e.text.appendWith(write) }

// Fail says the node could not take this step's event: its program
// failed (an exception in a learner's handler, a bound passed). The
// engine keeps the step's other effects, records the step and stops the
// run there, with err as the reason (engine.Run.Err); a rewind before
// the step forgets it. The first failure of a step is kept.
func (e *Env) Fail(err error) {
	if e.effects.Err == nil {
		e.effects.Err = err
	}
}

// Quiet reports that the step is only replayed: a node may skip work that
// only feeds its caption.
func (e *Env) Quiet() bool { return e.ctx.Quiet }

// dataArena copies messages' Data into large blocks, as textArena does for
// captions: a long run keeps a few blocks instead of an array per message.
// A block is only ever appended to, so the copies handed out never change.
type dataArena struct{ block []int64 }

func (a *dataArena) copy(d []int64) []int64 {
	if cap(a.block)-len(a.block) < len(d) {
		a.block = make([]int64, 0, max(4096, 4*len(d)))
	}
	start := len(a.block)
	a.block = append(a.block, d...)
	return a.block[start:len(a.block):len(a.block)]
}

// textArena keeps the captions of many steps in large blocks: a long run
// then holds a few hundred objects for its captions instead of one per step,
// and the garbage collector's work (a pause, in the browser) grows with the
// number of objects.
type textArena struct{ block []byte }

// appendWith appends what write appends to the current block and returns
// it as a string that shares the block's memory. The block is only ever
// appended to, so the strings already handed out never change.
func (a *textArena) appendWith(write func(b []byte) []byte) string {
	if cap(a.block)-len(a.block) < 512 {
		a.block = make([]byte, 0, 64<<10)
	}
	start := len(a.block)
	a.block = write(a.block)
	return a.text(start)
}

// text is the block's text from start on, as a string sharing its memory.
func (a *textArena) text(start int) string {
	text := a.block[start:]
	if len(text) == 0 {
		return ""
	}
	return unsafe.String(&text[0], len(text))
}

// appendf formats into the current block, as appendWith appends.
func (a *textArena) appendf(format string, args ...any) string {
	return a.appendWith(func(b []byte) []byte { return fmt.Appendf(b, format, args...) })
}
