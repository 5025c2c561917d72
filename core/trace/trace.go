// Package trace is the record of a run: one Record per step and one Msg per
// message sent, with Lamport and vector stamps, and encoders for it (JSON,
// ShiViz log). The trace is append-only while a run advances and is cut back
// when the learner rewinds and forks a new future.
package trace

import (
	"fmt"

	"spacetime/core/clock"
	"spacetime/core/sim"
)

// Kind says what happened in a step. It is a small number in memory (a
// long run holds many records) and its name in JSON.
type Kind uint8

// The kinds of step. The first six mirror sim.EventKind; the rest are faults.
const (
	Init Kind = iota + 1
	Deliver
	Timer
	Command
	Recover
	Workload
	Crash
	Pause
	Wake
	Drop
	// Skip is a scripted input that could not happen when its time came.
	Skip
)

var kindNames = [...]string{"", "init", "deliver", "timer", "command", "recover", "workload", "crash", "pause", "wake", "drop", "skip"}

// String is the kind's name: "deliver", "crash".
func (k Kind) String() string {
	if int(k) < len(kindNames) { // the zero Kind is
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
	Marks     []sim.Mark    `json:"marks,omitempty"`
	Caption   string        `json:"caption"`
	Source    Source        `json:"source"`
	Command   string        `json:"command,omitempty"`
}

// Msg is one message: who sent it when, and where it is now.
type Msg struct {
	ID   int        `json:"id"`
	From sim.NodeID `json:"from"`
	To   sim.NodeID `json:"to"`
	sim.Message
	SendStep int      `json:"send_step"`
	SendTime sim.Time `json:"send_time"`
	// Due is the earliest time the network delivers it.
	Due sim.Time `json:"due"`
	// RecvStep is the step that delivered it, -1 while in flight or if lost.
	RecvStep int      `json:"recv_step"`
	RecvTime sim.Time `json:"recv_time,omitempty"`
	// DropStep is the step at which the network lost it, -1 if it was not lost.
	DropStep int           `json:"drop_step"`
	Lamport  clock.Lamport `json:"lamport"`
	Vector   clock.Vector  `json:"vector"`
}

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
	Names   []string `json:"names"`
	Records []Record `json:"records"`
	Msgs    []Msg    `json:"messages"`
}

// Len is the number of steps recorded.
func (t *Trace) Len() int { return len(t.Records) }

// MsgsBefore returns the messages sent in the first k steps (ids ascend with
// the step that sent them).
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
	t.Msgs = t.MsgsBefore(k)
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

// Append adds a record. The storage doubles when full, so that a long run
// copies its records about once rather than at every 25% of growth.
func (t *Trace) Append(r Record) { t.Records = append(grow(t.Records), r) }

// AppendMsg adds a message, growing the storage as Append does.
func (t *Trace) AppendMsg(m Msg) { t.Msgs = append(grow(t.Msgs), m) }

func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	bigger := make([]T, len(s), max(2*cap(s), 1024))
	copy(bigger, s)
	return bigger
}
