package sim

import (
	"encoding/json"
	"fmt"

	"spacetime/core/clock"
	"spacetime/core/strictjson"
)

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
	// Tone colours the kind's arrows instead of its role's colour, so that
	// kinds of one role (REQUEST, REPLY) can be told apart.
	Tone Tone `json:"tone,omitempty"`
	// Glyph marks the kind's arrows, so that kinds can be told apart
	// without colour (REQUEST, REPLY, RELEASE, GRANT); a token's arrow
	// carries GlyphToken at its head while it travels. GlyphNone for none.
	Glyph Glyph `json:"glyph,omitempty"`
	// Dashed draws the kind's arrows dashed, so that traffic of another
	// layer stands apart (a replicated service's consensus among its
	// replicas, beside its clients' requests).
	Dashed bool `json:"dashed,omitempty"`
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
	// ArgMin and ArgMax bound the argument, both included (a transfer is
	// from $1 up); a script or link outside them is refused, naming Arg.
	ArgMin int64 `json:"arg_min,omitempty"`
	ArgMax int64 `json:"arg_max,omitempty"`
	// Takes says whether process id takes the command, when only some do
	// (the clients of a lock service, not the service); nil means all.
	Takes func(v View, id NodeID) bool `json:"-"`
	// Who names the processes that take it, for refusals ("the clients").
	Who string `json:"who,omitempty"`
}

// CheckArg refuses an argument outside the command's bounds, in words that
// name it ("the amount is from 1 to 1000, got -5").
func (c *CommandSpec) CheckArg(x int64) error {
	switch {
	case c.Arg == "" && x != 0:
		return fmt.Errorf("the command %s takes no number, got %d", c.Name, x)
	case c.Arg != "" && (x < c.ArgMin || x > c.ArgMax):
		return fmt.Errorf("the %s is from %d to %d, got %d", c.Arg, c.ArgMin, c.ArgMax, x)
	}
	return nil
}

// TakenBy reports whether process id takes the command in the world v.
func (c *CommandSpec) TakenBy(v View, id NodeID) bool { return c.Takes == nil || c.Takes(v, id) }

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
	// Strips, where a column has one, draw that cell as a row of boxes
	// (a Raft log), coloured by group as the process graph's cells are;
	// the cell's text says the same in words.
	Strips [][]Cell
}

// Panel is a small table an algorithm shows beside the diagram; the page
// renders any algorithm's panels the same way.
type Panel struct {
	Title   string
	Note    string
	Columns []string
	Rows    []Row
	// Output says the panel is what a program prints on this run (a
	// course text's, as bully's "Seed 000's log"): the command line
	// prints it wherever it runs the scenario, an export included.
	Output bool
}

// TopologyKind is the shape of an algorithm's process graph.
type TopologyKind string

// The topologies a second view can draw beside the lanes.
const (
	// Ring is a logical ring: Order lists the processes around it, each
	// sending to the next.
	Ring TopologyKind = "ring"
	// Tree is a rooted tree: Edges go from parent to child.
	Tree TopologyKind = "tree"
	// Graph is any graph: Edges are its links (directed if Directed).
	Graph TopologyKind = "graph"
)

// Topology is the graph the processes form, drawn as a second view.
type Topology struct {
	Kind     TopologyKind
	Order    []NodeID
	Edges    [][2]NodeID
	Directed bool
}

// Complete is the topology of processes that all talk to each other.
func Complete(n int) *Topology {
	t := &Topology{Kind: Graph}
	for i := range n {
		for j := i + 1; j < n; j++ {
			t.Edges = append(t.Edges, [2]NodeID{NodeID(i), NodeID(j)})
		}
	}
	return t
}

// CompleteTopology is PictureSpec.Topology of an algorithm whose
// processes all talk to each other.
func CompleteTopology(v View) *Topology { return Complete(v.N()) }

// RingOf is the ring of processes in the given order.
func RingOf(order []NodeID) *Topology {
	t := &Topology{Kind: Ring, Order: order, Directed: true}
	for i, p := range order {
		t.Edges = append(t.Edges, [2]NodeID{p, order[(i+1)%len(order)]})
	}
	return t
}

// RingFrom is a ring read from each process's successor, starting at
// process 1: the order RingOf draws.
func RingFrom(n int, next func(NodeID) NodeID) []NodeID {
	order := []NodeID{0}
	for id := next(0); id != 0 && len(order) < n; id = next(id) {
		order = append(order, id)
	}
	return order
}

