// Package engine runs a scenario: it keeps an event queue ordered by time
// and a stable rank, asks a scheduler which enabled event happens next,
// applies learner inputs and faults (through the fault registry), stamps
// Lamport and vector clocks on every record, records timers, checks
// invariants after every step, and seeks to any step by replaying from the
// nearest checkpoint. A learner input at an earlier step forks a new future.
package engine

import (
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
	// CheckpointEvery is the spacing of rewind checkpoints (default 128
	// steps, times n/4 beyond 4 processes).
	CheckpointEvery int
	// Budget, when set, bounds the work this run may take on a caller's
	// behalf (a server prerendering a link); nil bounds it by MaxSteps alone.
	Budget *Budget
}

// Budget bounds the work of the runs that share it, for a caller that
// computes runs on someone else's behalf: a server prerendering a link
// must not spend seconds and gigabytes because a link asks for a million
// steps of 64 processes. A recorded step costs one unit per process, since
// its clocks, checks and checkpoints grow with the world. A run that
// passes the budget, or whose Cancelled says so, stops early with
// Stopped() == StoppedBudget.
type Budget struct {
	// Work is the most process-steps the runs may take together.
	Work int64
	// Cancelled is asked every few thousand steps whether to give up (the
	// client has gone away); nil means never.
	Cancelled func() bool
	used      int64
	polls     int
	spent     bool
}

// StoppedBudget is Stopped() of a run cut short by its Budget.
const StoppedBudget = "budget"

// Exhausted reports whether a run sharing the budget was cut short by it.
func (b *Budget) Exhausted() bool { return b != nil && b.spent }

// Used is the work spent so far, in process-steps.
func (b *Budget) Used() int64 { return b.used }

// allows charges one step of n processes and reports whether the run may
// take it; a nil budget allows every step.
func (b *Budget) allows(n int) bool {
	if b == nil {
		return true
	}
	if b.spent {
		return false
	}
	b.used += int64(n)
	if b.polls++; b.polls%4096 == 0 && b.Cancelled != nil && b.Cancelled() {
		b.spent = true
	}
	if b.used > b.Work {
		b.spent = true
	}
	return !b.spent
}
