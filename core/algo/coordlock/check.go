package coordlock

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/raft"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The service's rules checks hold each step to the recipe, restated from
// it rather than by calling the code they judge (the mutation campaign
// leaves this file alone). They read the service's state after its step
// and the answers it sent.

// The service's rules checks' names.
const (
	EntriesName = "the service keeps its entries in revision order, each in its client's open session, with every watch on an entry that is there"
	AnswersName = "the service answers each request by the recipe: a new entry and the one below it to watch, a check, a keepalive, or that the session has expired"
)

// entries holds every service process's state (the single service's, or
// each replica's as it applies the log) to the recipe's shape: entries
// by rising revision, none above the revision, each owned by an open
// session of its client and made by a CREATE the service has seen;
// sessions each numbered once, up to the latest opened, expiring within
// a session's time; every watch on an entry that is there, once. The single service also draws the lowest
// entry's client as the holder and no other, and times every open
// session to its expiry.
var entries = sim.Invariant{
	Name:  EntriesName,
	Help:  "entries rise by revision, each in its client's open session; sessions expire within params.session; every watch is on an entry that is there; the single service draws the lowest entry's client as the holder and times each session to its expiry",
	Check: check.ProcessRule(checkEntries),
}

func checkEntries(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := process(v, id)
	if p.Part != fencing.PartService {
		return ""
	}
	s := &p.Service
	for i, e := range s.Entries {
		k := slices.IndexFunc(s.Sessions, func(ss Session) bool { return ss.ID == e.Session })
		switch {
		case i > 0 && e.Rev <= s.Entries[i-1].Rev || e.Rev > s.Revision || e.Rev < 1:
			return fmt.Sprintf("holds entry %d at place %d of revision %d: %v", e.Rev, i+1, s.Revision, revs(s.Entries))
		case k < 0 || s.Sessions[k].Client != e.Client:
			return fmt.Sprintf("holds %s's entry %d in session %d, which is not an open session of %s", v.Name(e.Client), e.Rev, e.Session, v.Name(e.Client))
		case e.Asked < 1 || e.Asked > s.Seen[e.Client]:
			return fmt.Sprintf("holds %s's entry %d from CREATE #%d, having seen its CREATEs up to #%d", v.Name(e.Client), e.Rev, e.Asked, s.Seen[e.Client])
		}
	}
	for i, ss := range s.Sessions {
		switch {
		case ss.ID < 1 || ss.ID > s.LastSession || slices.ContainsFunc(s.Sessions[:i], func(o Session) bool { return o.ID == ss.ID }):
			return fmt.Sprintf("has session %d open twice or beyond the latest opened, %d", ss.ID, s.LastSession)
		case ss.Expiry > v.Now()+p.Config.Session:
			return fmt.Sprintf("keeps %s's session %d until %d, more than %s from now", v.Name(ss.Client), ss.ID, ss.Expiry, sim.Ticks(p.Config.Session))
		}
	}
	for i, w := range s.Watches {
		at := slices.IndexFunc(s.Entries, func(e Entry) bool { return e.Rev == w.On })
		if at < 0 || slices.Contains(s.Watches[:i], w) {
			return fmt.Sprintf("has %s watching entry %d, which is not there or is watched so twice: entries %v", v.Name(w.By), w.On, revs(s.Entries))
		}
	}
	if p.Config.Replicas > 1 {
		return ""
	}
	for c := range v.N() {
		client := sim.NodeID(c)
		holds := len(s.Entries) > 0 && s.Entries[0].Client == client
		if fencing.PartIn(client, 1) == fencing.PartClient && v.Drawn(id, RoleHolder, c) != holds {
			return fmt.Sprintf("draws %s holding the lock: %t, with entries %v", v.Name(client), !holds, revs(s.Entries))
		}
	}
	for _, ss := range s.Sessions {
		if due, armed := v.Timer(id, timerExpire+strconv.FormatInt(ss.ID, 10)); !armed || due != ss.Expiry {
			return fmt.Sprintf("times %s's session %d to %d (armed: %t), and keeps it until %d", v.Name(ss.Client), ss.ID, due, armed, ss.Expiry)
		}
	}
	return ""
}

// revs are the entries' revisions, for a check's detail.
func revs(es []Entry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Rev
	}
	return out
}

// answers holds the single service to answering each request by the
// recipe. A request in a session that is not the sender's open one is
// answered EXPIRED; one in its open session renews it for a session's
// time. A CREATE that is no copy of one taken makes the sender's newest
// entry, last, with the next revision, and is answered CREATED with the
// entry, its CREATE's number, its session, when it was asked, and the
// entry to watch: none when it is the lowest, else the one just below it
// (the holder's, in the herd), which it then watches. A CHECK of an entry
// there is answered CHECKED likewise; a KEEPALIVE is answered KEPT. A
// DELETE leaves no entry of its number owned by its sender. A session's
// timer at its expiry ends it and its entries. Whoever watched an entry
// that goes is told DELETED, and watches it no more; the service sends
// nothing else.
var answers = sim.Invariant{
	Name:  AnswersName,
	Help:  "a request outside the sender's open session is answered EXPIRED and one in it renews it; a new CREATE makes the newest entry and is answered with it and the entry to watch; a CHECK of an entry there is answered likewise, a KEEPALIVE with KEPT; a DELETE removes its entry; an expiry ends its session and entries; each watcher of an entry gone is told DELETED",
	Check: check.ProcessRule(checkAnswers),
}

