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
const KnownName = "the coordinator knows every request that waits"

// knows is the coordinator's bookkeeping: a process that waits is first
// in line for a GRANT (the coordinator's holder, its GRANT on the way),
// in the coordinator's queue, or has its REQUEST on its way there (or the
// COORDINATOR on its way to it, which it answers with the request again). A
// coordinator that drops a request, or forgets one it queued, leaves its
// process waiting with nobody to let it in; the deadlock invariant sees
// that only once nothing else moves, which under re-election, where the
// waiting PING their coordinator for ever, is never.
//
// The coordinator is the one the waiting process believes in. While that
// one is down or no longer coordinates, the process's watch (watches) is
// what brings its request to the next.
var knows = sim.Invariant{
	Name: KnownName,
	Help: "every process that waits for the section has its request in the coordinator's queue, holds its grant, or has its REQUEST on the way",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			p := process(v, id)
			if p.State != mutex.Wanting || v.Health(id) == sim.Crashed {
				continue
			}
			c := p.Coordinator
			if c == sim.None || v.Health(c) == sim.Crashed {
				continue
			}
			coord := process(v, c)
			if coord.Coordinator != c || coord.knows(Ask{From: id, N: p.Asked}) || c != id && (check.CarriesAbout(v, id, c, p.Asked, KindRequest) || check.Carries(v, c, id, election.KindCoordinator)) {
				continue
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s waits for the section with request #%d, but the coordinator %s neither granted it, nor queued it, nor has it on its way", v.Name(id), p.Asked, v.Name(c))}
		}
		return sim.Verdict{OK: true}
	},
}

// knows says the coordinator counts request a: it granted it, or queued
// it.
func (p *Process) knows(a Ask) bool {
	return p.Holder == a.From && p.HolderAsk == a.N || slices.Contains(p.Queue, a)
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
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			p := process(v, id)
			if !p.params.Reelect || v.Health(id) == sim.Crashed {
				continue
			}
			_, check := v.Timer(id, timerCheck)
			_, pong := v.Timer(id, timerPong)
			switch {
			case p.Watching != (check || pong):
				if p.Watching {
					return sim.Verdict{Detail: fmt.Sprintf("%s counts itself as checking on its coordinator, but neither its check nor its PONG's timeout is armed", v.Name(id))}
				}
				return sim.Verdict{Detail: fmt.Sprintf("%s has a timer of its check armed but does not count itself as checking on its coordinator", v.Name(id))}
			case p.State == mutex.Wanting && !p.Elect.Electing && p.Coordinator != sim.None && p.Coordinator != id && !p.Watching:
				return sim.Verdict{Detail: fmt.Sprintf("%s waits for the section but does not check on its coordinator %s: if %s is gone, it waits for ever", v.Name(id), v.Name(p.Coordinator), v.Name(p.Coordinator))}
			}
		}
		return sim.Verdict{OK: true}
	},
}
