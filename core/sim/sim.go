// Package sim is the contract between the engine and the algorithms.
//
// A process is a Node: a plain value with no goroutines, clock, randomness or
// I/O. The engine hands it one Event at a time; the node reacts through the
// Env it is given (sends, timers, annotations, a caption) and the engine
// applies those effects after Step returns. A Spec registers an algorithm:
// how to build its nodes, the commands a learner may inject and who takes
// them, its message kinds, its annotation roles and how they are drawn, its
// invariants, metrics, panels and an optional topology.
package sim

import (
	"strconv"
	"strings"
)

// Health is what a process is doing, as the run sees it: up and taking
// events, crashed, or paused (a stop-the-world pause).
type Health uint8

// The healths a process can have.
const (
	Up Health = iota
	Crashed
	Paused
)

var healthNames = [...]string{"up", "crashed", "paused"}

// String names the health: "up", "crashed" or "paused".
func (h Health) String() string {
	if int(h) < len(healthNames) {
		return healthNames[h]
	}
	return "unknown"
}

// Running reports whether a process of this health takes events now.
func (h Health) Running() bool { return h == Up }

// NodeID identifies a process inside the simulator: 0 .. n-1. People see and
// write processes numbered from 1 (Number), or by name.
type NodeID int

// None stands for "no process" or "no message" where a field may be empty.
const None = -1

// Number is the process's number as people read and write it: 1 .. n.
func (id NodeID) Number() int { return int(id) + 1 }

// Namer names processes: an Env in a step, a View in a check.
type Namer interface{ Name(id NodeID) string }

// NameOrNobody is process id's name, or "nobody" for None: for a belief
// or a field that may name no process.
func NameOrNobody(n Namer, id NodeID) string {
	if id == None {
		return "nobody"
	}
	return n.Name(id)
}

// Time is simulated time in ticks.
type Time int64

// MaxTime is the latest time a scenario may name (a script entry, a stop
// time, the end of its workload). Durations are at most a million ticks
// and a run at most a million steps, so no sum of times in a run comes
// near overflowing.
const MaxTime Time = 1_000_000_000

// Ticks says a duration in words, for captions: "1 tick", "5 ticks".
func Ticks(t Time) string {
	if t == 1 {
		return "1 tick"
	}
	return strconv.FormatInt(int64(t), 10) + " ticks"
}

// Message is what one process sends another. The engine copies Data when a
// message is sent and again when it is delivered, so a node may keep and
// change the array it sent or received without rewriting history.
type Message struct {
	// Kind is one of the Spec's message kinds ("transfer", "marker", ...).
	Kind string `json:"kind"`
	// Value is the number the message carries: an amount, a timestamp, an id.
	Value int64 `json:"value,omitempty"`
	// Label is a short text drawn beside the arrow, such as "$14".
	Label string `json:"label,omitempty"`
	// Data carries what one number cannot: a token's arrays, a vector
	// timestamp, a write's fencing token and value.
	Data []int64 `json:"data,omitempty"`
}

// Describe names the message for people: its kind and its label
// ("transfer $16"), or the label alone when it already starts with the
// kind ("REQUEST #1", "TOKEN g2").
func (m Message) Describe() string {
	switch {
	case m.Label == "" || m.Label == m.Kind:
		return m.Kind
	case strings.HasPrefix(m.Label, m.Kind+" "):
		return m.Label
	}
	return m.Kind + " " + m.Label
}

// EventKind says why a node is stepped.
type EventKind uint8

// The events a node reacts to.
const (
	// Init is the first event of every node, at time 0 (or when a process
	// that was down from the start first comes up).
	Init EventKind = iota
	// Deliver hands the node a message from another node.
	Deliver
	// Timer fires a timer the node set earlier.
	Timer
	// Command is an action injected by the learner or the scenario's script.
	Command
	// Recover restarts a crashed node; the node decides what it forgot.
	Recover
	// Workload asks the node to do one unit of its application work
	// (a bank branch makes a transfer, a client requests the lock).
	Workload
)

var eventKindNames = [...]string{"init", "deliver", "timer", "command", "recover", "workload"}

// String names the event kind.
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "unknown"
}

// Event is one thing that happens to a node.
type Event struct {
	Kind EventKind
	// From is the sender of a delivered message.
	From NodeID
	// Msg is the delivered message, and MsgID its id in the trace (for
	// annotations about it).
	Msg   Message
	MsgID int
	// Tag names the timer that fired, or the command to run.
	Tag string
	// Target and Arg are a command's arguments, when it has them.
	Target NodeID
	Arg    int64
}

// Field is one line of a node's read-only view: a name and its value as text.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Node is one process's algorithm state machine.
type Node interface {
	// Step reacts to one event; all effects go through env.
	Step(env *Env, ev Event)
	// Inspect returns the node's state for display, in a stable order.
	Inspect() []Field
	// Clone returns a deep copy, so that the engine can keep checkpoints.
	Clone() Node
}

// Rand is the randomness a node may use: a stream the engine owns, so that
// runs are reproducible from the scenario's seed.
type Rand interface {
	// IntN returns a uniform integer in [0, n).
	IntN(n int) int
	// Float64 returns a uniform number in [0, 1).
	Float64() float64
}

// LetterNames names n processes A, B, …, Z, AA, AB, … as spreadsheet
// columns are, so that a script naming A still works with more processes.
func LetterNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		name := ""
		for k := i + 1; k > 0; k = (k - 1) / 26 {
			name = string(rune('A'+(k-1)%26)) + name
		}
		names[i] = name
	}
	return names
}

// NumberNames names n processes 1, 2, …, n, for algorithms whose processes
// have ids (mutual exclusion, elections).
func NumberNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	return names
}

// WallClock is a process's own clock, which its LocalTime reads: the
// simulated time, set off by a skew and running at a rate. The zero value
// reads the simulated time exactly.
type WallClock struct {
	// At is the simulated time of the clock's last setting, and Offset
	// how far ahead of it the clock read then (behind when negative).
	At, Offset Time
	// Drift is how many ticks more than a hundred the clock counts for
	// every hundred that pass: 0 is right, 100 runs at twice the speed,
	// -50 at half, -100 stands still.
	Drift int64
}

// Rate is how many ticks the clock counts for every hundred that pass.
func (c WallClock) Rate() int64 { return 100 + c.Drift }

// RateText writes a rate in ticks for every hundred that pass as the
// ticks it counts for one: 50 is "0.5", as a scenario, a caption and the
// diagram write it.
func RateText(hundredths int64) string {
	return strconv.FormatFloat(float64(hundredths)/100, 'f', -1, 64)
}

// Reads is what the clock reads at simulated time now (no earlier than
// At): its reading at At, and the ticks since at its rate, rounded down.
func (c WallClock) Reads(now Time) Time {
	if c.Drift == 0 {
		return now + c.Offset
	}
	scaled := int64(now-c.At) * c.Rate()
	counted := scaled / 100
	if scaled%100 < 0 {
		counted-- // rounded down
	}
	return c.At + c.Offset + Time(counted)
}

// Skewed is the clock set at now to read by ticks ahead of it (behind when
// negative), running at the same rate.
func (c WallClock) Skewed(now, by Time) WallClock {
	return WallClock{At: now, Offset: by, Drift: c.Drift}
}

// Rated is the clock running from now at rate ticks for every hundred
// that pass, on from what it reads now.
func (c WallClock) Rated(now Time, rate int64) WallClock {
	return WallClock{At: now, Offset: c.Reads(now) - now, Drift: rate - 100}
}
