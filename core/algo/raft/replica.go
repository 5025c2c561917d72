package raft

import (
	"fmt"
	"math/bits"

	"spacetime/core/sim"
)

// Command is what an entry asks of the state machine: the register's
// value (its first number), or a request the machine encodes in its
// numbers. Its zero value is a no-op.
type Command [CommandLen]int64

// CommandLen is how many numbers a command holds.
const CommandLen = 6

// Applier is the state machine a group replicates: a replica hands it
// its committed entries, from and to included, in order, once each, and
// it says what applying them did (" and applies entry 3 (x = 7)").
type Applier interface {
	Apply(env *sim.Env, from, to int) string
}

// Replica is one member of a Raft group: its consensus state, kept in
// step by the group's messages and timers. An algorithm embeds it in its
// node beside the state machine it replicates (the register of Server, a
// lock service).
type Replica struct {
	cfg *Config
	// group is the processes of the Raft group, in order, this one
	// included; it is shared by the group's replicas and never changed.
	group []sim.NodeID
	// Term, Voted and Log are the persistent state, kept through a crash:
	// the latest term the server has seen, whom it voted for in it (None
	// if nobody) and its log.
	Term  int64
	Voted sim.NodeID
	Log   Log
	// Role, Leader (whom it believes leads its term, None if nobody),
	// Commit (the highest index it knows committed) and Applied (the
	// highest its state machine has applied) are volatile: a crash loses
	// them.
	Role    Role
	Leader  sim.NodeID
	Commit  int
	Applied int
	// votes are the servers that voted for this candidate, a bit each.
	votes uint64
	// next and match are a leader's, by process id: the index of the next
	// entry to send each member, and the highest it knows each holds.
	next, match []int
	// Elections counts the elections this server stood in.
	Elections int
}

// message is a Raft message's fields, decoded.
type message struct {
	term int64
	// a candidate's last entry (REQUEST-VOTE)
	lastIndex int
	lastTerm  int64
	// the entry before an APPEND's entries, its entries and the leader's
	// commit index; the index an ACK says its sender holds up to; a
	// NACK's refused prev and its sender's last index
	prev     int
	prevTerm int64
	commit   int
	entries  []int64 // term and command, for each entry
	match    int
	hint     int
}

// entryWords is how many numbers an entry takes in an APPEND.
const entryWords = 1 + CommandLen

func decode(m sim.Message) message {
	d := m.Data
	at := func(i int) int64 {
		if i < len(d) {
			return d[i]
		}
		return 0
	}
	msg := message{term: m.Value}
	switch m.Kind {
	case KindRequestVote:
		msg.lastIndex, msg.lastTerm = int(at(0)), at(1)
	case KindAppend:
		msg.prev, msg.prevTerm, msg.commit = int(at(0)), at(1), int(at(2))
		if len(d) > 3 {
			msg.entries = d[3 : 3+(len(d)-3)/entryWords*entryWords]
		}
	case KindAck:
		msg.match = int(at(0))
	case KindNack:
		msg.prev, msg.hint = int(at(0)), int(at(1))
	}
	return msg
}

// NewReplica is a member of group, a follower of term 0 with an empty
// log, for a run of n processes.
func NewReplica(cfg *Config, group []sim.NodeID, n int) Replica {
	return Replica{cfg: cfg, group: group, Voted: sim.None, Leader: sim.None, next: make([]int, n), match: make([]int, n)}
}

// Config is the group's timing and rules.
func (s *Replica) Config() *Config { return s.cfg }

// Start arms the election timer of a replica that starts (Init).
func (s *Replica) Start(env *sim.Env) { s.armElection(env) }

// Restart is a replica's recovery: it keeps its term, vote and log and
// forgets the rest (its state machine must forget what it applied).
func (s *Replica) Restart(env *sim.Env) {
	// the crash ended its intervals; what it kept is on disk
	s.Role, s.Leader, s.Commit, s.Applied, s.votes = Follower, sim.None, 0, 0, 0
	s.armElection(env)
}

// Timer runs one of the replica's timers and says what it did; ok is
// false for a timer that is not Raft's, or not due in its role.
func (s *Replica) Timer(env *sim.Env, tag string) (what string, ok bool) {
	me := env.Name(env.Self())
	switch {
	case tag == TimerElection && s.Role != Leader:
		return fmt.Sprintf("%s heard from no leader for its timeout: it %s", me, s.campaign(env)), true
	case tag == TimerHeartbeat && s.Role == Leader:
		s.replicate(env)
		env.SetTimer(TimerHeartbeat, s.cfg.Heartbeat)
		return fmt.Sprintf("%s, leader of term %d, sends APPEND to every follower: new entries, or a heartbeat", me, s.Term), true
	}
	return "", false
}

