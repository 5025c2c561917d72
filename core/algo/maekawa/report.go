package maekawa

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

var deadlock = mutex.DeadlockPointing(blocked, cycleMessages)

// CycleName names the invariant that a deadlock is the algorithm's own.
const CycleName = "a deadlock is a wait-for cycle"

// onlyCycles holds Maekawa's deadlocks, a known limit of the seed's
// algorithm, to their known shape: when nobody can get in, every vote a
// waiting process lacks is held by another waiting process, which makes a
// wait-for cycle. A vote given to nobody, or to a process that no longer
// wants it, is no cycle but a lost vote.
var onlyCycles = mutex.Stuck(CycleName, "when nobody can get into the section, every vote a waiting process lacks is held by another waiting process: the deadlock is a wait-for cycle, not a vote lost", unexplainedWait, nil)

// unexplainedWait names a wait of a stuck section that no other waiting
// process explains, or says "" when every wait is on one.
func unexplainedWait(v sim.View) string {
	for _, id := range mutex.Waiting(v) {
		p := process(v, id)
		for _, m := range p.Set {
			if p.Votes[m] {
				continue
			}
			switch h := process(v, m).Voted.From; {
			case v.Health(m) == sim.Crashed:
				return fmt.Sprintf("%s waits for the vote of %s, which has crashed", v.Name(id), v.Name(m))
			case h == sim.None:
				return fmt.Sprintf("%s waits for the vote of %s, which has given it to nobody, and none is on its way", v.Name(id), v.Name(m))
			case h == id:
				return fmt.Sprintf("%s waits for the vote of %s, which has voted for it, and the vote is not on its way", v.Name(id), v.Name(m))
			case process(v, h).State != mutex.Wanting:
				return fmt.Sprintf("%s waits for the vote of %s, which gave it to %s, which no longer wants the section", v.Name(id), v.Name(m), v.Name(h))
			}
		}
	}
	return ""
}

// Edge is one wait of a wait-for graph: Waiter needs the vote of Member,
// which Member gave to Holder.
type Edge struct {
	Waiter, Member, Holder sim.NodeID
}

// WaitsFor lists the waits of the processes that want the section: for
// each member of a waiting process's set that has not voted for it, who
// holds that member's vote.
func WaitsFor(v sim.View) []Edge {
	var out []Edge
	for _, id := range mutex.Waiting(v) {
		p := process(v, id)
		for _, m := range p.Set {
			if p.Votes[m] {
				continue
			}
			if h := process(v, m).Voted.From; h != sim.None && h != id {
				out = append(out, Edge{Waiter: id, Member: m, Holder: h})
			}
		}
	}
	return out
}

// Cycle finds a wait-for cycle among the waiting processes: each edge's
// holder is the next edge's waiter, and the last holder is the first
// waiter. It returns nil when there is none.
func Cycle(v sim.View) []Edge {
	edges := WaitsFor(v)
	from := map[sim.NodeID][]Edge{}
	for _, e := range edges {
		from[e.Waiter] = append(from[e.Waiter], e)
	}
	// depth-first from each waiter, in id order, for a stable answer
	state := map[sim.NodeID]int{} // 0 new, 1 on the path, 2 done
	var path []Edge
	var found []Edge
	var visit func(id sim.NodeID) bool
	visit = func(id sim.NodeID) bool {
		state[id] = 1
		for _, e := range from[id] {
			path = append(path, e)
			switch state[e.Holder] {
			case 1:
				start := slices.IndexFunc(path, func(x Edge) bool { return x.Waiter == e.Holder })
				found = slices.Clone(path[start:])
				return true
			case 0:
				if visit(e.Holder) {
					return true
				}
			}
			path = path[:len(path)-1]
		}
		state[id] = 2
		return false
	}
	for _, id := range mutex.Waiting(v) {
		if state[id] == 0 && visit(id) {
			return found
		}
	}
	return nil
}

