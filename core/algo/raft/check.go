package raft

import (
	"fmt"
	"maps"
	"slices"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// The names of the paper's five guarantees, which the invariants check.
const (
	electionSafetyName = "election safety"
	logMatchingName    = "log matching"
	completenessName   = "leader completeness"
	stateMachineName   = "state machine safety"
	appendOnlyName     = "leader append-only"
)

// The guarantees, in the order of the paper's Figure 3.
const (
	guaranteeElection = iota
	guaranteeAppendOnly
	guaranteeMatching
	guaranteeCompleteness
	guaranteeStateMachine
	guarantees
)

// commitPoint is the furthest a server of some term saw the log
// committed: up to index, whose log up to there hashes to sum.
type commitPoint struct {
	term  int64
	index int
	sum   uint64
}

// Tally follows the run as an observer with a view of every server's
// disk would: each server's log after each of its steps, who led which
// term, what was committed and applied where. It checks the guarantees
// against that history, each at the step that could break it, at a cost
// that grows with what the step changed, not with the logs.
type Tally struct {
	n int
	// logs, roles and terms are each server's after its last step, and
	// termsBefore, commitsBefore and appliedBefore its term, commit index
	// and last entry applied before it.
	logs          []Log
	roles         []Role
	terms         []int64
	termsBefore   []int64
	commitsBefore []int
	appliedBefore []int
	// commits and applied are how far each server had committed and
	// applied after its last step.
	commits, applied []int
	// leaders are who led each term.
	leaders map[int64]sim.NodeID
	// points are the furthest commit seen in each term, in the order of
	// their terms.
	points []commitPoint
	// firstApplied is the entry first applied at each index, by anyone.
	firstApplied Log
	// broken is, for each guarantee, what broke it first (nil if nothing
	// did).
	broken [guarantees]*breach
	// the figures: leaders at the last annotation, time without one,
	// elections, the highest term and commit index, and each entry's wait
	// from its appending to its commit
	leading        []bool
	lastAt         sim.Time
	leaderless     sim.Time
	elections      int
	maxTerm        int64
	maxCommit      int
	appendedAt     map[int]sim.Time
	latencySum     sim.Time
	latencyMax     sim.Time
	latencyEntries int
}

func newTally(n int) sim.Tally { return NewTally(n) }

// NewTally is the tally of a run of n processes, for an algorithm whose
// replicas are Raft's (Replicated) and whose own tally embeds it: Raft's
// guarantees and checks read it there.
func NewTally(n int) *Tally {
	return &Tally{n: n, logs: make([]Log, n), roles: make([]Role, n), terms: make([]int64, n), termsBefore: make([]int64, n), commitsBefore: make([]int, n), appliedBefore: make([]int, n), commits: make([]int, n),
		applied: make([]int, n), leaders: map[int64]sim.NodeID{}, leading: make([]bool, n), appendedAt: map[int]sim.Time{}}
}

// Clone copies the tally: logs share their full chunks.
func (t *Tally) Clone() sim.Tally {
	c := *t
	c.logs = make([]Log, t.n)
	for i := range t.logs {
		c.logs[i] = t.logs[i].Clone()
	}
	c.roles, c.terms, c.termsBefore = append([]Role(nil), t.roles...), append([]int64(nil), t.terms...), append([]int64(nil), t.termsBefore...)
	c.commitsBefore, c.appliedBefore = append([]int(nil), t.commitsBefore...), append([]int(nil), t.appliedBefore...)
	c.commits, c.applied = append([]int(nil), t.commits...), append([]int(nil), t.applied...)
	c.leaders = maps.Clone(t.leaders)
	c.points = append([]commitPoint(nil), t.points...)
	c.firstApplied = t.firstApplied.Clone()
	c.leading = append([]bool(nil), t.leading...)
	c.appendedAt = maps.Clone(t.appendedAt)
	return &c
}

// Note follows the leaders' intervals (a crash ends them), for the time
// without a leader, and the entries appended and committed, for the
// commit latency.
func (t *Tally) Note(at sim.Time, node sim.NodeID, as []sim.Annotation) {
	if !t.anyLeading() {
		t.leaderless += at - t.lastAt
	}
	t.lastAt = at
	for _, a := range as {
		switch {
		case a.Role == roleLeader:
			t.leading[node] = a.Phase == sim.Begin
		case a.Role == roleCandidate && a.Phase == sim.Begin:
			t.elections++
		case a.Role == roleAppended:
			t.appendedAt[a.Group] = at
		case a.Role == roleCommit:
			for i, since := range t.appendedAt {
				if i <= a.Group {
					wait := at - since
					t.latencySum += wait
					t.latencyMax = max(t.latencyMax, wait)
					t.latencyEntries++
					delete(t.appendedAt, i)
				}
			}
		}
	}
}

func (t *Tally) anyLeading() bool {
	for _, l := range t.leading {
		if l {
			return true
		}
	}
	return false
}

// raft is the tally itself, for an algorithm's tally that embeds it.
func (t *Tally) raft() *Tally { return t }

// tallied is a tally that is, or embeds, Raft's.
type tallied interface{ raft() *Tally }

// tallyOf is the run's Raft tally, if its algorithm keeps one.
func tallyOf(v sim.View) (*Tally, bool) {
	if t, ok := v.Tally().(tallied); ok {
		return t.raft(), true
	}
	return nil, false
}

// Joined and Left: the tally follows servers, not messages.
func (t *Tally) Joined(sim.Message) {}
func (t *Tally) Left(sim.Message)   {}

// Stepped checks the guarantees a server's step could break.
func (t *Tally) Stepped(id sim.NodeID, n sim.Node) {
	r, ok := n.(Replicated)
	if !ok || r.Replicas() == nil {
		return // not one of the group
	}
	s := r.Replicas()
	t.maxTerm = max(t.maxTerm, s.Term)
	wasLeader := t.roles[id] == Leader && t.terms[id] == s.Term
	if changed := t.logs[id].Diverges(&s.Log); changed != 0 {
		if wasLeader && s.Role == Leader && changed <= t.logs[id].Len() {
			t.breaks(guaranteeAppendOnly, "%s, leader of term %d, changed its own entry %d", id, s.Term, changed)
		}
		t.matchLogs(id, &s.Log, changed)
		t.logs[id].CopyFrom(&s.Log)
	}
	if s.Role == Leader && !wasLeader {
		if l, ok := t.leaders[s.Term]; ok && l != id {
			t.breaks(guaranteeElection, "%s and %s both became leader of term %d", l, id, s.Term)
		}
		t.leaders[s.Term] = id
		t.complete(id, s)
	}
	if s.Commit > t.commits[id] {
		t.committed(s)
	}
	if s.Applied > t.applied[id] {
		t.apply(id, s)
	}
	t.termsBefore[id], t.commitsBefore[id], t.appliedBefore[id] = t.terms[id], t.commits[id], t.applied[id]
	t.roles[id], t.terms[id], t.commits[id], t.applied[id] = s.Role, s.Term, s.Commit, s.Applied
	t.maxCommit = max(t.maxCommit, s.Commit)
}

// matchLogs checks log matching from index from of server id's log on:
// where another log has an entry of the same index and term, the two logs
// must be the same up to it. The entries before from were checked when
// they, or the other log's, last changed.
func (t *Tally) matchLogs(id sim.NodeID, l *Log, from int) {
	for j := range t.logs {
		o := &t.logs[j]
		if sim.NodeID(j) == id {
			continue
		}
		for i := from; i <= min(l.Len(), o.Len()); i++ {
			if l.Term(i) == o.Term(i) && l.Sum(i) != o.Sum(i) {
				t.breaks(guaranteeMatching, "%s and %s both have an entry %d of term %d, but their logs differ before it", id, sim.NodeID(j), i, l.Term(i))
				return
			}
		}
	}
}

// complete checks a new leader's log holds every entry committed in an
// earlier term: it must hold each earlier term's furthest commit (a later
// term's point may lie before an earlier one's, when a follower learned
// only part of what was committed).
func (t *Tally) complete(id sim.NodeID, s *Replica) {
	for _, p := range t.points {
		if p.term >= s.Term {
			continue
		}
		if s.Log.Len() < p.index || s.Log.Sum(p.index) != p.sum {
			t.breaks(guaranteeCompleteness, "%s leads term %d without entry %d as it was committed in term %d", id, s.Term, p.index, p.term)
			return
		}
	}
}

// committed records how far a server saw the log committed in its term.
func (t *Tally) committed(s *Replica) {
	p := commitPoint{term: s.Term, index: s.Commit, sum: s.Log.Sum(s.Commit)}
	k := len(t.points) - 1
	for k >= 0 && t.points[k].term > p.term {
		k--
	}
	switch {
	case k >= 0 && t.points[k].term == p.term:
		if p.index > t.points[k].index {
			t.points[k] = p
		}
	default:
		t.points = append(t.points, commitPoint{})
		copy(t.points[k+2:], t.points[k+1:])
		t.points[k+1] = p
	}
}

// apply checks the entries a server applied against those first applied
// at their indexes by anyone.
func (t *Tally) apply(id sim.NodeID, s *Replica) {
	for i := t.applied[id] + 1; i <= s.Applied; i++ {
		e := s.Log.At(i)
		if i > t.firstApplied.Len() {
			t.firstApplied.Append(e.Term, e.Cmd)
			continue
		}
		if f := t.firstApplied.At(i); f.Term != e.Term || f.Cmd != e.Cmd {
			t.breaks(guaranteeStateMachine, "%s applied entry %d of term %d (x ← %d), where another server applied one of term %d (x ← %d)", id, i, e.Term, e.Cmd[0], f.Term, f.Cmd[0])
		}
	}
}

// breach is what broke a guarantee: a caption whose servers are named
// when it is shown, as the scenario names them.
type breach struct {
	format string
	args   []any
}

func (b *breach) text(v sim.View) string {
	args := append([]any(nil), b.args...)
	for i, a := range args {
		if id, ok := a.(sim.NodeID); ok {
			args[i] = v.Name(id)
		}
	}
	return fmt.Sprintf(b.format, args...)
}

// breaks records the first breach of a guarantee.
func (t *Tally) breaks(g int, format string, args ...any) {
	if t.broken[g] == nil {
		t.broken[g] = &breach{format: format, args: args}
	}
}

func invariant(g int, name, help string) sim.Invariant {
	return sim.Invariant{Name: name, Help: help, Check: func(v sim.View) sim.Verdict {
		if t, ok := tallyOf(v); ok && t.broken[g] != nil {
			b := t.broken[g]
			return sim.Verdict{Detail: b.text(v)}
		}
		return sim.Verdict{OK: true}
	}}
}

// Guarantees are Raft's five (Figure 3 of the paper), each checked by
// the tally at the step that could break it: an algorithm whose tally
// embeds Raft's (NewTally) declares them for its replicas.
var Guarantees = []sim.Invariant{
	invariant(guaranteeElection, electionSafetyName, "at most one leader is elected in a term"),
	invariant(guaranteeAppendOnly, appendOnlyName, "a leader never overwrites or deletes entries in its log; it only appends"),
	invariant(guaranteeMatching, logMatchingName, "if two logs hold an entry with the same index and term, they are the same up to it"),
	invariant(guaranteeCompleteness, completenessName, "an entry committed in a term is in the log of the leader of every later term"),
	invariant(guaranteeStateMachine, stateMachineName, "no two servers apply different commands at the same index"),
}

var invariants = append(slices.Clip(Guarantees),
	Timers,
	Appends,
	Replies,
	Counts,
	Terms,
	Elected,
	Sends,
)

// TimersName names the Timers invariant.
const TimersName = "a leader has its heartbeat armed, any other server its election timeout"

// Replicated is a process that may be a member of a Raft group: its
// replica, or nil for a process that is not one.
type Replicated interface {
	Replicas() *Replica
}

// Timers is Raft's failure detector kept running, read after each
// member's own steps: a leader has its heartbeat armed and no election
// timeout, a follower or candidate its election timeout and no heartbeat.
// A follower without its timeout never notices a dead leader, and a
// leader without its heartbeat is taken for dead; a group whose members
// do nothing at all passes the five guarantees.
var Timers = sim.Invariant{
	Name: TimersName,
	Help: "a live leader has its heartbeat armed and no election timeout; every other live member of the group has its election timeout armed and no heartbeat",
	Check: func(v sim.View) sim.Verdict {
		return check.Stepped(v, func(id sim.NodeID) string {
			n, ok := v.Node(id).(Replicated)
			if !ok || n.Replicas() == nil {
				return ""
			}
			leads := n.Replicas().Role == Leader
			_, beats := v.Timer(id, TimerHeartbeat)
			_, times := v.Timer(id, TimerElection)
			if beats != leads || times == leads {
				return fmt.Sprintf("%s is %s of term %d, with its heartbeat armed: %t and its election timeout armed: %t", v.Name(id), n.Replicas().Role, n.Replicas().Term, beats, times)
			}
			return ""
		})
	},
}

// Replicas is the server's replica.
func (s *Server) Replicas() *Replica { return &s.Replica }

// AppendsName names the Appends invariant.
const AppendsName = "a leader logs each command it is given as the next entry of its term"

// Proposer is a member of a group whose clients ask its leader to log
// commands. Asked restates, for the checks, the command an event asks
// the leader to log: ok is false for an event that asks none, and exact
// false when the leader chooses the command itself (its work does).
type Proposer interface {
	Replicated
	Asked(ev sim.Event) (cmd Command, exact, ok bool)
}

// Asked is a client's command (CmdSubmit), or the server's work, which
// picks a value of its own.
func (s *Server) Asked(ev sim.Event) (cmd Command, exact, ok bool) {
	switch {
	case ev.Kind == sim.Command && ev.Tag == CmdSubmit:
		return Command{ev.Arg}, true, true
	case ev.Kind == sim.Workload:
		return Command{}, false, true
	}
	return Command{}, false, false
}

// Appends holds a leader to the first step of replication, read after
// its own step: given a client's command, it appends one entry of its
// term at the end of its log, with that command. A leader that logs
// nothing passes the five guarantees, which hold of any log that never
// grows, and a replicated lock whose leader logs no request still looks
// alive: its clients ask again for ever.
var Appends = sim.Invariant{
	Name: AppendsName,
	Help: "a leader given a client's command appends it at the end of its log, as an entry of its term",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		p, ok := v.Node(id).(Proposer)
		if !ok || p.Replicas() == nil || p.Replicas().Role != Leader {
			return ""
		}
		cmd, exact, asked := p.Asked(ev)
		if !asked {
			return ""
		}
		s := p.Replicas()
		for _, a := range v.LastAnnotations() {
			if a.Role != roleAppended {
				continue
			}
			i := a.Group
			if i < 1 || i != s.Log.Len() || s.Log.Term(i) != s.Term || exact && s.Log.At(i).Cmd != cmd {
				return fmt.Sprintf("leads term %d and was given a command, and its log of %d entries does not end with it as entry %d of its term", s.Term, s.Log.Len(), i)
			}
			return ""
		}
		return fmt.Sprintf("leads term %d and was given a command, and logged none", s.Term)
	}),
}

