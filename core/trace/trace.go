// Package trace is the record of a run: one Record per step and one Msg per
// message sent, with Lamport and vector stamps, the annotations, timers and
// fault changes of each step, and encoders for it (JSON, ShiViz log). The
// trace is append-only while a run advances and is cut back when the
// learner rewinds and forks a new future.
package trace

import (
	"encoding/json"
	"fmt"

	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Kind says what happened in a step. It is a small number in memory (a
// long run holds many records) and its name in JSON.
type Kind uint8

// The kinds of step.
const (
	Init Kind = iota + 1
	Deliver
	Timer
	Command
	Workload
	// Fault is a fault from the registry (Tag names it).
	Fault
	// Wake ends a GC pause.
	Wake
	// Skip is a scripted input that could not happen when its time came.
	Skip
)

var kindNames = [...]string{"", "init", "deliver", "timer", "command", "workload", "fault", "wake", "skip"}

// String is the kind's name: "deliver", "fault".
func (k Kind) String() string {
	if int(k) < len(kindNames) { // the zero Kind is ""
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind finds a kind by name.
func ParseKind(name string) (Kind, bool) {
	for i, n := range kindNames {
		if n == name && i > 0 {
			return Kind(i), true
		}
	}
	return 0, false
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = 0
		return nil
	}
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("unknown step kind %q", b)
	}
	*k = v
	return nil
}

// Source says who caused a step.
type Source uint8

// The causes of a step.
const (
	Scheduler Source = iota + 1
	Script
	Learner
)

var sourceNames = [...]string{"", "scheduler", "script", "learner"}

// String is the source's name.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "unknown"
}

// MarshalText writes the source's name.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a source's name.
func (s *Source) UnmarshalText(b []byte) error {
	for i, n := range sourceNames {
		if n == string(b) {
			*s = Source(i)
			return nil
		}
	}
	return fmt.Errorf("unknown step source %q", b)
}

// Record is one step of a run: one event at one process.
type Record struct {
	Step int        `json:"step"`
	Time sim.Time   `json:"time"`
	Node sim.NodeID `json:"node"`
	Kind Kind       `json:"kind"`
	// Msg is the delivered or dropped message's id, or -1.
	Msg int `json:"msg"`
	// FirstSent and NumSent name the messages sent in this step: ids
	// FirstSent .. FirstSent+NumSent-1.
	FirstSent int           `json:"first_sent"`
	NumSent   int           `json:"num_sent,omitempty"`
	Lamport   clock.Lamport `json:"lamport"`
	Vector    clock.Vector  `json:"vector"`
	Caption   string        `json:"caption"`
	Source    Source        `json:"source"`
	// Extra holds what only some steps have; nil for most (deliveries).
	Extra *Extra `json:"-"`
}

// Extra is the part of a record that most steps do not need.
type Extra struct {
	// Tag names the command run, the fault applied or the timer fired.
	Tag string `json:"tag,omitempty"`
	// Args are the command's or fault's arguments, and Arg a command's number.
	Args *faults.Args `json:"args,omitempty"`
	Arg  int64        `json:"arg,omitempty"`
	// Annotations are what the algorithm said about the step.
	Annotations []sim.Annotation `json:"annotations,omitempty"`
	// Timers are the timers armed or cancelled in the step.
	Timers []TimerNote `json:"timers,omitempty"`
	// Changes are what a fault (or the end of a pause) changed.
	Changes []Change `json:"changes,omitempty"`
}

// MarshalJSON writes the record with its extra fields alongside the others.
func (r Record) MarshalJSON() ([]byte, error) {
	type plain Record
	return json.Marshal(struct {
		plain
		*Extra
	}{plain(r), r.Extra})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (r *Record) UnmarshalJSON(data []byte) error {
	type plain Record
	var v struct {
		plain
		*Extra
	}
	v.Extra = &Extra{}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = Record(v.plain)
	if x := v.Extra; x.Tag != "" || x.Args != nil || x.Arg != 0 || x.Annotations != nil || x.Timers != nil || x.Changes != nil {
		r.Extra = x
	}
	return nil
}

// What names what happened in plain words: the fault's name for a fault
// ("crash"), else the kind ("deliver").
func (r *Record) What() string {
	if r.Kind == Fault {
		return r.Tag()
	}
	return r.Kind.String()
}

// Tag names the command run, the fault applied or the timer fired.
func (r *Record) Tag() string {
	if r.Extra == nil {
		return ""
	}
	return r.Extra.Tag
}

// Annotations are what the algorithm said about the step.
func (r *Record) Annotations() []sim.Annotation {
	if r.Extra == nil {
		return nil
	}
	return r.Extra.Annotations
}

// Timers are the timers armed or cancelled in the step.
func (r *Record) Timers() []TimerNote {
	if r.Extra == nil {
		return nil
	}
	return r.Extra.Timers
}

// Changes are what the step's fault changed in the world.
func (r *Record) Changes() []Change {
	if r.Extra == nil {
		return nil
	}
	return r.Extra.Changes
}

// Args are the step's command or fault arguments, if it had any.
func (r *Record) Args() (faults.Args, int64, bool) {
	if r.Extra == nil || r.Extra.Args == nil {
		return faults.NoArgs(), 0, false
	}
	return *r.Extra.Args, r.Extra.Arg, true
}

// TimerNote is a timer armed (with its due time) or cancelled in a step.
// A timer's firing is a step of its own (Kind Timer, Tag its tag).
type TimerNote struct {
	Tag       string   `json:"tag"`
	Due       sim.Time `json:"due,omitempty"`
	Cancelled bool     `json:"cancelled,omitempty"`
}

// ChangeKind is what a change changed.
type ChangeKind uint8

// The things a fault changes.
const (
	// ChangeHealth: Node's health became Value (a sim.Health).
	ChangeHealth ChangeKind = iota + 1
	// ChangeLink: the link Node→Peer was cut (Value 0) or healed (1).
	ChangeLink
	// ChangeSkew: Node's clock now runs Value ticks ahead (behind if <0).
	ChangeSkew
	// ChangeFIFO: channels keep send order (Value 1) or not (0).
	ChangeFIFO
	// ChangeDelay: message Msg cannot arrive before time Value.
	ChangeDelay
	// ChangeRate: Node's clock now counts Value ticks for every hundred
	// that pass (100: the right rate).
	ChangeRate
)

var changeNames = [...]string{"", "health", "link", "skew", "fifo", "delay", "rate"}

// MarshalText writes the change kind's name.
func (c ChangeKind) MarshalText() ([]byte, error) {
	if int(c) < len(changeNames) {
		return []byte(changeNames[c]), nil
	}
	return []byte("unknown"), nil
}

// UnmarshalText reads a change kind's name.
func (c *ChangeKind) UnmarshalText(b []byte) error {
	for i, n := range changeNames {
		if n == string(b) && i > 0 {
			*c = ChangeKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown change %q", b)
}

// Change is one thing a fault changed in the world.
type Change struct {
	What  ChangeKind `json:"what"`
	Node  sim.NodeID `json:"node"`
	Peer  sim.NodeID `json:"peer,omitempty"`
	Msg   int        `json:"msg,omitempty"`
	Value int64      `json:"value"`
}

// Msg is one message: who sent it when, and where it is now.
type Msg struct {
	ID   int        `json:"id"`
	From sim.NodeID `json:"from"`
	To   sim.NodeID `json:"to"`
	sim.Message
	SendStep int      `json:"send_step"`
	SendTime sim.Time `json:"send_time"`
	// Due is the earliest time the network would deliver it, as drawn when
	// it was sent (a later delay is a Change of the world, not of this).
	Due sim.Time `json:"due"`
	// RecvStep is the step that delivered it, -1 while in flight or if lost.
	RecvStep int      `json:"recv_step"`
	RecvTime sim.Time `json:"recv_time,omitempty"`
	// DropStep is the step at which the network lost it, -1 if it was not lost.
	DropStep int           `json:"drop_step"`
	Lamport  clock.Lamport `json:"lamport"`
	Vector   clock.Vector  `json:"vector"`
	// Original is the message a process sent that a network duplicate
	// copies (through any copies between: a copy of a copy names the
	// message sent); a message sent by a process is its own original.
	Original int `json:"original"`
}

// Duplicate reports whether the network made this message as a copy.
func (m *Msg) Duplicate() bool { return m.Original != m.ID }

// InFlightAt reports whether the message had been sent but neither received
// nor lost after the first k steps.
func (m *Msg) InFlightAt(k int) bool {
	return m.SendStep < k && (m.RecvStep < 0 || m.RecvStep >= k) && (m.DropStep < 0 || m.DropStep >= k)
}

// ReceivedAt reports whether the message was delivered within the first k steps.
func (m *Msg) ReceivedAt(k int) bool { return m.RecvStep >= 0 && m.RecvStep < k }

// DroppedAt reports whether the message was lost within the first k steps.
func (m *Msg) DroppedAt(k int) bool { return m.DropStep >= 0 && m.DropStep < k }

// Trace is the whole record of a run.
type Trace struct {
	Names []string `json:"names"`
	// Down lists the processes that were down from the start.
	Down    []sim.NodeID `json:"down,omitempty"`
	Records []Record     `json:"records"`
	Msgs    []Msg        `json:"messages"`
}

// Len is the number of steps recorded.
func (t *Trace) Len() int { return len(t.Records) }

// MsgsBefore returns the messages made in the first k steps (ids ascend with
// the step that made them).
func (t *Trace) MsgsBefore(k int) []Msg {
	if k >= len(t.Records) {
		return t.Msgs
	}
	if k <= 0 {
		return nil
	}
	r := t.Records[k]
	return t.Msgs[:r.FirstSent]
}

// Truncate keeps the first k steps and forgets everything after them.
func (t *Trace) Truncate(k int) {
	if k >= len(t.Records) {
		return
	}
	// what is forgotten is cleared, so that Next and NextMsg hand out
	// zero values when they reuse its room
	msgs := t.MsgsBefore(k)
	clear(t.Msgs[len(msgs):])
	clear(t.Records[k:])
	t.Msgs = msgs
	t.Records = t.Records[:k]
	for i := range t.Msgs {
		m := &t.Msgs[i]
		if m.RecvStep >= k {
			m.RecvStep, m.RecvTime = -1, 0
		}
		if m.DropStep >= k {
			m.DropStep = -1
		}
	}
}

// AppendMsg adds a message.
func (t *Trace) AppendMsg(m Msg) { *t.NextMsg() = m }

// Next adds a zero record and returns it, to be filled in place: a run
// writes each of its records' fields once instead of copying a whole
// record in (a copy of a value that holds pointers is what the garbage
// collector charges most for while it marks, in wasm above all). The
// storage doubles when full, so that a long run copies its records about
// once rather than at every 25% of growth.
func (t *Trace) Next() *Record {
	t.Records = grow(t.Records)
	t.Records = t.Records[:len(t.Records)+1]
	return &t.Records[len(t.Records)-1]
}

// NextMsg adds a zero message and returns it, as Next does.
func (t *Trace) NextMsg() *Msg {
	t.Msgs = grow(t.Msgs)
	t.Msgs = t.Msgs[:len(t.Msgs)+1]
	return &t.Msgs[len(t.Msgs)-1]
}

// grow makes room for one more element; the room past the length is zero
// (Truncate clears what it forgets).
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	bigger := make([]T, len(s), Grown(cap(s)))
	copy(bigger, s)
	return bigger
}

// Grown is the room the records or messages of a trace have after they
// grow from room for c: twice as much, so that a reckoning of the memory
// a run keeps (see engine.Budget) can count a growth before it happens.
func Grown(c int) int { return max(2*c, 1024) }