// ReadRing reads params.ring, a logical ring of process numbers each
// sending to the next (nil for 1, 2, …, n), refusing one that does not
// list every process exactly once.
func ReadRing(ring []int, n int) ([]NodeID, error) {
	if ring == nil {
		order := make([]NodeID, n)
		for i := range order {
			order[i] = NodeID(i)
		}
		return order, nil
	}
	if len(ring) != n {
		return nil, strictjson.FieldErrorf("params.ring", "want all %d processes once each, got %d entries", n, len(ring))
	}
	seen := make([]bool, n)
	order := make([]NodeID, n)
	for i, num := range ring {
		if num < 1 || num > n {
			return nil, strictjson.FieldErrorf(fmt.Sprintf("params.ring[%d]", i), "want a process number from 1 to %d, got %d", n, num)
		}
		if seen[num-1] {
			return nil, strictjson.FieldErrorf(fmt.Sprintf("params.ring[%d]", i), "process %d is on the ring twice", num)
		}
		seen[num-1] = true
		order[i] = NodeID(num - 1)
	}
	return order, nil
}

// Layers arranges a tree, or a directed graph that flows one way (a
// dataflow graph), in layers: sources first, then what they feed. It
// reports false for rings and for graphs with cycles or no direction.
func (t *Topology) Layers(n int) ([][]NodeID, bool) {
	if t.Kind == Ring || (t.Kind == Graph && !t.Directed) {
		return nil, false
	}
	in := make([]int, n)
	out := make([][]NodeID, n)
	for _, e := range t.Edges {
		if e[0] < 0 || e[1] < 0 || int(e[0]) >= n || int(e[1]) >= n || e[0] == e[1] {
			continue
		}
		in[e[1]]++
		out[e[0]] = append(out[e[0]], e[1])
	}
	depth := make([]int, n)
	var queue []NodeID
	for i := range n {
		if in[i] == 0 {
			queue = append(queue, NodeID(i))
		}
	}
	placed := 0
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		placed++
		for _, c := range out[id] {
			depth[c] = max(depth[c], depth[id]+1)
			if in[c]--; in[c] == 0 {
				queue = append(queue, c)
			}
		}
	}
	if placed < n {
		return nil, false // a cycle
	}
	var layers [][]NodeID
	for i := range n {
		for len(layers) <= depth[i] {
			layers = append(layers, nil)
		}
		layers[depth[i]] = append(layers[depth[i]], NodeID(i))
	}
	return layers, true
}

// Switch is a boolean param a learner may flip on the page, running the
// same scenario, with the same faults and inputs, again.
type Switch struct {
	// Param is the field of params, and Default its value when absent.
	Param   string
	Default bool
	// Label names it beside its checkbox ("fencing tokens"); Help says
	// what it changes.
	Label, Help string
	// Variant says either setting is a correct version of the algorithm
	// (coordinated or independent checkpoints, re-election or none),
	// held to the same invariants within the same known limits, so a
	// campaign draws it either way: code that only the other setting runs
	// is checked too. A switch that breaks a rule on purpose (a course
	// text's erratum, fencing turned off) is no variant: only lessons
	// turn it.
	Variant bool
	// MaxDelay, when set, is the longest a message may take for the
	// timeouts that the switch turned on brings to work, as
	// CheckSpec.MaxDelay is for the algorithm's own.
	MaxDelay Time
}

// Measure is a quantity conserved between the processes and their
// messages: a cut that adds it up wrong is no state the system was in.
type Measure struct {
	// Name says what it is ("money"); Format writes an amount ("$300").
	Name   string
	Format func(int64) string
	// OfNode is what a process holds, and OfMessage what a message carries.
	OfNode    func(n Node) int64
	OfMessage func(m Message) int64
}

// Spec registers an algorithm: who runs it and what they send, and, in
// its parts, what a learner can do to a run, what is drawn, what is
// checked and what is counted. A new kind of picture or figure is a field
// of its part, never of Spec.
type Spec struct {
	// ID is the algorithm's id in scenario files and on the command line.
	ID      string
	Title   string
	Summary string
	// MinN and MaxN bound the number of processes.
	MinN, MaxN int
	// Sizes, when set, are the only numbers of processes the algorithm
	// runs on without further params (Maekawa's request sets exist for
	// N = K(K−1)+1); a campaign draws among them.
	Sizes []int
	// DefaultNames names n processes when a scenario gives no names; nil
	// means LetterNames (A, B, C); algorithms whose processes have ids use
	// NumberNames.
	DefaultNames func(n int) []string
	Kinds        []KindSpec
	// New builds the nodes from the scenario's params (decode them with
	// DecodeParams), rejecting bad values with an error that names the field.
	New func(names []string, params json.RawMessage) ([]Node, error)
	// Done reports that the algorithm reached its goal (a snapshot completed,
	// a leader was elected); scenarios may stop there.
	Done func(v View) bool
	// Program, when set, says the algorithm is a program its user writes
	// (a learner's Python): a scenario gives the program's text as its
	// code, and Program makes the Spec of that program, which then runs
	// as any other. Its error names the line and column at fault.
	Program func(code string) (*Spec, error)
	// Learner is what a learner may do to a run.
	Learner LearnerSpec
	// Picture is what the page draws of the algorithm beyond its lanes
	// and messages.
	Picture PictureSpec
	// Checks are what every run is checked against, and the ways the
	// algorithm is known to break.
	Checks CheckSpec
	// Figures are the algorithm's figures of a run, for reports and the
	// page.
	Figures FigureSpec
}

