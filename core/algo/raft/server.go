package raft

import (
	"fmt"
	"math/bits"

	"spacetime/core/sim"
)

// Server is one Raft server.
type Server struct {
	cfg *config
	// Term, Voted and Log are the persistent state, kept through a crash:
	// the latest term the server has seen, whom it voted for in it (None
	// if nobody) and its log.
	Term  int64
	Voted sim.NodeID
	Log   Log
	// Role, Leader (whom it believes leads its term, None if nobody),
	// Commit (the highest index it knows committed), Applied (the highest
	// it has applied) and Register (its state machine) are volatile: a
	// crash loses them.
	Role     Role
	Leader   sim.NodeID
	Commit   int
	Applied  int
	Register int64
	// votes are the servers that voted for this candidate, a bit each.
	votes uint64
	// next and match are a leader's: the index of the next entry to send
	// each server, and the highest it knows each server holds.
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
	entries  []int64 // term, command, term, command, …
	match    int
	hint     int
}

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
			msg.entries = d[3 : 3+(len(d)-3)/2*2]
		}
	case KindAck:
		msg.match = int(at(0))
	case KindNack:
		msg.prev, msg.hint = int(at(0)), int(at(1))
	}
	return msg
}

// Step reacts to one event.
func (s *Server) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		s.armElection(env)
		env.Explain("%s starts as a follower of term %d, with %s", me, s.Term, s.logText())
	case sim.Recover:
		// the crash ended its intervals; what it kept is on disk
		s.Role, s.Leader, s.Commit, s.Applied, s.Register, s.votes = Follower, sim.None, 0, 0, 0, 0
		s.armElection(env)
		env.Explain("%s recovers as a follower: it kept term %d, its vote and %s, and lost its commit index and state machine", me, s.Term, s.logText())
	case sim.Timer:
		switch {
		case ev.Tag == TimerElection && s.Role != Leader:
			env.Explain("%s heard from no leader for its timeout: it %s", me, s.campaign(env))
		case ev.Tag == TimerHeartbeat && s.Role == Leader:
			s.replicate(env)
			env.SetTimer(TimerHeartbeat, s.cfg.heartbeat)
			env.Explain("%s, leader of term %d, sends APPEND to every follower: new entries, or a heartbeat", me, s.Term)
		}
	case sim.Command:
		switch ev.Tag {
		case CmdSubmit:
			s.submit(env, ev.Arg, "a client's command")
		case CmdTimeout:
			env.Explain("%s's election timer runs out now: it %s", me, s.campaign(env))
		}
	case sim.Workload:
		if s.Role == Leader {
			s.submit(env, 1+int64(env.Rand().IntN(99)), "a client's command")
		} else {
			env.Explain("a client's command reaches %s, which does not lead: the client tries again later", me)
		}
	case sim.Deliver:
		s.receive(env, ev)
	}
}

// timeout draws an election timeout.
func (s *Server) timeout(env *sim.Env) sim.Time {
	c := s.cfg
	if !c.randomized || c.electionMax == c.electionMin {
		return c.electionMin
	}
	return c.electionMin + sim.Time(env.Rand().IntN(int(c.electionMax-c.electionMin+1)))
}

func (s *Server) armElection(env *sim.Env) { env.SetTimer(TimerElection, s.timeout(env)) }

// campaign stands for the next term.
func (s *Server) campaign(env *sim.Env) string {
	s.leave(env)
	s.Term++
	s.Role, s.Voted, s.Leader, s.votes = Candidate, env.Self(), sim.None, 1<<uint(env.Self())
	s.Elections++
	env.Annotate(sim.Opens(roleCandidate, int(s.Term), fmt.Sprintf("candidate t%d", s.Term)))
	env.SendToOthers(sim.Message{Kind: KindRequestVote, Value: s.Term, Label: fmt.Sprintf("%s t%d", KindRequestVote, s.Term),
		Data: []int64{int64(s.Log.Len()), s.Log.LastTerm()}})
	t := s.timeout(env)
	env.SetTimer(TimerElection, t)
	return fmt.Sprintf("stands for term %d, votes for itself and asks the others (it needs %d of %d; it tries again in %s)", s.Term, env.N()/2+1, env.N(), sim.Ticks(t))
}

// leave ends the role the server had, before it takes another.
func (s *Server) leave(env *sim.Env) {
	switch s.Role {
	case Leader:
		env.Annotate(sim.Closes(roleLeader, int(s.Term)))
		env.CancelTimer(TimerHeartbeat)
	case Candidate:
		env.Annotate(sim.Closes(roleCandidate, int(s.Term)))
	}
	s.Role = Follower
}

