package coordlock

import (
	"fmt"
	"strconv"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ClientState is a client's state.
type ClientState struct {
	// Session is the client's session (0 for none), and ValidUntil when it
	// runs out by the client's own reckoning: a session's time from when
	// the client sent the latest request the service answered.
	Session    int64
	ValidUntil sim.Time
	// Entry is the client's entry (0 for none): its fencing token once it
	// holds the lock; Watching the entry it waits to hear is gone.
	Entry    int64
	Watching int64
	// Asked numbers the client's CREATEs; it is kept across a crash, so
	// that the service never takes a new CREATE for a copy of an old one.
	Asked int64
	// Write is the write being prepared.
	Write fencing.Writer
	// Server is the replica of a replicated service the client asks, and
	// Pending the request it has had no answer to, which it asks the next
	// replica when TimerRetry fires; Silent is the last replica that did
	// not answer at all, which a follower may still take for the leader
	// (Heard says the replica asked said something, if only that it does
	// not lead).
	Server  sim.NodeID
	Pending sim.Message
	Silent  sim.NodeID
	Heard   bool
	// Queued is a request sent while a DELETE was pending: the DELETE
	// keeps its place until it is answered, and this one follows it.
	Queued sim.Message
}

func (p *Process) stepClient(env *sim.Env, ev sim.Event) {
	c := &p.Client
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.Config.Replicas > 1 {
			env.Explain("%s is a client: it asks the service's leader for the lock, starting with %s, and writes to %s with the lock's token", me, env.Name(c.Server), env.Name(p.Config.Storage))
			return
		}
		env.Explain("%s is a client: it takes the lock from %s and writes to %s with the lock's token", me, env.Name(Service), env.Name(Storage))
	case sim.Recover:
		p.Forget(env)
		*c = ClientState{Asked: c.Asked, Write: fencing.Writer{To: c.Write.To}, Silent: sim.None}
		env.Explain("%s recovers: it has forgotten its session and entry (whatever it left at the service goes when the session expires)", me)
	case sim.Command, sim.Workload:
		if !p.Ask(env) {
			return
		}
		p.create(env)
		env.Explain("%s wants the lock: CREATE an entry%s", me, p.sessionNote(env))
	case sim.Timer:
		p.clientTimer(env, ev)
	case sim.Deliver:
		p.clientDeliver(env, ev)
	}
}

// create asks for an entry, in the client's session if it believes it has
// one, and in a new one if not.
func (p *Process) create(env *sim.Env) {
	c := &p.Client
	c.Asked++
	c.Entry, c.Watching = 0, 0
	p.ask(env, sim.Message{Kind: KindCreate, Value: c.Asked, Label: KindCreate, Data: []int64{c.Session, int64(env.Now())}})
	if c.Session != 0 {
		env.SetTimer(TimerKeepalive, p.Config.Keepalive)
	}
}

func (p *Process) sessionNote(env *sim.Env) string {
	if p.Client.Session == 0 {
		return ", opening a session"
	}
	return fmt.Sprintf(" in its session %d", p.Client.Session)
}

func (p *Process) clientTimer(env *sim.Env, ev sim.Event) {
	c := &p.Client
	me := env.Name(env.Self())
	switch {
	case c.Write.Fire(env, ev):
		env.Explain("%s sends its write with token %d to %s: it checked its lock when it began, and does not check again", me, c.Write.Token, env.Name(p.Config.Storage))
	case ev.Tag == mutex.TimerRelease && p.State == mutex.InCS:
		p.Leave(env)
		p.ask(env, sim.Message{Kind: KindDelete, Value: c.Entry, Label: fmt.Sprintf("DELETE %d", c.Entry), Data: []int64{c.Session}})
		env.Explain("%s is done after %s: it deletes its entry %d to release the lock", me, sim.Ticks(p.CSTime), c.Entry)
		c.Entry = 0
	case ev.Tag == TimerKeepalive && c.Session != 0:
		if p.State == mutex.Idle {
			env.Explain("%s has no entry: it stops its keepalives and lets session %d lapse", me, c.Session)
			return
		}
		p.ask(env, sim.Message{Kind: KindKeepalive, Value: c.Session, Label: KindKeepalive, Data: []int64{int64(env.Now())}})
		env.SetTimer(TimerKeepalive, p.Config.Keepalive)
		env.Explain("%s keeps session %d alive", me, c.Session)
	case ev.Tag == TimerSession && c.Session != 0 && env.Now() >= c.ValidUntil:
		p.lost(env, fmt.Sprintf("by its own timer its session %d has run out", c.Session))
	case ev.Tag == TimerRetry && c.Pending.Kind != "":
		was := c.Server
		if !c.Heard {
			c.Silent = was
		}
		c.Server = (c.Server + 1) % sim.NodeID(p.Config.Replicas)
		p.retry(env, fmt.Sprintf("%s has not answered its %s for %s", env.Name(was), c.Pending.Kind, sim.Ticks(retryAfter)))
	}
}

