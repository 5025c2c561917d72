package ricartagrawala

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

var deadlock = mutex.Deadlock(blocked)

// blocked says whose replies the waiting processes miss.
func blocked(v sim.View) string {
	var parts []string
	for _, id := range mutex.Waiting(v) {
		i, p := int(id), process(v, id)
		var missing []string
		for q := range v.N() {
			if q == i && !p.SeedSelf || p.Replied[q] {
				continue
			}
			name := v.Name(sim.NodeID(q))
			if q == i {
				name = "itself"
			}
			if v.Health(sim.NodeID(q)) == sim.Crashed {
				name += " (crashed)"
			}
			missing = append(missing, name)
		}
		parts = append(parts, fmt.Sprintf("%s waits for the REPLY of %s", v.Name(sim.NodeID(i)), strings.Join(missing, " and ")))
	}
	return strings.Join(parts, "; ") + ", and none is on its way"
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Requests and replies", Note: "a process defers its reply while it holds the section or has the earlier request", Columns: []string{"process", "state", "request", "replies", "deferred"}}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		request, replies := "", ""
		if p.State != mutex.Idle {
			request = p.Mine.String()
			got, need := p.replies(sim.NodeID(i))
			replies = strconv.Itoa(got) + " of " + strconv.Itoa(need)
		}
		var deferred []string
		for _, d := range p.Deferred {
			deferred = append(deferred, v.Name(d.From))
		}
		panel.Rows = append(panel.Rows, mutex.Row(v, sim.NodeID(i), request, replies, strings.Join(deferred, ", ")))
	}
	return []sim.Panel{panel}
}

// formula compares the messages per entry with the seed's 2(N−1).
func formula(v sim.View) string {
	return mutex.Formula(v, fmt.Sprintf("a REQUEST to and a REPLY from each other process, 2(N−1) = %d", 2*(v.N()-1)))
}
