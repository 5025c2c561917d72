package central

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// coordinatorOf is the coordinator's id, as the first live process
// believes (every process knows it, until one is elected anew).
func coordinatorOf(v sim.View) sim.NodeID {
	for i := range v.N() {
		if v.Health(sim.NodeID(i)) != sim.Crashed {
			return process(v, sim.NodeID(i)).Coordinator
		}
	}
	return process(v, 0).Coordinator
}

// star is the coordinator in the middle, linked to every other process.
func star(v sim.View) *sim.Topology {
	c := coordinatorOf(v)
	t := &sim.Topology{Kind: sim.Tree}
	for i := range v.N() {
		if sim.NodeID(i) != c {
			t.Edges = append(t.Edges, [2]sim.NodeID{c, sim.NodeID(i)})
		}
	}
	return t
}

// blocked says what the waiting processes wait for.
func blocked(v sim.View) string {
	for i := range v.N() {
		// with re-election, a process that checks on its coordinator or
		// elects another will act: it is not stuck
		if p := process(v, sim.NodeID(i)); v.Health(sim.NodeID(i)) != sim.Crashed && (p.Watching || p.Elect.Electing || p.Collecting) {
			return ""
		}
	}
	c := coordinatorOf(v)
	who := mutex.WhoWaits(v)
	switch coord := process(v, c); {
	case v.Health(c) == sim.Crashed:
		return fmt.Sprintf("%s for the coordinator %s, which has crashed: nobody can grant the section", who, v.Name(c))
	case coord.Holder != sim.None:
		return fmt.Sprintf("%s while the coordinator %s believes %s holds the section, and no RELEASE is on its way", who, v.Name(c), v.Name(coord.Holder))
	}
	return fmt.Sprintf("%s, but the coordinator %s has no request of theirs and no message is on its way (a REQUEST or GRANT was lost)", who, v.Name(c))
}

func panels(v sim.View) []sim.Panel {
	c := coordinatorOf(v)
	coord := process(v, c)
	holder := "nobody"
	if coord.Holder != sim.None {
		holder = v.Name(coord.Holder)
	}
	queue := make([]string, len(coord.Queue))
	for i, a := range coord.Queue {
		queue[i] = v.Name(a.From)
	}
	rows := []sim.Row{
		{Cells: []string{"holder", holder}},
		{Cells: []string{"queue", strings.Join(queue, ", ")}},
	}
	procs := sim.Panel{Title: "Critical section", Columns: []string{"process", "state", "entries", "waited (max)"}}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		procs.Rows = append(procs.Rows, mutex.Row(v, sim.NodeID(i), strconv.Itoa(p.Entries), fmt.Sprint(p.WaitMax)))
	}
	return []sim.Panel{
		{Title: "Coordinator " + v.Name(c), Note: "grants the section to one process at a time, in the order the requests arrive", Columns: []string{"", ""}, Rows: rows},
		procs,
	}
}

// formula compares the messages per entry with the seed's three.
func formula(v sim.View) string {
	return mutex.Formula(v, "REQUEST + GRANT + RELEASE = 3, fewer when the coordinator enters itself")
}
