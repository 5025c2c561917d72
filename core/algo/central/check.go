package central

import (
	"fmt"
	"slices"

	"spacetime/core/algo/election"
	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// KnownName names the knows invariant.
const KnownName = "the coordinator knows who waits and who holds the section"

// knows is the coordinator's bookkeeping: a process that waits is first
// in line for a GRANT (the coordinator's holder, its GRANT on the way) or
// in the coordinator's queue, and a process in the section is the
// coordinator's holder; or the process's word is on its way there (its
// REQUEST, or the REQUEST that says it holds the section), or the
// coordinator's COORDINATOR is on its way to it, which it answers with
// that word. A coordinator that drops a request, or forgets one it
// queued, leaves its process waiting with nobody to let it in; the
// deadlock invariant sees that only once nothing else moves, which under
// re-election, where the waiting PING their coordinator for ever, is
// never. A new coordinator that misses who holds the section grants it
// again.
//
// The coordinator is the one the process believes in. While that one is
// down or no longer coordinates, the process's watch (watches) is what
// brings its request to the next.
var knows = sim.Invariant{
	Name: KnownName,
	Help: "every process that waits for the section has its request in the coordinator's queue or holds its grant, every process in the section is the coordinator's holder, or the process's word is on its way",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			p := process(v, id)
			if p.State == mutex.Idle || v.Health(id) == sim.Crashed {
				continue
			}
			c := p.Coordinator
			if c == sim.None || v.Health(c) == sim.Crashed {
				continue
			}
			coord := process(v, c)
			a := Ask{From: id, N: p.Asked}
			granted := coord.Holder == id && coord.HolderAsk == p.Asked
			if coord.Coordinator != c || granted || p.State == mutex.Wanting && slices.Contains(coord.Queue, a) ||
				c != id && (check.CarriesAbout(v, id, c, p.Asked, KindRequest) || check.Carries(v, c, id, election.KindCoordinator)) {
				continue
			}
			if p.State == mutex.InCS {
				return sim.Verdict{Detail: fmt.Sprintf("%s is in the section with request #%d, but the coordinator %s does not count it as the holder, and nothing saying so is on its way", v.Name(id), p.Asked, v.Name(c))}
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s waits for the section with request #%d, but the coordinator %s neither granted it, nor queued it, nor has it on its way", v.Name(id), p.Asked, v.Name(c))}
		}
		return sim.Verdict{OK: true}
	},
}

// QueuedName names the queued invariant.
const QueuedName = "the coordinator queues only requests that wait"

