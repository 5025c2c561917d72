// Package zab is ZooKeeper's own leader election, the Fast Leader
// Election with which ZAB's servers pick a leader (seed 001: "ZooKeeper's
// ZAB protocol also has its own leader election mechanism"). Unlike the
// bully and ring elections it does not pick the highest id: a leader must
// hold every transaction a quorum has accepted, so a server votes for the
// one with the latest history, its last transaction id (zxid), and only
// then the highest id.
//
// Every server that looks for a leader starts a round, votes for itself
// and sends its vote to everyone (NOTIFICATION: round, the server it
// votes for and that server's zxid). A server that hears of a better vote
// in its round, or of a later round, takes it and sends it on; one that
// hears a vote of an earlier round answers with its own. Once a quorum
// (a majority) votes as it does, a server waits a few ticks (finalize,
// longer than a round trip) for a better vote and, if none comes,
// leads or follows. A server that
// has settled answers a looking one with whom it follows, and a looking
// server that hears a quorum name the same leader follows it too: how a
// recovered server rejoins.
//
// The election only proposes a leader: in ZAB a leader is established
// when a quorum of followers accepts its new epoch, which this package
// does not run, so that two servers counting votes that changed under
// them can both believe they lead the same round (the campaign shows it
// under delays).
package zab

import (
	"encoding/json"
	"fmt"
	"strconv"

	"spacetime/core/algo/election"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "zab-election"

// KindNotification is a server's vote, sent to every other server.
const KindNotification = "NOTIFICATION"

// TimerFinalize fires when a server has waited, with a quorum behind its
// vote, for a better vote that did not come.
const TimerFinalize = "finalize"

// maxZxid bounds a history's last transaction id, and maxTicks the wait.
const (
	maxZxid  = 1 << 40
	maxTicks = 1_000_000
)

// maxDelay is the longest a message may take for the default finalize
// wait to mean "no better vote is on its way", and defaultFinalize that
// wait. It must outlast a round trip: a server that took a stale vote
// (one whose sender has since heard a better one) learns so only when the
// sender's new vote comes back, two messages after the stale one left.
// A wait of one message, or of a round trip exactly (the timer and the
// answer due at the same tick, and the timer first), settles on the stale
// quorum beside the better candidate, fault-free.
const (
	maxDelay        sim.Time = 3
	defaultFinalize          = 2*maxDelay + 1
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Zxids are the servers' last transaction ids, in id order (default
	// 0 for every server): the latest history wins the election.
	Zxids []int64 `json:"zxids"`
	// Finalize is how long a server with a quorum behind its vote waits
	// for a better one before it settles (ticks, default 7, longer than a
	// round trip: ZooKeeper's finalizeWait).
	Finalize sim.Time `json:"finalize"`
}

// The servers' states, as ZooKeeper names them.
const (
	Looking   = "looking"
	Following = "following"
	Leading   = "leading"
)

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "ZooKeeper's leader election (ZAB)",
	Summary:      "Servers vote by NOTIFICATION for the latest history (zxid), then the highest id, and take any better vote they hear; once a majority votes alike and no better vote comes, that server leads. The leader has every transaction a quorum accepted, not the highest id.",
	MinN:         3,
	MaxN:         32,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindNotification, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{election.Start},
	},
	Picture: sim.PictureSpec{
		Roles:    election.Roles,
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{latestHistory, highestID, oneLeaderPerRound, election.Drawn, finishes, votes, waits, settledRule, sends},
		KnownLimits: []sim.KnownLimit{
			{Invariant: oneLeaderName, Faults: []string{"delay", "drop", "cut", "partition", "pause", "crash", "recover", "duplicate", "fifo", "skew", "drift"}, Why: "the election only proposes a leader: a server whose finalize wait ends before a better vote reaches it (a message slower than the wait, a clock that runs fast) settles on a quorum whose votes moved on, beside the better candidate in the same round, until ZAB's next phase, where a leader needs a quorum of followers to accept its epoch, which is not run here"},
			{Invariant: finishesName, Faults: []string{"drop", "cut", "partition", "crash", "fifo"}, Why: "a server sends its vote only when it changes and answers only what it hears, never again on a timeout (ZooKeeper's do): a vote lost, or one a crashed server never sends, can leave a server looking for ever; and ZooKeeper's servers talk over TCP: without FIFO channels an earlier vote that arrives after a later one from the same server overwrites it, and the quorum a server waited on can vanish when its wait ends"},
			{Invariant: WaitsName, Faults: []string{"fifo", "duplicate"}, Why: "an earlier vote that arrives after a later one from the same server (channels without FIFO, or the network's copy) overwrites it: the quorum a server waits on can shrink under its wait, which then ends without settling, or form again with no vote that starts a wait; ZooKeeper's servers talk over TCP"},
			{Invariant: latestHistoryName, Faults: []string{"delay", "drop", "cut", "partition", "pause", "crash", "recover", "skew", "drift"}, Why: "a server kept out of an election (cut off, down, slow, or settled on by a wait that a fast clock ended early) may hold transactions the elected quorum does not: it rejoins the settled leader as a follower, and a leader that looks again takes back its lead from the servers that follow it. Those transactions were never accepted by a quorum, and ZAB's next phase, not run here, has the leader truncate them"},
			{Invariant: highestIDName, Faults: []string{"delay", "drop", "cut", "partition", "pause", "crash", "recover", "skew", "drift"}, Why: "as for the latest history: a server kept out of an election rejoins the settled leader as a follower, whatever its id"},
		},
		// the finalize wait stands for "no better vote is on its way"
		MaxDelay: maxDelay,
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// Vote is a vote for a leader: the server and its last zxid.
type Vote struct {
	Leader sim.NodeID
	Zxid   int64
}

// Beats says vote v is better than w: the later history, then the
// higher id.
func (v Vote) Beats(w Vote) bool {
	if v.Zxid != w.Zxid {
		return v.Zxid > w.Zxid
	}
	return v.Leader > w.Leader
}

// heard is the last vote a server heard from another.
type heard struct {
	Round int64
	Vote  Vote
	State string
}

// Process is one server.
type Process struct {
	election.Belief
	// Zxid is the server's last transaction id.
	Zxid int64
	// State is looking, following or leading.
	State string
	// Round is the server's election round (ZooKeeper's logical clock).
	Round int64
	// Vote is the server's current vote.
	Vote Vote
	// Heard holds the last vote heard from each server, by id, and Known
	// which of them are set.
	Heard []heard
	Known []bool
	// Finalizing says the finalize timer is armed.
	Finalizing bool
	// ElectedBy are the servers whose votes made this one lead or follow.
	ElectedBy []sim.NodeID
	// Finalize is the wait before settling.
	Finalize sim.Time
	// Sent counts the NOTIFICATIONs sent.
	Sent int
}

// Election is the server's part of the election.
func (p *Process) Election() *election.Belief { return &p.Belief }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	par := Params{Finalize: defaultFinalize}
	if err := sim.DecodeParams(raw, &par); err != nil {
		return nil, err
	}
	n := len(names)
	if par.Zxids != nil && len(par.Zxids) != n {
		return nil, strictjson.FieldErrorf("params.zxids", "want one zxid for each of the %d servers, got %d", n, len(par.Zxids))
	}
	for i, z := range par.Zxids {
		if z < 0 || z > maxZxid {
			return nil, strictjson.FieldErrorf(fmt.Sprintf("params.zxids[%d]", i), "want a transaction id from 0 to %d, got %d", int64(maxZxid), z)
		}
	}
	if err := sim.CheckTicks("params.finalize", par.Finalize, maxTicks); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, n)
	for i := range nodes {
		p := &Process{Belief: election.Belief{Leader: sim.None}, State: Looking, Vote: Vote{Leader: sim.None}, Heard: make([]heard, n), Known: make([]bool, n), Finalize: par.Finalize}
		if par.Zxids != nil {
			p.Zxid = par.Zxids[i]
		}
		nodes[i] = p
	}
	return nodes, nil
}

