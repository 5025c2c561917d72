package coordlock

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// ServiceState is the coordination service's state: its revision, the
// lock's entries, the sessions and the watches.
type ServiceState struct {
	// Revision rises on every change to the entries (etcd's revision); an
	// entry's revision is its fencing token.
	Revision int64
	// Entries are the lock's entries, lowest (oldest) first.
	Entries []Entry
	// Sessions are the open sessions, and LastSession the number of the
	// latest one opened.
	Sessions    []Session
	LastSession int64
	// Watches are the clients waiting to hear that an entry is gone.
	Watches []Watch
	// Seen is each process's latest CREATE number, so that a copy of an
	// old CREATE makes no second entry.
	Seen []int64
	// Expired counts the sessions that ran out, and Notified the DELETED
	// notifications sent.
	Expired, Notified int
}

// Entry is a sequential entry under the lock, owned by a session; Asked
// is the number of the client's CREATE that made it.
type Entry struct {
	Rev     int64
	Client  sim.NodeID
	Session int64
	Asked   int64
}

// Session is a client's session: it lives until Expiry unless the client
// sends a request before then.
type Session struct {
	ID     int64
	Client sim.NodeID
	Expiry sim.Time
}

// Watch is a client waiting for entry On to go.
type Watch struct {
	On int64
	By sim.NodeID
}

func (p *Process) stepService(env *sim.Env, ev sim.Event) {
	s := &p.Service
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		watch := "each waiting client watches only the entry just below its own"
		if p.Config.Herd {
			watch = "every waiting client watches the holder's entry (the herd)"
		}
		env.Explain("%s is the coordination service (one process here; a real one is replicated by consensus): sessions last %s without a request, the lowest entry holds the lock, and %s", me, sim.Ticks(p.Config.Session), watch)
	case sim.Recover:
		// its state is on disk; the sessions get a fresh timeout, as
		// ZooKeeper gives them after a new leader takes over
		for i := range s.Sessions {
			s.Sessions[i].Expiry = env.Now() + p.Config.Session
			env.SetTimer(timerExpire+strconv.FormatInt(s.Sessions[i].ID, 10), p.Config.Session)
		}
		// the crash ended the holder's interval; the lowest entry still holds
		if len(s.Entries) > 0 {
			var o outcome
			p.showHolder(env, &o)
			env.Annotate(o.notes...)
		}
		env.Explain("%s recovers with its entries and sessions (a real service keeps them replicated), and gives every open session %s afresh", me, sim.Ticks(p.Config.Session))
	case sim.Workload, sim.Command:
		env.Explain("%s serves the lock; it does no work of its own", me)
	case sim.Timer:
		id, err := strconv.ParseInt(strings.TrimPrefix(ev.Tag, timerExpire), 10, 64)
		i := s.session(id)
		if err != nil || i < 0 || env.Now() < s.Sessions[i].Expiry {
			return
		}
		var o outcome
		p.expire(env, &o, i)
		p.carry(env, &o)
	case sim.Deliver:
		var o outcome
		p.serve(env, &o, ev.From, ev.Msg)
		p.carry(env, &o)
	}
}

// world is what the service's state machine reads of its step: names,
// time, and whether its words are wanted. It cannot send or arm anything
// through it: what the machine asks of the world is in its outcome.
type world interface {
	Name(id sim.NodeID) string
	Self() sim.NodeID
	Now() sim.Time
	Quiet() bool
}

// outcome is what the service's state machine asks of the world after an
// operation: the answers to clients, the sessions whose timers it renewed,
// the annotations of a single service's holder, and what it did in words.
// The single service and Raft's leader carry it out; a follower replica,
// which applies every operation alike, drops all but the words.
type outcome struct {
	replies []sim.Send
	renewed []int64
	notes   []sim.Annotation
	said    string
}

// answer asks to send m to a client.
func (o *outcome) answer(to sim.NodeID, m sim.Message) {
	o.replies = append(o.replies, sim.Send{To: to, Msg: m})
}

// say is what the operation did, in words; a quiet step needs none.
func (o *outcome) say(w world, format string, args ...any) {
	if !w.Quiet() {
		o.said = fmt.Sprintf(format, args...)
	}
}

// reply does what the state machine asked of the world, but say it: the
// answers go out, the renewed sessions' timers are armed, the
// annotations are made.
func (p *Process) reply(env *sim.Env, o *outcome) {
	for _, r := range o.replies {
		p.send(env, r.To, r.Msg)
	}
	for _, id := range o.renewed {
		env.SetTimer(timerExpire+strconv.FormatInt(id, 10), p.Config.Session)
	}
	env.Annotate(o.notes...)
}

// carry does all that the state machine asked, its words the step's
// caption.
func (p *Process) carry(env *sim.Env, o *outcome) {
	p.reply(env, o)
	if o.said != "" {
		env.Explain("%s", o.said)
	}
}

