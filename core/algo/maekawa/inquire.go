package maekawa

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// The deadlock-free version (params.inquire), as Maekawa gives it and
// Sanders proves it: every request is stamped (Lamport clock, id), and
// the earlier stamp wins.
//
//   - A member whose vote is taken queues a request in stamp order. If
//     the request is earlier than the vote's holder and every queued one,
//     the member sends INQUIRE to the holder (once per vote), and FAILED
//     to the queued requests it now comes after; else it sends FAILED to
//     the request.
//   - A requester that gets FAILED cannot win yet: it gives back (YIELD)
//     every vote an INQUIRE asked for, and from then on yields at once.
//     One that has not failed keeps the INQUIRE until it fails or enters;
//     once inside, its RELEASE answers it.
//   - A member that gets a YIELD queues the yielded request again and
//     votes for the earliest queued one.
//
// The earliest request in the system is never refused a vote for good,
// so no wait-for cycle lasts. Like Maekawa's paper, it assumes FIFO
// channels that deliver each message once: an INQUIRE that overtakes the
// vote it asks about finds no vote to give back, and a cycle can then
// last; a copy of a vote that comes after its requester gave it back is
// counted as the vote given again.

// before says a's stamp comes before b's: the clock, then the id.
func (a Ask) before(b Ask) bool {
	if a.Clock != b.Clock {
		return a.Clock < b.Clock
	}
	return a.From < b.From
}

// stamp writes a request's stamp: "(3, 2)".
func stamp(a Ask) string { return fmt.Sprintf("(%d, %d)", a.Clock, a.From.Number()) }

// sendAsk sends a message about request a: its number, and its stamp
// when the process runs the deadlock-free version.
func (p *Process) sendAsk(env *sim.Env, to sim.NodeID, kind string, a Ask) {
	m := sim.Message{Kind: kind, Value: a.N, Label: fmt.Sprintf("%s #%d", kind, a.N)}
	if p.Inquire {
		m.Data = []int64{a.Clock}
	}
	env.Send(to, m)
	p.Sent++
}

// tell sends an INQUIRE, YIELD or FAILED about request a to process to,
// or, when to is this process (a member of its own set), takes it at
// once; it says what taking it did, "" for a message sent.
func (p *Process) tell(env *sim.Env, to sim.NodeID, kind string, a Ask) string {
	if to != env.Self() {
		p.sendAsk(env, to, kind, a)
		return ""
	}
	self := Ask{From: env.Self(), N: a.N, Clock: a.Clock}
	switch kind {
	case KindInquire:
		return "; it " + p.onInquire(env, self)
	case KindYield:
		return ": it " + p.onYield(env, self)
	default:
		return "; it " + p.onFailed(env, self)
	}
}

// queue inserts a request in stamp order.
func (p *Process) queue(a Ask) {
	i := slices.IndexFunc(p.Queue, func(q Ask) bool { return a.before(q) })
	if i < 0 {
		i = len(p.Queue)
	}
	p.Queue = slices.Insert(p.Queue, i, a)
}

// contest is a member's rule for a request while its vote is taken.
func (p *Process) contest(env *sim.Env, a Ask, who string) string {
	holder, holders := env.Name(p.Voted.From), env.Name(p.Voted.From)+"'s"
	if p.Voted.From == env.Self() {
		holder, holders = "itself", "its own"
	}
	p.queue(a)
	if !a.before(p.Voted) || p.Queue[0] != a {
		p.Queue[slices.Index(p.Queue, a)].Failed = true
		return fmt.Sprintf("queues the request of %s, %s, behind an earlier one (its vote is %s, %s) and tells %s it must wait: FAILED",
			who, stamp(a), holders, stamp(p.Voted), who) + p.tell(env, a.From, KindFailed, a)
	}
	text := fmt.Sprintf("queues the request of %s, %s, the earliest it knows, before %s %s, which holds its vote", who, stamp(a), holders, stamp(p.Voted))
	if p.Inquired {
		text += fmt.Sprintf("; it has already asked %s to give the vote back", holder)
	} else {
		p.Inquired = true
		text += fmt.Sprintf(", and asks %s to give it back: INQUIRE", holder) + p.tell(env, p.Voted.From, KindInquire, p.Voted)
	}
	var failed []string
	for i, q := range p.Queue {
		if q != a && !q.Failed {
			p.Queue[i].Failed = true
			failed = append(failed, env.Name(q.From))
			text += p.tell(env, q.From, KindFailed, q)
		}
	}
	if len(failed) > 0 {
		text += fmt.Sprintf("; FAILED to %s, now behind it", strings.Join(failed, " and "))
	}
	return text
}