// quorum is a majority of n servers.
func quorum(n int) int { return n/2 + 1 }

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		p.look(env)
		env.Explain("%s boots with history up to zxid %d and looks for a leader: round %d, it votes for itself and sends its vote to everyone", me, p.Zxid, p.Round)
	case sim.Recover:
		p.look(env)
		env.Explain("%s recovers with its history (zxid %d) and looks for a leader again: round %d, a vote for itself to everyone", me, p.Zxid, p.Round)
	case sim.Command:
		if p.State == Looking {
			env.Explain("%s is already looking for a leader", me)
			return
		}
		p.look(env)
		env.Explain("%s has lost its leader and looks for one: round %d, it votes for itself and sends its vote to everyone", me, p.Round)
	case sim.Timer:
		if ev.Tag == TimerFinalize {
			p.Finalizing = false
			p.settle(env)
		}
	case sim.Deliver:
		p.notified(env, ev.From, ev.Msg)
	}
}

// look starts a new round, voting for itself: a looking server follows
// nobody, and a leader that looks no longer leads. A server looks only
// when it is not looking already, or has just recovered (a crash ended
// its election), so that it begins an election each time.
func (p *Process) look(env *sim.Env) {
	p.Forget(env)
	p.Begin(env)
	p.State, p.Leader = Looking, sim.None
	p.Round++
	p.Vote = Vote{Leader: env.Self(), Zxid: p.Zxid}
	p.forgetRound()
	p.hear(env.Self(), heard{Round: p.Round, Vote: p.Vote, State: Looking})
	p.cancelFinalize(env)
	p.broadcast(env)
}

