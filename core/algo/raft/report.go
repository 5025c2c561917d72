package raft

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// shownEntries is how many of a log's last entries the pictures and the
// panel show.
const shownEntries = 16

// leaderOf is the live leader of the highest term, or None.
func leaderOf(v sim.View) sim.NodeID {
	leader, term := sim.NodeID(sim.None), int64(-1)
	for i := range v.N() {
		id := sim.NodeID(i)
		if s := v.Node(id).(*Server); s.Role == Leader && v.Health(id) != sim.Crashed && s.Term > term {
			leader, term = id, s.Term
		}
	}
	return leader
}

func metrics(v sim.View) []sim.Metric {
	t, _ := tallyOf(v)
	var leader any
	if l := leaderOf(v); l != sim.None {
		leader = v.Name(l)
	}
	leaderless := t.leaderless
	if !t.anyLeading() {
		leaderless += v.Now() - t.lastAt
	}
	var perEntry, latency any
	if t.maxCommit > 0 {
		perEntry = float64(v.NumSent()) / float64(t.maxCommit)
	}
	if t.latencyEntries > 0 {
		latency = float64(t.latencySum) / float64(t.latencyEntries)
	}
	return []sim.Metric{
		{Name: "leader", Value: leader},
		{Name: "elections", Value: t.elections},
		{Name: "terms", Value: t.maxTerm},
		{Name: "leaderless_ticks", Value: int64(leaderless)},
		{Name: "committed", Value: t.maxCommit},
		{Name: "messages_per_entry", Value: perEntry},
		{Name: "commit_latency", Value: latency},
		{Name: "commit_latency_max", Value: int64(t.latencyMax)},
	}
}

// logCells are a log's last entries as cells, each its term, tentative
// after the commit index known, and the index of the first.
func logCells(l *Log, commit int) (int, []sim.Cell) {
	first := max(1, l.Len()-shownEntries+1)
	cells := make([]sim.Cell, 0, l.Len()-first+1)
	for j := first; j <= l.Len(); j++ {
		t := l.Term(j)
		cells = append(cells, sim.Cell{Text: strconv.FormatInt(t, 10), Group: int(t), Tentative: j > commit})
	}
	return first, cells
}

// termsText writes a log as its entries' terms, a bar after the last
// committed one, and only its last entries when it is long: "1 1 2 | 3".
func termsText(l *Log, commit, limit int) string {
	if l.Len() == 0 {
		return "empty"
	}
	var b strings.Builder
	from := 1
	if limit > 0 && l.Len() > limit {
		from = l.Len() - limit + 1
		fmt.Fprintf(&b, "…%d: ", from)
	}
	for i := from; i <= l.Len(); i++ {
		if i > from {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(l.Term(i), 10))
		if i == commit && i < l.Len() {
			b.WriteString(" |")
		}
	}
	return b.String()
}

func panels(v sim.View) []sim.Panel {
	ids := make([]sim.NodeID, v.N())
	for i := range ids {
		ids[i] = sim.NodeID(i)
	}
	return []sim.Panel{Panel(v, ids, func(id sim.NodeID) *Replica { return &v.Node(id).(*Server).Replica }, func(id sim.NodeID) string {
		return strconv.FormatInt(v.Node(id).(*Server).Register, 10)
	})}
}

// Panel is the table of the replicas ids: each one's role, term, log (as
// its entries' terms, a bar at the commit index) and commit index, and
// what machine says of its state machine (nil for nothing), for an
// algorithm that embeds a Replica (replica finds a process's).
func Panel(v sim.View, ids []sim.NodeID, replica func(sim.NodeID) *Replica, machine func(sim.NodeID) string) sim.Panel {
	columns := []string{"server", "role", "term", "log (terms)", "commit"}
	if machine != nil {
		columns = append(columns, "x")
	}
	n := len(ids)
	p := sim.Panel{Title: "Servers and their logs", Columns: columns,
		Note: fmt.Sprintf("a leader needs %d of %d votes; an entry of its term held by %d is committed (| marks the commit index)", n/2+1, n, n/2+1)}
	for _, id := range ids {
		s := replica(id)
		role, commit := s.Role.String(), strconv.Itoa(s.Commit)
		known := s.Commit
		state := ""
		if machine != nil {
			state = machine(id)
		}
		switch h := v.Health(id); h {
		case sim.Crashed:
			role, commit, state, known = h.String(), "–", "–", 0 // lost with its memory
		case sim.Paused:
			role += " (" + h.String() + ")"
		}
		row := sim.Row{Cells: []string{v.Name(id), role, strconv.FormatInt(s.Term, 10), termsText(&s.Log, known, shownEntries), commit}}
		if _, cells := logCells(&s.Log, known); len(cells) > 0 {
			row.Strips = [][]sim.Cell{3: cells} // its last entries; the text says from where
		}
		if machine != nil {
			row.Cells = append(row.Cells, state)
		}
		if s.Role == Leader && v.Health(id) != sim.Crashed {
			row.CellEmphasis = []string{"", "good"}
		}
		p.Rows = append(p.Rows, row)
	}
	return p
}

func formula(v sim.View) string {
	t, _ := tallyOf(v)
	text := fmt.Sprintf("Elections: %d, up to term %d; a leader needs %d of %d votes.", t.elections, t.maxTerm, v.N()/2+1, v.N())
	if t.maxCommit > 0 {
		text += fmt.Sprintf(" Committed: %d entries, %.1f messages an entry.", t.maxCommit, float64(v.NumSent())/float64(t.maxCommit))
	}
	return text
}

// overlays are each server's role and term under its circle, and its log
// in the table under the graph.
func overlays(v sim.View) []sim.Overlay {
	ids := make([]sim.NodeID, v.N())
	for i := range ids {
		ids[i] = sim.NodeID(i)
	}
	return Overlays(v, ids, func(id sim.NodeID) *Replica { return &v.Node(id).(*Server).Replica })
}

// Overlays are the role and term of each process of ids under its circle,
// and its log in the table under the graph, for an algorithm that embeds
// a Replica (replica finds a process's).
func Overlays(v sim.View, ids []sim.NodeID, replica func(sim.NodeID) *Replica) []sim.Overlay {
	out := make([]sim.Overlay, 0, 2*len(ids))
	for _, id := range ids {
		s := replica(id)
		state, commit := fmt.Sprintf("%s t%d", s.Role, s.Term), s.Commit
		if v.Health(id) == sim.Crashed {
			// its disk holds its term and log, not its role or what it
			// knew committed
			state, commit = fmt.Sprintf("term %d", s.Term), 0
		}
		out = append(out, sim.Overlay{Role: roleState, Node: id, Peer: sim.None, Text: state})
		first, cells := logCells(&s.Log, commit)
		out = append(out, sim.Overlay{Role: roleLog, Node: id, Peer: sim.None, Cells: cells, First: first})
	}
	return out
}