// ask sends the service a request that wants an answer, to the replica
// the client asks; with a replicated service it waits for the answer
// only so long before it asks the next replica.
func (p *Process) ask(env *sim.Env, m sim.Message) {
	c := &p.Client
	p.send(env, c.Server, m)
	switch {
	case p.Config.Replicas == 1:
	case c.Pending.Kind == "":
		c.Pending, c.Heard = m, false
		env.SetTimer(TimerRetry, retryAfter)
	case m.Kind == KindKeepalive:
		// a keepalive rides on the pending request's time
	case c.Pending.Kind == KindDelete:
		c.Queued = m // the entry must go, or it holds the lock for good
	default:
		c.Pending = m // the newer request, on the first one's time
	}
}

// settled takes a replicated service's answer to a request of kind (""
// for any: a session that expired): if it is the one the client waits
// for, it waits no more.
func (p *Process) settled(env *sim.Env, kind string) {
	c := &p.Client
	if p.Config.Replicas == 1 || c.Pending.Kind == "" || (kind != "" && kind != c.Pending.Kind) {
		return
	}
	if kind != "" && c.Queued.Kind != "" {
		// the request that waited behind it waits on its own time now
		c.Pending, c.Queued, c.Heard = c.Queued, sim.Message{}, false
		env.SetTimer(TimerRetry, retryAfter)
		return
	}
	c.Pending, c.Queued = sim.Message{}, sim.Message{}
	env.CancelTimer(TimerRetry)
}

// retry asks the replica the client now asks its pending request again
// (a waiting client asks where its entry stands instead of a KEEPALIVE: a
// new leader may not have told it that the entry it watched is gone).
func (p *Process) retry(env *sim.Env, why string) {
	c := &p.Client
	m := c.Pending
	if p.State == mutex.Wanting && c.Entry != 0 && m.Kind == KindKeepalive {
		m = sim.Message{Kind: KindCheck, Value: c.Entry, Label: fmt.Sprintf("CHECK %d", c.Entry), Data: []int64{c.Session, int64(env.Now())}}
	}
	c.Pending = sim.Message{} // asked anew, on a new time
	p.ask(env, m)
	also := ""
	if c.Queued.Kind != "" {
		p.send(env, c.Server, c.Queued) // it went where the first did
		also = " and its " + c.Queued.Kind
	}
	env.Explain("%s: %s; it sends its %s%s to %s", env.Name(env.Self()), why, m.Kind, also, env.Name(c.Server))
}

