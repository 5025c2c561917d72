package engine

import (
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// next is the event chosen to happen in the coming step.
type next struct {
	kind   trace.Kind
	node   sim.NodeID
	msg    int
	tag    string
	act    Action
	at     sim.Time
	source trace.Source
	// rank and seq break ties between events due at the same time.
	rank int
	seq  uint64
}

// before orders candidate events by (time, rank, sequence).
func (a next) before(b next) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.seq < b.seq
}

// Ranks order events due at the same time: the script first, then wake-ups,
// timers, deliveries and the workload.
const (
	rankScript = iota
	rankWake
	rankTimer
	rankDeliver
	rankWorkload
)

// pick chooses the next event, or reports that nothing can ever happen.
// The Random and Manual schedulers advance the world's tick as they go.
func (r *Run) pick(w *world) (next, bool) {
	if w.inited < len(w.nodes) {
		return next{kind: trace.Init, node: sim.NodeID(w.inited), msg: -1, at: 0, source: trace.Scheduler}, true
	}
	if r.cfg.Scheduler == Earliest {
		return r.pickEarliest(w, true)
	}
	for {
		if nx, ok := r.pickEarliest(w, false); ok && nx.at <= w.now {
			return nx, true
		}
		if !w.tickUsed {
			w.tickUsed = true
			if nx, ok := r.pickTick(w); ok {
				return nx, true
			}
			continue
		}
		timed, hasTimed := r.pickEarliest(w, false)
		canWork := r.workloadActive(w) && len(w.upNodes(r.scratchNodes)) > 0
		if !r.deliverable(w, nil) && !canWork {
			if !hasTimed {
				return next{}, false
			}
			w.now = max(w.now+1, timed.at)
		} else {
			w.now++
		}
		w.tickUsed = false
	}
}

func (r *Run) workloadActive(w *world) bool {
	wl := r.cfg.Workload
	return wl != nil && wl.activeAt(w.now) && (r.cfg.Scheduler != Random || wl.P > 0) && r.cfg.Scheduler != Manual
}

// pickEarliest finds the earliest timed event: the script, wake-ups, timers,
// and, when withQueue, deliveries and the workload.
func (r *Run) pickEarliest(w *world, withQueue bool) (next, bool) {
	var best next
	found := false
	consider := func(c next) {
		if !found || c.before(best) {
			best, found = c, true
		}
	}
	if w.script < len(r.cfg.Script) {
		s := r.cfg.Script[w.script]
		consider(next{kind: actionKind(s.Action), node: s.Node, msg: s.Msg, act: s.Action,
			at: max(s.At, w.now), source: trace.Script, rank: rankScript, seq: uint64(w.script)})
	}
	for i, h := range w.health {
		if !h.Running() && h.Until > 0 {
			consider(next{kind: trace.Wake, node: sim.NodeID(i), msg: -1, at: max(h.Until, w.now), source: trace.Scheduler, rank: rankWake, seq: uint64(i)})
		}
	}
	for _, t := range w.timers {
		if w.running(t.node) {
			consider(next{kind: trace.Timer, node: t.node, tag: t.tag, msg: -1, at: max(t.due, w.now), source: trace.Scheduler, rank: rankTimer, seq: t.seq})
		}
	}
	if withQueue {
		r.deliverable(w, func(from, to sim.NodeID, ids []int) {
			for _, id := range ids {
				m := &r.trace.Msgs[id]
				consider(next{kind: trace.Deliver, node: to, msg: id, at: max(m.Due, w.now), source: trace.Scheduler, rank: rankDeliver, seq: uint64(id)})
			}
		})
		at := max(w.nextWork, w.now)
		if r.workloadActive(w) && r.cfg.Workload.activeAt(at) && len(w.upNodes(r.scratchNodes)) > 0 {
			consider(next{kind: trace.Workload, node: -1, msg: -1, at: at, source: trace.Scheduler, rank: rankWorkload})
		}
	}
	return best, found
}

// deliverable calls f for every channel whose receiver is running and has a
// message the network may deliver, with those messages (only the head on a
// FIFO channel). It reports whether there is any.
func (r *Run) deliverable(w *world, f func(from, to sim.NodeID, ids []int)) bool {
	any := false
	w.net.Busy(func(from, to sim.NodeID, ids []int) {
		if !w.running(to) {
			return
		}
		any = true
		if f == nil {
			return
		}
		if r.cfg.Net.FIFO {
			ids = ids[:1]
		}
		f(from, to, ids)
	})
	return any
}

// pickTick takes one tick's choice for the Random and Manual schedulers.
func (r *Run) pickTick(w *world) (next, bool) {
	if r.cfg.Scheduler == Manual {
		best := -1
		r.deliverable(w, func(_, _ sim.NodeID, ids []int) {
			if best < 0 || ids[0] < best {
				best = ids[0]
			}
		})
		if best < 0 {
			return next{}, false
		}
		return next{kind: trace.Deliver, node: r.trace.Msgs[best].To, msg: best, at: w.now, source: trace.Scheduler}, true
	}
	rnd := w.schedRand(r.cfg.Generator)
	if r.workloadActive(w) && rnd.Float64() < r.cfg.Workload.P {
		up := w.upNodes(r.scratchNodes)
		r.scratchNodes = up
		if len(up) == 0 {
			return next{}, false
		}
		return next{kind: trace.Workload, node: up[rnd.IntN(len(up))], msg: -1, at: w.now, source: trace.Scheduler}, true
	}
	busy := r.scratchChans[:0]
	r.deliverable(w, func(_, to sim.NodeID, ids []int) { busy = append(busy, busyChannel{to, ids}) })
	r.scratchChans = busy
	if len(busy) == 0 {
		return next{}, false
	}
	ch := busy[rnd.IntN(len(busy))]
	id := ch.ids[0]
	if !r.cfg.Net.FIFO && len(ch.ids) > 1 {
		id = ch.ids[rnd.IntN(len(ch.ids))]
	}
	return next{kind: trace.Deliver, node: ch.to, msg: id, at: w.now, source: trace.Scheduler}, true
}

// busyChannel is a channel with deliverable messages.
type busyChannel struct {
	to  sim.NodeID
	ids []int
}

// actionKind is the kind of step an action makes.
func actionKind(a Action) trace.Kind {
	switch {
	case a.Fault != "":
		k, _ := trace.ParseKind(string(a.Fault))
		return k
	case a.Command != "":
		return trace.Command
	default:
		return trace.Deliver
	}
}