func checkAnswers(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := process(v, id)
	if p.Part != fencing.PartService || p.Config.Replicas > 1 {
		return ""
	}
	s := &p.Service
	sent := map[string][]sim.Envelope{}
	for e := range check.SentThisStep(v, id) {
		sent[e.Kind] = append(sent[e.Kind], e)
	}
	if detail := checkDeleted(v, s, sent[KindDeleted]); detail != "" {
		return detail
	}
	request := ""
	if ev.Kind == sim.Deliver {
		request = ev.Msg.Kind
	}
	for _, a := range answerTo {
		if len(sent[a.answer]) > 0 && request != a.request || len(sent[a.answer]) > 1 {
			return fmt.Sprintf("sent %d %s on a %s %s", len(sent[a.answer]), a.answer, ev.Kind, request)
		}
	}
	switch {
	case ev.Kind == sim.Timer:
		tag, ok := strings.CutPrefix(ev.Tag, timerExpire)
		session, err := strconv.ParseInt(tag, 10, 64)
		if k := s.session(session); ok && err == nil && (k >= 0 && s.Sessions[k].Expiry <= v.Now() || slices.ContainsFunc(s.Entries, func(e Entry) bool { return e.Session == session })) {
			return fmt.Sprintf("kept session %d or its entries at its expiry", session)
		}
		return ""
	case request == KindCreate || request == KindCheck || request == KindKeepalive || request == KindDelete:
	default:
		if len(sent[KindExpired]) > 0 {
			return fmt.Sprintf("answered EXPIRED on a %s", ev.Kind)
		}
		return ""
	}
	m, from := ev.Msg, ev.From
	session := at(m.Data, 0)
	if request == KindKeepalive {
		session = m.Value
	}
	k := s.session(session)
	open := k >= 0 && s.Sessions[k].Client == from
	expired := sent[KindExpired]
	copied := check.CopyDelivered(v, id, ev.MsgID) >= 0
	heard := true
	switch {
	case request == KindDelete:
		if len(expired) > 0 || slices.ContainsFunc(s.Entries, func(e Entry) bool { return e.Rev == m.Value && e.Client == from }) {
			return fmt.Sprintf("took %s's DELETE of entry %d, still holds it or answered EXPIRED", v.Name(from), m.Value)
		}
		if open && s.Sessions[k].Expiry != v.Now()+p.Config.Session {
			return fmt.Sprintf("took %s's DELETE in its open session %d and keeps it until %d, not %s on", v.Name(from), session, s.Sessions[k].Expiry, sim.Ticks(p.Config.Session))
		}
		return ""
	case request == KindCreate && session == 0 && !copied && m.Value == s.Seen[from]:
		// a new session: the newest, the client's, open for its time
		last := len(s.Sessions) - 1
		if last < 0 || s.Sessions[last].ID != s.LastSession || s.Sessions[last].Client != from {
			return fmt.Sprintf("took %s's CREATE without a session and opened none for it", v.Name(from))
		}
		session, k, open = s.LastSession, last, true
	case request == KindCreate && (copied || m.Value < s.Seen[from]):
		// a copy of one taken, or one overtaken by a later CREATE
		if len(sent) > 0 {
			return fmt.Sprintf("answered a copy of %s's CREATE #%d, or one overtaken by #%d", v.Name(from), m.Value, s.Seen[from])
		}
		return ""
	}
	switch {
	case !open:
		if heard && (len(expired) != 1 || expired[0].To != from || expired[0].Value != session) || len(sent) > 1 {
			return fmt.Sprintf("took %s's %s in session %d, not its open one, and sent %d EXPIRED", v.Name(from), request, session, len(expired))
		}
		return ""
	case len(expired) > 0:
		return fmt.Sprintf("answered EXPIRED to %s's %s in its open session %d", v.Name(from), request, session)
	case s.Sessions[k].Expiry != v.Now()+p.Config.Session:
		return fmt.Sprintf("took %s's %s in its open session %d and keeps it until %d, not %s on", v.Name(from), request, session, s.Sessions[k].Expiry, sim.Ticks(p.Config.Session))
	}
	switch request {
	case KindKeepalive:
		if r := sent[KindKept]; heard && len(r) != 1 || len(r) == 1 && (r[0].To != from || r[0].Value != session || len(r[0].Data) != 1 || r[0].Data[0] != at(m.Data, 0)) {
			return fmt.Sprintf("answered %s's KEEPALIVE of session %d with %d KEPT", v.Name(from), session, len(r))
		}
	case KindCheck:
		i := s.entry(m.Value)
		r := sent[KindChecked]
		if i < 0 {
			if len(r) > 0 {
				return fmt.Sprintf("answered %s's CHECK of entry %d, which is gone", v.Name(from), m.Value)
			}
			return ""
		}
		if heard && len(r) != 1 || len(r) == 1 && (r[0].To != from || r[0].Value != m.Value || len(r[0].Data) != 3 || r[0].Data[0] != session || r[0].Data[1] != at(m.Data, 1)) {
			return fmt.Sprintf("answered %s's CHECK of entry %d with %d CHECKED: %v", v.Name(from), m.Value, len(r), check.Data(r))
		}
		if len(r) == 0 {
			return ""
		}
		return checkWatch(v, p, i, r[0].Data[2])
	case KindCreate:
		i := len(s.Entries) - 1
		r := sent[KindCreated]
		if i < 0 || s.Entries[i].Client != from || s.Entries[i].Asked != m.Value || s.Entries[i].Rev != s.Revision || s.Entries[i].Session != session || s.Seen[from] != m.Value {
			return fmt.Sprintf("took %s's CREATE #%d in session %d and made no newest entry of it: %v", v.Name(from), m.Value, session, revs(s.Entries))
		}
		e := s.Entries[i]
		if heard && len(r) != 1 || len(r) == 1 && (r[0].To != from || r[0].Value != e.Rev || len(r[0].Data) != 4 || r[0].Data[0] != e.Asked || r[0].Data[1] != session || r[0].Data[2] != at(m.Data, 1)) {
			return fmt.Sprintf("made %s's entry %d and answered %d CREATED: %v", v.Name(from), e.Rev, len(r), check.Data(r))
		}
		if len(r) == 0 {
			return checkWatch(v, p, i, -1)
		}
		return checkWatch(v, p, i, r[0].Data[3])
	}
	return ""
}

// answerTo pairs each of the service's answers but EXPIRED and DELETED
// with the one request it answers.
var answerTo = [...]struct{ answer, request string }{
	{KindCreated, KindCreate}, {KindChecked, KindCheck}, {KindKept, KindKeepalive},
}

