// Package raft is Raft's leader election and log replication (Ongaro and
// Ousterhout, 2014), the bridge from the course's epochs and majorities
// to consensus. Every server starts as a follower; one that hears no
// leader for its election timeout, drawn at random from params.election,
// becomes a candidate of the next term and asks for votes (RequestVote,
// refused to a candidate whose log is behind the voter's). A majority
// makes it the leader of that term, which sends AppendEntries: new
// entries, and heartbeats that hold the followers' timers back. A
// follower accepts entries only after an entry matching the leader's at
// the index before them, and the leader backs off until they match. An
// entry is committed once a majority holds it and it is of the leader's
// own term; the entries before it are committed with it. Term, vote and
// log survive a crash; the commit index and the state machine (a register
// the commands set) do not.
//
// Two switches break it on purpose: equal timeouts, which let the servers
// split their votes for ever, and committing by counting replicas, the
// rule that the paper's Figure 8 shows losing a committed entry.
package raft

import (
	"encoding/json"
	"fmt"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "raft"

// The message kinds: a candidate's request, the vote given or refused,
// the leader's entries (a heartbeat carries none), and the follower's
// answer.
const (
	KindRequestVote = "REQUEST-VOTE"
	KindVote        = "VOTE"
	KindRefuse      = "REFUSE"
	KindAppend      = "APPEND"
	KindAck         = "ACK"
	KindNack        = "NACK"
)

// The timers and the commands.
const (
	TimerElection  = "election"
	TimerHeartbeat = "heartbeat"
	// CmdSubmit is a client's command, taken by the leader, which appends
	// it; CmdTimeout makes a server's election timer run out now.
	CmdSubmit  = "submit"
	CmdTimeout = "timeout"
)

// Limits on what a scenario may ask for.
const (
	maxTicks   = 1_000_000
	maxEntries = 10_000 // entries all the params' logs may hold together
	maxBatch   = 64
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Election is the range an election timeout is drawn from, in ticks
	// (default [20, 40]); Heartbeat is the leader's period (default 6).
	Election  []sim.Time `json:"election"`
	Heartbeat sim.Time   `json:"heartbeat"`
	// Randomized draws every election timeout from the range (default
	// true); without it every timeout is the range's least, the same for
	// every server.
	Randomized *bool `json:"randomized"`
	// CountReplicas is the wrong commit rule: an entry of an earlier term
	// is committed once a majority holds it (default false).
	CountReplicas bool `json:"count_replicas"`
	// Batch is the most entries one APPEND carries (default 4).
	Batch int `json:"batch"`
	// Terms and Logs set where the servers start: each one's current term,
	// and its log as the terms of its entries, each of which sets x to its
	// term (the paper's figures start so). Terms defaults to each log's
	// last term.
	Terms []int64   `json:"terms"`
	Logs  [][]int64 `json:"logs"`
}

// Config is what every member of a group shares: its timing and rules.
type Config struct {
	// ElectionMin and ElectionMax bound an election timeout, and
	// Heartbeat is a leader's period (ticks).
	ElectionMin, ElectionMax, Heartbeat sim.Time
	// Randomized draws each timeout within the bounds (else every timeout
	// is the least); CountReplicas is Figure 8's wrong commit rule.
	Randomized, CountReplicas bool
	// NoOp makes a new leader append an empty entry of its term, so that
	// what it inherited is committed without waiting for a command.
	NoOp bool
	// Batch is the most entries an APPEND carries.
	Batch int
}

// Role is a server's role: follower, candidate or leader.
type Role uint8

// The roles.
const (
	Follower Role = iota
	Candidate
	Leader
)

var roleNames = [...]string{"follower", "candidate", "leader"}

// String names the role.
func (r Role) String() string { return roleNames[r] }

// The annotation roles.
const (
	roleLeader    = "leader"
	roleCandidate = "candidate"
	roleTerm      = "term"
	roleCommit    = "commit"
	roleAppended  = "appended"
	roleState     = "state"
	roleLog       = "log"
)

// Kinds are Raft's message kinds, for an algorithm that embeds a Replica.
var Kinds = []sim.KindSpec{
	{Name: KindRequestVote, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
	{Name: KindVote, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
	{Name: KindRefuse, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
	{Name: KindAppend, Role: sim.RoleMessage, Tone: sim.Purple, Glyph: sim.GlyphDiamond},
	{Name: KindAck, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphOpenSquare},
	{Name: KindNack, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphOpenTriangle},
}

// Roles are how Raft's annotations and overlays are drawn, for an
// algorithm that embeds a Replica (its overlays: Overlays).
var Roles = []sim.RoleSpec{
	{Name: roleLeader, Style: sim.StyleBar, Tone: sim.Purple, Legend: "leader of a term"},
	{Name: roleCandidate, Style: sim.StyleOutline, Tone: sim.Blue, Legend: "candidate, asking for votes"},
	{Name: roleTerm, Style: sim.StyleLabel, Tone: sim.Grey, Legend: "learns of a new term"},
	{Name: roleCommit, Style: sim.StyleGlyph, Glyph: sim.GlyphSquare, Tone: sim.Green, Legend: "the leader commits up to an index"},
	{Name: roleAppended, Style: sim.StyleHidden},
	{Name: roleState, Style: sim.StyleState, Tone: sim.Ink, Legend: "role and term"},
	{Name: roleLog, Style: sim.StyleCells, Tone: sim.Ink, Legend: "log: each entry's term, filled once committed"},
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Raft: elections and log replication",
	Summary:      "Servers elect a leader of a term by majority, with randomized timeouts; the leader replicates its log, and an entry of its term held by a majority is committed.",
	MinN:         3,
	MaxN:         9,
	DefaultNames: sim.NumberNames,
	Kinds:        Kinds,
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: CmdSubmit, Help: "a client asks the leader to append a command that sets the register", Arg: "value", ArgMin: 1, ArgMax: 99,
				Takes: func(v sim.View, id sim.NodeID) bool { return v.Node(id).(*Server).Role == Leader }, Who: "leaders"},
			{Name: CmdTimeout, Help: "make the server's election timer run out now: it stands for the next term",
				Takes: func(v sim.View, id sim.NodeID) bool { return v.Node(id).(*Server).Role != Leader }, Who: "followers and candidates (a leader has no election timer)"},
		},
		Switches: []sim.Switch{
			{Param: "randomized", Default: true, Variant: true, Label: "randomized timeouts", Help: "Run the same schedule again with every election timeout the same: candidates that start together split the votes"},
			{Param: "count_replicas", Default: false, Label: "commit by counting replicas (wrong)", Help: "Run the same schedule again with the rule of the paper's Figure 8: an entry of an earlier term counts as committed once a majority holds it"},
		},
	},
	Picture: sim.PictureSpec{
		Roles:    Roles,
		Topology: sim.CompleteTopology,
		Overlays: overlays,
	},
	New: newServers,
	Checks: sim.CheckSpec{
		Invariants: invariants,
	},
	Figures: sim.FigureSpec{
		Metrics:  metrics,
		Panels:   panels,
		Formula:  formula,
		NewTally: newTally,
	},
	Done: func(v sim.View) bool { return leaderOf(v) != sim.None },
}

func newServers(names []string, raw json.RawMessage) ([]sim.Node, error) {
	par := Params{Election: []sim.Time{20, 40}, Heartbeat: 6, Batch: 4}
	if err := sim.DecodeParams(raw, &par); err != nil {
		return nil, err
	}
	n := len(names)
	if len(par.Election) != 2 {
		return nil, strictjson.FieldErrorf("params.election", "want [least, most] ticks, got %d numbers", len(par.Election))
	}
	lo, hi := par.Election[0], par.Election[1]
	switch {
	case lo < 1 || hi > maxTicks:
		return nil, strictjson.FieldErrorf("params.election", "want ticks from 1 to %d, got [%d, %d]", maxTicks, lo, hi)
	case hi < lo:
		return nil, strictjson.FieldErrorf("params.election", "want the least first, got [%d, %d]", lo, hi)
	case par.Heartbeat < 1 || par.Heartbeat > maxTicks:
		return nil, strictjson.FieldErrorf("params.heartbeat", "want ticks from 1 to %d, got %d", maxTicks, par.Heartbeat)
	case par.Batch < 1 || par.Batch > maxBatch:
		return nil, strictjson.FieldErrorf("params.batch", "want from 1 to %d entries, got %d", maxBatch, par.Batch)
	case par.Logs != nil && len(par.Logs) != n:
		return nil, strictjson.FieldErrorf("params.logs", "want a log for each of the %d servers, got %d", n, len(par.Logs))
	case par.Terms != nil && len(par.Terms) != n:
		return nil, strictjson.FieldErrorf("params.terms", "want a term for each of the %d servers, got %d", n, len(par.Terms))
	}
	cfg := &Config{ElectionMin: lo, ElectionMax: hi, Heartbeat: par.Heartbeat, Randomized: par.Randomized == nil || *par.Randomized,
		CountReplicas: par.CountReplicas, Batch: par.Batch}
	group := make([]sim.NodeID, n)
	for i := range group {
		group[i] = sim.NodeID(i)
	}
	total := 0
	nodes := make([]sim.Node, n)
	for i := range nodes {
		s := &Server{Replica: NewReplica(cfg, group, n)}
		if par.Logs != nil {
			total += len(par.Logs[i])
			if total > maxEntries {
				return nil, strictjson.FieldErrorf("params.logs", "want at most %d entries in all, got more", maxEntries)
			}
			for j, t := range par.Logs[i] {
				if t < 1 || t > maxTicks || t < s.Log.LastTerm() {
					return nil, strictjson.FieldErrorf(fmt.Sprintf("params.logs[%d][%d]", i, j), "want a term from %d to %d (terms never fall along a log), got %d", max(1, s.Log.LastTerm()), maxTicks, t)
				}
				s.Log.Append(t, Command{t}) // x ← its term, so that entries of two terms differ
			}
		}
		s.Term = s.Log.LastTerm()
		if par.Terms != nil {
			if t := par.Terms[i]; t < s.Term || t > maxTicks {
				return nil, strictjson.FieldErrorf(fmt.Sprintf("params.terms[%d]", i), "want a term from %d (the log's last) to %d, got %d", s.Term, maxTicks, t)
			}
			s.Term = par.Terms[i]
		}
		nodes[i] = s
	}
	return nodes, nil
}