// TimeOut makes the replica's election timer run out now.
func (s *Replica) TimeOut(env *sim.Env) string {
	return fmt.Sprintf("%s's election timer runs out now: it %s", env.Name(env.Self()), s.campaign(env))
}

// Handles says whether a message kind is Raft's.
func Handles(kind string) bool {
	switch kind {
	case KindRequestVote, KindVote, KindRefuse, KindAppend, KindAck, KindNack:
		return true
	}
	return false
}

// majority is the number of members that make a majority.
func (s *Replica) majority() int { return len(s.group)/2 + 1 }

// sendToGroup sends m to every other member.
func (s *Replica) sendToGroup(env *sim.Env, m sim.Message) {
	for _, id := range s.group {
		if id != env.Self() {
			env.Send(id, m)
		}
	}
}

// timeout draws an election timeout.
func (s *Replica) timeout(env *sim.Env) sim.Time {
	c := s.cfg
	if !c.Randomized || c.ElectionMax == c.ElectionMin {
		return c.ElectionMin
	}
	return c.ElectionMin + sim.Time(env.Rand().IntN(int(c.ElectionMax-c.ElectionMin+1)))
}

func (s *Replica) armElection(env *sim.Env) { env.SetTimer(TimerElection, s.timeout(env)) }

// campaign stands for the next term.
func (s *Replica) campaign(env *sim.Env) string {
	s.leave(env)
	s.Term++
	s.Role, s.Voted, s.Leader, s.votes = Candidate, env.Self(), sim.None, 1<<uint(env.Self())
	s.Elections++
	env.Annotate(sim.Opens(roleCandidate, int(s.Term), fmt.Sprintf("candidate t%d", s.Term)))
	s.sendToGroup(env, sim.Message{Kind: KindRequestVote, Value: s.Term, Label: fmt.Sprintf("%s t%d", KindRequestVote, s.Term),
		Data: []int64{int64(s.Log.Len()), s.Log.LastTerm()}})
	t := s.timeout(env)
	env.SetTimer(TimerElection, t)
	return fmt.Sprintf("stands for term %d, votes for itself and asks the others (it needs %d of %d; it tries again in %s)", s.Term, s.majority(), len(s.group), sim.Ticks(t))
}

// leave ends the role the server had, before it takes another.
func (s *Replica) leave(env *sim.Env) {
	switch s.Role {
	case Leader:
		env.Annotate(sim.Closes(roleLeader, int(s.Term)))
		env.CancelTimer(TimerHeartbeat)
	case Candidate:
		env.Annotate(sim.Closes(roleCandidate, int(s.Term)))
	}
	s.Role = Follower
}

// Receive takes one of Raft's messages and says what it did: a newer
// term makes the server a follower of it first; a message of an older
// term is answered with the server's term, so that its sender learns it
// is behind. Committed entries go to the state machine a.
func (s *Replica) Receive(env *sim.Env, ev sim.Event, a Applier) string {
	m := decode(ev.Msg)
	me, who := env.Name(env.Self()), env.Name(ev.From)
	prefix := ""
	if m.term > s.Term {
		was := s.Role
		s.leave(env)
		if was != Follower {
			s.armElection(env)
		}
		s.Term, s.Voted, s.Leader = m.term, sim.None, sim.None
		env.Annotate(sim.At(roleTerm, int(m.term), fmt.Sprintf("t%d", m.term)))
		prefix = fmt.Sprintf("%s learns of term %d from %s", me, m.term, who)
		if was != Follower {
			prefix += fmt.Sprintf(" and is %s no more", was)
		}
		prefix += "; "
	}
	if m.term < s.Term {
		switch ev.Msg.Kind {
		case KindRequestVote:
			s.refuse(env, ev.From)
			return fmt.Sprintf("%s refuses %s's request for term %d: it is at term %d", me, who, m.term, s.Term)
		case KindAppend:
			s.nack(env, ev.From, m.prev, s.Log.Len())
			return fmt.Sprintf("%s refuses %s's APPEND of term %d: it is at term %d, and says so", me, who, m.term, s.Term)
		}
		return fmt.Sprintf("%s ignores %s's %s of term %d: it is at term %d", me, who, ev.Msg.Kind, m.term, s.Term)
	}
	var what string
	switch s.Role {
	case Leader:
		what = s.stepLeader(env, ev.From, ev.Msg.Kind, m, a)
	case Candidate:
		what = s.stepCandidate(env, ev.From, ev.Msg.Kind, m, a)
	default:
		what = s.stepFollower(env, ev.From, ev.Msg.Kind, m, a)
	}
	return prefix + what
}