func (p *Process) forgetRound() { clear(p.Known) }

func (p *Process) hear(from sim.NodeID, h heard) {
	p.Heard[from], p.Known[from] = h, true
}

func (p *Process) cancelFinalize(env *sim.Env) {
	if p.Finalizing {
		env.CancelTimer(TimerFinalize)
		p.Finalizing = false
	}
}

// notification is the message carrying the server's vote.
func (p *Process) notification(env *sim.Env) sim.Message {
	return sim.Message{Kind: KindNotification, Value: p.Round,
		Data:  []int64{int64(p.Vote.Leader), p.Vote.Zxid, stateWord(p.State)},
		Label: fmt.Sprintf("%s·%d", env.Name(p.Vote.Leader), p.Vote.Zxid)}
}

func (p *Process) broadcast(env *sim.Env) {
	env.SendToOthers(p.notification(env))
	p.Sent += env.N() - 1
}

func (p *Process) answer(env *sim.Env, to sim.NodeID) {
	env.Send(to, p.notification(env))
	p.Sent++
}

var states = [...]string{Looking, Following, Leading}

func stateWord(s string) int64 {
	for i, w := range states {
		if w == s {
			return int64(i)
		}
	}
	return 0
}

// notified is the rule for another server's vote.
func (p *Process) notified(env *sim.Env, from sim.NodeID, m sim.Message) {
	me, who := env.Name(env.Self()), env.Name(from)
	if len(m.Data) != 3 || m.Data[0] < 0 || int(m.Data[0]) >= env.N() || m.Data[2] < 0 || int(m.Data[2]) >= len(states) {
		env.Explain("%s ignores a NOTIFICATION it cannot read", me)
		return
	}
	h := heard{Round: m.Value, Vote: Vote{Leader: sim.NodeID(m.Data[0]), Zxid: m.Data[1]}, State: states[m.Data[2]]}
	vote := fmt.Sprintf("%s's vote for %s (zxid %d) of round %d", who, env.Name(h.Vote.Leader), h.Vote.Zxid, h.Round)
	if p.State != Looking {
		if h.State == Looking {
			p.answer(env, from)
			env.Explain("%s, %s, answers %s, which is looking: it follows %s", me, p.State, who, env.Name(p.Leader))
			return
		}
		env.Explain("%s has settled and only notes %s", me, vote)
		return
	}
	if h.State != Looking {
		p.outOfElection(env, from, h)
		return
	}
	var said string
	switch {
	case h.Round > p.Round:
		p.Round = h.Round
		p.forgetRound()
		p.Vote = Vote{Leader: env.Self(), Zxid: p.Zxid}
		if h.Vote.Beats(p.Vote) {
			p.Vote = h.Vote
		}
		p.retake(env)
		said = fmt.Sprintf("%s hears %s, a later round: it joins round %d, votes for %s (zxid %d), the better of that vote and its own, and sends it to everyone", me, vote, p.Round, env.Name(p.Vote.Leader), p.Vote.Zxid)
	case h.Round < p.Round:
		p.answer(env, from)
		env.Explain("%s hears %s, an earlier round than its %d: it answers with its own vote", me, vote, p.Round)
		return
	case h.Vote.Beats(p.Vote):
		old := p.Vote
		p.Vote = h.Vote
		p.retake(env)
		said = fmt.Sprintf("%s hears %s, better than its vote for %s (zxid %d): %s. It takes it and sends it to everyone", me, vote, env.Name(old.Leader), old.Zxid, why(env, h.Vote, old))
	case h.Vote == p.Vote:
		said = fmt.Sprintf("%s hears %s, the vote it casts too", me, vote)
	default:
		said = fmt.Sprintf("%s hears %s; its own vote, for %s (zxid %d), is better", me, vote, env.Name(p.Vote.Leader), p.Vote.Zxid)
	}
	p.hear(from, h)
	env.Explain("%s%s", said, p.tally(env))
}

// retake records the server's new vote as its own in the round, drops a
// wait for the old one, and sends the new one to everyone.
func (p *Process) retake(env *sim.Env) {
	p.hear(env.Self(), heard{Round: p.Round, Vote: p.Vote, State: Looking})
	p.cancelFinalize(env)
	p.broadcast(env)
}