// queued is the other half of the coordinator's bookkeeping: what its
// queue holds is what waits. Each queued request is its process's
// latest, made still (not granted, not in the section), and queued once;
// and a coordinator with a free section and requests queued grants at
// once, unless, newly elected, it gathers the requests first. A request
// granted but left in the queue, or a copy of one queued again, is
// granted a second time to a process that no longer wants it.
var queued = sim.Invariant{
	Name: QueuedName,
	Help: "every request in the coordinator's queue is its process's latest, still waiting, and queued once; a coordinator with a free section and a queue grants at once, unless it gathers the requests as a new coordinator",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			c := sim.NodeID(i)
			coord := process(v, c)
			if coord.Coordinator != c || v.Health(c) == sim.Crashed || len(coord.Queue) == 0 {
				continue
			}
			if coord.Holder == sim.None && !coord.Collecting {
				return sim.Verdict{Detail: fmt.Sprintf("the section is free and %s's request waits first in the queue of the coordinator %s, which does not grant it", v.Name(coord.Queue[0].From), v.Name(c))}
			}
			for k, a := range coord.Queue {
				r := process(v, a.From)
				if v.Health(a.From) == sim.Crashed || r.Coordinator != c {
					continue
				}
				if r.State != mutex.Wanting || r.Asked != a.N {
					return sim.Verdict{Detail: fmt.Sprintf("the coordinator %s queues %s's request #%d, which %s no longer makes (it is %s, with request #%d)", v.Name(c), v.Name(a.From), a.N, v.Name(a.From), r.State, r.Asked)}
				}
				if slices.Contains(coord.Queue[k+1:], a) {
					return sim.Verdict{Detail: fmt.Sprintf("the coordinator %s queues %s's request #%d twice", v.Name(c), v.Name(a.From), a.N)}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// WatchesName names the watches invariant.
const WatchesName = "a waiting process watches its coordinator"

// watches is re-election's failure detector kept running: a live process
// that waits for the section, and follows a coordinator other than
// itself, has a PING on its timer or a PONG awaited on one, unless it is
// electing. Without it, a coordinator that crashes leaves it waiting for
// ever, which is what re-election is for.
var watches = sim.Invariant{
	Name: WatchesName,
	Help: "with re-election, a process that waits for the section and follows another process has its check or its PONG's timeout armed, so that it notices a coordinator that is gone",
	Check: eachReelecting(func(v sim.View, id sim.NodeID, p *Process) string {
		_, check := v.Timer(id, timerCheck)
		_, pong := v.Timer(id, timerPong)
		switch {
		case p.Watching && !check && !pong:
			return fmt.Sprintf("%s counts itself as checking on its coordinator, but neither its check nor its PONG's timeout is armed", v.Name(id))
		case !p.Watching && (check || pong):
			return fmt.Sprintf("%s has a timer of its check armed but does not count itself as checking on its coordinator", v.Name(id))
		case p.State == mutex.Wanting && !p.Elect.Electing && p.Coordinator != sim.None && p.Coordinator != id && !p.Watching:
			return fmt.Sprintf("%s waits for the section but does not check on its coordinator %s: if %s is gone, it waits for ever", v.Name(id), v.Name(p.Coordinator), v.Name(p.Coordinator))
		}
		return ""
	}),
}

// GathersName names the gathers invariant.
const GathersName = "only a coordinator gathers requests, and on its timer"

// gathers holds a new coordinator to the wait it announces: it gathers
// the requests (grants nothing) exactly while its timer for the end of
// the gathering is armed, and only while it coordinates. Without the
// timer it would never grant again; a process that gathers on after it
// has followed another grants the section behind its back.
var gathers = sim.Invariant{
	Name: GathersName,
	Help: "with re-election, only a coordinator gathers requests, and it gathers (granting nothing) exactly while its timer for the end of the gathering is armed",
	Check: eachReelecting(func(v sim.View, id sim.NodeID, p *Process) string {
		_, armed := v.Timer(id, timerCollect)
		switch {
		case p.Collecting && p.Coordinator != id:
			return fmt.Sprintf("%s gathers requests to grant, but it follows %s", v.Name(id), sim.NameOrNobody(v, p.Coordinator))
		case p.Collecting && !armed:
			return fmt.Sprintf("%s gathers the requests as a new coordinator, but its timer %q is not armed: it would grant nothing for ever", v.Name(id), timerCollect)
		case !p.Collecting && armed:
			return fmt.Sprintf("%s has its timer %q armed but does not gather requests", v.Name(id), timerCollect)
		}
		return ""
	}),
}

// FollowsName names the follows invariant.
const FollowsName = "a process follows the coordinator its election named"

// follows holds each process to its election's outcome: once it is not
// electing, the coordinator it sends its requests to (and, if itself,
// acts as) is the one the election named.
var follows = sim.Invariant{
	Name: FollowsName,
	Help: "with re-election, a process that is not electing follows, as its coordinator, the leader its election named",
	Check: eachReelecting(func(v sim.View, id sim.NodeID, p *Process) string {
		if p.Elect.Electing || p.Coordinator == p.Elect.Leader {
			return ""
		}
		return fmt.Sprintf("%s's election named %s, but %s follows %s", v.Name(id), sim.NameOrNobody(v, p.Elect.Leader), v.Name(id), sim.NameOrNobody(v, p.Coordinator))
	}),
}

// eachReelecting is a check of re-election's state: wrong says what is
// wrong with one live process that runs it ("" for nothing), and the
// check fails at the first. The state it reads (flags, timers, the
// coordinator followed) is the process's own, which only its own step
// changes, so after a step only the process that took it is read
// (check.Stepped).
func eachReelecting(wrong func(v sim.View, id sim.NodeID, p *Process) string) func(sim.View) sim.Verdict {
	return func(v sim.View) sim.Verdict {
		return check.Stepped(v, func(id sim.NodeID) string {
			if p := process(v, id); p.params.Reelect {
				return wrong(v, id, p)
			}
			return ""
		})
	}
}

// RulesName names the rules invariant.
const RulesName = "a process answers PING, PONG, GRANT and a held section's report by the rules, takes over as a coordinator knowing nothing, and forgets in a crash"

// rules holds the process that took the last step to the rule for what
// it got, read off its state after the step and what the step sent: a
// GRANT it does not enter by (not the one it waits for, or not from the
// coordinator it follows) goes back to its sender with RELEASE, unless it
// is a copy of the one it is inside by; a REQUEST says it holds the
// section exactly when its process is inside; a coordinator told a
// process holds the section counts it (or the holder it knew) and grants
// nothing; the holder's request is not also queued. With re-election a
// coordinator answers PING with PONG, a waiting process's check sends
// PING to its coordinator, whose PONG ends the wait for it (the process
// watches again only while it waits), and a process that becomes
// coordinator knows
// no request but its own. A recovered process has forgotten the holder,
// its queue and the requests it saw.
var rules = sim.Invariant{
	Name: RulesName,
	Help: "a GRANT not entered by goes back with RELEASE; a REQUEST says it holds the section exactly when it does; a coordinator told a process holds the section counts it and grants nothing; the holder is not queued; with re-election PING is answered with PONG, a waiting process's check sends PING and its coordinator's PONG ends the wait for it, and a new coordinator knows no request but its own; a recovered process has forgotten the holder, its queue and the requests it saw",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return stepRule(v, id, ev, process(v, id))
	}),
}

// stepRule says how the step broke a rule, or "".
func stepRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	if p.Holder != sim.None && slices.Contains(p.Queue, Ask{From: p.Holder, N: p.HolderAsk}) {
		return fmt.Sprintf("queues %s's request #%d, which holds the section", v.Name(p.Holder), p.HolderAsk)
	}
	for e := range check.SentThisStep(v, id) {
		if held := slices.Equal(e.Data, []int64{1}); e.Kind == KindRequest && held != (p.State == mutex.InCS) {
			return fmt.Sprintf("is %s, and sent %s a REQUEST that says it holds the section: %t", p.State, v.Name(e.To), held)
		}
	}
	if ev.Kind == sim.Recover {
		if p.Holder != sim.None || len(p.Queue) > 0 || !check.Cleared(p.Seen) {
			return "recovered, and still knows a holder, a queue or the requests it saw"
		}
		return ""
	}
	began := slices.ContainsFunc(v.LastAnnotations(), func(a sim.Annotation) bool { return a.Role == election.RoleLeader && a.Phase == sim.Begin })
	if p.params.Reelect && began && p.Coordinator == id {
		if detail := takenOver(p, id); detail != "" {
			return detail
		}
	}
	switch ev.Kind {
	case sim.Timer:
		if ev.Tag != timerCheck || !p.params.Reelect {
			return ""
		}
		_, pong := v.Timer(id, timerPong)
		if pinged := check.SentNow(v, id, p.Coordinator, KindPing); pinged != (p.State == mutex.Wanting && p.Coordinator != id && !p.Elect.Electing) || pinged != pong {
			return fmt.Sprintf("checked on its coordinator %s while %s, and sent PING: %t, awaiting PONG: %t", sim.NameOrNobody(v, p.Coordinator), p.State, pinged, pong)
		}
	case sim.Deliver:
		return delivered(v, id, ev, p)
	}
	return ""
}