// stepFollower is a follower's answer to a message of its term.
func (s *Replica) stepFollower(env *sim.Env, from sim.NodeID, kind string, m message, a Applier) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindRequestVote:
		return s.vote(env, from, m)
	case KindAppend:
		return s.appendEntries(env, from, m, a)
	}
	return fmt.Sprintf("%s, a follower, has no use for %s's %s", me, who, kind)
}

// stepCandidate is a candidate's answer to a message of its term.
func (s *Replica) stepCandidate(env *sim.Env, from sim.NodeID, kind string, m message, a Applier) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindVote:
		s.votes |= 1 << uint(from)
		got := bits.OnesCount64(s.votes)
		if got < s.majority() {
			return fmt.Sprintf("%s has %d of the %d votes it needs for term %d", me, got, s.majority(), s.Term)
		}
		return s.lead(env, got)
	case KindRefuse:
		return fmt.Sprintf("%s is refused %s's vote for term %d", me, who, s.Term)
	case KindRequestVote:
		s.refuse(env, from)
		return fmt.Sprintf("%s refuses %s: it voted for itself in term %d", me, who, s.Term)
	case KindAppend:
		// a leader of its term was elected: the candidate follows it
		s.leave(env)
		return fmt.Sprintf("%s hears from %s, leader of term %d, and follows it; %s", me, who, s.Term, s.appendEntries(env, from, m, a))
	}
	return fmt.Sprintf("%s, a candidate, has no use for %s's %s", me, who, kind)
}

// stepLeader is a leader's answer to a message of its term.
func (s *Replica) stepLeader(env *sim.Env, from sim.NodeID, kind string, m message, a Applier) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindAck:
		s.match[from] = max(s.match[from], m.match)
		s.next[from] = max(s.next[from], m.match+1)
		what := fmt.Sprintf("%s learns that %s holds its log up to entry %d", me, who, m.match)
		if c := s.advance(env, a); c != "" {
			what += "; " + c
		}
		if first := s.next[from]; first <= s.Log.Len() {
			s.send(env, from)
			what += fmt.Sprintf("; it sends %s the entries from %d", who, first)
		}
		return what
	case KindNack:
		if m.prev <= s.match[from] {
			return fmt.Sprintf("%s knows %s holds entry %d already: the refusal is stale", me, who, m.prev)
		}
		s.next[from] = max(s.match[from]+1, min(m.prev, m.hint+1))
		first := s.next[from]
		s.send(env, from)
		return fmt.Sprintf("%s's log does not match at entry %d: %s backs off and sends it the entries from %d", who, m.prev, me, first)
	case KindRequestVote:
		s.refuse(env, from)
		return fmt.Sprintf("%s leads term %d and refuses %s", me, s.Term, who)
	}
	return fmt.Sprintf("%s, the leader, has no use for %s's %s", me, who, kind)
}

// vote answers a candidate of the server's term: one vote a term, and only
// for a log at least as up to date as its own.
func (s *Replica) vote(env *sim.Env, from sim.NodeID, m message) string {
	me, who := env.Name(env.Self()), env.Name(from)
	lastTerm, last := s.Log.LastTerm(), s.Log.Len()
	switch {
	case s.Voted != sim.None && s.Voted != from:
		s.refuse(env, from)
		return fmt.Sprintf("%s has voted for %s in term %d already: it refuses %s", me, env.Name(s.Voted), s.Term, who)
	case m.lastTerm < lastTerm || (m.lastTerm == lastTerm && m.lastIndex < last):
		s.refuse(env, from)
		return fmt.Sprintf("%s refuses %s: %s's log ends at entry %d of term %d, behind its own, entry %d of term %d", me, who, who, m.lastIndex, m.lastTerm, last, lastTerm)
	}
	s.Voted = from
	s.armElection(env)
	env.Send(from, sim.Message{Kind: KindVote, Value: s.Term, Label: fmt.Sprintf("%s t%d", KindVote, s.Term)})
	return fmt.Sprintf("%s votes for %s in term %d: its log is at least as up to date", me, who, s.Term)
}

