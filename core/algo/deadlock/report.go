package deadlock

import (
	"fmt"

	"spacetime/core/sim"
)

// RealName is the invariant's name.
const RealName = "a deadlock detected is real"

func proc(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// waitsNow reports whether i waits for j now: it waits for j's REPLY and
// none is on its way.
func waitsNow(v sim.View, i, j sim.NodeID) bool {
	if !proc(v, i).Waits[j] {
		return false
	}
	for _, id := range v.InFlight(j, i) {
		if v.Envelope(id).Message.Kind == KindReply {
			return false
		}
	}
	return true
}

// realDeadlock holds every detection's verdict to the run: a cycle it
// announced is in the wait-for graph now (a deadlock, once there, stays).
var realDeadlock = sim.Invariant{
	Name: RealName,
	Help: "every cycle a detection announced is in the wait-for graph as it is now: each process in it waits for the next, and no REPLY is on its way",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			cycle := proc(v, sim.NodeID(i)).Cycle
			for k, a := range cycle {
				b := cycle[(k+1)%len(cycle)]
				if !waitsNow(v, a, b) {
					return sim.Verdict{Detail: fmt.Sprintf("%s announced the deadlock %s, but %s does not wait for %s: the cycle was drawn from answers of different moments, and never was (a phantom deadlock)",
						v.Name(sim.NodeID(i)), cycleText(v, cycle), v.Name(a), v.Name(b))}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// waitsFor draws who waits for whom now.
func waitsFor(v sim.View) []sim.Overlay {
	var out []sim.Overlay
	for i := range v.N() {
		for j := range v.N() {
			if i != j && waitsNow(v, sim.NodeID(i), sim.NodeID(j)) {
				out = append(out, sim.Overlay{Role: RoleWaitsFor, Node: sim.NodeID(i), Peer: sim.NodeID(j)})
			}
		}
	}
	return out
}

func metrics(v sim.View) []sim.Metric {
	var requests, replies, control, waiting, deadlocks int
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		requests += p.Requests
		replies += p.Replies
		control += p.Control
		if p.waiting() {
			waiting++
		}
		if len(p.Cycle) > 0 {
			deadlocks++
		}
	}
	return []sim.Metric{
		{Name: "requests", Value: requests},
		{Name: "replies", Value: replies},
		{Name: "detection_messages", Value: control},
		{Name: "waiting", Value: waiting},
		{Name: "deadlocks_announced", Value: deadlocks},
	}
}

func formula(v sim.View) string {
	n := v.N()
	if proc(v, 0).params.Naive {
		return fmt.Sprintf("Naive detection: ASK and STATE to each other process, 2(N−1) = %d messages, one after another.", 2*(n-1))
	}
	return fmt.Sprintf("Snapshot detection: N(N−1) = %d markers and N−1 = %d reports per detection.", n*(n-1), n-1)
}

func panels(v sim.View) []sim.Panel {
	pn := sim.Panel{Title: "Wait-for graph", Columns: []string{"process", "waits for", "owes a REPLY to", "last verdict"}}
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		var waits, owes []string
		for q, w := range p.Waits {
			if w {
				waits = append(waits, v.Name(sim.NodeID(q)))
			}
		}
		for _, q := range p.Owes {
			owes = append(owes, v.Name(q))
		}
		verdict := "—"
		if p.Verdict != "" {
			verdict = p.Verdict
		}
		pn.Rows = append(pn.Rows, sim.Row{Cells: []string{v.Name(sim.NodeID(i)), listOr(waits, "nobody"), listOr(owes, "nobody"), verdict}})
	}
	return []sim.Panel{pn}
}
