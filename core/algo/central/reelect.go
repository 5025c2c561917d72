package central

import (
	"fmt"
	"slices"

	"spacetime/core/algo/election"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// With params.reelect the processes elect a new coordinator when theirs
// is gone ("until a new coordinator is elected", seed 000): a process that
// waits for the section asks the coordinator every params.ping ticks
// whether it is there (PING); with no PONG within params.timeout it holds
// a bully election (election.Bully), which the highest live id wins. The
// new coordinator knows nobody's request: every process that follows it
// sends its request again, the holder saying it holds the section, and
// the coordinator grants nothing for params.wait ticks while they come in.

// The re-election's messages and timers.
const (
	KindPing       = "PING"
	KindPong       = "PONG"
	timerCheck     = "check"
	timerPong      = "pong"
	timerCollect   = "collect"
	defaultPing    = 6
	defaultTimeout = 6
	defaultWait    = 12
	// maxTicks bounds the re-election's durations.
	maxTicks = 1_000_000
)

// Reelect is the switch that makes the processes elect a new coordinator.
var Reelect = sim.Switch{Param: "reelect", Variant: true, MaxDelay: 2, Label: "re-election", Help: "Run the same schedule again with the processes electing a new coordinator (bully) when theirs stops answering, or waiting for ever"}

// watch arms the check of the coordinator, while the process waits. A
// PONG awaited from the coordinator it followed before is moot.
func (p *Process) watch(env *sim.Env) {
	if p.params.Reelect && p.State == mutex.Wanting && !p.coordinator(env) {
		env.CancelTimer(timerPong)
		env.SetTimer(timerCheck, p.params.Ping)
		p.Watching = true
	}
}

// reelectTimer handles the re-election's timers; it reports whether tag
// was one.
func (p *Process) reelectTimer(env *sim.Env, tag string) bool {
	me := env.Name(env.Self())
	switch tag {
	case timerCheck:
		p.Watching = false
		if p.State != mutex.Wanting || p.coordinator(env) || p.Elect.Electing {
			return true
		}
		p.send(env, p.Coordinator, KindPing, 0)
		env.SetTimer(timerPong, p.params.Timeout)
		p.Watching = true
		env.Explain("%s still waits for the section: it asks the coordinator %s whether it is there (PING)", me, env.Name(p.Coordinator))
	case timerPong:
		p.Watching = false
		if p.State != mutex.Wanting || p.Elect.Electing || p.coordinator(env) {
			return true
		}
		env.Explain("%s has no PONG from %s within %s: it holds an election. %s", me, env.Name(p.Coordinator), sim.Ticks(p.params.Timeout), p.Elect.Start(env))
		p.settle(env, false)
	case timerCollect:
		p.Collecting = false
		if p.Holder != sim.None || len(p.Queue) == 0 {
			env.Explain("%s has heard the requests of those that follow it; the section is %s", me, map[bool]string{true: "held by " + sim.NameOrNobody(env, p.Holder), false: "free and nobody waits"}[p.Holder != sim.None])
			return true
		}
		next := p.Queue[0]
		p.Queue = p.Queue[1:]
		p.grant(env, next)
		env.Explain("%s has heard the requests of those that follow it: nobody holds the section, so it grants it to %s, first in its queue", me, env.Name(next.From))
	default:
		if p.Elect.Timer(env, tag) {
			p.settle(env, false)
			return true
		}
		return false
	}
	return true
}

// reelectDeliver handles PING, PONG and the election's messages; it
// reports whether ev was one of them.
func (p *Process) reelectDeliver(env *sim.Env, ev sim.Event) bool {
	me, who := env.Name(env.Self()), env.Name(ev.From)
	switch ev.Msg.Kind {
	case KindPing:
		if !p.coordinator(env) {
			env.Explain("%s is not the coordinator: it does not answer %s's PING", me, who)
			return true
		}
		p.send(env, ev.From, KindPong, 0)
		env.Explain("%s answers %s's PING: the coordinator is there", me, who)
	case KindPong:
		if ev.From != p.Coordinator {
			env.Explain("%s takes a PONG from %s, which is no longer its coordinator", me, who)
			return true
		}
		env.CancelTimer(timerPong)
		p.Watching = false
		p.watch(env)
		env.Explain("%s has PONG from %s: its coordinator is there, and it waits on", me, who)
	default:
		if !p.Elect.Deliver(env, ev) {
			return false
		}
		p.settle(env, ev.Msg.Kind == election.KindCoordinator)
	}
	return true
}

// settle brings the process's coordinator up to the election's outcome: a
// process that won becomes the coordinator, knowing no request yet; one
// that follows a new coordinator sends it its request again. So does one
// that hears a COORDINATOR from the one it followed (announced says it
// just did): an election ran without it, or its coordinator crashed,
// recovered, forgot every request and won again. A copy of a request the
// coordinator still has is ignored as a copy.
func (p *Process) settle(env *sim.Env, announced bool) {
	e := &p.Elect
	if e.Electing || e.Leader == p.Coordinator && (e.Leading || !announced) {
		return
	}
	p.Coordinator = e.Leader
	me := env.Name(env.Self())
	if e.Leading {
		env.CancelTimer(timerCheck)
		env.CancelTimer(timerPong)
		p.Watching = false
		p.Holder, p.HolderAsk, p.Queue = sim.None, 0, nil
		clear(p.Seen)
		switch p.State {
		case mutex.InCS:
			p.Holder, p.HolderAsk = env.Self(), p.Asked
		case mutex.Wanting:
			p.Queue = append(p.Queue, Ask{From: env.Self(), N: p.Asked})
		}
		p.Collecting = true
		env.SetTimer(timerCollect, p.params.Wait)
		env.ExplainMore("%s is the coordinator now, knows no request, and grants nothing for %s while the others send theirs again", me, sim.Ticks(p.params.Wait))
		return
	}
	if p.Collecting {
		// a coordinator that follows another now grants nothing more
		p.Collecting = false
		env.CancelTimer(timerCollect)
	}
	switch p.State {
	case mutex.Wanting:
		p.send(env, p.Coordinator, KindRequest, p.Asked)
		p.watch(env)
		env.ExplainMore("it sends its request #%d again, to %s", p.Asked, env.Name(p.Coordinator))
	case mutex.InCS:
		env.Send(p.Coordinator, sim.Message{Kind: KindRequest, Value: p.Asked, Label: "REQUEST (held)", Data: []int64{1}})
		p.Sent++
		env.ExplainMore("it tells %s that it holds the section, with its request #%d", env.Name(p.Coordinator), p.Asked)
	}
}

// heldReport takes a follower's word that it holds the section.
func (p *Process) heldReport(env *sim.Env, a Ask) {
	me, who := env.Name(env.Self()), env.Name(a.From)
	p.Seen[a.From] = max(p.Seen[a.From], a.N)
	if p.Holder != sim.None && p.Holder != a.From {
		env.Explain("%s hears that %s holds the section, but it believes %s does", me, who, env.Name(p.Holder))
		return
	}
	p.Holder, p.HolderAsk = a.From, a.N
	// a request of the holder's queued before it got in elsewhere (a GRANT
	// of the coordinator before) waits no more: granted again, it would
	// only come back
	p.Queue = slices.DeleteFunc(p.Queue, func(q Ask) bool { return q.From == a.From })
	env.Explain("%s hears that %s holds the section (request #%d): it will grant the next once %s releases it", me, who, a.N, who)
}

// reelectFields shows the process's election, when re-election is on.
func (p *Process) reelectFields() []sim.Field {
	coordinator := "unknown"
	if p.Coordinator != sim.None {
		coordinator = fmt.Sprint(p.Coordinator.Number())
	}
	return []sim.Field{{Name: "election", Value: p.Elect.State()}, {Name: "coordinator", Value: coordinator}}
}

// reelectKinds are the message kinds re-election adds: the bully
// election's, with glyphs of their own beside REQUEST, GRANT and RELEASE.
var reelectKinds = []sim.KindSpec{
	{Name: KindPing, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphOpenTriangle},
	{Name: KindPong, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphOpenSquare},
	{Name: election.KindElection, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphPlus},
	{Name: election.KindOK, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
	{Name: election.KindCoordinator, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphOpenDiamond},
}