func (s *Replica) refuse(env *sim.Env, to sim.NodeID) {
	env.Send(to, sim.Message{Kind: KindRefuse, Value: s.Term, Label: fmt.Sprintf("%s t%d", KindRefuse, s.Term)})
}

func (s *Replica) nack(env *sim.Env, to sim.NodeID, prev, hint int) {
	env.Send(to, sim.Message{Kind: KindNack, Value: s.Term, Label: fmt.Sprintf("%s %d", KindNack, prev), Data: []int64{int64(prev), int64(hint)}})
}

// lead makes a candidate with a majority the leader of its term.
func (s *Replica) lead(env *sim.Env, votes int) string {
	s.leave(env)
	s.Role, s.Leader = Leader, env.Self()
	env.Annotate(sim.Opens(roleLeader, int(s.Term), fmt.Sprintf("leader t%d", s.Term)))
	env.CancelTimer(TimerElection)
	for i := range s.next {
		s.next[i], s.match[i] = s.Log.Len()+1, 0
	}
	noop := ""
	if s.cfg.NoOp {
		// an entry of its own term, whose commit commits those before it
		s.Log.Append(s.Term, Command{})
		env.Annotate(sim.At(roleAppended, s.Log.Len(), ""))
		noop = fmt.Sprintf(", appends a no-op as entry %d of its term,", s.Log.Len())
	}
	s.replicate(env)
	env.SetTimer(TimerHeartbeat, s.cfg.Heartbeat)
	return fmt.Sprintf("%s has %d of %d votes: it leads term %d%s and sends a heartbeat to all", env.Name(env.Self()), votes, len(s.group), s.Term, noop)
}

// Propose appends a command as the leader's next entry and sends it to
// the members that are up to date; it returns the entry's index and how
// many it went to. Only a leader proposes.
func (s *Replica) Propose(env *sim.Env, cmd Command) (index, sent int) {
	s.Log.Append(s.Term, cmd)
	index = s.Log.Len()
	env.Annotate(sim.At(roleAppended, index, ""))
	for _, id := range s.group {
		if id != env.Self() && s.next[id] == index {
			s.send(env, id)
			sent++
		}
	}
	return index, sent
}

// replicate sends every follower an APPEND: the entries from its next
// index on, or a heartbeat.
func (s *Replica) replicate(env *sim.Env) {
	for _, id := range s.group {
		if id != env.Self() {
			s.send(env, id)
		}
	}
}

// send sends one follower the entries from its next index, at most a
// batch, and counts on their arrival: the next APPEND carries the entries
// after them (a refusal sets it back).
func (s *Replica) send(env *sim.Env, to sim.NodeID) {
	prev := s.next[to] - 1
	data := []int64{int64(prev), s.Log.Term(prev), int64(s.Commit)}
	last := min(s.Log.Len(), prev+s.cfg.Batch)
	for i := prev + 1; i <= last; i++ {
		e := s.Log.At(i)
		data = append(data, e.Term)
		data = append(data, e.Cmd[:]...)
	}
	label := fmt.Sprintf("%s t%d", KindAppend, s.Term)
	switch {
	case last == prev+1:
		label += fmt.Sprintf(" #%d", last)
	case last > prev:
		label += fmt.Sprintf(" #%d–%d", prev+1, last)
	}
	env.Send(to, sim.Message{Kind: KindAppend, Value: s.Term, Label: label, Data: data})
	s.next[to] = last + 1
}

