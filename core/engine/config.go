// Package engine runs a scenario: it keeps an event queue ordered by time
// and a stable rank, asks a scheduler which enabled event happens next,
// applies learner inputs and faults (through the fault registry), stamps
// Lamport and vector clocks on every record, records timers, checks
// invariants after every step, and seeks to any step by replaying from the
// nearest keyframe. A learner input at an earlier step forks a new future.
package engine

import (
	"errors"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/sim"
)

// Scheduler names how the engine picks the next event.
type Scheduler string

// The schedulers.
const (
	// Earliest runs a discrete-event simulation: the pending event with the
	// smallest (time, rank, due time, sequence) happens next; messages take
	// the network's random delay.
	Earliest Scheduler = "earliest"
	// Random advances one tick per step and picks at random what happens:
	// with the workload's probability a process does application work,
	// otherwise a random busy channel delivers (its head, if FIFO).
	Random Scheduler = "random"
	// Manual delivers the oldest deliverable message each step and leaves
	// every other choice to the learner.
	Manual Scheduler = "manual"
)

// Schedulers lists the schedulers, for validation messages.
var Schedulers = []Scheduler{Earliest, Random, Manual}

// Generator names the source of randomness.
type Generator string

// The generators.
const (
	// PCG splits the root seed into independent PCG streams.
	PCG Generator = "pcg"
	// Python draws the scheduler's and the nodes' choices from CPython's
	// Mersenne Twister, to replay the course texts' Python examples exactly.
	Python Generator = "python"
)

// Workload drives the application the algorithm runs beside.
type Workload struct {
	// P is the probability that a step of the Random scheduler is workload.
	P float64
	// Every bounds the gap between workload events for the Earliest scheduler.
	Every [2]sim.Time
	// Until stops the workload at this time (0: never).
	Until sim.Time
}

func (w Workload) activeAt(now sim.Time) bool { return w.Until == 0 || now < w.Until }

// Until says when a run stops; the first condition met wins.
type Until struct {
	Steps     int
	Time      sim.Time
	Quiescent bool
	// Done stops when the algorithm reports its goal reached.
	Done bool
}

// MaxSteps bounds every run, whatever its Until says.
const MaxSteps = 1_000_000

// Action is something a script or the learner makes happen: a fault from
// the registry (Fault names it), a command of the algorithm, or, when both
// are empty, the delivery of message Msg.
type Action struct {
	Fault   string `json:"fault,omitempty"`
	Command string `json:"command,omitempty"`
	faults.Args
	// Arg is a command's number.
	Arg int64 `json:"arg,omitempty"`
}

// Deliver is the action of delivering message id next.
func Deliver(id int) Action {
	return Action{Args: faults.OfMessage(id)}
}

// Command is the action of running a command at a process.
func Command(name string, node, target sim.NodeID, arg int64) Action {
	a := Action{Command: name, Args: faults.NoArgs(), Arg: arg}
	a.Node, a.Target = node, target
	return a
}

// Fault is the action of a fault with its arguments.
func Fault(name string, args faults.Args) Action { return Action{Fault: name, Args: args} }

// Timed is a script entry: an action at a simulated time.
type Timed struct {
	At sim.Time
	Action
}

// Input is a learner's action taken as step Step.
type Input struct {
	Step int
	Action
}

// Config fully determines a run.
type Config struct {
	Spec  *sim.Spec
	Names []string
	// Nodes are the initial nodes, from Spec.New.
	Nodes []sim.Node
	// Down lists the processes that are down from the start: they take no
	// Init step until they recover.
	Down      []sim.NodeID
	Seed      uint64
	Net       network.Config
	Scheduler Scheduler
	Generator Generator
	Workload  *Workload
	// Script is sorted by time; entries at equal times keep their order.
	Script []Timed
	Until  Until
	// KeyframeEvery is the least spacing of rewind keyframes (default
	// 128 steps, times n/4 beyond 4 processes). A world that is costly to
	// copy is copied less often, so that keyframes keep a few words a
	// step whatever the world holds.
	KeyframeEvery int
	// Budget, when set, bounds the work this run may take on a caller's
	// behalf (a server prerendering a link); nil bounds it by MaxSteps alone.
	Budget *Budget
}