// checkWatch holds an answer about entry i to the entry its client must
// watch: none for the lowest, else the one just below it (the holder's,
// in the herd), watched now (watch -1: the answer was lost on a cut
// link, and only the watch is read).
func checkWatch(v sim.View, p *Process, i int, watch int64) string {
	s := &p.Service
	e := s.Entries[i]
	want := int64(0)
	if i > 0 {
		want = s.Entries[i-1].Rev
		if p.Config.Herd {
			want = s.Entries[0].Rev
		}
	}
	if watch >= 0 && watch != want || want != 0 && !slices.Contains(s.Watches, Watch{On: want, By: e.Client}) {
		return fmt.Sprintf("told %s to watch entry %d for its entry %d, not %d (entries %v)", v.Name(e.Client), watch, e.Rev, want, revs(s.Entries))
	}
	return ""
}

// checkDeleted holds the service to telling only of entries gone, whose
// watchers are told once.
func checkDeleted(v sim.View, s *ServiceState, deleted []sim.Envelope) string {
	for i, d := range deleted {
		switch {
		case s.entry(d.Value) >= 0:
			return fmt.Sprintf("told %s that entry %d is gone, and holds it", v.Name(d.To), d.Value)
		case slices.Contains(s.Watches, Watch{On: d.Value, By: d.To}):
			return fmt.Sprintf("told %s that entry %d is gone, and keeps its watch on it", v.Name(d.To), d.Value)
		case slices.ContainsFunc(deleted[:i], func(o sim.Envelope) bool { return o.To == d.To && o.Value == d.Value }):
			return fmt.Sprintf("told %s twice that entry %d is gone", v.Name(d.To), d.Value)
		}
	}
	return ""
}

// ClientName names the clients' rules check.
const ClientName = "a client keeps its session alive while it wants or holds the lock, takes the lock only when its entry is the lowest, and asks the service only by the recipe"

// clients holds a client to the recipe. It writes to the storage. A
// client with a session times it to when it runs out by its own
// reckoning, and keeps it alive on its keepalive timer while it wants or
// holds the lock; one without has neither timer, and a restart leaves it
// without session, entry or request. It holds the lock only with its
// entry, watching none, in a session; it takes the lock only at a
// CREATED or CHECKED of its entry that names none below it to watch, and
// otherwise watches the entry named; a CREATED of its latest CREATE
// gives it that entry. It asks the service only by the recipe: a CREATE
// numbered above every CREATE the service has taken from it, in its
// session, when it wants the lock, with no entry yet; a KEEPALIVE of its
// session on its timer, which it must send then; a CHECK of its entry
// when the entry it watched is gone; and, when it leaves the section at
// its release, a DELETE of the entry it held (the token of its write),
// which it must send then. A session the service says has expired is
// given up, and a KEPT of its session counts it good for a session's
// time from when it asked. Asking a replicated service, it has a request
// pending exactly while its retry timer is armed, and it takes answers,
// which may be old or come from more than one replica, and asks again as
// checkTaken says, from what it was before its step.
var clients = sim.Invariant{
	Name:  ClientName,
	Help:  "a client with a session times it and, while it wants or holds the lock, keeps it alive; it holds the lock only with its entry, lowest, in a session, taking it only when told its entry is the lowest; it sends CREATE, KEEPALIVE, CHECK and DELETE only by the recipe, a KEEPALIVE at its timer and a DELETE of its entry at its release; it gives up a session the service says has expired; a replicated lock's client takes only the answers to what it waits on, and asks the next replica, or the leader named, its pending request again",
	Check: check.ProcessRule(checkClient),
}