// LearnerSpec is what a learner may do to an algorithm's run.
type LearnerSpec struct {
	Commands []CommandSpec
	// Switches are the boolean params a learner may flip on the page, to
	// run the same schedule again with and without (fencing, epochs).
	Switches []Switch
	// Record says the algorithm replays a record of what happened (a
	// log): its runs are read, not changed, so the engine refuses the
	// learner's faults, commands and deliveries (its own script still
	// runs).
	Record bool
}

// PictureSpec is how an algorithm is drawn beyond its message kinds.
type PictureSpec struct {
	// Roles say how the algorithm's annotations are drawn; every role an
	// algorithm annotates with must be here.
	Roles []RoleSpec
	// Topology is the graph the processes form, for the page's second
	// view; nil for none.
	Topology func(v View) *Topology
	// Overlays are the marks the algorithm draws over its pictures at the
	// step on screen (each process's state, who waits for whom, a link
	// held back, a recovery line); nil for none.
	Overlays func(v View) []Overlay
}

// CheckSpec is what an algorithm's runs are checked against.
type CheckSpec struct {
	Invariants []Invariant
	// KnownLimits are the ways the algorithm is known to break under
	// faults (non-FIFO channels break a snapshot's cut; a crashed
	// coordinator blocks everyone): a seeded campaign counts such a
	// violation as expected, and any other as a bug.
	KnownLimits []KnownLimit
	// MaxDelay, when set, is the longest a message may take for the
	// algorithm's default timeouts to work (timeouts stand in for failure
	// detection, as in the bully election): a campaign keeps to it, with
	// the earliest scheduler, and a slower message is a fault of its own
	// (delay, pause).
	MaxDelay Time
}

// FigureSpec is what an algorithm counts of a run.
type FigureSpec struct {
	// Metrics are the algorithm's figures for reports.
	Metrics func(v View) []Metric
	// Panels are the algorithm's tables for the page.
	Panels func(v View) []Panel
	// Formula compares the messages sent with the textbook's count, in a
	// sentence for the page ("Markers: 6 sent; N(N−1) = 6 per snapshot").
	Formula func(v View) string
	// NewTally makes the tally of a run of n processes; nil for none.
	NewTally func(n int) Tally
	// Measure is a quantity the processes and the messages between them
	// hold (the bank's money), which the cut tool adds up at a learner's
	// cut; nil for none.
	Measure *Measure
}

// Tally is what an algorithm's reports need to know about the whole run so
// far (the most processes ever in the critical section at once), kept up
// to date step by step by the engine: a report reads it at any step
// without reading the trace again. It sees only annotations, so it is the
// history an observer of the diagram has, never a node's secret.
type Tally interface {
	// Note takes the annotations one step of process node made at time at
	// (a crash's, too, which ends the process's intervals).
	Note(at Time, node NodeID, as []Annotation)
	// Clone copies the tally, for the engine's checkpoints.
	Clone() Tally
}

// Ledger is a Tally that also follows what the processes and the
// messages in flight carry between them: the engine tells it of every
// message that joins a channel (sent, or copied by the network) and that
// leaves one (delivered, or lost), and of every process after it steps.
// An invariant over such a quantity (credit recovery's credit, which must
// add up to 1) then costs what changed in a step, not a visit of every
// channel and every process.
type Ledger interface {
	Tally
	// Joined takes a message that joined a channel, Left one that left it.
	Joined(m Message)
	Left(m Message)
	// Stepped takes a process just after it stepped. Do not keep n.
	Stepped(id NodeID, n Node)
}

// KnownLimit says an invariant may fail in a run that has one of the
// listed faults (by registry name; a scenario whose network starts without
// FIFO counts as having "fifo"), or one of the algorithm's own commands
// that break it on purpose (a careless token regeneration).
type KnownLimit struct {
	Invariant string
	Faults    []string
	// Always says the algorithm breaks this way with no fault at all
	// (Maekawa's deadlock): every run excuses it.
	Always bool
	// When, if set, is the param of a switch the limit needs turned on:
	// central's re-election brings timeouts, and with them the faults
	// that fool a timeout. Unless is one it needs off: Maekawa's deadlock
	// is no limit of the version with INQUIRE.
	When, Unless string
	// Why says it in a sentence, for the campaign's summary.
	Why string
}

