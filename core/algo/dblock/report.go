package dblock

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const noLostUpdateName = "no committed update is lost"

// noLostUpdate is what the lock is for: every transaction adds 1 to the
// counter, so after every commit the counter counts the commits. An
// update that read the counter before another transaction committed,
// and is taken after it, writes a number already written.
var noLostUpdate = sim.Invariant{
	Name: noLostUpdateName,
	Help: "the counter equals the transactions committed: no update overwrote another's",
	Check: func(v sim.View) sim.Verdict {
		db := process(v, Database).DB
		if db.Counter == db.Commits {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("%d transactions committed, each adding 1, but the counter is %d: an update that read an older counter overwrote a newer one", db.Commits, db.Counter)}
	},
}

const oneBelieverName = "at most one client believes its transaction holds the lock"

// oneBeliever is the lock as the clients see it, which a pause or a slow
// message breaks: the database's check at the UPDATE is what counts.
var oneBeliever = sim.Invariant{
	Name: oneBelieverName,
	Help: "no two clients believe at once that their transactions hold the row's lock",
	Check: func(v sim.View) sim.Verdict {
		var in []string
		for i := 1; i < v.N(); i++ {
			id := sim.NodeID(i)
			if c := process(v, id).Client; c.In && v.Health(id) != sim.Crashed {
				in = append(in, fmt.Sprintf("%s (transaction %d)", v.Name(id), c.Seq))
			}
		}
		if len(in) < 2 {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: strings.Join(in, " and ") + " each believe their transaction holds the row's lock"}
	},
}

func metrics(v sim.View) []sim.Metric {
	db := process(v, Database).DB
	return []sim.Metric{
		{Name: "counter", Value: db.Counter},
		{Name: "commits", Value: db.Commits},
		{Name: "rolled_back", Value: db.Aborted},
		{Name: "refused_updates", Value: db.Refused},
	}
}

func panels(v sim.View) []sim.Panel {
	db := process(v, Database).DB
	panel := sim.Panel{Title: "The row and its lock", Note: "an UPDATE counts only from the transaction that holds the lock", Columns: []string{"process", "health", "transaction", "lock"}}
	holder := "free"
	if h := db.Holder; h.Client != sim.None {
		holder = fmt.Sprintf("held by %s (transaction %d)", v.Name(h.Client), h.Seq)
	}
	panel.Rows = append(panel.Rows, sim.Row{Cells: []string{v.Name(Database), v.Health(Database).String(), "counter " + strconv.FormatInt(db.Counter, 10) + ", " + strconv.FormatInt(db.Commits, 10) + " committed", holder}})
	for i := 1; i < v.N(); i++ {
		id := sim.NodeID(i)
		c := process(v, id).Client
		txn, lock := "", ""
		if c.Busy {
			txn = "transaction " + strconv.FormatInt(c.Seq, 10)
		}
		if c.In {
			lock = fmt.Sprintf("believes it holds it (read %d)", c.Read)
		}
		panel.Rows = append(panel.Rows, sim.Row{Cells: []string{v.Name(id), v.Health(id).String(), txn, lock}})
	}
	return []sim.Panel{panel}
}

// formula compares the counter with the commits.
func formula(v sim.View) string {
	db := process(v, Database).DB
	return fmt.Sprintf("counter %d after %d commits (each adds 1); %d transactions rolled back, %d late updates refused.", db.Counter, db.Commits, db.Aborted, db.Refused)
}