// appendEntries is a follower's handling of its leader's APPEND.
func (s *Replica) appendEntries(env *sim.Env, from sim.NodeID, m message, a Applier) string {
	me, who := env.Name(env.Self()), env.Name(from)
	s.Leader = from
	s.armElection(env)
	switch {
	case m.prev > s.Log.Len():
		s.nack(env, from, m.prev, s.Log.Len())
		return fmt.Sprintf("%s has no entry %d to match %s's: it refuses (its log ends at %d)", me, m.prev, who, s.Log.Len())
	case s.Log.Term(m.prev) != m.prevTerm:
		s.nack(env, from, m.prev, m.prev-1)
		return fmt.Sprintf("%s's entry %d is of term %d, not %d as %s's: it refuses", me, m.prev, s.Log.Term(m.prev), m.prevTerm, who)
	}
	dropped, added := 0, 0
	for k := 0; k+entryWords <= len(m.entries); k += entryWords {
		i := m.prev + 1 + k/entryWords
		if i <= s.Log.Len() {
			if s.Log.Term(i) == m.entries[k] {
				continue // already there
			}
			dropped += s.Log.Len() - i + 1
			s.Log.TruncateTo(i - 1)
		}
		var cmd Command
		copy(cmd[:], m.entries[k+1:k+entryWords])
		s.Log.Append(m.entries[k], cmd)
		added++
	}
	last := m.prev + len(m.entries)/entryWords
	what := fmt.Sprintf("%s takes %s's APPEND", me, who)
	switch {
	case dropped > 0:
		what += fmt.Sprintf(": it drops %s in conflict with them and appends %s", entries(dropped), entries(added))
	case added > 0:
		what += fmt.Sprintf(": it appends %s", entries(added))
	default:
		what += " as a heartbeat"
	}
	if c := min(m.commit, last); c > s.Commit {
		s.Commit = c
		what += fmt.Sprintf("; it learns that the entries up to %d are committed%s", c, s.apply(env, a))
	}
	env.Send(from, sim.Message{Kind: KindAck, Value: s.Term, Label: fmt.Sprintf("%s %d", KindAck, last), Data: []int64{int64(last)}})
	return what
}

// entries counts entries in words: "1 entry", "3 entries".
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// advance moves a leader's commit index to the highest entry a majority
// holds, if it is of the leader's term (or of any term, with the wrong
// rule); it says what it committed, or "".
func (s *Replica) advance(env *sim.Env, a Applier) string {
	for i := s.Log.Len(); i > s.Commit; i-- {
		t := s.Log.Term(i)
		if t != s.Term && !s.cfg.CountReplicas {
			break // older entries are committed only under one of this term
		}
		held := 1
		for _, id := range s.group {
			if id != env.Self() && s.match[id] >= i {
				held++
			}
		}
		if held < s.majority() {
			continue
		}
		s.Commit = i
		env.Annotate(sim.At(roleCommit, i, fmt.Sprintf("commit %d", i)))
		what := fmt.Sprintf("%d of %d servers hold entry %d", held, len(s.group), i)
		if t != s.Term {
			what += fmt.Sprintf(", of the old term %d: counting its replicas, it commits it", t)
		} else {
			what += ": it commits it"
		}
		return what + s.apply(env, a)
	}
	return ""
}

// apply hands the state machine the committed entries it has not
// applied, and says what it did.
func (s *Replica) apply(env *sim.Env, a Applier) string {
	if s.Applied >= s.Commit {
		return ""
	}
	from := s.Applied + 1
	s.Applied = s.Commit
	return a.Apply(env, from, s.Commit)
}

// logText writes the log for captions.
func (s *Replica) logText() string {
	if s.Log.Len() == 0 {
		return "an empty log"
	}
	return fmt.Sprintf("a log of %s, the last of term %d", entries(s.Log.Len()), s.Log.LastTerm())
}

// Fields are the replica's part of a node's view.
func (s *Replica) Fields() []sim.Field {
	voted := "nobody"
	if s.Voted != sim.None {
		voted = fmt.Sprint(s.Voted.Number())
	}
	return []sim.Field{
		{Name: "role", Value: s.Role.String()},
		{Name: "term", Value: fmt.Sprint(s.Term)},
		{Name: "voted for", Value: voted},
		{Name: "log", Value: termsText(&s.Log, s.Commit, 0)},
		{Name: "commit", Value: fmt.Sprint(s.Commit)},
	}
}

// CloneReplica copies the replica for its node's Clone.
func (s *Replica) CloneReplica() Replica {
	c := *s
	c.Log = s.Log.Clone()
	c.next = append([]int(nil), s.next...)
	c.match = append([]int(nil), s.match...)
	return c
}

// Fingerprint writes what decides what the replica does next: its log by
// its hash, not entry by entry, and not its count of elections.
func (s *Replica) Fingerprint(h *sim.Hash) {
	h.Int(s.Term)
	h.Int(int64(s.Voted))
	h.Int(int64(s.Log.Len()))
	h.Uint(s.Log.Sum(s.Log.Len()))
	h.Int(int64(s.Role))
	h.Int(int64(s.Leader))
	h.Int(int64(s.Commit))
	h.Int(int64(s.Applied))
	h.Uint(s.votes)
	for i := range s.next {
		h.Int(int64(s.next[i]))
		h.Int(int64(s.match[i]))
	}
}