// takenOver says what a process that has just become coordinator knows
// that it should not: no holder but itself in the section, no request
// but its own, no request seen.
func takenOver(p *Process, id sim.NodeID) string {
	holder, queue := sim.NodeID(sim.None), []Ask(nil)
	switch p.State {
	case mutex.InCS:
		holder = id
	case mutex.Wanting:
		queue = []Ask{{From: id, N: p.Asked}}
	}
	if p.Holder != holder || !slices.Equal(p.Queue, queue) || !check.Cleared(p.Seen) {
		return "became coordinator, and knows a holder, a queue or requests from before"
	}
	return ""
}

// delivered is the rule for a delivered message.
func delivered(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	from, n := ev.From, ev.Msg.Value
	switch ev.Msg.Kind {
	case KindPing:
		if answered := check.SentNow(v, id, from, KindPong); p.params.Reelect && answered != (p.Coordinator == id) {
			return fmt.Sprintf("got %s's PING, coordinating: %t, and answered PONG: %t", v.Name(from), p.Coordinator == id, answered)
		}
	case KindPong:
		_, pong := v.Timer(id, timerPong)
		if p.params.Reelect && from == p.Coordinator && (pong || p.Watching != (p.State == mutex.Wanting && p.Coordinator != id)) {
			return fmt.Sprintf("got its coordinator %s's PONG while %s, and awaits a PONG still: %t, watching: %t", v.Name(from), p.State, pong, p.Watching)
		}
	case KindGrant:
		entered := p.State == mutex.InCS && !v.DrawnBefore(id, mutex.RoleCS, 0, v.Steps()-1)
		switch {
		case entered && (n != p.Asked || from != p.Coordinator):
			return fmt.Sprintf("entered the section by %s's GRANT for request #%d, following %s with request #%d", v.Name(from), n, sim.NameOrNobody(v, p.Coordinator), p.Asked)
		case !entered && !(p.State == mutex.InCS && n == p.Asked) && !check.SentNow(v, id, from, KindRelease):
			return fmt.Sprintf("got %s's GRANT for request #%d, which it does not enter by, and did not hand it back with RELEASE", v.Name(from), n)
		}
	case KindRequest:
		if !slices.Equal(ev.Msg.Data, []int64{1}) || p.Coordinator != id {
			return ""
		}
		if p.Holder == sim.None || p.Seen[from] < n || check.SentNow(v, id, from, KindGrant) {
			return fmt.Sprintf("was told %s holds the section with request #%d, and counts %s as the holder, having seen #%d", v.Name(from), n, sim.NameOrNobody(v, p.Holder), p.Seen[from])
		}
	}
	return ""
}