// Budget bounds what the runs that share it may take, for a caller that
// computes runs on someone else's behalf: a server prerendering a link, or
// a page opening one, must not spend seconds and gigabytes because a link
// asks for a million steps of 64 processes. It counts in the units that
// hurt: the memory the runs keep (their trace by the room it takes, their
// keyframes, the live world and, measured every so often, the processes'
// own states, as the engine reckons them) and their work (one unit per
// process a step, since a step's clocks and checks grow with the world,
// and one per word a keyframe copies), and it asks the caller before
// every step whether to give up (its time is up, or its client has gone).
// A run that passes the budget stops early with Stopped() ==
// StoppedBudget, and Cause says why.
type Budget struct {
	// Work is the most work the runs may take together; 0 means no bound.
	Work int64
	// Bytes is the most memory the runs may keep together, in bytes as the
	// engine reckons them; 0 means no bound.
	Bytes int64
	// Cancelled is asked before every step whether to give up; nil means
	// never. It is called often: an atomic load, or a clock read every so
	// many calls.
	Cancelled func() bool
	used      int64
	kept      int64
	cause     Cause
}

// Cause says why a budget ran out.
type Cause uint8

// The causes.
const (
	// NotSpent: the budget has not run out.
	NotSpent Cause = iota
	// OutOfWork: the runs took all the work allowed.
	OutOfWork
	// OutOfMemory: the runs would keep more memory than allowed.
	OutOfMemory
	// Cancelled: the caller gave up (its time was up, or its client left).
	Cancelled
)

var causeWords = [...]string{"", "it would take more work than allowed", "it would keep more memory than allowed", "it was cancelled"}

// String says why in plain words.
func (c Cause) String() string {
	if int(c) < len(causeWords) {
		return causeWords[c]
	}
	return "unknown"
}

// StoppedBudget is Stopped() of a run cut short by its Budget.
const StoppedBudget = "budget"

// Exhausted reports whether a run sharing the budget was cut short by it.
func (b *Budget) Exhausted() bool { return b != nil && b.cause != NotSpent }

// Cause says why the budget ran out, NotSpent while it has not.
func (b *Budget) Cause() Cause {
	if b == nil {
		return NotSpent
	}
	return b.cause
}

// Used is the work spent so far.
func (b *Budget) Used() int64 { return b.used }

// Kept is the memory the runs keep so far, in bytes as the engine reckons
// them (what a fork forgot is still counted).
func (b *Budget) Kept() int64 { return b.kept }

// allows charges one step of n processes and reports whether the run may
// take it; a nil budget allows every step.
func (b *Budget) allows(n int) bool {
	if b == nil {
		return true
	}
	if b.cause != NotSpent {
		return false
	}
	if b.Cancelled != nil && b.Cancelled() {
		b.cause = Cancelled
		return false
	}
	b.used += int64(n)
	switch {
	case b.Work > 0 && b.used > b.Work:
		b.cause = OutOfWork
	case b.Bytes > 0 && b.kept > b.Bytes:
		b.cause = OutOfMemory
	}
	return b.cause == NotSpent
}

// charge adds work and kept memory; the next step's allows says whether
// they were too much.
func (b *Budget) charge(work, bytes int64) {
	if b != nil {
		b.used += work
		b.kept += bytes
	}
}

// Keep adds memory a caller keeps besides its runs (a search's visited
// states) and reports whether it is within the budget; past it, the
// budget is spent (Cause: OutOfMemory) for the runs that share it too. A
// nil budget keeps anything.
func (b *Budget) Keep(bytes int64) bool {
	if b == nil {
		return true
	}
	b.kept += bytes
	if b.cause == NotSpent && b.Bytes > 0 && b.kept > b.Bytes {
		b.cause = OutOfMemory
	}
	return b.cause != OutOfMemory
}

// ErrBudget says a run stopped at its budget before it got where it was
// asked to go (see Run.ForkWithin).
var ErrBudget = errors.New("the run stopped at its budget")
