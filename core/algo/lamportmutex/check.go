package lamportmutex

import (
	"fmt"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// QueueName names the check of a process's queue and its entry.
const QueueName = "a process queues only requests not yet released, enters only at its queue's head having heard a later stamp from everyone, and forgets its queue in a crash"

// queue holds each process to Lamport's rules, read after its own step: a
// request in its queue from another process was not released (no RELEASE
// of it, or of a later one, was taken); a RELEASE taken removes its
// request and every earlier one of its process, and is remembered; the
// process enters only when its own request heads its queue and it has
// heard from every other process a message stamped later than it; a
// recovered process has forgotten its queue and what it heard.
var queue = sim.Invariant{
	Name: QueueName,
	Help: "a queued request of another process was not released; a RELEASE removes its request and the earlier ones and is remembered; a process enters only at its queue's head, having heard from every other process a stamp later than its request's; a recovered process has forgotten its queue and what it heard",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return queueRule(v, id, ev, process(v, id))
	}),
}

// queueRule says how the step broke a rule, or "".
func queueRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	if ev.Kind == sim.Recover {
		if len(p.Queue) > 0 || !check.Cleared(p.Heard) || !check.Cleared(p.Released) {
			return "recovered, and still has its queue or what it heard"
		}
		return ""
	}
	for _, s := range p.Queue {
		if s.From != id && s.Clock <= p.Released[s.From] {
			return fmt.Sprintf("queues %s's request %s, which was released at %d", v.Name(s.From), s, p.Released[s.From])
		}
	}
	if ev.Kind == sim.Deliver && ev.Msg.Kind == KindRelease && p.Released[ev.From] < ev.Msg.Value {
		return fmt.Sprintf("took %s's RELEASE of its request at %d, and remembers a release only at %d", v.Name(ev.From), ev.Msg.Value, p.Released[ev.From])
	}
	if p.State != mutex.InCS || v.DrawnBefore(id, mutex.RoleCS, 0, v.Steps()-1) {
		return ""
	}
	if len(p.Queue) == 0 || p.Queue[0] != p.Mine {
		return fmt.Sprintf("entered with its request %s not at the head of its queue", p.Mine)
	}
	for q := range v.N() {
		if sim.NodeID(q) != id && p.Heard[q] <= p.Mine.Clock {
			return fmt.Sprintf("entered with its request %s, having heard from %s only up to %d", p.Mine, v.Name(sim.NodeID(q)), p.Heard[q])
		}
	}
	return ""
}