// blocked names the wait-for cycle, or says whose vote never comes.
func blocked(v sim.View) string {
	if c := Cycle(v); c != nil {
		parts := make([]string, len(c))
		loop := make([]string, 0, len(c)+1)
		for i, e := range c {
			to := v.Name(e.Holder)
			if e.Holder == e.Member {
				to = "itself"
			}
			parts[i] = fmt.Sprintf("%s waits for %s's vote, which %s gave to %s", v.Name(e.Waiter), v.Name(e.Member), v.Name(e.Member), to)
			loop = append(loop, v.Name(e.Waiter))
		}
		loop = append(loop, v.Name(c[0].Waiter))
		return fmt.Sprintf("a wait-for cycle %s: %s", strings.Join(loop, " → "), strings.Join(parts, "; "))
	}
	var parts []string
	for _, id := range mutex.Waiting(v) {
		p := process(v, id)
		var missing []string
		for _, m := range p.Set {
			if !p.Votes[m] {
				name := v.Name(m)
				if v.Health(m) == sim.Crashed {
					name += " (crashed)"
				}
				missing = append(missing, name)
			}
		}
		parts = append(parts, fmt.Sprintf("%s waits for the votes of %s", v.Name(id), strings.Join(missing, " and ")))
	}
	return strings.Join(parts, "; ") + ", and none is on its way"
}

// cycleMessages are the messages that close the cycle: each member's vote
// for the holder (its REPLY) and the waiter's REQUEST it queued.
func cycleMessages(v sim.View) []int {
	var out []int
	for _, e := range Cycle(v) {
		w, h := process(v, e.Waiter), process(v, e.Member).Voted
		if id, ok := latest(v, e.Member, e.Holder, KindReply, h.N); ok {
			out = append(out, id)
		}
		if id, ok := latest(v, e.Waiter, e.Member, KindRequest, w.Asked); ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// latest finds the last message of a kind and number sent from→to.
func latest(v sim.View, from, to sim.NodeID, kind string, n int64) (int, bool) {
	for id := v.NumSent() - 1; id >= 0; id-- {
		if e := v.Envelope(id); e.From == from && e.To == to && e.Kind == kind && e.Value == n && e.Original == id {
			return id, true
		}
	}
	return 0, false
}

// quorums links each process to the members of its request set.
func quorums(v sim.View) *sim.Topology {
	t := &sim.Topology{Kind: sim.Graph}
	seen := map[[2]sim.NodeID]bool{}
	for i := range v.N() {
		for _, m := range process(v, sim.NodeID(i)).Set {
			e := [2]sim.NodeID{min(sim.NodeID(i), m), max(sim.NodeID(i), m)}
			if e[0] != e[1] && !seen[e] {
				seen[e] = true
				t.Edges = append(t.Edges, e)
			}
		}
	}
	return t
}

// RoleWaitsFor marks who waits for whom in a wait-for cycle.
const RoleWaitsFor = "waits-for"

// waits draws the wait-for cycle over the request sets when there is one.
func waits(v sim.View) []sim.Overlay {
	var out []sim.Overlay
	for _, e := range Cycle(v) {
		out = append(out, sim.Overlay{Role: RoleWaitsFor, Node: e.Waiter, Peer: e.Holder})
	}
	return out
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Request sets and votes", Note: "a member votes for one request at a time and queues the rest until that one's RELEASE", Columns: []string{"process", "state", "request set", "votes", "voted for", "queue"}}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		votes := ""
		if p.State != mutex.Idle {
			got := 0
			for _, m := range p.Set {
				if p.Votes[m] {
					got++
				}
			}
			votes = fmt.Sprintf("%d of %d", got, len(p.Set))
		}
		voted := ""
		if p.Voted.From != sim.None {
			voted = v.Name(p.Voted.From)
		}
		queue := make([]string, len(p.Queue))
		for j, a := range p.Queue {
			queue[j] = v.Name(a.From)
		}
		panel.Rows = append(panel.Rows, mutex.Row(v, sim.NodeID(i), numbers(p.Set), votes, voted, strings.Join(queue, ", ")))
	}
	panels := []sim.Panel{panel}
	if c := Cycle(v); c != nil {
		waits := sim.Panel{Title: "Wait-for cycle", Note: "each waits for a vote that the next holds: nobody can move", Columns: []string{"waits", "for the vote of", "held by"}}
		for _, e := range c {
			waits.Rows = append(waits.Rows, sim.Row{Cells: []string{v.Name(e.Waiter), v.Name(e.Member), v.Name(e.Holder)}, CellEmphasis: []string{"bad"}})
		}
		panels = append(panels, waits)
	}
	return panels
}