// serve applies one client request to the service's state: the state
// machine a single service runs and every replica of a replicated one
// applies in log order.
func (p *Process) serve(w world, o *outcome, from sim.NodeID, m sim.Message) {
	s := &p.Service
	me, who := w.Name(w.Self()), w.Name(from)
	switch m.Kind {
	case KindCreate:
		asked, session, sentAt := m.Value, at(m.Data, 0), at(m.Data, 1)
		if asked <= s.Seen[from] {
			if p.Config.Replicas > 1 {
				p.createdAgain(w, o, from, asked, sentAt)
				return
			}
			o.say(w, "%s already has %s's CREATE #%d (this is a copy): it ignores it", me, who, asked)
			return
		}
		s.Seen[from] = asked
		opened := ""
		if session == 0 {
			session = p.open(w, o, from)
			opened = fmt.Sprintf("opens session %d for %s and ", session, who)
		} else if !p.refresh(w, o, from, session) {
			return
		}
		s.Revision++
		e := Entry{Rev: s.Revision, Client: from, Session: session, Asked: asked}
		s.Entries = append(s.Entries, e)
		if len(s.Entries) == 1 {
			p.showHolder(w, o)
		}
		watch := p.watchFor(e)
		p.created(o, e, sentAt, watch)
		o.say(w, "%s %screates entry %d for %s: %s", me, opened, e.Rev, who, p.standing(w, e, watch))
	case KindCheck:
		rev, session, sentAt := m.Value, at(m.Data, 0), at(m.Data, 1)
		if !p.refresh(w, o, from, session) {
			return
		}
		i := s.entry(rev)
		if i < 0 {
			o.say(w, "%s: %s asks about entry %d, which is gone", me, who, rev)
			return
		}
		watch := p.watchFor(s.Entries[i])
		o.answer(from, sim.Message{Kind: KindChecked, Value: rev, Label: fmt.Sprintf("CHECKED %d", rev), Data: []int64{session, sentAt, watch}})
		o.say(w, "%s answers %s about entry %d: %s", me, who, rev, p.standing(w, s.Entries[i], watch))
	case KindKeepalive:
		session, sentAt := m.Value, at(m.Data, 0)
		if !p.refresh(w, o, from, session) {
			return
		}
		o.answer(from, sim.Message{Kind: KindKept, Value: session, Label: KindKept, Data: []int64{sentAt}})
		o.say(w, "%s keeps %s's session %d alive until %d", me, who, session, s.Sessions[s.session(session)].Expiry)
	case KindDelete:
		rev, session := m.Value, at(m.Data, 0)
		if i := s.session(session); i >= 0 && s.Sessions[i].Client == from {
			p.renew(w, o, i)
		}
		if p.Config.Replicas > 1 {
			// a replicated service says it is done, so that a client
			// whose DELETE met a crashed leader knows to ask again
			o.answer(from, sim.Message{Kind: KindDeleted, Value: rev, Label: fmt.Sprintf("DELETED %d", rev)})
		}
		i := s.entry(rev)
		if i < 0 || s.Entries[i].Client != from {
			o.say(w, "%s: entry %d that %s deletes is already gone", me, rev, who)
			return
		}
		o.say(w, "%s deletes entry %d for %s%s", me, rev, who, p.remove(w, o, i))
	}
}

// created answers the CREATE that made entry e: its entry, its session,
// when the client asked, and the entry it watches (0 when it holds).
func (p *Process) created(o *outcome, e Entry, sentAt, watch int64) {
	o.answer(e.Client, sim.Message{Kind: KindCreated, Value: e.Rev, Label: fmt.Sprintf("CREATED %d", e.Rev), Data: []int64{e.Asked, e.Session, sentAt, watch}})
}

// open starts a session for a client.
func (p *Process) open(w world, o *outcome, c sim.NodeID) int64 {
	s := &p.Service
	s.LastSession++
	s.Sessions = append(s.Sessions, Session{ID: s.LastSession, Client: c})
	p.renew(w, o, len(s.Sessions)-1)
	return s.LastSession
}

// refresh renews the session a request comes with; it reports false, and
// answers EXPIRED, when the session is not open.
func (p *Process) refresh(w world, o *outcome, from sim.NodeID, session int64) bool {
	s := &p.Service
	i := s.session(session)
	if i < 0 || s.Sessions[i].Client != from {
		o.answer(from, sim.Message{Kind: KindExpired, Value: session, Label: fmt.Sprintf("EXPIRED %d", session)})
		o.say(w, "%s: %s's session %d has expired; it says so", w.Name(w.Self()), w.Name(from), session)
		return false
	}
	p.renew(w, o, i)
	return true
}

// renew gives session i its full time again, from now, and asks for its
// timer (which only the process that times the sessions arms).
func (p *Process) renew(w world, o *outcome, i int) {
	ss := &p.Service.Sessions[i]
	ss.Expiry = w.Now() + p.Config.Session
	o.renewed = append(o.renewed, ss.ID)
}