// memberRule is check.ProcessRule for a rule of the Raft group's
// members: rule gets the replica of the member that stepped, and a
// process that is none (a client of the replicated lock) passes.
func memberRule(rule func(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string) func(sim.View) sim.Verdict {
	return check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		if n, ok := v.Node(id).(Replicated); ok && n.Replicas() != nil {
			return rule(v, id, ev, n.Replicas())
		}
		return ""
	})
}

// RepliesName names the Replies invariant.
const RepliesName = "a server acknowledges an APPEND once its log holds it, and votes once a term, for a log as up to date as its own"

// Replies holds a member of the group to the paper's receiver rules
// (Figure 2), read after it takes an APPEND or a REQUEST-VOTE, off its
// state after the step (a refusal changes no log, nor a vote) and the
// one answer it sent. An APPEND of an older term is refused; one of its
// term is acknowledged, with the index its entries end at, only once its
// log holds the entry before them and every one of them, and it then
// knows committed what the leader does, up to there; else refused. A
// REQUEST-VOTE of an older term is refused; in its term a server votes
// only for a candidate whose log is at least as up to date as its own,
// and only if it has voted for nobody else (it then has voted for it);
// it refuses only when one of those fails. Its leader's APPEND and a
// vote it grants restart its election timeout. The message is read here
// as the leader writes it, not by the code that decodes it.
var Replies = sim.Invariant{
	Name: RepliesName,
	Help: "a server answers each APPEND and REQUEST-VOTE once: an ACK only once its log holds the entries after a matching entry, and a VOTE only in its term, once, for a log at least as up to date as its own; a refusal only when those fail; its leader's APPEND and a vote it grants restart its election timeout",
	Check: memberRule(func(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string {
		if ev.Kind != sim.Deliver || ev.Msg.Kind != KindAppend && ev.Msg.Kind != KindRequestVote {
			return ""
		}
		who, term := v.Name(ev.From), ev.Msg.Value
		yes, no := KindAck, KindNack
		if ev.Msg.Kind == KindRequestVote {
			yes, no = KindVote, KindRefuse
		}
		var answers []sim.Envelope
		for e := range check.SentThisStep(v, id) {
			if e.To == ev.From && (e.Kind == yes || e.Kind == no) {
				answers = append(answers, e)
			}
		}
		if len(answers) != 1 {
			return fmt.Sprintf("took %s's %s of term %d and answered it %d times, not once", who, ev.Msg.Kind, term, len(answers))
		}
		a := answers[0]
		switch {
		case a.Value != s.Term:
			return fmt.Sprintf("answered %s's %s with term %d, not its own, %d", who, ev.Msg.Kind, a.Value, s.Term)
		case term < s.Term && a.Kind == yes:
			return fmt.Sprintf("answered %s's %s of term %d, older than its own, %d, with %s", who, ev.Msg.Kind, term, s.Term, yes)
		case term < s.Term:
			return ""
		case ev.Msg.Kind == KindAppend:
			return appendRule(v, s, ev, a)
		}
		return voteRule(v, s, ev, a)
	}),
}

// appendRule is a server's rule for an APPEND of its term, answered with
// a: an ACK or a NACK.
func appendRule(v sim.View, s *Replica, ev sim.Event, a sim.Envelope) string {
	who, term := v.Name(ev.From), ev.Msg.Value
	if s.Role == Leader {
		return "" // a second leader of the term: election safety's to say
	}
	d := ev.Msg.Data
	if len(d) < 3 {
		return ""
	}
	prev, prevTerm, commit := int(d[0]), d[1], int(d[2])
	k := (len(d) - 3) / entryWords
	matches := prev == 0 || prev <= s.Log.Len() && s.Log.Term(prev) == prevTerm
	if s.Role != Follower || s.Leader != ev.From {
		return fmt.Sprintf("took an APPEND of its term %d from %s, and is %s following %s", term, who, s.Role, v.Name(s.Leader))
	}
	if detail := restarted(v, s, "took its leader's APPEND"); detail != "" {
		return detail
	}
	if a.Kind == KindNack {
		if matches {
			return fmt.Sprintf("refused %s's APPEND after entry %d of term %d, which its log holds", who, prev, prevTerm)
		}
		return ""
	}
	if !matches {
		return fmt.Sprintf("acknowledged %s's APPEND after entry %d of term %d, which its log does not hold", who, prev, prevTerm)
	}
	last := prev + k
	if len(a.Data) < 1 || int(a.Data[0]) != last {
		return fmt.Sprintf("acknowledged %s's APPEND of entries %d to %d as holding up to %v", who, prev+1, last, a.Data)
	}
	if s.Log.Len() < last {
		return fmt.Sprintf("acknowledged %s's entries up to %d with a log of %d", who, last, s.Log.Len())
	}
	for i := range k {
		w := d[3+i*entryWords : 3+(i+1)*entryWords]
		if e := s.Log.At(prev + 1 + i); e.Term != w[0] || e.Cmd != Command(w[1:]) {
			return fmt.Sprintf("acknowledged %s's entry %d of term %d, and holds one of term %d there", who, prev+1+i, w[0], e.Term)
		}
	}
	if s.Commit < min(commit, last) {
		return fmt.Sprintf("took %s's APPEND, committed up to %d, and knows only %d committed", who, min(commit, last), s.Commit)
	}
	return ""
}

// voteRule is a server's rule for a REQUEST-VOTE of its term, answered
// with a: a VOTE or a REFUSE.
func voteRule(v sim.View, s *Replica, ev sim.Event, a sim.Envelope) string {
	who, term := v.Name(ev.From), ev.Msg.Value
	var lastIndex int
	var lastTerm int64
	if d := ev.Msg.Data; len(d) >= 2 {
		lastIndex, lastTerm = int(d[0]), d[1]
	}
	own, ownTerm := s.Log.Len(), s.Log.Term(s.Log.Len())
	upToDate := lastTerm > ownTerm || lastTerm == ownTerm && lastIndex >= own
	free := s.Voted == sim.None || s.Voted == ev.From
	switch {
	case a.Kind == KindVote && !upToDate:
		return fmt.Sprintf("voted for %s, whose log ends at entry %d of term %d, behind its own, entry %d of term %d", who, lastIndex, lastTerm, own, ownTerm)
	case a.Kind == KindVote && s.Voted != ev.From:
		return fmt.Sprintf("voted for %s in term %d, and has voted for %s", who, term, votedName(v, s.Voted))
	case a.Kind == KindVote:
		if other := votedBefore(v, a); other != sim.None {
			return fmt.Sprintf("voted for %s in term %d, having voted for %s in it", who, term, v.Name(other))
		}
	case a.Kind == KindRefuse && upToDate && free:
		return fmt.Sprintf("refused %s in term %d, whose log is as up to date as its own, having voted for %s", who, term, votedName(v, s.Voted))
	case a.Kind == KindVote:
		return restarted(v, s, "voted")
	}
	return ""
}

// restarted says what is wrong with the election timeout of a server
// that just heard from its leader or granted a vote, which restart it:
// it must have at least the least timeout to run.
func restarted(v sim.View, s *Replica, did string) string {
	id, _, _ := v.LastStep()
	if due, armed := v.Timer(id, TimerElection); !armed || due-v.Now() < s.cfg.ElectionMin {
		return fmt.Sprintf("%s, and did not restart its election timeout (armed: %t, due in %d ticks, the least timeout %d)", did, armed, due-v.Now(), s.cfg.ElectionMin)
	}
	return ""
}

// votedName names whom a server voted for.
func votedName(v sim.View, id sim.NodeID) string {
	if id == sim.None {
		return "nobody"
	}
	return v.Name(id)
}

// CountsName names the Counts invariant.
const CountsName = "a leader counts each ACK, and commits an entry of its term once a majority holds it"

// Counts holds a leader to the paper's rules for what its followers
// answer (Figure 2, "Rules for Servers: Leaders"), read after it takes an
// ACK or a NACK of its term: an ACK raises what it knows the follower
// holds (matchIndex) to the index the ACK names and its next entry for it
// past that, and it then knows committed the last entry of its term that
// a majority holds, itself included, and it sends at once the entries
// the follower lacks that are not on their way; a refusal that is not
// stale (for an entry past what the follower is known to hold) is
// answered with an APPEND of earlier entries. It never sends a follower
// again what it knows the follower holds. Whenever it commits, the
// entry it commits is held by a majority, and is of its term (or, by
// Figure 8's wrong rule, of any), and past what it had committed (with
// Raft's tally, which keeps the commit index before the step). A leader whose ACKs taught it nothing passed the five
// guarantees, as nothing it logged was ever committed.
var Counts = sim.Invariant{
	Name: CountsName,
	Help: "after an ACK a leader knows the follower holds its log up to the index named and commits the last entry of its term a majority holds; a refusal of entries the follower is not known to hold is answered with earlier ones; a leader commits only an entry a majority holds, of its term",
	Check: memberRule(func(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string {
		if s.Role != Leader {
			return ""
		}
		drawn := false
		for _, a := range v.LastAnnotations() {
			if a.Role != roleCommit {
				continue
			}
			drawn = drawn || a.Group == s.Commit
			if held := s.holding(id, a.Group); held < s.majority() || s.Log.Term(a.Group) != s.Term && !s.cfg.CountReplicas {
				return fmt.Sprintf("leads term %d and commits entry %d, of term %d, which %d of %d servers hold", s.Term, a.Group, s.Log.Term(a.Group), held, len(s.group))
			}
			if t, ok := tallyOf(v); ok && a.Group <= t.commitsBefore[id] {
				return fmt.Sprintf("commits entry %d, having committed up to %d already", a.Group, t.commitsBefore[id])
			}
		}
		if t, ok := tallyOf(v); ok && s.Commit > t.commitsBefore[id] && !drawn && t.roles[id] == Leader && t.termsBefore[id] == s.Term {
			return fmt.Sprintf("leads term %d and committed up to %d, and is not drawn committing it", s.Term, s.Commit)
		}
		for e := range check.SentThisStep(v, id) {
			if e.Kind == KindAppend && len(e.Data) > 0 && int(e.Data[0]) < s.match[e.To] {
				return fmt.Sprintf("sent %s entries after %d, knowing it holds up to %d", v.Name(e.To), e.Data[0], s.match[e.To])
			}
		}
		if ev.Kind != sim.Deliver || ev.Msg.Value != s.Term || len(ev.Msg.Data) < 1 {
			return ""
		}
		who, at := v.Name(ev.From), int(ev.Msg.Data[0])
		switch ev.Msg.Kind {
		case KindAck:
			if s.match[ev.From] < at || s.next[ev.From] <= s.match[ev.From] {
				return fmt.Sprintf("took %s's ACK of entries up to %d, and knows it holds up to %d, its next entry %d", who, at, s.match[ev.From], s.next[ev.From])
			}
			for i := s.Log.Len(); i > s.Commit && s.Log.Term(i) == s.Term; i-- {
				if s.holding(id, i) >= s.majority() {
					return fmt.Sprintf("leads term %d, and a majority holds entry %d of its term, but it has committed only up to %d", s.Term, i, s.Commit)
				}
			}
			if s.next[ev.From] <= s.Log.Len() && appendSent(v, id, ev.From) < 0 {
				return fmt.Sprintf("took %s's ACK, has entries from %d on it has not sent it, and sent none", who, s.next[ev.From])
			}
		case KindNack:
			if at <= s.match[ev.From] {
				break // stale: it holds that entry
			}
			if prev := appendSent(v, id, ev.From); prev < 0 || prev >= at {
				return fmt.Sprintf("was refused by %s after entry %d, which it is not known to hold, and sent it no earlier entries", who, at)
			}
		}
		return ""
	}),
}

// holding counts the servers the leader id knows hold entry i: itself,
// and each follower whose matchIndex is at least i.
func (s *Replica) holding(id sim.NodeID, i int) int {
	held := 0
	if s.Log.Len() >= i {
		held++
	}
	for _, q := range s.group {
		if q != id && s.match[q] >= i {
			held++
		}
	}
	return held
}

// votedBefore is another candidate the voter of vote a voted for in the
// same term, or None: the votes it sent since it came to that term (it
// learnt it, or stood in it).
func votedBefore(v sim.View, a sim.Envelope) sim.NodeID {
	from := a.SendStep
	for _, role := range []string{roleTerm, roleCandidate} {
		if at := v.AnnotationStep(a.From, role, int(a.Value)); at >= 0 {
			from = min(from, at)
		}
	}
	for i := v.SentFrom(from); i < a.ID; i++ {
		if e := v.Envelope(i); e.From == a.From && e.Kind == KindVote && e.Value == a.Value && e.Original == e.ID && e.To != a.To {
			return e.To
		}
	}
	return sim.None
}

// TermsName names the Terms invariant.
const TermsName = "a server's term only rises: to a later term it hears of, drawn where it learns it, or by one as it stands"

// Terms holds a member of the group to the paper's rule for terms ("if
// RPC request or response contains term T > currentTerm: set currentTerm
// = T, convert to follower"), read after its step: a message of a later
// term leaves it at that term, having learnt it there and then, and drawn
// so, for the first time; a leader steps down only so. With the run's
// tally of terms (a Raft server's), its term never falls, rises on a
// message only to the message's term, and otherwise only by one, as it
// stands for election.
var Terms = sim.Invariant{
	Name: TermsName,
	Help: "a message of a later term leaves the server at that term, drawn learning it there, once; a leader steps down only so; a term never falls, and rises otherwise only by one, as the server stands",
	Check: memberRule(func(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string {
		raftMsg := ev.Kind == sim.Deliver && Handles(ev.Msg.Kind)
		if raftMsg && s.Term < ev.Msg.Value {
			return fmt.Sprintf("took %s's %s of term %d, and is at term %d", v.Name(ev.From), ev.Msg.Kind, ev.Msg.Value, s.Term)
		}
		learnt, steppedDown := false, false
		for _, a := range v.LastAnnotations() {
			switch {
			case a.Role == roleTerm:
				if !raftMsg || int64(a.Group) != ev.Msg.Value || int64(a.Group) != s.Term || v.AnnotationStep(id, roleTerm, a.Group) != v.Steps()-1 {
					return fmt.Sprintf("is drawn learning term %d, at term %d, on a %s", a.Group, s.Term, ev.Kind)
				}
				learnt = true
			case a.Role == roleLeader && a.Phase == sim.End && ev.Kind == sim.Deliver:
				steppedDown = true
			}
		}
		if steppedDown && !learnt {
			return fmt.Sprintf("stepped down as leader of term %d on a %s of its own term", s.Term, ev.Msg.Kind)
		}
		t, ok := tallyOf(v)
		if !ok || ev.Kind == sim.Init {
			return "" // a server may start at a term of its own (params.terms)
		}
		switch before := t.termsBefore[id]; {
		case s.Term < before:
			return fmt.Sprintf("went back from term %d to %d", before, s.Term)
		case s.Term > before && raftMsg && (s.Term != ev.Msg.Value || !learnt):
			return fmt.Sprintf("rose from term %d to %d on a %s of term %d, drawn learning it: %t", before, s.Term, ev.Msg.Kind, ev.Msg.Value, learnt)
		case s.Term > before && !raftMsg && (s.Term != before+1 || s.Role != Candidate):
			return fmt.Sprintf("rose from term %d to %d on a %s, as %s", before, s.Term, ev.Kind, s.Role)
		}
		return ""
	}),
}

// ElectedName names the Elected invariant.
const ElectedName = "a candidate leads once a majority of the group votes for it, and not before"

// Elected holds a candidate to counting its votes, read after it takes a
// VOTE: the VOTEs of its term it has taken from distinct members, and its
// own, are a majority exactly when it leads. A candidate that counted no
// vote never led, and one that led on too few was caught only when a
// second leader of its term showed up.
var Elected = sim.Invariant{
	Name: ElectedName,
	Help: "after a VOTE of its term, a candidate leads exactly when the distinct members that voted for it in that term, itself included, are a majority",
	Check: memberRule(func(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string {
		if ev.Kind != sim.Deliver || ev.Msg.Kind != KindVote {
			return ""
		}
		stood := v.AnnotationStep(id, roleCandidate, int(s.Term))
		if ev.Msg.Value != s.Term || stood < 0 || s.Role == Follower {
			return ""
		}
		voters := map[sim.NodeID]bool{id: true}
		for i := v.SentFrom(stood); i < v.NumSent(); i++ {
			if e := v.Envelope(i); e.To == id && e.Kind == KindVote && e.Value == s.Term && e.RecvStep >= 0 {
				voters[e.From] = true
			}
		}
		if leads, enough := s.Role == Leader, len(voters) >= len(s.group)/2+1; leads != enough {
			return fmt.Sprintf("has the votes of %d of the %d members in term %d, and leads: %t", len(voters), len(s.group), s.Term, leads)
		}
		return ""
	}),
}

// appendSent is the entry before the entries of the APPEND the step just
// taken sent from→to, as the leader writes it, or -1 if it sent none.
func appendSent(v sim.View, from, to sim.NodeID) int {
	for e := range check.SentThisStep(v, from) {
		if e.To == to && e.Kind == KindAppend && len(e.Data) > 0 {
			return int(e.Data[0])
		}
	}
	return -1
}

// SendsName names the Sends invariant.
const SendsName = "a candidate asks every other member for its vote, a leader sends each follower its entries from its next index when elected, at each heartbeat and with each new command, and a server is drawn in its role and applies what it knows committed"

// Sends holds a member to the messages that make the group live, and to
// its picture, read after its own step: a server that stands asks every
// other member for its vote, with its log's last index and term; a new
// leader sends every follower an APPEND after its log's end (before the
// no-op it appends, when it appends one, and exactly then), as it does at
// each heartbeat, and it sends a new command at once to every follower
// caught up. Every APPEND is the leader's log as it stands from the
// follower's next index, at most a batch, with the commit index it knows,
// and moves that index past what it carries. A server is drawn candidate
// and leader of its term exactly while it is one, and no longer in a term
// it left; it applies every entry it knows committed, and Raft's register
// holds the last command applied. A group that never sent an APPEND or a
// REQUEST-VOTE, or never applied what it committed, passed the
// guarantees, which hold of a group that does nothing. A refusal of an
// APPEND names its entry before and the last entry the follower may
// hold in common with the leader.
var Sends = sim.Invariant{
	Name:  SendsName,
	Help:  "a server that stands sends REQUEST-VOTE to every other member; a new leader (after its no-op, if it appends one), each heartbeat and each new command send every follower that needs them an APPEND of the log from its next index, at most a batch, which moves that index on; a server is drawn in its role of its term only, and applies up to its commit index; a refusal of an APPEND names its entry before and the last entry the follower may share",
	Check: memberRule(checkSends),
}

func checkSends(v sim.View, id sim.NodeID, ev sim.Event, s *Replica) string {
	t, ok := tallyOf(v)
	if !ok || ev.Kind == sim.Init {
		return ""
	}
	term, before := int(s.Term), int(t.termsBefore[id])
	switch {
	case v.Drawn(id, roleCandidate, term) != (s.Role == Candidate) || v.Drawn(id, roleLeader, term) != (s.Role == Leader):
		return fmt.Sprintf("is %s of term %d, drawn candidate: %t, leader: %t", s.Role, term, v.Drawn(id, roleCandidate, term), v.Drawn(id, roleLeader, term))
	case before != term && (v.Drawn(id, roleCandidate, before) || v.Drawn(id, roleLeader, before)):
		return fmt.Sprintf("left term %d for %d, and is still drawn in a role of term %d", before, term, before)
	case s.Applied != s.Commit:
		return fmt.Sprintf("knows entries up to %d committed, and has applied up to %d", s.Commit, s.Applied)
	}
	if x, ok := v.Node(id).(*Server); ok {
		// the last command it applied at this step, if any (entries
		// applied before may have been overwritten since: Figure 8)
		want, from := int64(0), t.appliedBefore[id]
		if s.Applied < from {
			from = 0 // a restart applies afresh
		}
		for i := s.Applied; i > from && want == 0; i-- {
			want = s.Log.At(i).Cmd[0]
		}
		if (want != 0 || s.Applied == 0) && x.Register != want {
			return fmt.Sprintf("applied up to entry %d, and holds x = %d, not %d", s.Applied, x.Register, want)
		}
	}
	// the entry before each APPEND's entries, by follower, and which
	// followers were sent one: ids are below 64, as the votes' bits are
	votes, prevs, sent := 0, [64]int{}, uint64(0)
	for e := range check.SentThisStep(v, id) {
		switch e.Kind {
		case KindRequestVote:
			if e.Value != s.Term || s.Role != Candidate || len(e.Data) != 2 || int(e.Data[0]) != s.Log.Len() || e.Data[1] != s.Log.LastTerm() {
				return fmt.Sprintf("is %s of term %d with a log of %d entries, and asked %s's vote with term %d, %v", s.Role, s.Term, s.Log.Len(), v.Name(e.To), e.Value, e.Data)
			}
			votes++
		case KindAppend:
			if detail := checkAppend(v, s, e); detail != "" {
				return detail
			}
			prevs[e.To], sent = int(e.Data[0]), sent|1<<e.To
		case KindNack:
			// a refusal says where the follower's log can match: the
			// APPEND's entry before its own, and the last it may hold
			// (its log's end, or the entry before the one in conflict;
			// its log's end to an APPEND of an older term)
			m := decode(ev.Msg)
			hint := s.Log.Len()
			if ev.Msg.Value == s.Term {
				hint = min(hint, m.prev-1)
			}
			if ev.Kind != sim.Deliver || ev.Msg.Kind != KindAppend || len(e.Data) != 2 || int(e.Data[0]) != m.prev || int(e.Data[1]) != hint {
				return fmt.Sprintf("refused %s's %s with %v, its log of %d entries", v.Name(e.To), ev.Msg.Kind, e.Data, s.Log.Len())
			}
		}
	}
	for _, to := range s.group {
		prev := prevs[to]
		if k := min(s.cfg.Batch, s.Log.Len()-prev); sent&(1<<to) != 0 && s.next[to] != prev+k+1 {
			return fmt.Sprintf("sent %s the entries after %d, and counts on its next entry being %d", v.Name(to), prev, s.next[to])
		}
	}
	stood := s.Role == Candidate && term > before
	elected := s.Role == Leader && check.Marked(v, roleLeader, term)
	beat := s.Role == Leader && ev.Kind == sim.Timer && ev.Tag == TimerHeartbeat
	for _, to := range s.group {
		if to == id {
			continue
		}
		prev, got := prevs[to], sent&(1<<to) != 0
		switch {
		case stood && votes != len(s.group)-1:
			return fmt.Sprintf("stands for term %d, and asked %d of the %d other members for their votes", term, votes, len(s.group)-1)
		case (elected || beat) && !got:
			return fmt.Sprintf("leads term %d and sent %s no APPEND when elected or at its heartbeat", term, v.Name(to))
		case elected && prev != s.Log.Len()-noop(s):
			return fmt.Sprintf("was elected in term %d with a log of %d entries (a no-op: %t), and sent %s the entries after %d", term, s.Log.Len()-noop(s), s.cfg.NoOp, v.Name(to), prev)
		case s.Role == Leader && check.Marked(v, roleAppended, s.Log.Len()) && s.next[to] == s.Log.Len():
			return fmt.Sprintf("logged entry %d, and did not send it to %s, which holds all before it", s.Log.Len(), v.Name(to))
		}
	}
	if elected && s.cfg.NoOp != (s.Log.Len() > 0 && s.Log.Term(s.Log.Len()) == s.Term && s.Log.At(s.Log.Len()).Cmd == Command{}) {
		return fmt.Sprintf("was elected in term %d, and its log ends with entry %d of term %d (a no-op: %t)", term, s.Log.Len(), s.Log.Term(s.Log.Len()), s.cfg.NoOp)
	}
	return ""
}

// noop is 1 when a leader appends a no-op at its election.
func noop(s *Replica) int {
	if s.cfg.NoOp {
		return 1
	}
	return 0
}

// checkAppend holds an APPEND to the leader's log as it stands: its term,
// the entry before the ones it carries, the commit index it knows, and
// its entries from there, at most a batch.
func checkAppend(v sim.View, s *Replica, e sim.Envelope) string {
	if s.Role != Leader || e.Value != s.Term || len(e.Data) < 3 || (len(e.Data)-3)%entryWords != 0 {
		return fmt.Sprintf("is %s of term %d, and sent %s an APPEND of term %d with %d numbers", s.Role, s.Term, v.Name(e.To), e.Value, len(e.Data))
	}
	prev, k := int(e.Data[0]), (len(e.Data)-3)/entryWords
	if prev < 0 || prev > s.Log.Len() || e.Data[1] != s.Log.Term(prev) || int(e.Data[2]) > s.Commit || k != min(s.cfg.Batch, s.Log.Len()-prev) {
		return fmt.Sprintf("sent %s an APPEND after entry %d of term %d, commit %d, with %d entries, from a log of %d entries committed up to %d", v.Name(e.To), prev, e.Data[1], e.Data[2], k, s.Log.Len(), s.Commit)
	}
	for j := range k {
		x, w := s.Log.At(prev+1+j), e.Data[3+j*entryWords:3+(j+1)*entryWords]
		if w[0] != x.Term || !slices.Equal(w[1:], x.Cmd[:]) {
			return fmt.Sprintf("sent %s entry %d as term %d, %v, and its log holds it as term %d, %v", v.Name(e.To), prev+1+j, w[0], w[1:], x.Term, x.Cmd)
		}
	}
	return ""
}

// The tally's copies of the logs: what only observes a run, beside the
// checks (the mutation campaign leaves this file alone).

// CopyFrom makes l a copy of o, as Clone does, reusing l's own tail: the
// checks keep a copy of every server's log and copy it again each time
// the log changes, which is most of a leader's steps.
func (l *Log) CopyFrom(o *Log) {
	l.full = o.full[:len(o.full):len(o.full)]
	l.tail = append(l.tail[:0], o.tail...)
}

// Diverges is the first index at which the two logs differ (an entry that
// is not the same, or one that only one of them has), or 0 if they are
// the same. Prefix hashes make it a bisection.
func (l *Log) Diverges(o *Log) int {
	shorter := min(l.Len(), o.Len())
	lo, hi := 0, shorter // the first lo entries agree; find the longest such lo
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.Sum(mid) == o.Sum(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == shorter && l.Len() == o.Len() {
		return 0
	}
	return lo + 1
}