func checkClient(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := process(v, id)
	if p.Part != fencing.PartClient {
		return ""
	}
	c := &p.Client
	sessionDue, sessionArmed := v.Timer(id, TimerSession)
	keepDue, keepArmed := v.Timer(id, TimerKeepalive)
	_, retryArmed := v.Timer(id, TimerRetry)
	held := v.DrawnBefore(id, mutex.RoleCS, 0, v.Steps()-1)
	switch {
	case c.Session == 0 && (c.ValidUntil != 0 || sessionArmed || keepArmed):
		return fmt.Sprintf("has no session, and reckons one until %d, its session timer armed: %t, its keepalive: %t", c.ValidUntil, sessionArmed, keepArmed)
	case c.Session != 0 && (!sessionArmed || sessionDue != c.ValidUntil):
		return fmt.Sprintf("reckons session %d good until %d, and its timer is due at %d (armed: %t)", c.Session, c.ValidUntil, sessionDue, sessionArmed)
	case c.Session != 0 && p.State != mutex.Idle && (!keepArmed || keepDue > v.Now()+p.Config.Keepalive):
		return fmt.Sprintf("wants or holds the lock in session %d, and its keepalive is due at %d (armed: %t)", c.Session, keepDue, keepArmed)
	case p.State == mutex.InCS && (c.Entry == 0 || c.Watching != 0 || c.Session == 0):
		return fmt.Sprintf("holds the lock with entry %d in session %d, watching %d", c.Entry, c.Session, c.Watching)
	case c.Write.To != p.Config.Storage:
		return fmt.Sprintf("writes to %s, not the storage", v.Name(c.Write.To))
	case (c.Pending.Kind != "") != retryArmed:
		return fmt.Sprintf("has a request pending: %q, and its retry timer armed: %t", c.Pending.Kind, retryArmed)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindKept && c.Session != 0 && ev.Msg.Value == c.Session && c.ValidUntil < sim.Time(at(ev.Msg.Data, 0))+p.Config.Session:
		return fmt.Sprintf("heard KEPT for session %d, asked at %d, and reckons it good only until %d", c.Session, at(ev.Msg.Data, 0), c.ValidUntil)
	case ev.Kind == sim.Recover && (c.Session != 0 || c.Entry != 0 || c.Watching != 0 || c.Pending.Kind != "" || c.Queued.Kind != ""):
		return fmt.Sprintf("restarts with session %d, entry %d, watching %d, a request pending: %q", c.Session, c.Entry, c.Watching, c.Pending.Kind)
	}
	if detail := checkTaken(v, id, ev, p); detail != "" {
		return detail
	}
	if p.Config.Replicas > 1 {
		// a replicated service's clients send a request again, and
		// answers come back from more than one replica: checkTaken
		// holds them to what they were before the step
		return checkRequests(v, id, ev, p, held)
	}
	answer := ev.Kind == sim.Deliver && (ev.Msg.Kind == KindCreated || ev.Msg.Kind == KindChecked)
	switch {
	case p.State == mutex.InCS && !held:
		if !answer || ev.Msg.Value != c.Entry || watchOf(ev.Msg) != 0 {
			return fmt.Sprintf("took the lock with entry %d on a %s %s", c.Entry, ev.Kind, ev.Msg.Kind)
		}
	case answer && ev.Msg.Kind == KindCreated && at(ev.Msg.Data, 0) == c.Asked && p.State != mutex.Idle && c.Session != 0 && c.Entry != ev.Msg.Value:
		return fmt.Sprintf("heard CREATED %d for its latest CREATE #%d, and has entry %d", ev.Msg.Value, c.Asked, c.Entry)
	case answer && p.State == mutex.Wanting && ev.Msg.Value == c.Entry && c.Entry != 0:
		if w := watchOf(ev.Msg); w == 0 || c.Watching != w {
			return fmt.Sprintf("heard its entry %d is to watch entry %d, and watches %d", c.Entry, w, c.Watching)
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindExpired && ev.Msg.Value != 0 && c.Session == ev.Msg.Value:
		return fmt.Sprintf("heard that its session %d has expired, and keeps it", ev.Msg.Value)
	}
	return checkRequests(v, id, ev, p, held)
}

// watchOf is the entry a CREATED or CHECKED names to watch.
func watchOf(m sim.Message) int64 {
	if m.Kind == KindCreated {
		return at(m.Data, 3)
	}
	return at(m.Data, 2)
}

// checkRequests holds a client to asking the service only by the recipe,
// and to the requests it must send.
func checkRequests(v sim.View, id sim.NodeID, ev sim.Event, p *Process, held bool) string {
	c := &p.Client
	retry := p.Config.Replicas > 1 && (ev.Kind == sim.Timer && ev.Tag == TimerRetry || ev.Kind == sim.Deliver && ev.Msg.Kind == KindNotLeader)
	deletes, keepalives := 0, 0
	for e := range check.SentThisStep(v, id) {
		if e.To == p.Config.Storage {
			continue
		}
		switch e.Kind {
		case KindDelete:
			deletes++
		case KindKeepalive:
			keepalives++
		}
		if int(e.To) >= p.Config.Replicas {
			return fmt.Sprintf("sent a %s to %s, which is no part of the service", e.Kind, v.Name(e.To))
		}
		if retry {
			continue // sent again as it was first sent
		}
		switch e.Kind {
		case KindCreate:
			if e.Value != c.Asked || p.State != mutex.Wanting || at(e.Data, 0) != c.Session || c.Entry != 0 || c.Watching != 0 || len(e.Data) != 2 || at(e.Data, 1) != int64(v.Now()) {
				return fmt.Sprintf("sent CREATE #%d in session %d, having asked %d times, in session %d, with entry %d, watching %d", e.Value, at(e.Data, 0), c.Asked, c.Session, c.Entry, c.Watching)
			}
			for r := range p.Config.Replicas {
				if seen := process(v, sim.NodeID(r)).Service.Seen[id]; seen >= e.Value {
					return fmt.Sprintf("sent CREATE #%d, and %s has taken its CREATE #%d already", e.Value, v.Name(sim.NodeID(r)), seen)
				}
			}
		case KindKeepalive:
			if e.Value != c.Session || ev.Kind != sim.Timer || ev.Tag != TimerKeepalive || at(e.Data, 0) != int64(v.Now()) {
				return fmt.Sprintf("sent a KEEPALIVE of session %d in session %d on a %s", e.Value, c.Session, ev.Kind)
			}
		case KindCheck:
			if e.Value != c.Entry || at(e.Data, 0) != c.Session || p.State != mutex.Wanting || c.Watching != 0 {
				return fmt.Sprintf("sent a CHECK of entry %d in session %d, with entry %d, watching %d", e.Value, at(e.Data, 0), c.Entry, c.Watching)
			}
		case KindDelete:
			if !held || p.State != mutex.Idle || c.Entry != 0 || ev.Kind != sim.Timer || ev.Tag != mutex.TimerRelease || e.Value != c.Write.Token || at(e.Data, 0) != c.Session {
				return fmt.Sprintf("sent a DELETE of entry %d in session %d on a %s, having held the lock: %t (entry %d, its write's token %d)", e.Value, at(e.Data, 0), ev.Kind, held, c.Entry, c.Write.Token)
			}
		}
	}
	switch {
	case held && p.State == mutex.Idle && ev.Kind == sim.Timer && ev.Tag == mutex.TimerRelease && deletes != 1:
		return fmt.Sprintf("left the section at its release and sent %d DELETE", deletes)
	case ev.Kind == sim.Timer && ev.Tag == TimerKeepalive && c.Session != 0 && p.State != mutex.Idle && keepalives != 1:
		return fmt.Sprintf("kept session %d alive at its timer with %d KEEPALIVE", c.Session, keepalives)
	}
	return ""
}

// ReplicasName names the replicated service's check.
const ReplicasName = "each replica applies the committed log to the lock by the recipe; the leader answers what it applies and the KEEPALIVEs it takes, and times every session; a replica that does not lead names the leader it knows"

// replicas holds a replicated service to the recipe, step by step, from
// the state each replica began its step with (the tally keeps it). A
// replica starts, and restarts, with no entry, session or watch, and
// applies the committed entries afresh. Applying an entry does what the
// recipe says of its request (restated here as a model of the lock, from
// the entry's numbers): a CREATE not taken before makes the client's
// newest entry, in a new session or its open one, and one taken before
// is answered again with its entry, while it is there; a CHECK answers
// where an entry stands, registering the watch; a DELETE deletes its
// sender's entry and is answered DELETED; an expiry ends its session and
// entries; a request outside the sender's open session is answered
// EXPIRED; whoever watched an entry that goes is told DELETED. Only the
// leader answers, and it answers a KEEPALIVE itself exactly when it has
// committed an entry of its term and a majority answered its APPENDs
// within the least election timeout; each request it takes renews its
// sender's session, and so does its election, every session; it times
// every session to its expiry, and logs the expiry of one whose timer
// fires. A replica that does not lead answers each request NOT-LEADER,
// naming the leader it knows. No replica draws a holder: the holder is in
// every replica's state.
var replicas = sim.Invariant{
	Name:  ReplicasName,
	Help:  "every replica's lock state is what the recipe makes of the committed entries it applied; the leader sends exactly the answers they owe (and answers a KEEPALIVE exactly when it has committed an entry of its term and heard from a majority lately), renews a requester's session and, when elected, every session, and times every session; a replica that does not lead answers a request NOT-LEADER with the leader it knows",
	Check: check.ProcessRule(checkReplica),
}

func checkReplica(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := process(v, id)
	was := before(v, id)
	if p.Part != fencing.PartService || p.Config.Replicas < 2 || was == nil {
		return ""
	}
	for _, a := range v.LastAnnotations() {
		if a.Role == RoleHolder {
			return "drew a holder: a replicated service's holder is in every replica's state, not on a line"
		}
	}
	r := &p.Raft
	leads := r.Role == raft.Leader
	request := ev.Kind == sim.Deliver && !raft.Handles(ev.Msg.Kind)
	elected := leads && (was.Role != raft.Leader || was.Term != r.Term)
	m := lockModel{now: v.Now(), session: p.Config.Session, herd: p.Config.Herd, answers: leads}
	from := was.Applied
	switch {
	case ev.Kind == sim.Init || ev.Kind == sim.Recover:
		m.s, from = ServiceState{Seen: make([]int64, v.N())}, 0
	case r.Applied == was.Applied && !request && !elected:
		m.s = was.Service // nothing to apply: the state stands
	default:
		m.s = was.Service
		m.s.Entries, m.s.Sessions = slices.Clone(m.s.Entries), slices.Clone(m.s.Sessions)
		m.s.Watches, m.s.Seen = slices.Clone(m.s.Watches), slices.Clone(m.s.Seen)
	}
	var notLeader *sim.Message
	if request {
		from := ev.From
		switch session := at(ev.Msg.Data, 0); {
		case !leads:
			hint := int64(0)
			if r.Leader != sim.None {
				hint = int64(r.Leader) + 1
			}
			notLeader = &sim.Message{Kind: KindNotLeader, Value: hint}
		case ev.Msg.Kind == KindKeepalive:
			committed, heard := r.Log.Term(r.Commit) == r.Term, heardFromMajority(v, id, r.Term, p.Raft.Config().ElectionMin, p.Config.Replicas)
			if answered := answeredKeepalive(v, id, from); answered != (committed && heard) {
				return fmt.Sprintf("answered %s's KEEPALIVE: %t, having committed an entry of its term %d: %t, and heard from a majority within %s: %t", v.Name(from), answered, r.Term, committed, sim.Ticks(p.Raft.Config().ElectionMin), heard)
			} else if !answered {
				break
			}
			if m.open(from, ev.Msg.Value) {
				m.owe(from, sim.Message{Kind: KindKept, Value: ev.Msg.Value, Data: []int64{at(ev.Msg.Data, 0)}})
			}
		default:
			if k := m.s.session(session); k >= 0 && m.s.Sessions[k].Client == from {
				m.s.Sessions[k].Expiry = m.now + m.session
			}
		}
	}
	if r.Applied < from {
		return fmt.Sprintf("went back from applying entry %d to %d", from, r.Applied)
	}
	for i := from + 1; i <= r.Applied; i++ {
		m.apply(r.Log.At(i).Cmd)
	}
	if elected {
		for k := range m.s.Sessions {
			m.s.Sessions[k].Expiry = m.now + m.session
		}
	}
	s := &p.Service
	if s.Revision != m.s.Revision || s.LastSession != m.s.LastSession || s.Expired != m.s.Expired || s.Notified != m.s.Notified ||
		!slices.Equal(s.Entries, m.s.Entries) || !slices.Equal(s.Sessions, m.s.Sessions) || !slices.Equal(s.Watches, m.s.Watches) || !slices.Equal(s.Seen, m.s.Seen) {
		return fmt.Sprintf("applied entries %d to %d and holds revision %d, entries %v, sessions %v, watches %v; the recipe makes revision %d, entries %v, sessions %v, watches %v",
			from+1, r.Applied, s.Revision, s.Entries, s.Sessions, s.Watches, m.s.Revision, m.s.Entries, m.s.Sessions, m.s.Watches)
	}
	if notLeader != nil {
		m.answers = true
		m.owe(ev.From, *notLeader)
	}
	if detail := m.sentAsOwed(v, id); detail != "" {
		return detail
	}
	if !leads {
		return ""
	}
	for _, ss := range s.Sessions {
		due, armed := v.Timer(id, timerExpire+strconv.FormatInt(ss.ID, 10))
		if ss.Expiry > v.Now() && (!armed || due != ss.Expiry) {
			return fmt.Sprintf("leads, and times %s's session %d to %d (armed: %t), which it keeps until %d", v.Name(ss.Client), ss.ID, due, armed, ss.Expiry)
		}
	}
	if ev.Kind == sim.Timer && strings.HasPrefix(ev.Tag, timerExpire) {
		session, _ := strconv.ParseInt(ev.Tag[len(timerExpire):], 10, 64)
		k := s.session(session)
		last := r.Log.At(max(r.Log.Len(), 1))
		if k >= 0 && s.Sessions[k].Expiry <= v.Now() && (r.Log.Len() == 0 || last.Term != r.Term || last.Cmd != raft.Command{opExpire, 0, session}) {
			return fmt.Sprintf("leads, and did not log the expiry of session %d at its timer", session)
		}
	}
	return ""
}

// heardFromMajority says a majority of the replicas, the leader id
// included, answered its APPENDs of its term (an ACK or a NACK) within
// the least election timeout: no other can have been elected since
// without one of them, so the leader may answer a KEEPALIVE itself.
func heardFromMajority(v sim.View, id sim.NodeID, term int64, within sim.Time, replicas int) bool {
	var heard uint64
	for m := range v.NumSent() {
		e := v.Envelope(m)
		if e.To == id && (e.Kind == raft.KindAck || e.Kind == raft.KindNack) && e.Value == term && e.RecvStep >= 0 && e.RecvTime > 0 && v.Now()-e.RecvTime <= within {
			heard |= 1 << e.From
		}
	}
	return 1+bits.OnesCount64(heard) > replicas/2
}

// answeredKeepalive says the step answered a KEEPALIVE: it sent its
// sender KEPT or EXPIRED.
func answeredKeepalive(v sim.View, id, to sim.NodeID) bool {
	for e := range check.SentThisStep(v, id) {
		if e.To == to && (e.Kind == KindKept || e.Kind == KindExpired) {
			return true
		}
	}
	return false
}

// lockModel is the lock's state machine as the recipe states it, for the
// replicas' check: the state, what applying a request does to it, and the
// answers it owes (kept only when the replica answers).
type lockModel struct {
	s       ServiceState
	now     sim.Time
	session sim.Time
	herd    bool
	answers bool
	owed    []sim.Send
}

// owe notes an answer the replica must send.
func (m *lockModel) owe(to sim.NodeID, msg sim.Message) {
	if m.answers {
		m.owed = append(m.owed, sim.Send{To: to, Msg: msg})
	}
}

// open says session is the client's open session, renewing it; if not,
// the client is owed EXPIRED.
func (m *lockModel) open(client sim.NodeID, session int64) bool {
	for k, ss := range m.s.Sessions {
		if ss.ID == session && ss.Client == client {
			m.s.Sessions[k].Expiry = m.now + m.session
			return true
		}
	}
	m.owe(client, sim.Message{Kind: KindExpired, Value: session})
	return false
}

// apply applies one committed entry.
func (m *lockModel) apply(cmd raft.Command) {
	client := sim.NodeID(cmd[1])
	switch cmd[0] {
	case opCreate:
		asked, session, sentAt := cmd[2], cmd[3], cmd[4]
		if asked <= m.s.Seen[client] {
			for _, e := range m.s.Entries {
				if e.Client == client && e.Asked == asked {
					m.owe(client, sim.Message{Kind: KindCreated, Value: e.Rev, Data: []int64{asked, e.Session, sentAt, m.watch(e)}})
				}
			}
			return
		}
		m.s.Seen[client] = asked
		if session == 0 {
			m.s.LastSession++
			session = m.s.LastSession
			m.s.Sessions = append(m.s.Sessions, Session{ID: session, Client: client, Expiry: m.now + m.session})
		} else if !m.open(client, session) {
			return
		}
		m.s.Revision++
		e := Entry{Rev: m.s.Revision, Client: client, Session: session, Asked: asked}
		m.s.Entries = append(m.s.Entries, e)
		m.owe(client, sim.Message{Kind: KindCreated, Value: e.Rev, Data: []int64{asked, session, sentAt, m.watch(e)}})
	case opCheck:
		rev, session, sentAt := cmd[2], cmd[3], cmd[4]
		if !m.open(client, session) {
			return
		}
		for _, e := range m.s.Entries {
			if e.Rev == rev {
				m.owe(client, sim.Message{Kind: KindChecked, Value: rev, Data: []int64{session, sentAt, m.watch(e)}})
			}
		}
	case opDelete:
		rev, session := cmd[2], cmd[3]
		for k, ss := range m.s.Sessions {
			if ss.ID == session && ss.Client == client {
				m.s.Sessions[k].Expiry = m.now + m.session
			}
		}
		m.owe(client, sim.Message{Kind: KindDeleted, Value: rev})
		m.s.Entries = m.gone(func(e Entry) bool { return e.Rev == rev && e.Client == client })
	case opExpire:
		session := cmd[2]
		k := slices.IndexFunc(m.s.Sessions, func(ss Session) bool { return ss.ID == session })
		if k < 0 {
			return
		}
		m.s.Sessions = slices.Delete(m.s.Sessions, k, k+1)
		m.s.Expired++
		m.s.Entries = m.gone(func(e Entry) bool { return e.Session == session })
	}
}

// gone deletes the entries that match, each a revision, telling each of
// their watchers, and returns the entries left.
func (m *lockModel) gone(match func(Entry) bool) []Entry {
	kept := m.s.Entries[:0]
	for _, e := range m.s.Entries {
		if !match(e) {
			kept = append(kept, e)
			continue
		}
		m.s.Revision++
		watches := m.s.Watches[:0]
		for _, w := range m.s.Watches {
			if w.On != e.Rev {
				watches = append(watches, w)
				continue
			}
			m.owe(w.By, sim.Message{Kind: KindDeleted, Value: e.Rev})
			m.s.Notified++
		}
		m.s.Watches = watches
	}
	return kept
}

// watch is the entry e's client is to watch, registered, or 0 when e is
// the lowest: the one just below e, or the lowest in the herd.
func (m *lockModel) watch(e Entry) int64 {
	i := slices.Index(m.s.Entries, e)
	if i <= 0 {
		return 0
	}
	w := Watch{On: m.s.Entries[i-1].Rev, By: e.Client}
	if m.herd {
		w.On = m.s.Entries[0].Rev
	}
	if !slices.Contains(m.s.Watches, w) {
		m.s.Watches = append(m.s.Watches, w)
	}
	return w.On
}

// sentAsOwed holds the replica's messages to clients to the answers owed,
// in order.
func (m *lockModel) sentAsOwed(v sim.View, id sim.NodeID) string {
	next := 0
	for e := range check.SentThisStep(v, id) {
		if process(v, e.To).Part != fencing.PartClient {
			continue
		}
		if next == len(m.owed) {
			return fmt.Sprintf("sent %s %s %d %v, which nothing it applied or took asks for", v.Name(e.To), e.Kind, e.Value, e.Data)
		}
		if o := m.owed[next]; o.To != e.To || o.Msg.Kind != e.Kind || o.Msg.Value != e.Value || !slices.Equal(o.Msg.Data, e.Data) {
			return fmt.Sprintf("sent %s %s %d %v where it owed %s %s %d %v", v.Name(e.To), e.Kind, e.Value, e.Data, v.Name(o.To), o.Msg.Kind, o.Msg.Value, o.Msg.Data)
		}
		next++
	}
	if next < len(m.owed) {
		o := m.owed[next]
		return fmt.Sprintf("owed %s %s %d %v, and did not send it", v.Name(o.To), o.Msg.Kind, o.Msg.Value, o.Msg.Data)
	}
	return ""
}

// checkTaken holds a replicated lock's client, from what it was before
// its step, to the recipe's way with answers that may be old, copied or
// from more than one replica. An answer is taken when it answers what the
// client now waits on: a CREATED of its latest CREATE while it wants the
// lock with no entry (in its session, if it has one), a CHECKED of its
// entry in its session while it wants the lock, a KEPT or EXPIRED of its
// session, a DELETED of the entry its pending DELETE deletes or of the
// entry it watches, a NOT-LEADER from the replica it waits on; any other
// changes nothing and sends nothing. A CREATED taken gives it the entry
// (and the session, unless the answer comes a session's time late: then
// the session is given up and it asks again); a CREATED or CHECKED taken
// counts the session good from when it asked and has it watch the entry
// named, or hold the lock watching nothing; a KEPT counts it good from
// when it asked; an EXPIRED ends the session (a holder leaves, a waiting
// client asks again); a DELETED of the entry watched has it CHECK its own.
// An answer to the pending request ends it. A client waits on a request
// only so long: at its retry timer it asks the next replica, and a
// NOT-LEADER that names a leader sends it there (the next replica, when
// it names the one that did not answer): either sends the pending request
// again as it was (a waiting client's KEEPALIVE becomes a CHECK of its
// entry), and the one queued behind it. Each new CREATE goes out once.
func checkTaken(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	was := before(v, id)
	if was == nil || ev.Kind == sim.Init || ev.Kind == sim.Recover {
		return ""
	}
	b, c := &was.Client, &p.Client
	if c.Asked != b.Asked {
		if n := len(sentTo(v, id, c.Server, KindCreate, c.Asked)); c.Asked != b.Asked+1 || n != 1 {
			return fmt.Sprintf("numbered its CREATEs up from %d to %d, and sent %d CREATE #%d to %s", b.Asked, c.Asked, n, c.Asked, v.Name(c.Server))
		}
	}
	if ev.Kind == sim.Timer && ev.Tag == TimerRetry && b.Pending.Kind != "" {
		silent := b.Server
		if b.Heard {
			silent = b.Silent
		}
		if c.Silent != silent {
			return fmt.Sprintf("asked %s in vain (it said something: %t), and counts %s silent", v.Name(b.Server), b.Heard, nameOf(v, c.Silent))
		}
		return checkResent(v, id, was, c, (b.Server+1)%sim.NodeID(p.Config.Replicas))
	}
	if ev.Kind != sim.Deliver {
		return ""
	}
	m := ev.Msg
	settles, taken := "", false
	switch m.Kind {
	case KindCreated:
		settles = KindCreate
		taken = was.State == mutex.Wanting && at(m.Data, 0) == b.Asked && b.Entry == 0 && (b.Session == 0 || at(m.Data, 1) == b.Session)
	case KindChecked:
		settles = KindCheck
		taken = was.State == mutex.Wanting && m.Value == b.Entry && at(m.Data, 0) == b.Session
	case KindKept:
		settles = KindKeepalive
		taken = m.Value == b.Session
	case KindExpired:
		taken = m.Value == b.Session
	case KindDeleted:
		settles = KindDelete
		taken = b.Pending.Kind == KindDelete && m.Value == b.Pending.Value || was.State == mutex.Wanting && b.Entry != 0 && m.Value == b.Watching
	case KindNotLeader:
		settles = KindNotLeader // it answers nothing
		taken = b.Pending.Kind != "" && ev.From == b.Server
	default:
		return ""
	}
	if !taken {
		if !sameClient(b, c) || p.State != was.State || len(sentTo(v, id, sim.None, "", 0)) > 0 {
			return fmt.Sprintf("took a %s %d that answers nothing it waits on", m.Kind, m.Value)
		}
		return ""
	}
	if b.Pending.Kind != "" && (settles == "" || settles == b.Pending.Kind) && (m.Kind != KindDeleted || m.Value == b.Pending.Value) {
		// the answer ends the wait: the request queued behind a DELETE
		// takes its place, on a retry time of its own; else it waits on
		// nothing, or on the CREATE it has just sent
		due, armed := v.Timer(id, TimerRetry)
		switch {
		case settles != "" && b.Queued.Kind != "":
			if !sameMessage(c.Pending, b.Queued) || c.Queued.Kind != "" || !armed || due != v.Now()+retryAfter {
				return fmt.Sprintf("took a %s %d answering its %s, and waits on its %s %d (queued: %q), its retry due at %d (armed: %t)", m.Kind, m.Value, b.Pending.Kind, c.Pending.Kind, c.Pending.Value, c.Queued.Kind, due, armed)
			}
		case c.Queued.Kind != "" || c.Pending.Kind != "" && (c.Pending.Kind != KindCreate || c.Asked == b.Asked):
			return fmt.Sprintf("took a %s %d answering its %s %d, and still waits on its %s %d (queued: %q)", m.Kind, m.Value, b.Pending.Kind, b.Pending.Value, c.Pending.Kind, c.Pending.Value, c.Queued.Kind)
		}
	} else if settles != KindNotLeader && m.Kind != KindDeleted && c.Asked == b.Asked && (!sameMessage(c.Pending, b.Pending) || !sameMessage(c.Queued, b.Queued)) {
		// an answer to another request leaves the one it waits on waiting
		return fmt.Sprintf("took a %s %d, which does not answer its %s %d, and waits on its %s %d now", m.Kind, m.Value, b.Pending.Kind, b.Pending.Value, c.Pending.Kind, c.Pending.Value)
	}
	good := max(b.ValidUntil, sim.Time(at(m.Data, 1))+p.Config.Session)
	switch m.Kind {
	case KindCreated:
		late := v.Now()-sim.Time(at(m.Data, 2)) >= p.Config.Session
		switch {
		case b.Session == 0 && late:
			if c.Session != 0 || c.Asked != b.Asked+1 {
				return fmt.Sprintf("took a CREATED %s late, and keeps session %d, having asked %d times", sim.Ticks(v.Now()-sim.Time(at(m.Data, 2))), c.Session, c.Asked)
			}
			return ""
		case c.Entry != m.Value || c.Session != cmp.Or(b.Session, at(m.Data, 1)):
			return fmt.Sprintf("took CREATED %d in session %d, and has entry %d in session %d", m.Value, at(m.Data, 1), c.Entry, c.Session)
		}
		return tookStanding(p, max(b.ValidUntil, sim.Time(at(m.Data, 2))+p.Config.Session), at(m.Data, 3))
	case KindChecked:
		return tookStanding(p, good, at(m.Data, 2))
	case KindKept:
		if want := max(b.ValidUntil, sim.Time(at(m.Data, 0))+p.Config.Session); c.ValidUntil != want {
			return fmt.Sprintf("took KEPT for session %d, asked at %d, and counts it good until %d, not %d", m.Value, at(m.Data, 0), c.ValidUntil, want)
		}
	case KindExpired:
		if c.Session != 0 || was.State == mutex.InCS && p.State != mutex.Idle || was.State == mutex.Wanting && c.Asked != b.Asked+1 {
			return fmt.Sprintf("heard its session %d expired, and keeps session %d, %s, having asked %d times", m.Value, c.Session, p.State, c.Asked)
		}
	case KindDeleted:
		if b.Pending.Kind == KindDelete && m.Value == b.Pending.Value {
			return ""
		}
		if c.Watching != 0 || len(sentTo(v, id, c.Server, KindCheck, b.Entry)) != 1 {
			return fmt.Sprintf("heard that entry %d, which it watched, is gone, and watches %d, having sent no CHECK of its entry %d", m.Value, c.Watching, b.Entry)
		}
	case KindNotLeader:
		if m.Value == 0 {
			if !c.Heard || c.Server != b.Server || len(sentTo(v, id, sim.None, "", 0)) > 0 {
				return fmt.Sprintf("heard from %s that it knows no leader, and asks %s now", v.Name(ev.From), v.Name(c.Server))
			}
			return ""
		}
		to, replicas, silent := sim.NodeID(m.Value-1), sim.NodeID(p.Config.Replicas), b.Silent
		if to == b.Silent {
			// once: it may lead again by the time it is named again
			if to, silent = (ev.From+1)%replicas, sim.None; to == b.Silent {
				to = (to + 1) % replicas
			}
		}
		if c.Silent != silent {
			return fmt.Sprintf("heard from %s that %s leads, and counts %s silent, not %s", v.Name(ev.From), v.Name(sim.NodeID(m.Value-1)), nameOf(v, c.Silent), nameOf(v, silent))
		}
		return checkResent(v, id, was, c, to)
	}
	return ""
}

// tookStanding holds a client that took a CREATED or CHECKED to counting
// its session good until good and to standing where the answer says: it
// watches the entry named, or holds the lock watching nothing.
func tookStanding(p *Process, good sim.Time, watch int64) string {
	c := &p.Client
	switch {
	case c.ValidUntil != good:
		return fmt.Sprintf("took an answer about its entry %d, and counts its session good until %d, not %d", c.Entry, c.ValidUntil, good)
	case c.Watching != watch || (watch == 0) != (p.State == mutex.InCS):
		return fmt.Sprintf("heard its entry %d is to watch entry %d, and watches %d, %s", c.Entry, watch, c.Watching, p.State)
	}
	return ""
}

// checkResent holds a client that asks again to sending its pending
// request, as it was (a waiting client's KEEPALIVE as a CHECK of its
// entry), and the one queued behind it, to replica to, which it then
// waits on.
func checkResent(v sim.View, id sim.NodeID, was *stood, c *ClientState, to sim.NodeID) string {
	b := &was.Client
	want := b.Pending
	if was.State == mutex.Wanting && b.Entry != 0 && want.Kind == KindKeepalive {
		want = sim.Message{Kind: KindCheck, Value: b.Entry, Data: []int64{b.Session, int64(v.Now())}}
	}
	sent := sentTo(v, id, sim.None, "", 0)
	ok := c.Server == to && !c.Heard && sameMessage(c.Pending, want) && len(sent) > 0 && sent[0].To == to && sameMessage(sent[0].Message, want)
	if b.Queued.Kind != "" {
		ok = ok && len(sent) == 2 && sent[1].To == to && sameMessage(sent[1].Message, b.Queued)
	} else {
		ok = ok && len(sent) == 1
	}
	if !ok {
		return fmt.Sprintf("asks %s again, and waits on %s for its %s %d, having sent %d requests", v.Name(to), v.Name(c.Server), c.Pending.Kind, c.Pending.Value, len(sent))
	}
	return ""
}

// sentTo lists the requests the step sent to replica to (sim.None: to any
// replica) of kind with value ("": any).
func sentTo(v sim.View, id, to sim.NodeID, kind string, value int64) []sim.Envelope {
	var out []sim.Envelope
	for e := range check.SentThisStep(v, id) {
		if process(v, e.To).Part == fencing.PartService && (to == sim.None || e.To == to) && (kind == "" || e.Kind == kind && e.Value == value) {
			out = append(out, e)
		}
	}
	return out
}

// nameOf names a process, or none.
func nameOf(v sim.View, id sim.NodeID) string {
	if id == sim.None {
		return "none"
	}
	return v.Name(id)
}

// sameMessage says two requests are the same: kind, value and numbers.
func sameMessage(a, b sim.Message) bool {
	return a.Kind == b.Kind && a.Value == b.Value && slices.Equal(a.Data, b.Data)
}

// sameClient says a client's state is as it was, but its write.
func sameClient(a, b *ClientState) bool {
	return a.Session == b.Session && a.ValidUntil == b.ValidUntil && a.Entry == b.Entry && a.Watching == b.Watching && a.Asked == b.Asked &&
		a.Server == b.Server && a.Silent == b.Silent && a.Heard == b.Heard && sameMessage(a.Pending, b.Pending) && sameMessage(a.Queued, b.Queued)
}