// Excuses reports whether the limits expect invariant inv to fail in a run
// with the given faults and the switches whose params are on, and why.
func (s *Spec) Excuses(inv string, faults, on map[string]bool) (string, bool) {
	for _, l := range s.Checks.KnownLimits {
		if l.Invariant != inv || l.When != "" && !on[l.When] || l.Unless != "" && on[l.Unless] {
			continue
		}
		if l.Always {
			return l.Why, true
		}
		for _, f := range l.Faults {
			if faults[f] {
				return l.Why, true
			}
		}
	}
	return "", false
}

// Names returns the default names of n processes.
func (s *Spec) Names(n int) []string {
	if s.DefaultNames != nil {
		return s.DefaultNames(n)
	}
	return LetterNames(n)
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
	for _, c := range s.Learner.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return CommandSpec{}, false
}

// IsCut says whether role draws a cut (StyleCut): a snapshot's points,
// which a ShiViz export marks on their events.
func (s *Spec) IsCut(role string) bool {
	r, ok := s.Role(role)
	return ok && r.Style == StyleCut
}

// Role returns the spec of an annotation role, and whether it is known.
func (s *Spec) Role(name string) (RoleSpec, bool) {
	for _, r := range s.Picture.Roles {
		if r.Name == name {
			return r, true
		}
	}
	return RoleSpec{}, false
}

// Envelope is a sent message as the checkers see it at some step.
type Envelope struct {
	ID       int
	From, To NodeID
	Message
	SendStep int
	// RecvStep is the step that delivered it, or -1 if it has not arrived
	// yet, and RecvTime when it arrived.
	RecvStep int
	RecvTime Time
	// DropStep is the step at which it was lost, or -1.
	DropStep int
	// Original is the message a process sent that a network duplicate
	// copies, through any copies between (its own id otherwise).
	Original int
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
	// Health is whether the process is up, crashed or paused.
	Health(id NodeID) Health
	Now() Time
	// LocalTime is a process's own clock (skew included).
	LocalTime(id NodeID) Time
	// Lamport and Vector are a process's clocks (do not modify the vector).
	Lamport(id NodeID) clock.Lamport
	Vector(id NodeID) clock.Vector
	// Timer reports whether a process has its timer tag armed, and when
	// it is due by the world's clock: what an invariant reads to tell a
	// process that waits for its timer from one that waits for nothing.
	Timer(id NodeID, tag string) (due Time, armed bool)
	// Drawn reports whether the diagram draws an interval of role and
	// group open on a process now (opened by its annotations and not yet
	// closed, by them or by a crash): what an invariant reads to hold the
	// picture to the process's state.
	Drawn(id NodeID, role string, group int) bool
	// DrawnBefore is Drawn as it stood before a step (after the steps
	// before it): whether the interval was open on the process at a cut
	// through its history, or when something began. The engine indexes
	// intervals as they are made: it costs a binary search of the steps
	// at which the process's interval opened or closed.
	DrawnBefore(id NodeID, role string, group, step int) bool
	// Steps is the number of steps taken so far.
	Steps() int
	// FIFO reports whether channels deliver in send order now.
	FIFO() bool
	// LinkUp reports whether the link from→to carries messages (a cut or a
	// partition loses them).
	LinkUp(from, to NodeID) bool
	// InFlight lists the ids of messages in flight on from→to, oldest first.
	InFlight(from, to NodeID) []int
	// NumSent is the number of messages sent so far; ids are 0 .. NumSent-1.
	NumSent() int
	// SentFrom is the id of the first message made at or after a step
	// (NumSent when none was): ids rise with the step that made them, so
	// that a check of what happened since a step need not visit the
	// messages before it.
	SentFrom(step int) int
	// InFlightCount counts every message in flight, without visiting them.
	InFlightCount() int
	// InFlightTotal counts the messages of a kind in flight, and sums their
	// values, without visiting them.
	InFlightTotal(kind string) Total
	// Envelope returns message id as it stands now.
	Envelope(id int) Envelope
	// LastAnnotations are the annotations of the step just taken.
	LastAnnotations() []Annotation
	// LastStep is the event the step just taken gave a process, and that
	// process; ok is false when no process took one (a fault, the end of
	// a pause, a command refused): what a check reads to hold a process
	// to what it was told.
	LastStep() (id NodeID, ev Event, ok bool)
	// AnnotationSteps gives, for each process, the first step at which it
	// made an annotation of this role and group, or -1. The engine indexes
	// annotations as they are made: it costs one lookup.
	AnnotationSteps(role string, group int) []int
	// AnnotationStep is AnnotationSteps for one process, without making
	// a slice: what a check reads at every step.
	AnnotationStep(id NodeID, role string, group int) int
	// Tally is the algorithm's tally of the run so far (Spec.Figures.NewTally), or
	// nil for an algorithm that keeps none. Do not modify it.
	Tally() Tally
}
