package engine

import "spacetime/core/sim"

// Fingerprint is the fingerprint of the state the fork stands in: equal
// for states from which the run can go on in the same ways, whatever path
// led to them. It covers every process's state (its own fingerprint, see
// sim.Fingerprinter), health and timers; what is in flight on each channel
// (each message by what it carries and when it is due, not by its id,
// which depends on the order of sends); the links, FIFO order, clocks,
// script and workload positions, the random streams, the Lamport and
// vector clocks the trace stamps and the algorithm's tally. Invariants
// that read the history rather than the state (an annotation's first
// step) are judged on the first path that reached a state.
func (f *Fork) Fingerprint() uint64 {
	var h sim.Hash
	f.r.fingerprint(&h, f.top())
	return h.Sum()
}

func (r *Run) fingerprint(h *sim.Hash, w *world) {
	h.Int(int64(w.now))
	h.Bool(w.tickUsed)
	h.Int(int64(w.inited))
	h.Int(int64(w.script))
	h.Int(int64(w.nextWork))
	h.Bool(w.fifo)
	for i, nd := range w.nodes {
		h.Node(nd)
		h.Bool(w.started[i])
		h.Uint(uint64(w.health[i].State))
		h.Int(int64(w.health[i].Until))
		h.Uint(uint64(len(w.timers[i])))
		for _, t := range w.timers[i] {
			h.String(t.tag)
			h.Int(int64(t.due))
		}
		h.Int(int64(w.lamport[i]))
		h.Value(w.vector[i])
		h.Value(w.intervals[i])
	}
	w.net.Busy(func(from, to sim.NodeID, ids []int) {
		h.Int(int64(from))
		h.Int(int64(to))
		h.Uint(uint64(len(ids)))
		for _, id := range ids {
			m := &r.trace.Msgs[id]
			h.String(m.Kind)
			h.Int(m.Value)
			h.String(m.Label)
			h.Value(m.Data)
			h.Int(int64(r.due(w, id)))
			h.Int(int64(m.Lamport))
			h.Value(m.Vector)
		}
	})
	h.Value(w.cut)
	h.Value(w.clocks)
	h.Value(w.sched)
	h.Value(w.netRand)
	h.Value(w.work)
	h.Value(w.nodeRand)
	if w.py != nil {
		h.Uint(w.py.Drawn()) // every world of a run is seeded alike
	}
	if w.tally != nil {
		h.Value(w.tally)
	}
}
