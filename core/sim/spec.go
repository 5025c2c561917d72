package sim

import "encoding/json"

// Role is how the diagram draws a message kind.
type Role string

// The message roles.
const (
	// RoleMessage is ordinary traffic: application data, requests, replies.
	RoleMessage Role = "message"
	// RoleMarker is a snapshot marker or barrier.
	RoleMarker Role = "marker"
	// RoleToken is a token that travels (token ring, Suzuki–Kasami).
	RoleToken Role = "token"
	// RoleControl is protocol control traffic (acks, coordinator notices).
	RoleControl Role = "control"
)

// KindSpec describes one message kind of an algorithm.
type KindSpec struct {
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Application marks traffic that belongs to the application the algorithm
	// runs beside (bank transfers), not to the algorithm itself; reports count
	// it apart from the algorithm's own messages.
	Application bool `json:"application,omitempty"`
}

// CommandSpec describes a command a learner or script may inject at a node.
type CommandSpec struct {
	Name string `json:"name"`
	Help string `json:"help"`
	// Target says the command names another process (transfer to B).
	Target bool `json:"target,omitempty"`
	// Arg names the command's numeric argument ("amount"), if it takes one.
	Arg string `json:"arg,omitempty"`
}

// Verdict is the outcome of checking an invariant at one step.
type Verdict struct {
	OK     bool
	Detail string
	// Msgs are the messages to point at when the invariant fails.
	Msgs []int
}

// Invariant is a property checked after every step.
type Invariant struct {
	Name string
	Help string
	// Check inspects the world after a step.
	Check func(v View) Verdict
}

// Metric is one named figure of a run, for reports and panels.
type Metric struct {
	Name  string
	Value any
}

// Row is a row of a panel table. Emphasis is "" or "total"; a cell's
// emphasis is "", "good" or "bad".
type Row struct {
	Cells        []string
	Emphasis     string
	CellEmphasis []string
}

// Panel is a small table an algorithm shows beside the diagram; the page
// renders any algorithm's panels the same way.
type Panel struct {
	Title   string
	Note    string
	Columns []string
	Rows    []Row
}

// Spec registers an algorithm.
type Spec struct {
	// ID is the algorithm's id in scenario files and on the command line.
	ID      string
	Title   string
	Summary string
	// MinN and MaxN bound the number of processes.
	MinN, MaxN int
	Kinds      []KindSpec
	Commands   []CommandSpec
	// New builds the nodes from the scenario's params, rejecting bad values
	// with an error that names the field.
	New        func(names []string, params json.RawMessage) ([]Node, error)
	Invariants []Invariant
	// Metrics are the algorithm's figures for reports.
	Metrics func(v View) []Metric
	// Panels are the algorithm's tables for the page.
	Panels func(v View) []Panel
	// Formula compares the messages sent with the textbook's count, in a
	// sentence for the page ("Markers: 6 sent; N(N−1) = 6 per snapshot").
	Formula func(v View) string
	// Done reports that the algorithm reached its goal (a snapshot completed,
	// a leader was elected); scenarios may stop there.
	Done func(v View) bool
}

// Kind returns the spec of a message kind, and whether it is known.
func (s *Spec) Kind(name string) (KindSpec, bool) {
	for _, k := range s.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return KindSpec{}, false
}

// Command returns the spec of a command, and whether it is known.
func (s *Spec) Command(name string) (CommandSpec, bool) {
	for _, c := range s.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return CommandSpec{}, false
}

// Envelope is a sent message as the checkers see it at some step.
type Envelope struct {
	ID       int
	From, To NodeID
	Message
	SendStep int
	// RecvStep is the step that delivered it, or -1 if it has not arrived yet.
	RecvStep int
	// DropStep is the step at which it was lost, or -1.
	DropStep int
}

// Total is a count of messages and the sum of their values.
type Total struct {
	Count int
	Sum   int64
}

// View is the read-only world at one step, for invariants, metrics, panels.
type View interface {
	N() int
	Name(id NodeID) string
	Node(id NodeID) Node
	// Health is "up", "crashed" or "paused".
	Health(id NodeID) string
	Now() Time
	// Steps is the number of steps taken so far.
	Steps() int
	// InFlight lists the ids of messages in flight on from→to, oldest first.
	InFlight(from, to NodeID) []int
	// NumSent is the number of messages sent so far; ids are 0 .. NumSent-1.
	NumSent() int
	// InFlightTotal counts the messages of a kind in flight, and sums their
	// values, without visiting them.
	InFlightTotal(kind string) Total
	// Envelope returns message id as it stands now.
	Envelope(id int) Envelope
	// LastMarks are the marks of the step just taken.
	LastMarks() []Mark
	// MarkSteps gives, for each process, the first step at which it made a
	// mark of this kind and group, or -1. It reads the whole trace: call it
	// when something has just happened (a LastMarks entry), not every step.
	MarkSteps(kind string, group int) []int
}
