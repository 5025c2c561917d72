// Package ringelection is Chang and Roberts's ring election (1979; seed
// 000): the processes form a logical ring, each sending to the next. An
// initiator sends ELECTION with its own id; a process forwards an ELECTION
// carrying a larger id than its own, replaces a smaller one by its own id
// if it has not yet sent its id, and discards it if it has (its own, being
// larger, is already on its way). The process whose own id comes back is
// the largest: it announces itself with ELECTED around the ring. One
// starter sends 3N−1 messages at worst (the successor of the highest
// starts) and 2N when the highest starts; when every process starts on a
// ring whose ids fall the way messages travel, N(N+1)/2 ELECTIONs and N
// ELECTEDs, the algorithm's worst.
//
// Seed 000 also describes the ring election whose message collects every
// identifier (Le Lann's, 1977, as textbooks give it): params.collect_ids
// (a switch) runs it, in collect.go.
package ringelection

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/election"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "ring-election"

// The message kinds.
const (
	KindElection = "ELECTION"
	KindElected  = "ELECTED"
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Ring lists the process numbers around the ring, each sending to the
	// next (default 1, 2, …, n).
	Ring []int `json:"ring"`
	// CollectIDs runs the election whose ELECTION collects every id
	// (collect.go) instead of carrying the largest.
	CollectIDs bool `json:"collect_ids"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Ring election (Chang–Roberts)",
	Summary:      "An ELECTION carrying the largest id seen goes around a logical ring; the process whose own id comes back announces itself with ELECTED. 3N−1 messages at worst for one starter, 2N at best; up to N(N+1)/2 + N when all start.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindElection, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindElected, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphDiamond},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{election.Start},
		Switches: []sim.Switch{CollectSwitch},
	},
	Picture: sim.PictureSpec{
		Roles: election.Roles,
		Topology: func(v sim.View) *sim.Topology {
			return sim.RingOf(sim.RingFrom(v.N(), func(id sim.NodeID) sim.NodeID { return v.Node(id).(*Process).Next }))
		},
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{election.Agreement, finishes, drawnElecting, election.Drawn, rules},
		KnownLimits: []sim.KnownLimit{
			{Invariant: election.AgreementName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "the ring must stay whole: an ELECTION or ELECTED lost, or held by a crashed process, stops the election where it is"},
			{Invariant: finishesName, Faults: []string{"crash", "drop", "cut", "partition", "fifo"}, Why: "the ring has no timeouts: an ELECTION or ELECTED that is lost, or waits for a crashed process, leaves the election unfinished, and without FIFO a new ELECTION can overtake the last ELECTED and be discarded by a process that still takes part in the old election"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

const finishesName = "an election finishes"

// finishes is the invariant that an election under way can go on: some
// message of it is on its way to a live process. The ring has no timers,
// so with none, the election is stuck.
var finishes = sim.Invariant{
	Name: finishesName,
	Help: "while a process takes part in an election, its ELECTION or ELECTED is on its way somewhere it can be handled",
	Check: func(v sim.View) sim.Verdict {
		var waiting []string
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) != sim.Crashed && v.Node(id).(*Process).Electing {
				waiting = append(waiting, v.Name(id))
			}
		}
		if len(waiting) == 0 || check.InFlightToLive(v) {
			return sim.Verdict{OK: true}
		}
		verb := " takes"
		if len(waiting) > 1 {
			verb = " take"
		}
		return sim.Verdict{Detail: strings.Join(waiting, ", ") + verb + " part in an election, but no ELECTION or ELECTED is on its way to a live process: it was lost, or waits for a crashed one"}
	},
}

const drawnElectingName = "a process is drawn electing while it takes part"

// drawnElecting holds the diagram's outline, "running an election", to
// the process's part in Chang and Roberts's election: a process that has
// sent an ELECTION with its own or a larger id (a participant) is
// electing until ELECTED passes it, and only such a process is. (In the
// election that collects every id, a process that only passed another's
// ELECTION on is electing too, and a starter follows the leader as soon
// as any starter's ELECTED passes it: there the two differ by design.)
var drawnElecting = sim.Invariant{
	Name: drawnElectingName,
	Help: "in Chang and Roberts's election, a process is outlined as electing exactly while it takes part: from the ELECTION it sends until ELECTED passes it",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			p := v.Node(id).(*Process)
			switch {
			case p.Collect || v.Health(id) == sim.Crashed:
			case p.Participant && !p.Electing:
				return sim.Verdict{Detail: v.Name(id) + " has sent an ELECTION of this election, and no ELECTED has passed it, but it is not drawn as electing"}
			case p.Electing && !p.Participant:
				return sim.Verdict{Detail: v.Name(id) + " is drawn as electing, but has sent no ELECTION of an election under way"}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// Process is one process of the ring.
type Process struct {
	election.Belief
	// Next is the successor on the ring.
	Next sim.NodeID
	// Participant says the process has sent an ELECTION with its own or a
	// larger id in the election running, so it discards smaller ones.
	Participant bool
	// Sent counts the messages this process sent.
	Sent int
	// Collect says the process runs the election that collects every id
	// (Params.CollectIDs).
	Collect bool
}

// Election is the process's part of the election.
func (p *Process) Election() *election.Belief { return &p.Belief }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	var p Params
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	ring, err := sim.ReadRing(p.Ring, len(names))
	if err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i, id := range ring {
		// everyone starts following the highest id
		nodes[id] = &Process{Belief: election.Belief{Leader: sim.NodeID(len(names) - 1)}, Next: ring[(i+1)%len(ring)], Collect: p.CollectIDs}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me, next := env.Name(env.Self()), env.Name(p.Next)
	switch ev.Kind {
	case sim.Init:
		if p.Leader == env.Self() {
			p.Lead(env)
			env.Explain("%s has the highest id and leads; its successor on the ring is %s", me, next)
			return
		}
		env.Explain("%s follows %s, the highest id; its successor on the ring is %s", me, env.Name(p.Leader), next)
	case sim.Recover:
		p.Forget(env)
		p.Participant = false
		env.Explain("%s recovers and has forgotten any election it took part in", me)
	case sim.Command:
		if p.Collect {
			p.startCollecting(env)
			return
		}
		if p.Participant {
			env.Explain("%s already takes part in an election", me)
			return
		}
		p.Begin(env)
		p.Participant = true
		p.send(env, KindElection, env.Self())
		env.Explain("%s starts an election: ELECTION(%s) to %s", me, me, next)
	case sim.Deliver:
		id := sim.NodeID(ev.Msg.Value)
		if id < 0 || int(id) >= env.N() {
			env.Explain("%s ignores a message naming no process (%d)", me, ev.Msg.Value)
			return
		}
		if p.Collect {
			p.collecting(env, ev.Msg)
			return
		}
		switch ev.Msg.Kind {
		case KindElection:
			p.onElection(env, id)
		case KindElected:
			p.onElected(env, id)
		}
	}
}

// onElection is the rule for an ELECTION carrying id.
func (p *Process) onElection(env *sim.Env, id sim.NodeID) {
	me, next, who := env.Name(env.Self()), env.Name(p.Next), env.Name(id)
	switch self := env.Self(); {
	case id > self:
		if !p.Participant {
			p.Begin(env)
		}
		p.Participant = true
		p.send(env, KindElection, id)
		env.Explain("%s forwards ELECTION(%s) to %s: %s > %s", me, who, next, who, me)
	case id < self && !p.Participant:
		p.Begin(env)
		p.Participant = true
		p.send(env, KindElection, self)
		env.Explain("%s replaces ELECTION(%s) by its own, ELECTION(%s), to %s: %s > %s", me, who, me, next, me, who)
	case id < self:
		env.Explain("%s discards ELECTION(%s): it has already sent its own id, which is larger", me, who)
	default:
		// its own id came all the way round: nobody on the ring is larger
		p.Announce(env, self) // it runs the election until ELECTED comes back
		// it takes part, though a crash since it sent its ELECTION made
		// it forget that
		p.Participant = true
		p.send(env, KindElected, self)
		env.Explain("%s gets its own ELECTION(%s) back: no id on the ring is larger, so it leads and sends ELECTED(%s) to %s", me, me, me, next)
	}
}

// onElected is the rule for the announcement of leader id.
func (p *Process) onElected(env *sim.Env, id sim.NodeID) {
	me, next, who := env.Name(env.Self()), env.Name(p.Next), env.Name(id)
	p.Participant = false
	if id == env.Self() {
		p.Settle(env)
		env.Explain("%s gets its ELECTED(%s) back: every process on the ring knows it leads", me, me)
		return
	}
	p.Follow(env, id)
	p.send(env, KindElected, id)
	env.Explain("%s follows %s and passes ELECTED(%s) on to %s", me, who, who, next)
}

func (p *Process) send(env *sim.Env, kind string, id sim.NodeID) {
	env.Send(p.Next, sim.Message{Kind: kind, Value: int64(id), Label: kind + "(" + env.Name(id) + ")"})
	p.Sent++
}

// Inspect shows whom the process follows and whether it takes part.
func (p *Process) Inspect() []sim.Field {
	return []sim.Field{
		{Name: "follows", Value: strconv.Itoa(p.Leader.Number())},
		{Name: "participant", Value: strconv.FormatBool(p.Participant)},
		{Name: "next", Value: strconv.Itoa(p.Next.Number())},
	}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	return &c
}

func sent(v sim.View) int {
	n := 0
	for i := range v.N() {
		n += v.Node(sim.NodeID(i)).(*Process).Sent
	}
	return n
}

func metrics(v sim.View) []sim.Metric {
	return append(election.Metrics(v), sim.Metric{Name: "election_messages", Value: sent(v)})
}

func panels(v sim.View) []sim.Panel {
	note := "an ELECTION carries the largest id seen; a participant discards smaller ones"
	if v.Node(0).(*Process).Collect {
		note = "an ELECTION collects every id on its way round; its starter announces the largest"
	}
	panel := sim.Panel{Title: "Ring election", Note: note, Columns: []string{"process", "health", "follows", "participant", "passes to"}}
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		part := ""
		if p.Participant {
			part = "yes"
		}
		panel.Rows = append(panel.Rows, election.Row(v, sim.NodeID(i), part, v.Name(p.Next)))
	}
	return []sim.Panel{panel}
}

// formula compares the messages with 3N−1 and 2N, or, collecting every
// id, with 2N and 2N².
func formula(v sim.View) string {
	n := v.N()
	if v.Node(0).(*Process).Collect {
		return fmt.Sprintf("ELECTION and ELECTED messages: %d; collecting every id, one starter sends 2N = %d wherever it stands, each ELECTION carrying up to N = %d ids; with every process starting, 2N² = %d (Chang–Roberts: 3N−1 = %d at worst for one, N(N+1)/2 + N = %d for all).", sent(v), 2*n, n, 2*n*n, 3*n-1, n*(n+1)/2+n)
	}
	return fmt.Sprintf("ELECTION and ELECTED messages: %d; one starter sends 3N−1 = %d when it is the successor of the highest id (its worst), 2N = %d when it is the highest; with every process starting, up to N(N+1)/2 + N = %d.", sent(v), 3*n-1, 2*n, n*(n+1)/2+n)
}