// expire ends session i and deletes its entries.
func (p *Process) expire(w world, o *outcome, i int) {
	s := &p.Service
	ss := s.Sessions[i]
	s.Sessions = slices.Delete(s.Sessions, i, i+1)
	s.Expired++
	var gone []string
	var news string
	for j := 0; j < len(s.Entries); {
		if s.Entries[j].Session != ss.ID {
			j++
			continue
		}
		gone = append(gone, strconv.FormatInt(s.Entries[j].Rev, 10))
		news += p.remove(w, o, j)
	}
	what := "it had no entry"
	if len(gone) > 0 {
		what = "its entry " + strings.Join(gone, ", ") + " is deleted" + news
	}
	o.say(w, "%s: %s's session %d expires, no request for %s; %s", w.Name(w.Self()), w.Name(ss.Client), ss.ID, sim.Ticks(p.Config.Session), what)
}

// remove deletes entry i, tells its watchers, and says what changed.
func (p *Process) remove(w world, o *outcome, i int) string {
	s := &p.Service
	e := s.Entries[i]
	wasHolder := i == 0
	s.Entries = slices.Delete(s.Entries, i, i+1)
	s.Revision++
	if wasHolder && p.Config.Replicas == 1 {
		o.notes = append(o.notes, sim.Closes(RoleHolder, int(e.Client)))
	}
	var told []string
	s.Watches = slices.DeleteFunc(s.Watches, func(wt Watch) bool {
		if wt.On != e.Rev {
			return false
		}
		o.answer(wt.By, sim.Message{Kind: KindDeleted, Value: e.Rev, Label: fmt.Sprintf("DELETED %d", e.Rev)})
		s.Notified++
		told = append(told, w.Name(wt.By))
		return true
	})
	news := ""
	if len(told) > 0 {
		news = "; it tells " + strings.Join(told, ", ") + ", watching it"
	}
	if wasHolder && len(s.Entries) > 0 {
		next := s.Entries[0]
		p.showHolder(w, o)
		news += fmt.Sprintf("; entry %d (%s) is the lowest now", next.Rev, w.Name(next.Client))
	}
	return news
}

// showHolder opens the interval of the lowest entry, which has just become
// the lowest: the service's holder, whether its client knows yet or not.
func (p *Process) showHolder(w world, o *outcome) {
	if p.Config.Replicas > 1 {
		return // a replicated service's holder is in every replica's state
	}
	e := p.Service.Entries[0]
	o.notes = append(o.notes, sim.Opens(RoleHolder, int(e.Client), fmt.Sprintf("%s, entry %d", w.Name(e.Client), e.Rev)).To(e.Client))
}

// watchFor is the entry e's client must watch, registering the watch, or 0
// when e is the lowest and holds the lock.
func (p *Process) watchFor(e Entry) int64 {
	s := &p.Service
	i := s.entry(e.Rev)
	if i == 0 {
		return 0
	}
	on := s.Entries[i-1].Rev
	if p.Config.Herd {
		on = s.Entries[0].Rev
	}
	w := Watch{On: on, By: e.Client}
	if !slices.Contains(s.Watches, w) {
		s.Watches = append(s.Watches, w)
	}
	return on
}

// standing says where entry e stands: it holds the lock, or which entry
// its client watches.
func (p *Process) standing(w world, e Entry, watch int64) string {
	s := &p.Service
	if watch == 0 {
		return fmt.Sprintf("it is the lowest, so %s holds the lock with token %d", w.Name(e.Client), e.Rev)
	}
	owner := s.Entries[s.entry(watch)].Client
	if p.Config.Herd {
		return fmt.Sprintf("%s watches the holder's entry %d (%s), as every waiting client does", w.Name(e.Client), watch, w.Name(owner))
	}
	return fmt.Sprintf("%s watches entry %d (%s), the one just below, and no other", w.Name(e.Client), watch, w.Name(owner))
}

// entry is the index of the entry with revision rev, or -1.
func (s *ServiceState) entry(rev int64) int {
	return slices.IndexFunc(s.Entries, func(e Entry) bool { return e.Rev == rev })
}

// session is the index of the open session id, or -1.
func (s *ServiceState) session(id int64) int {
	return slices.IndexFunc(s.Sessions, func(ss Session) bool { return ss.ID == id })
}

func (s *ServiceState) fields() []sim.Field {
	entries := make([]string, len(s.Entries))
	for i, e := range s.Entries {
		entries[i] = fmt.Sprintf("%d:%d", e.Rev, e.Client.Number())
	}
	return []sim.Field{
		{Name: "revision", Value: strconv.FormatInt(s.Revision, 10)},
		{Name: "entries", Value: "[" + strings.Join(entries, " ") + "]"},
		{Name: "sessions", Value: strconv.Itoa(len(s.Sessions))},
	}
}

// at is the i-th of a message's numbers, or 0 when it is missing.
func at(data []int64, i int) int64 {
	if i < len(data) {
		return data[i]
	}
	return 0
}