// why says why vote v beats w.
func why(env *sim.Env, v, w Vote) string {
	if v.Zxid != w.Zxid {
		return fmt.Sprintf("a later history, zxid %d > %d", v.Zxid, w.Zxid)
	}
	return fmt.Sprintf("the same history, and %s > %s", env.Name(v.Leader), env.Name(w.Leader))
}

// backing lists the servers whose last vote heard in this round is v.
func (p *Process) backing(v Vote) []sim.NodeID {
	var ids []sim.NodeID
	for q, ok := range p.Known {
		if ok && p.Heard[q].Round == p.Round && p.Heard[q].Vote == v {
			ids = append(ids, sim.NodeID(q))
		}
	}
	return ids
}

// tally arms the finalize timer once a quorum votes as this server does,
// and says so.
func (p *Process) tally(env *sim.Env) string {
	backing := p.backing(p.Vote)
	if p.Finalizing || len(backing) < quorum(env.N()) {
		return ""
	}
	env.SetTimer(TimerFinalize, p.Finalize)
	p.Finalizing = true
	return fmt.Sprintf(". A quorum (%s) votes for %s: it waits %d ticks for a better vote before it settles", env.NameList(backing), env.Name(p.Vote.Leader), p.Finalize)
}

// settle leads or follows the vote a quorum backs, if it still does.
func (p *Process) settle(env *sim.Env) {
	me := env.Name(env.Self())
	if p.State != Looking {
		return
	}
	backing := p.backing(p.Vote)
	if len(backing) < quorum(env.N()) {
		env.Explain("%s's wait is over, but no quorum backs its vote any longer", me)
		return
	}
	p.ElectedBy = backing
	p.decide(env, p.Vote.Leader)
	if p.Leading {
		env.Explain("%s has waited and heard no better vote: a quorum (%s) votes for it, and it leads with history up to zxid %d", me, env.NameList(backing), p.Zxid)
		return
	}
	env.Explain("%s has waited and heard no better vote: a quorum (%s) votes for %s, and it follows %s", me, env.NameList(backing), env.Name(p.Vote.Leader), env.Name(p.Vote.Leader))
}

// decide leads or follows leader.
func (p *Process) decide(env *sim.Env, leader sim.NodeID) {
	if leader == env.Self() {
		p.State = Leading
		p.Lead(env)
		return
	}
	p.State = Following
	p.Follow(env, leader)
}

// outOfElection is the rule for a vote from a server that has settled: a
// looking server follows the leader a quorum of settled servers names,
// as a server that rejoins does.
func (p *Process) outOfElection(env *sim.Env, from sim.NodeID, h heard) {
	me, who, leader := env.Name(env.Self()), env.Name(from), env.Name(h.Vote.Leader)
	p.hear(from, h)
	var naming []sim.NodeID
	round := max(p.Round, h.Round)
	for q, ok := range p.Known {
		if ok && p.Heard[q].State != Looking && p.Heard[q].Vote.Leader == h.Vote.Leader {
			naming = append(naming, sim.NodeID(q))
			round = max(round, p.Heard[q].Round)
		}
	}
	if len(naming)+1 < quorum(env.N()) {
		// a settled server in this round that votes as this one does
		// counts in its tally too
		env.Explain("%s hears that %s, %s, %s %s; it needs a quorum naming one leader%s", me, who, h.State, verb(h), leader, p.tally(env))
		return
	}
	p.cancelFinalize(env)
	p.Round = round // the latest of the quorum's, so that it answers as they do
	p.Vote = h.Vote
	p.ElectedBy = append(naming, env.Self())
	p.decide(env, h.Vote.Leader)
	then := "it follows"
	if p.Leading {
		then = "it leads again"
	}
	env.Explain("%s hears that %s, %s, %s %s: with itself, a quorum (%s) names %s, and %s", me, who, h.State, verb(h), leader, env.NameList(p.ElectedBy), leader, then)
}

func verb(h heard) string {
	if h.State == Leading {
		return "is"
	}
	return "follows"
}

// Inspect shows the server's state, round, vote and history.
func (p *Process) Inspect() []sim.Field {
	return []sim.Field{
		{Name: "state", Value: p.State},
		{Name: "round", Value: strconv.FormatInt(p.Round, 10)},
		{Name: "zxid", Value: strconv.FormatInt(p.Zxid, 10)},
		{Name: "vote", Value: strconv.Itoa(p.Vote.Leader.Number()) + " (zxid " + strconv.FormatInt(p.Vote.Zxid, 10) + ")"},
	}
}

// Clone copies the server.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Heard = append([]heard(nil), p.Heard...)
	c.Known = append([]bool(nil), p.Known...)
	c.ElectedBy = append([]sim.NodeID(nil), p.ElectedBy...)
	return &c
}
