// Package bully is Garcia-Molina's bully election (1982; seed 000): a
// process that notices the coordinator is gone sends ELECTION to every
// process with a higher id (it cannot know which are alive) and waits for
// an OK. With none before its timeout, it declares itself coordinator and
// sends COORDINATOR to everyone; a process that got an OK waits for the
// COORDINATOR and starts over if that times out. A process that receives
// ELECTION answers OK and takes the election over, so the highest live id
// wins, and one that recovers holds an election and bullies its way back.
// Failure detection is by timeouts in simulated time.
package bully

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/algo/election"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "bully"

// The message kinds and timers: the bully election's (see election.Bully).
const (
	KindElection     = election.KindElection
	KindOK           = election.KindOK
	KindCoordinator  = election.KindCoordinator
	TimerOK          = election.TimerOK
	TimerCoordinator = election.TimerCoordinator
	// MaxTimeout bounds the timeouts.
	MaxTimeout = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Timeout is how long a process waits for an OK (ticks, default 5):
	// it must outlast a round trip to a live higher process.
	Timeout sim.Time `json:"timeout"`
	// Wait is how long a process that got an OK waits for the COORDINATOR
	// (ticks, default 12): it must outlast the higher process's own
	// election.
	Wait sim.Time `json:"wait"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:      ID,
	Title:   "Bully election",
	Summary: "A process that notices the coordinator is gone sends ELECTION to every higher id; an OK means a higher process takes over, silence means it wins and sends COORDINATOR. The highest live id wins.",
	MinN:    2,
	MaxN:    64,
	Checks: sim.CheckSpec{
		MaxDelay:   2, // the default timeouts outlast a round trip and a higher election at this delay
		Invariants: []sim.Invariant{election.Agreement, election.OneLeader, election.Drawn, election.WaitsOnATimeout, election.BullyRules, starts},
		KnownLimits: []sim.KnownLimit{
			{Invariant: election.AgreementName, Faults: []string{"drop", "cut", "partition", "delay", "pause"}, Why: "the timeouts stand in for a failure detector: a lost, slow or paused answer looks like a dead process, and a process that is only cut off or slow elects itself beside the real leader"},
			{Invariant: election.OneLeaderName, Faults: []string{"drop", "cut", "partition", "delay", "pause"}, Why: "a leader that is only paused, slow or cut off looks dead to the timeouts: another is elected, and the old one still leads until it hears of it (the algorithm has no epochs)"},
			// found by varying bully-flapping: 3 asks the crashed 5 at
			// tick 91, 5 recovers at 95 and wins, and its OK to 3's
			// ELECTION, which waited in its channel, arrives at 96, as
			// 3's 5 ticks run out: 3 wins too, until 5 bullies it again
			{Invariant: election.OneLeaderName, Faults: []string{"recover"}, Why: "a process that recovers answers the ELECTIONs that waited for it while it was down only now: an asker whose wait for an OK has run out elects itself beside it, until the recovered process bullies it again"},
		},
	},
	DefaultNames: sim.NumberNames,
	Kinds:        election.BullyKinds,
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{election.Start},
	},
	Picture: sim.PictureSpec{
		Roles:    election.Roles,
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// Process is one process: the bully election's part, and whether it
// noticed on its own that the coordinator was gone.
type Process struct {
	election.Bully
	// Noticed says the process noticed on its own that the coordinator was
	// gone (the learner's or the script's start-election): the seed's log
	// starts there.
	Noticed bool
}

// Election is the process's part of the election.
func (p *Process) Election() *election.Belief { return &p.Belief }

// Bullying is the process's bully election.
func (p *Process) Bullying() *election.Bully { return &p.Bully }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Timeout: 5, Wait: 12}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		field string
		v     sim.Time
	}{{"params.timeout", p.Timeout}, {"params.wait", p.Wait}} {
		if err := sim.CheckTicks(t.field, t.v, MaxTimeout); err != nil {
			return nil, err
		}
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		// everyone starts following the highest id
		nodes[i] = &Process{Bully: election.Bully{Belief: election.Belief{Leader: sim.NodeID(len(names) - 1)}, Timeout: p.Timeout, Wait: p.Wait}}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if env.Now() > 0 {
			// down from the start, it comes up late: like a recovery
			env.Explain("%s comes up and holds an election to learn who leads: %s", me, p.Start(env))
			return
		}
		if p.Leader == env.Self() {
			p.Lead(env)
			env.Explain("%s has the highest id and leads", me)
			return
		}
		env.Explain("%s follows %s, the highest id", me, env.Name(p.Leader))
	case sim.Recover:
		p.Forget(env)
		p.Asking = false
		env.Explain("%s recovers and holds an election to learn who leads: %s", me, p.Start(env))
	case sim.Command:
		if p.Electing {
			env.Explain("%s is already running an election", me)
			return
		}
		p.Noticed = true
		env.Explain("%s notices that the coordinator %s is gone: %s", me, env.Name(p.Leader), p.Start(env))
	case sim.Timer:
		p.Timer(env, ev.Tag)
	case sim.Deliver:
		p.Deliver(env, ev)
	}
}

// Inspect shows whom the process follows and where its election stands.
func (p *Process) Inspect() []sim.Field {
	return []sim.Field{
		{Name: "follows", Value: fmt.Sprint(p.Leader.Number())},
		{Name: "state", Value: p.State()},
		{Name: "elections", Value: fmt.Sprint(p.Elections)},
	}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	return &c
}

func metrics(v sim.View) []sim.Metric {
	sent, received := 0, 0
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		sent += p.Sent
		received += p.Received
	}
	return append(election.Metrics(v),
		sim.Metric{Name: "election_messages", Value: sent},
		sim.Metric{Name: "election_messages_received", Value: received},
	)
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Bully election", Note: "ELECTION goes to every higher id; an OK hands the election to a higher process", Columns: []string{"process", "health", "follows", "state", "ELECTION sent", "received"}}
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		panel.Rows = append(panel.Rows, election.Row(v, sim.NodeID(i), p.State(), fmt.Sprint(p.Sent), fmt.Sprint(p.Received)))
	}
	panels := []sim.Panel{panel}
	if log := seedPanel(v); log != nil {
		panels = append(panels, *log)
	}
	return panels
}

// seedPanel is seed 000's Python program run on this run: its log for
// the lowest process that noticed the coordinator was gone, with the
// processes alive now, in the program's own words. The program knows who
// is alive; the processes of the run do not, and also send ELECTION to
// the dead.
func seedPanel(v sim.View) *sim.Panel {
	initiator, alive := -1, []int{}
	for i := range v.N() {
		if v.Node(sim.NodeID(i)).(*Process).Noticed && initiator < 0 {
			initiator = sim.NodeID(i).Number()
		}
		if v.Health(sim.NodeID(i)) != sim.Crashed {
			alive = append(alive, sim.NodeID(i).Number())
		}
	}
	if initiator < 0 || !slices.Contains(alive, initiator) {
		return nil
	}
	p := &sim.Panel{Title: "Seed 000's log", Note: "the seed's Python program on this run: who noticed, and who is alive", Columns: []string{"it prints"}, Output: true}
	for _, line := range SeedLog(initiator, alive) {
		p.Rows = append(p.Rows, sim.Row{Cells: []string{line}})
	}
	return p
}

// SeedLog is seed 000's bully program, line for line: the log of an
// election that initiator starts among the alive processes (numbers), its
// coordinator, and the ELECTION messages if every process started one.
func SeedLog(initiator int, alive []int) []string {
	var log []string
	var bully func(initiator int) int
	bully = func(initiator int) int {
		var higher []int
		for _, p := range alive {
			if p > initiator {
				higher = append(higher, p)
			}
		}
		slices.Sort(higher)
		if len(higher) == 0 {
			log = append(log, fmt.Sprintf("%d sends ELECTION to nobody", initiator), fmt.Sprintf("%d wins and sends COORDINATOR to all", initiator))
			return initiator
		}
		log = append(log, fmt.Sprintf("%d sends ELECTION to %s", initiator, pyList(higher)))
		verb := "reply"
		if len(higher) == 1 {
			verb = "replies"
		}
		log = append(log, fmt.Sprintf("%s %s OK to %d; %d waits", joinInts(higher, ", "), verb, initiator, initiator))
		return bully(higher[0])
	}
	winner := bully(initiator)
	msgs := 0
	for _, p := range alive {
		for _, q := range alive {
			if q > p {
				msgs++
			}
		}
	}
	return append(log, fmt.Sprintf("coordinator: %d", winner), fmt.Sprintf("ELECTION messages if every process starts an election (worst case): %d", msgs))
}

// pyList writes numbers as Python prints a list: [3, 4, 6].
func pyList(xs []int) string { return "[" + joinInts(xs, ", ") + "]" }

func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}

// formula compares the ELECTION count with the worst case n(n−1)/2.
func formula(v sim.View) string {
	sent, received := 0, 0
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		sent += p.Sent
		received += p.Received
	}
	n := v.N()
	return fmt.Sprintf("ELECTION messages: %d sent, %d received by live processes; n(n−1)/2 = %d when the lowest id starts and every process is alive.", sent, received, n*(n-1)/2)
}
