// Package causal computes the happened-before relation of a trace by brute
// force, from its definition: a process's earlier events, and for a
// receipt its message's send and all before it, closed transitively. The
// tests hold the clocks and the cut check to it.
package causal

import "spacetime/core/trace"

// Steps is a set of steps.
type Steps []uint64

// Has says whether step i is in the set.
func (b Steps) Has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (b Steps) add(i int) { b[i/64] |= 1 << (i % 64) }

func (b Steps) union(o Steps) {
	for i := range b {
		b[i] |= o[i]
	}
}

// Before is, for each step of the trace, the set of steps that happened
// before it. A step of the whole network (Node < 0) has none, and is
// before none.
func Before(tr *trace.Trace) []Steps {
	n := len(tr.Records)
	words := (n + 63) / 64
	out := make([]Steps, n)
	last := map[int]int{}
	for k, rec := range tr.Records {
		out[k] = make(Steps, words)
		if rec.Node < 0 {
			continue
		}
		if p, ok := last[int(rec.Node)]; ok {
			out[k].add(p)
			out[k].union(out[p])
		}
		last[int(rec.Node)] = k
		if rec.Kind == trace.Deliver && rec.Msg >= 0 {
			send := tr.Msgs[tr.Msgs[rec.Msg].Original].SendStep
			out[k].add(send)
			out[k].union(out[send])
		}
	}
	return out
}
