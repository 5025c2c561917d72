package suzukikasami

import (
	"fmt"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

var deadlock = mutex.Deadlock(blocked)

// Where is the token now: its holder (None if it is travelling or lost),
// the token itself, and whether it travels.
func Where(v sim.View) (holder sim.NodeID, t *Token, travelling bool) {
	for i := range v.N() {
		if p := process(v, sim.NodeID(i)); p.Token != nil && v.Health(sim.NodeID(i)) != sim.Crashed {
			return sim.NodeID(i), p.Token, false
		}
	}
	// the latest token on its way (a network's copy travels behind it)
	if v.InFlightTotal(KindToken).Count == 0 {
		return sim.None, nil, false
	}
	for id := v.NumSent() - 1; id >= 0; id-- {
		if e := v.Envelope(id); e.Kind == KindToken && e.RecvStep < 0 && e.DropStep < 0 {
			tok := Decode(e.Data, v.N())
			return sim.None, &tok, true
		}
	}
	return sim.None, nil, false
}

// blocked says what the waiting processes miss: the token, lost with a
// crashed holder, or a request the holder never heard.
func blocked(v sim.View) string {
	who := mutex.WhoWaits(v)
	holder, _, _ := Where(v)
	if holder == sim.None {
		for i := range v.N() {
			if process(v, sim.NodeID(i)).Token != nil {
				return fmt.Sprintf("%s for the token, which was lost when %s crashed holding it", who, v.Name(sim.NodeID(i)))
			}
		}
		return fmt.Sprintf("%s for the token, which is nowhere: it was lost on its way", who)
	}
	if hp := process(v, holder); hp.SeedLN {
		for i := range v.N() {
			if q := process(v, sim.NodeID(i)); q.State == mutex.Wanting && hp.RN[i] > 0 && hp.RN[i] == hp.Token.LN[i] {
				return fmt.Sprintf("%s while %s holds the token idle: it heard %s's REQUEST #%d, but seed 003's rule set LN[%s] = RN[%s] = %d when the token arrived, marking it served before it was", who, v.Name(holder), v.Name(sim.NodeID(i)), hp.RN[i], v.Name(sim.NodeID(i)), v.Name(sim.NodeID(i)), hp.RN[i])
			}
		}
	}
	return fmt.Sprintf("%s while %s holds the token idle: it never heard their request (a REQUEST was lost, or it forgot RN in a crash)", who, v.Name(holder))
}

func metrics(v sim.View) []sim.Metric {
	_, sent := mutex.Totals(v)
	tokens := 0
	for i := range v.N() {
		tokens += process(v, sim.NodeID(i)).Passed
	}
	return append(mutex.Metrics(v, deadlock),
		sim.Metric{Name: "request_messages", Value: sent - tokens},
		sim.Metric{Name: "token_messages", Value: tokens},
	)
}

func panels(v sim.View) []sim.Panel {
	rn := sim.Panel{Title: "Request numbers (RN)", Note: "RN[j] is the latest request number a process has heard from j", Columns: []string{"process", "state"}}
	for i := range v.N() {
		rn.Columns = append(rn.Columns, "RN["+v.Name(sim.NodeID(i))+"]")
	}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		cells := make([]string, v.N())
		for j, x := range p.RN {
			cells[j] = fmt.Sprint(x)
		}
		rn.Rows = append(rn.Rows, mutex.Row(v, sim.NodeID(i), cells...))
	}
	holder, t, travelling := Where(v)
	token := sim.Panel{Title: "Token", Columns: []string{"", ""}}
	switch {
	case t == nil:
		token.Note = "lost: no process that is up holds it, and none is on its way"
		return []sim.Panel{rn, token}
	case travelling:
		token.Note = "on its way"
	default:
		token.Note = "held by " + v.Name(holder)
	}
	ln := make([]string, len(t.LN))
	for j, x := range t.LN {
		ln[j] = fmt.Sprintf("%s: %d", v.Name(sim.NodeID(j)), x)
	}
	queue := make([]string, len(t.Queue))
	for i, q := range t.Queue {
		queue[i] = v.Name(q)
	}
	token.Rows = []sim.Row{
		{Cells: []string{"LN (last served)", strings.Join(ln, ", ")}},
		{Cells: []string{"queue", strings.Join(queue, ", ")}},
	}
	return []sim.Panel{rn, token}
}

// formula compares the messages per entry with the seed's N.
func formula(v sim.View) string {
	return mutex.Formula(v, fmt.Sprintf("N−1 REQUESTs and the TOKEN, N = %d, for a process without the token, 0 when it already holds it", v.N()))
}