// onInquire is a requester's rule for an INQUIRE from a member that
// voted for it: give the vote back if it cannot win now, else keep the
// question until it can tell.
func (p *Process) onInquire(env *sim.Env, a Ask) string {
	who := env.Name(a.From) + "'s"
	if a.From == env.Self() {
		who = "its own"
	}
	switch {
	case a.N != p.Asked || !p.Votes[a.From]:
		return fmt.Sprintf("gets %s INQUIRE about a vote it no longer holds: it ignores it", who)
	case p.State != mutex.Wanting:
		return fmt.Sprintf("gets %s INQUIRE inside the critical section: its RELEASE will answer it", who)
	case p.Failed:
		return fmt.Sprintf("gets %s INQUIRE and, as it cannot win yet, gives the vote back", who) + p.yield(env, a.From)
	}
	p.Asking = append(p.Asking, a.From)
	return fmt.Sprintf("gets %s INQUIRE: it keeps the vote until it knows whether it can win (a FAILED, or every vote)", who)
}

// onFailed is a requester's rule for a FAILED: it cannot win yet, so it
// gives back every vote an INQUIRE asked for.
func (p *Process) onFailed(env *sim.Env, a Ask) string {
	who := env.Name(a.From)
	if a.N != p.Asked || p.State != mutex.Wanting {
		return fmt.Sprintf("gets %s's FAILED about a request it no longer makes: it ignores it", who)
	}
	p.Failed = true
	if len(p.Asking) == 0 {
		return fmt.Sprintf("gets FAILED from %s: an earlier request comes first there, and it will give back any vote it is asked for", who)
	}
	text := fmt.Sprintf("gets FAILED from %s: it cannot win yet, so it gives back the votes it was asked for", who)
	asking := p.Asking
	p.Asking = nil
	for _, m := range asking {
		text += p.yield(env, m)
	}
	return text
}

// yield gives member m's vote back.
func (p *Process) yield(env *sim.Env, m sim.NodeID) string {
	p.Votes[m] = false
	p.Failed = true
	to := env.Name(m)
	if m == env.Self() {
		to = "itself"
	}
	return fmt.Sprintf("; YIELD to %s", to) + p.tell(env, m, KindYield, Ask{From: env.Self(), N: p.Asked, Clock: p.Clock})
}

// onYield is a member's rule for a vote given back: queue the request
// again and vote for the earliest.
func (p *Process) onYield(env *sim.Env, a Ask) string {
	who := env.Name(a.From)
	if !p.Voted.is(a) {
		return fmt.Sprintf("gets %s's YIELD for a vote it does not hold: it ignores it", who)
	}
	back := p.Voted
	back.Failed = true
	p.Voted, p.Inquired = Ask{From: sim.None}, false
	p.queue(back)
	next := p.Queue[0]
	p.Queue = p.Queue[1:]
	if a.From == env.Self() {
		return fmt.Sprintf("takes its own vote back, queues its request again and votes for %s, the earliest", env.Name(next.From)) + p.vote(env, next)
	}
	return fmt.Sprintf("gets its vote back from %s, queues that request again and votes for %s, the earliest", who, env.Name(next.From)) + p.vote(env, next)
}