// receive takes a message: a newer term makes the server a follower of
// it first; a message of an older term is answered with the server's
// term, so that its sender learns it is behind.
func (s *Server) receive(env *sim.Env, ev sim.Event) {
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
			env.Explain("%s refuses %s's request for term %d: it is at term %d", me, who, m.term, s.Term)
		case KindAppend:
			s.nack(env, ev.From, m.prev, s.Log.Len())
			env.Explain("%s refuses %s's APPEND of term %d: it is at term %d, and says so", me, who, m.term, s.Term)
		default:
			env.Explain("%s ignores %s's %s of term %d: it is at term %d", me, who, ev.Msg.Kind, m.term, s.Term)
		}
		return
	}
	var what string
	switch s.Role {
	case Leader:
		what = s.stepLeader(env, ev.From, ev.Msg.Kind, m)
	case Candidate:
		what = s.stepCandidate(env, ev.From, ev.Msg.Kind, m)
	default:
		what = s.stepFollower(env, ev.From, ev.Msg.Kind, m)
	}
	env.Explain("%s%s", prefix, what)
}

// stepFollower is a follower's answer to a message of its term.
func (s *Server) stepFollower(env *sim.Env, from sim.NodeID, kind string, m message) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindRequestVote:
		return s.vote(env, from, m)
	case KindAppend:
		return s.appendEntries(env, from, m)
	}
	return fmt.Sprintf("%s, a follower, has no use for %s's %s", me, who, kind)
}

// stepCandidate is a candidate's answer to a message of its term.
func (s *Server) stepCandidate(env *sim.Env, from sim.NodeID, kind string, m message) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindVote:
		s.votes |= 1 << uint(from)
		got := bits.OnesCount64(s.votes)
		if got <= env.N()/2 {
			return fmt.Sprintf("%s has %d of the %d votes it needs for term %d", me, got, env.N()/2+1, s.Term)
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
		return fmt.Sprintf("%s hears from %s, leader of term %d, and follows it; %s", me, who, s.Term, s.appendEntries(env, from, m))
	}
	return fmt.Sprintf("%s, a candidate, has no use for %s's %s", me, who, kind)
}

