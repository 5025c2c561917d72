package logicalclock

import (
	"fmt"
	"strconv"

	"spacetime/core/check"
	"spacetime/core/clock"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// events is how many events of its clock process i has had, as the run
// counts them: its steps (check.Steps) but for those that are none.
func events(v sim.View, i int) int {
	return check.Steps(v, sim.NodeID(i)) - process(v, sim.NodeID(i)).Skipped
}

// rising is the Lamport clock's invariant: every event has added at least
// d, so that a clock never runs backwards, across a crash included. The
// events are the run's count, which the process's own must match: an
// event that passes without its tick shows.
var rising = sim.Invariant{
	Name: "every event raises the clock by at least d",
	Help: "C_i is at least d times the events of P_i: the clock never stands still or runs backwards",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			p := process(v, sim.NodeID(i))
			if n := events(v, i); p.Events != n {
				return sim.Verdict{Detail: fmt.Sprintf("%s has had %d events, but its clock counted %d of them", v.Name(sim.NodeID(i)), n, p.Events)}
			}
			if p.C < p.D*int64(p.Events) {
				return sim.Verdict{Detail: fmt.Sprintf("%s has had %d events with d = %d, but its clock reads %d", v.Name(sim.NodeID(i)), p.Events, p.D, p.C)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// counted is the vector clock's invariant: V_i[i] counts P_i's own events,
// and no process has counted more of them than P_i has had.
var counted = sim.Invariant{
	Name: "V_i[i] counts P_i's events, and nobody counts more of them",
	Help: "a process's own entry is d times its events, and every other process's entry for it is at most that",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			p := process(v, sim.NodeID(i))
			if p.V[i] != p.D*int64(p.Events) {
				return sim.Verdict{Detail: fmt.Sprintf("%s has had %d events with d = %d, but V[%d] = %d", v.Name(sim.NodeID(i)), p.Events, p.D, i+1, p.V[i])}
			}
			for j := range v.N() {
				if q := process(v, sim.NodeID(j)); q.V[i] > p.V[i] {
					return sim.Verdict{Detail: fmt.Sprintf("%s counts %d of %s's events, more than its %d", v.Name(sim.NodeID(j)), q.V[i], v.Name(sim.NodeID(i)), p.V[i])}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// ordered is the happened-before test's invariant: the send of every
// message happened before its receipt, and the test in use must say so.
// Seed 002's test, every entry less, fails it at the first receipt: the
// receipt takes the sender's entry as it is, so that entry is equal.
var ordered = sim.Invariant{
	Name: "the test finds every send before its receipt",
	Help: "a message's send happened before its receipt, so V(send) < V(receipt) by the test in use: every entry at most and one less (seed 002's test: every entry less)",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			p := process(v, sim.NodeID(i))
			if p.Sent == nil || before(p.Sent, p.Received, p.SeedRule) {
				continue
			}
			rule := "the test (every entry at most, one less)"
			if p.SeedRule {
				rule = "seed 002's test (every entry less)"
			}
			detail := fmt.Sprintf("%s received m stamped %s, so the send happened before the receipt %s, but %s says it did not", v.Name(sim.NodeID(i)), clock.Format(p.Sent), clock.Format(p.Received), rule)
			for j := range p.Sent {
				if j < len(p.Received) && p.Sent[j] >= p.Received[j] {
					detail += fmt.Sprintf(": entry %d is %d in both", j+1, p.Received[j])
					break
				}
			}
			return sim.Verdict{Detail: detail}
		}
		return sim.Verdict{OK: true}
	},
}

// before tells whether the event stamped a happened before the event
// stamped b: every entry at most and one less, or, by seed 002's test
// (strict), every entry less.
func before(a, b []int64, strict bool) bool {
	less := false
	for j := range max(len(a), len(b)) {
		var x, y int64
		if j < len(a) {
			x = a[j]
		}
		if j < len(b) {
			y = b[j]
		}
		switch {
		case x > y, strict && x == y:
			return false
		case x < y:
			less = true
		}
	}
	return less
}

func invariants(vector bool) []sim.Invariant {
	if vector {
		return []sim.Invariant{rising, counted, ordered, causal, labelled, elsewhere}
	}
	return []sim.Invariant{rising, clockCondition, causal, labelled, elsewhere}
}

// elsewhere is the commands' rule, which the workload's draw keeps too:
// a message goes to another process. It reads the messages of the
// latest steps (two, whichever way the view counts its last).
var elsewhere = sim.Invariant{
	Name: "a message goes to another process",
	Help: "a send names another process: no process sends a message to itself",
	Check: func(v sim.View) sim.Verdict {
		for id := v.SentFrom(max(v.Steps()-2, 0)); id < v.NumSent(); id++ {
			if e := v.Envelope(id); e.From == e.To {
				return sim.Verdict{Detail: fmt.Sprintf("%s sent %s to itself", v.Name(e.From), e.Label), Msgs: []int{id}}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// labels is the run's tally of the clock labels on each process's
// events, as the diagram draws them, and the latest label's process and
// text.
type labels struct {
	count []int
	last  sim.NodeID
	text  string
}

func newLabels(n int) sim.Tally { return &labels{count: make([]int, n), last: sim.None} }

func (l *labels) Note(_ sim.Time, node sim.NodeID, as []sim.Annotation) {
	for _, a := range as {
		if a.Role == RoleClock && node >= 0 && int(node) < len(l.count) {
			l.count[node]++
			l.last, l.text = node, a.Text
		}
	}
}

func (l *labels) Clone() sim.Tally {
	return &labels{count: append([]int(nil), l.count...), last: l.last, text: l.text}
}

// labelled is the diagram's promise: every event carries its clock. The
// latest label is compared with its process's clock, which has not
// changed since (a clock changes only at its own events, which label).
var labelled = sim.Invariant{
	Name: "every event is labelled with its clock",
	Help: "the diagram labels each event of a process with the clock after it: as many labels as events, each the clock's value",
	Check: func(v sim.View) sim.Verdict {
		l, ok := v.Tally().(*labels)
		if !ok {
			return sim.Verdict{OK: true}
		}
		for i, c := range l.count {
			if n := events(v, i); c != n {
				return sim.Verdict{Detail: fmt.Sprintf("%s has had %d events, but %d of them are labelled with its clock", v.Name(sim.NodeID(i)), n, c)}
			}
		}
		if l.last >= 0 {
			// the clock the label must read, written here rather than by
			// the process's own stamp, which the check would then trust
			var buf [128]byte
			stamp, p := buf[:0], process(v, l.last)
			if p.Vector {
				stamp = clock.AppendFormat(stamp, p.V)
			} else {
				stamp = strconv.AppendInt(stamp, p.C, 10)
			}
			if string(stamp) != l.text {
				// (a copy, so that the buffer stays on the stack)
				reads := string(stamp)
				return sim.Verdict{Detail: fmt.Sprintf("%s's latest event is labelled %s, but its clock reads %s", v.Name(l.last), l.text, reads)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// CausalName is the invariant that holds the clocks to the run itself.
const CausalName = "the clocks order what happened before"

// causal holds the clocks the processes keep to what happened in the run,
// rather than to what the processes say of themselves: of any two
// processes' latest events, the one that happened before the other (as
// the messages the run delivered order them, which the engine's own
// vector clocks tell) has the smaller clock, and the smaller vector by
// the usual test. A receipt that forgets the stamp, a merge that skips
// an entry or a tick left out shows. It asks only that direction: a
// recovery, no event of the algorithm, is one of the engine's, so the
// converse would compare a process's clock with a later event than the
// one it labels.
var causal = sim.Invariant{
	Name: CausalName,
	Help: "of any two processes' latest events, the one that happened before the other (by the messages delivered) has the smaller clock: C(a) < C(b), and for vector clocks the later one has counted the earlier",
	Check: func(v sim.View) sim.Verdict {
		// gathered once: the check compares every pair, up to 16 × 16
		var procs [MaxN]*Process
		var seen [MaxN]clock.Vector
		n := min(v.N(), MaxN)
		for i := range n {
			procs[i], seen[i] = process(v, sim.NodeID(i)), v.Vector(sim.NodeID(i))
		}
		for i, p := range procs[:n] {
			own := seen[i].At(i)
			for j, q := range procs[:n] {
				// i's latest event happened before j's exactly when j has
				// seen it: j's entry for i is at least i's own
				if i == j || p.Events == 0 || q.Events == 0 || seen[j].At(i) < own {
					continue
				}
				switch {
				case p.C >= q.C:
					return sim.Verdict{Detail: fmt.Sprintf("%s's latest event happened before %s's, yet its clock reads %d and %s's %d", v.Name(sim.NodeID(i)), v.Name(sim.NodeID(j)), p.C, v.Name(sim.NodeID(j)), q.C)}
				case p.Vector && q.V[i] < p.V[i]:
					// (the entry a merge must have carried: every entry
					// of every pair would cost n³ a step)
					return sim.Verdict{Detail: fmt.Sprintf("%s's latest event happened before %s's, yet %s's vector %s counts %d of %s's events, not %d", v.Name(sim.NodeID(i)), v.Name(sim.NodeID(j)), v.Name(sim.NodeID(j)), clock.Format(q.V), q.V[i], v.Name(sim.NodeID(i)), p.V[i])}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// clockCondition is Lamport's clock condition on messages: the receipt of
// a message reads later than its send, C(send) < C(receive).
var clockCondition = sim.Invariant{
	Name: "a receipt reads later than its send",
	Help: "the clock condition: a message's receipt has a larger clock than the stamp its send gave it",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			if p := process(v, sim.NodeID(i)); p.GotC != 0 && p.GotC <= p.Got {
				return sim.Verdict{Detail: fmt.Sprintf("%s received a message stamped %d and its clock reads %d after the receipt: the send happened before the receipt, yet C(send) < C(receive) fails", v.Name(sim.NodeID(i)), p.Got, p.GotC)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

func metrics(v sim.View) []sim.Metric {
	clocks := map[string]any{}
	events := 0
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		events += p.Events
		if p.Vector {
			clocks[v.Name(sim.NodeID(i))] = clock.Format(p.V)
		} else {
			clocks[v.Name(sim.NodeID(i))] = p.C
		}
	}
	return []sim.Metric{{Name: "clocks", Value: clocks}, {Name: "events", Value: events}}
}

func panels(v sim.View, clocks string) []sim.Panel {
	panel := sim.Panel{Title: "Clocks", Note: "each process's " + clocks + " after its latest event", Columns: []string{"process", "events", "C"}}
	vector := v.N() > 0 && process(v, 0).Vector
	if vector {
		panel.Columns = []string{"process", "events", "V", "C"}
	}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		row := []string{v.Name(sim.NodeID(i)), strconv.Itoa(p.Events)}
		if vector {
			row = append(row, clock.Format(p.V))
		}
		panel.Rows = append(panel.Rows, sim.Row{Cells: append(row, strconv.FormatInt(p.C, 10))})
	}
	return []sim.Panel{panel}
}