func (p *Process) clientDeliver(env *sim.Env, ev sim.Event) {
	c := &p.Client
	m := ev.Msg
	me := env.Name(env.Self())
	switch m.Kind {
	case KindCreated:
		asked, session, sentAt, watch := at(m.Data, 0), at(m.Data, 1), at(m.Data, 2), at(m.Data, 3)
		if p.State != mutex.Wanting || asked != c.Asked || c.Entry != 0 || (c.Session != 0 && session != c.Session) {
			env.Explain("%s gets CREATED %d for a request it no longer waits on: it ignores it (the entry goes with its session)", me, m.Value)
			return
		}
		p.settled(env, KindCreate)
		if c.Session == 0 {
			c.Session = session
			if late := env.Now() - sim.Time(sentAt); late >= p.Config.Session {
				// by its own reckoning the new session may have ended
				p.lost(env, fmt.Sprintf("the answer to its CREATE comes %s after it asked, too late to trust session %d", sim.Ticks(late), session))
				return
			}
			env.SetTimer(TimerKeepalive, p.Config.Keepalive)
		}
		c.Entry = m.Value
		p.answered(env, sentAt)
		p.stand(env, watch, fmt.Sprintf("%s's entry is %d in session %d", me, c.Entry, c.Session))
	case KindChecked:
		session, sentAt, watch := at(m.Data, 0), at(m.Data, 1), at(m.Data, 2)
		if p.State != mutex.Wanting || m.Value != c.Entry || session != c.Session {
			env.Explain("%s gets CHECKED %d, which it no longer waits on: it ignores it", me, m.Value)
			return
		}
		p.settled(env, KindCheck)
		p.answered(env, sentAt)
		p.stand(env, watch, fmt.Sprintf("%s hears where its entry %d stands", me, c.Entry))
	case KindDeleted:
		if c.Pending.Kind == KindDelete && m.Value == c.Pending.Value {
			p.settled(env, KindDelete)
			env.Explain("%s hears that its entry %d is deleted", me, m.Value)
			return
		}
		if p.State != mutex.Wanting || c.Entry == 0 || m.Value != c.Watching {
			env.Explain("%s hears that entry %d is gone, which it does not watch", me, m.Value)
			return
		}
		c.Watching = 0
		p.ask(env, sim.Message{Kind: KindCheck, Value: c.Entry, Label: fmt.Sprintf("CHECK %d", c.Entry), Data: []int64{c.Session, int64(env.Now())}})
		env.Explain("%s hears that entry %d is gone: it asks whether its own entry %d is the lowest now", me, m.Value, c.Entry)
	case KindKept:
		if m.Value != c.Session {
			return
		}
		p.settled(env, KindKeepalive)
		p.answered(env, at(m.Data, 0))
		env.Explain("%s's session %d is good until %d, by its own timer", me, c.Session, c.ValidUntil)
	case KindExpired:
		if m.Value != c.Session {
			env.Explain("%s hears that its session %d, which it had already given up, has expired", me, m.Value)
			return
		}
		p.settled(env, "")
		p.lost(env, fmt.Sprintf("the service says its session %d has expired", c.Session))
	case KindNotLeader:
		if c.Pending.Kind == "" || ev.From != c.Server {
			env.Explain("%s hears from %s that it does not lead, but waits for no answer from it", me, env.Name(ev.From))
			return
		}
		c.Heard = true
		if m.Value == 0 {
			env.Explain("%s hears from %s that it does not lead, and knows no leader: %s waits, and asks the next replica if nothing comes", me, env.Name(ev.From), me)
			return
		}
		named := sim.NodeID(m.Value - 1)
		if named == c.Silent {
			// the replica that did not answer: the follower has not
			// noticed yet that its leader is gone
			c.Server = (ev.From + 1) % sim.NodeID(p.Config.Replicas)
			if c.Server == c.Silent {
				c.Server = (c.Server + 1) % sim.NodeID(p.Config.Replicas)
			}
			c.Silent = sim.None // once: it may lead again by the time it is named again
			p.retry(env, fmt.Sprintf("%s names %s, which did not answer", env.Name(ev.From), env.Name(named)))
			return
		}
		c.Server = named
		p.retry(env, fmt.Sprintf("%s does not lead and names %s", env.Name(ev.From), env.Name(c.Server)))
	case fencing.KindWritten:
		c.Write.Answered(ev)
		env.Explain("%s's write with token %d is stored", me, m.Value)
	case fencing.KindRejected:
		c.Write.Answered(ev)
		env.Explain("%s's write with token %d is rejected: its lock had passed on", me, m.Value)
	}
}

// answered counts the session good for its full time from sentAt, when
// the client sent the request the service has now answered.
func (p *Process) answered(env *sim.Env, sentAt int64) {
	c := &p.Client
	if until := sim.Time(sentAt) + p.Config.Session; until > c.ValidUntil {
		c.ValidUntil = until
		env.SetTimer(TimerSession, c.ValidUntil-env.Now())
	}
}

// stand acts on the service's word about the client's entry: it holds the
// lock, or it watches the entry watch.
func (p *Process) stand(env *sim.Env, watch int64, said string) {
	c := &p.Client
	c.Watching = watch // none once it holds: news of an entry below, overtaken, is old
	if watch != 0 {
		env.Explain("%s; it waits for entry %d to go", said, watch)
		return
	}
	p.Enter(env)
	c.Write.Start(env, c.Entry, p.Config.Work)
	env.Explain("%s, the lowest: it holds the lock with token %d for %s, and starts a write that goes out in %s", said, c.Entry, sim.Ticks(p.CSTime), sim.Ticks(p.Config.Work))
}

// lost drops a session that has run out: a holder leaves the section, and
// a waiting client asks again in a new session.
func (p *Process) lost(env *sim.Env, why string) {
	c := &p.Client
	me := env.Name(env.Self())
	c.Session, c.ValidUntil = 0, 0
	env.CancelTimer(TimerKeepalive)
	env.CancelTimer(TimerSession)
	switch p.State {
	case mutex.InCS:
		p.Leave(env)
		env.CancelTimer(mutex.TimerRelease)
		dropped := ""
		if c.Write.Writing {
			c.Write.Writing = false
			env.CancelTimer(fencing.TimerWrite)
			dropped = " and drops the write it was preparing"
		}
		c.Entry = 0
		env.Explain("%s: %s, so it no longer holds the lock: it leaves the critical section%s", me, why, dropped)
	case mutex.Wanting:
		p.create(env)
		env.Explain("%s: %s, and its entry with it: it asks again with a new CREATE, opening a new session", me, why)
	default:
		env.Explain("%s: %s; it holds no entry", me, why)
	}
}

func (c *ClientState) fields() []sim.Field {
	return []sim.Field{
		{Name: "session", Value: strconv.FormatInt(c.Session, 10)},
		{Name: "entry", Value: strconv.FormatInt(c.Entry, 10)},
		{Name: "watching", Value: strconv.FormatInt(c.Watching, 10)},
	}
}