// stepLeader is a leader's answer to a message of its term.
func (s *Server) stepLeader(env *sim.Env, from sim.NodeID, kind string, m message) string {
	me, who := env.Name(env.Self()), env.Name(from)
	switch kind {
	case KindAck:
		s.match[from] = max(s.match[from], m.match)
		s.next[from] = max(s.next[from], m.match+1)
		what := fmt.Sprintf("%s learns that %s holds its log up to entry %d", me, who, m.match)
		if c := s.advance(env); c != "" {
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
func (s *Server) vote(env *sim.Env, from sim.NodeID, m message) string {
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

func (s *Server) refuse(env *sim.Env, to sim.NodeID) {
	env.Send(to, sim.Message{Kind: KindRefuse, Value: s.Term, Label: fmt.Sprintf("%s t%d", KindRefuse, s.Term)})
}

func (s *Server) nack(env *sim.Env, to sim.NodeID, prev, hint int) {
	env.Send(to, sim.Message{Kind: KindNack, Value: s.Term, Label: fmt.Sprintf("%s %d", KindNack, prev), Data: []int64{int64(prev), int64(hint)}})
}

// lead makes a candidate with a majority the leader of its term.
func (s *Server) lead(env *sim.Env, votes int) string {
	s.leave(env)
	s.Role, s.Leader = Leader, env.Self()
	env.Annotate(sim.Opens(roleLeader, int(s.Term), fmt.Sprintf("leader t%d", s.Term)))
	env.CancelTimer(TimerElection)
	for i := range s.next {
		s.next[i], s.match[i] = s.Log.Len()+1, 0
	}
	s.replicate(env)
	env.SetTimer(TimerHeartbeat, s.cfg.heartbeat)
	return fmt.Sprintf("%s has %d of %d votes: it leads term %d and sends a heartbeat to all", env.Name(env.Self()), votes, env.N(), s.Term)
}

// submit appends a client's command, if the server leads.
func (s *Server) submit(env *sim.Env, cmd int64, what string) {
	me := env.Name(env.Self())
	if s.Role != Leader {
		env.Explain("%s does not lead: it takes no command", me)
		return
	}
	s.Log.Append(s.Term, cmd)
	i := s.Log.Len()
	env.Annotate(sim.At(roleAppended, i, ""))
	sent := 0
	for q := range env.N() {
		if id := sim.NodeID(q); id != env.Self() && s.next[q] == i {
			s.send(env, id)
			sent++
		}
	}
	env.Explain("%s appends %s, x ← %d, as entry %d of term %d, and sends it to the %d followers that are up to date", me, what, cmd, i, s.Term, sent)
}

// replicate sends every follower an APPEND: the entries from its next
// index on, or a heartbeat.
func (s *Server) replicate(env *sim.Env) {
	for q := range env.N() {
		if id := sim.NodeID(q); id != env.Self() {
			s.send(env, id)
		}
	}
}

// send sends one follower the entries from its next index, at most a
// batch, and counts on their arrival: the next APPEND carries the entries
// after them (a refusal sets it back).
func (s *Server) send(env *sim.Env, to sim.NodeID) {
	prev := s.next[to] - 1
	data := []int64{int64(prev), s.Log.Term(prev), int64(s.Commit)}
	last := min(s.Log.Len(), prev+s.cfg.batch)
	for i := prev + 1; i <= last; i++ {
		e := s.Log.At(i)
		data = append(data, e.Term, e.Cmd)
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
func (s *Server) appendEntries(env *sim.Env, from sim.NodeID, m message) string {
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
	for k := 0; k+1 < len(m.entries); k += 2 {
		i := m.prev + 1 + k/2
		if i <= s.Log.Len() {
			if s.Log.Term(i) == m.entries[k] {
				continue // already there
			}
			dropped += s.Log.Len() - i + 1
			s.Log.TruncateTo(i - 1)
		}
		s.Log.Append(m.entries[k], m.entries[k+1])
		added++
	}
	last := m.prev + len(m.entries)/2
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
		what += fmt.Sprintf("; it learns that the entries up to %d are committed%s", c, s.apply())
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
func (s *Server) advance(env *sim.Env) string {
	for i := s.Log.Len(); i > s.Commit; i-- {
		t := s.Log.Term(i)
		if t != s.Term && !s.cfg.countReplica {
			break // older entries are committed only under one of this term
		}
		held := 1
		for q, m := range s.match {
			if sim.NodeID(q) != env.Self() && m >= i {
				held++
			}
		}
		if held <= len(s.match)/2 {
			continue
		}
		s.Commit = i
		env.Annotate(sim.At(roleCommit, i, fmt.Sprintf("commit %d", i)))
		what := fmt.Sprintf("%d of %d servers hold entry %d", held, len(s.match), i)
		if t != s.Term {
			what += fmt.Sprintf(", of the old term %d: counting its replicas, it commits it", t)
		} else {
			what += ": it commits it"
		}
		return what + s.apply()
	}
	return ""
}

// apply applies the committed entries not yet applied, and says so.
func (s *Server) apply() string {
	if s.Applied >= s.Commit {
		return ""
	}
	from := s.Applied + 1
	for s.Applied < s.Commit {
		s.Applied++
		if c := s.Log.At(s.Applied).Cmd; c != 0 {
			s.Register = c
		}
	}
	if from == s.Commit {
		return fmt.Sprintf(" and applies entry %d (x = %d)", from, s.Register)
	}
	return fmt.Sprintf(" and applies entries %d to %d (x = %d)", from, s.Commit, s.Register)
}

// logText writes the log for captions.
func (s *Server) logText() string {
	if s.Log.Len() == 0 {
		return "an empty log"
	}
	return fmt.Sprintf("a log of %s, the last of term %d", entries(s.Log.Len()), s.Log.LastTerm())
}

// Inspect shows the server's role, term, vote, log and state machine.
func (s *Server) Inspect() []sim.Field {
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
		{Name: "x", Value: fmt.Sprint(s.Register)},
	}
}

// Clone copies the server.
func (s *Server) Clone() sim.Node {
	c := *s
	c.Log = s.Log.Clone()
	c.next = append([]int(nil), s.next...)
	c.match = append([]int(nil), s.match...)
	return &c
}

// Fingerprint writes what decides what the server does next: its log by
// its hash, not entry by entry, and not its count of elections.
func (s *Server) Fingerprint(h *sim.Hash) {
	h.Int(s.Term)
	h.Int(int64(s.Voted))
	h.Int(int64(s.Log.Len()))
	h.Uint(s.Log.Sum(s.Log.Len()))
	h.Int(int64(s.Role))
	h.Int(int64(s.Leader))
	h.Int(int64(s.Commit))
	h.Int(int64(s.Applied))
	h.Int(s.Register)
	h.Uint(s.votes)
	for i := range s.next {
		h.Int(int64(s.next[i]))
		h.Int(int64(s.match[i]))
	}
}
