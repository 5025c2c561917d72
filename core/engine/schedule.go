package engine

import (
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// next is the event chosen to happen in the coming step.
type next struct {
	kind trace.Kind
	node sim.NodeID
	msg  int
	tag  string
	// act is the script's or the learner's action; a record of it points
	// at its arguments rather than copying them (the script is not changed
	// once the run starts)
	act    *Action
	at     sim.Time
	source trace.Source
	// rank, due and seq break ties between events due at the same time.
	rank int
	due  sim.Time
	seq  uint64
	// queued says the event is the queue's top entry, which its step pops.
	queued bool
}

// before orders candidate events by (time, rank, due time, sequence).
func (a next) before(b next) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if a.due != b.due {
		return a.due < b.due
	}
	return a.seq < b.seq
}

// pick chooses the next event, or reports that nothing can ever happen.
// The Random and Manual schedulers advance the world's tick as they go.
func (r *Run) pick(w *world) (next, bool) {
	for w.inited < len(w.nodes) {
		id := sim.NodeID(w.inited)
		if w.health[id].State == sim.Up {
			return next{kind: trace.Init, node: id, msg: -1, at: 0, source: trace.Scheduler}, true
		}
		w.inited++ // down from the start: its Init waits for its recovery
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
		if !r.deliverable(w, nil, true) && !canWork {
			held, hasHeld := r.heldUntil(w)
			switch {
			case hasTimed && hasHeld:
				w.now = max(w.now+1, min(timed.at, held))
			case hasTimed:
				w.now = max(w.now+1, timed.at)
			case hasHeld:
				w.now = max(w.now+1, held)
			default:
				return next{}, false
			}
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

// pickEarliest finds the earliest timed event: the script, the queue's top
// (wake-ups, timers and, for the Earliest scheduler, deliveries) and, when
// withWork, the Earliest scheduler's workload.
func (r *Run) pickEarliest(w *world, withWork bool) (next, bool) {
	var best next
	found := false
	consider := func(c next) {
		if !found || c.before(best) {
			best, found = c, true
		}
	}
	if w.script < len(r.cfg.Script) {
		s := &r.cfg.Script[w.script]
		consider(next{kind: actionKind(s.Action), node: s.Node, msg: s.Msg, act: &s.Action,
			at: max(s.At, w.now), source: trace.Script, rank: rankScript, due: s.At, seq: uint64(w.script)})
	}
	if e, ok := r.top(w); ok {
		nx := next{node: sim.NodeID(e.node), msg: -1, at: max(e.at, w.now), source: trace.Scheduler,
			rank: e.rank(), due: e.due, seq: e.seq, queued: true}
		switch e.what {
		case queueWake:
			nx.kind = trace.Wake
		case queueTimer:
			nx.kind = trace.Timer
			i, _ := w.timerOfSeq(nx.node, e.seq)
			nx.tag = w.timers[nx.node][i].tag
		case queueDeliver:
			nx.kind, nx.msg = trace.Deliver, int(e.seq)
		}
		consider(nx)
	}
	if withWork {
		at := max(w.nextWork, w.now)
		if r.workloadActive(w) && r.cfg.Workload.activeAt(at) && len(w.upNodes(r.scratchNodes)) > 0 {
			consider(next{kind: trace.Workload, node: -1, msg: -1, at: at, source: trace.Scheduler, rank: rankWorkload, due: at})
		}
	}
	return best, found
}

// top returns the queue's first entry that can still happen, dropping
// those that cannot and putting back, for when it wakes, those of a paused
// process. The queue changes only in ways that do not change what happens.
func (r *Run) top(w *world) (entry, bool) {
	for !w.queue.empty() {
		e := w.queue[0]
		id := sim.NodeID(e.node)
		valid := false
		switch e.what {
		case queueWake:
			h := w.health[id]
			valid = h.State == sim.Paused && h.Until == e.at
		case queueTimer:
			_, valid = w.timerOfSeq(id, e.seq)
		case queueDeliver:
			valid = r.awaitsDelivery(w, int(e.seq), e.due)
		}
		if !valid {
			w.queue.pop()
			continue
		}
		if e.what != queueWake && w.health[id].State == sim.Paused && e.at < w.health[id].Until {
			w.queue.pop()
			e.at = w.health[id].Until
			w.queue.push(e)
			continue
		}
		if e.what == queueDeliver && !w.running(id) {
			// a crashed receiver: its messages are queued again when it recovers
			w.queue.pop()
			continue
		}
		return e, true
	}
	return entry{}, false
}

// awaitsDelivery reports whether message id is in flight, due at due, and
// (on FIFO channels) at the head of its channel.
func (r *Run) awaitsDelivery(w *world, id int, due sim.Time) bool {
	m := &r.trace.Msgs[id]
	pos := w.net.Position(m.From, m.To, id)
	if pos < 0 || (w.fifo && pos > 0) {
		return false
	}
	return r.due(w, id) == due
}

// due is when message id may arrive: when the network said at its sending,
// unless a delay pushed it back.
func (r *Run) due(w *world, id int) sim.Time {
	if d, ok := w.delayed[id]; ok {
		return d
	}
	return r.trace.Msgs[id].Due
}

// queueDelivery puts message id in the Earliest scheduler's queue.
func (r *Run) queueDelivery(w *world, id int) {
	if r.cfg.Scheduler != Earliest {
		return
	}
	due := r.due(w, id)
	w.queue.push(entry{at: max(due, w.now), due: due, seq: uint64(id), what: queueDeliver, node: int32(r.trace.Msgs[id].To)})
}

// queueChannels queues again the messages that may arrive at process to
// (all of them, or each channel's head when FIFO): after it recovers, or
// when FIFO order is switched off.
func (r *Run) queueChannels(w *world, to sim.NodeID) {
	if r.cfg.Scheduler != Earliest {
		return
	}
	for from := range w.nodes {
		ids := w.net.Channel(sim.NodeID(from), to)
		if w.fifo && len(ids) > 0 {
			ids = ids[:1]
		}
		for _, id := range ids {
			r.queueDelivery(w, id)
		}
	}
}

// heldUntil is the earliest time a message held back by a delay may
// arrive, for the Random and Manual schedulers, which otherwise deliver at
// once.
func (r *Run) heldUntil(w *world) (sim.Time, bool) {
	var at sim.Time
	found := false
	for id, due := range w.delayed {
		m := &r.trace.Msgs[id]
		if due <= w.now || !w.running(m.To) || w.net.Position(m.From, m.To, id) < 0 {
			continue
		}
		if !found || due < at {
			at, found = due, true
		}
	}
	return at, found
}

// deliverable calls f for every channel whose receiver is running and has a
// message the network may deliver, with those messages (only the head on a
// FIFO channel). With dueOnly it leaves out messages a delay holds back.
// It reports whether there is any.
func (r *Run) deliverable(w *world, f func(from, to sim.NodeID, ids []int), dueOnly bool) bool {
	any := false
	w.net.Busy(func(from, to sim.NodeID, ids []int) {
		if !w.running(to) {
			return
		}
		if w.fifo {
			ids = ids[:1]
		}
		if dueOnly && len(w.delayed) > 0 {
			ids = r.dueNow(w, ids)
			if len(ids) == 0 {
				return
			}
		}
		any = true
		if f != nil {
			f(from, to, ids)
		}
	})
	return any
}

// dueNow keeps the messages no delay holds back.
func (r *Run) dueNow(w *world, ids []int) []int {
	held := false
	for _, id := range ids {
		if d, ok := w.delayed[id]; ok && d > w.now {
			held = true
		}
	}
	if !held {
		return ids
	}
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if d, ok := w.delayed[id]; !ok || d <= w.now {
			out = append(out, id)
		}
	}
	return out
}

// pickTick takes one tick's choice for the Random and Manual schedulers.
func (r *Run) pickTick(w *world) (next, bool) {
	if r.cfg.Scheduler == Manual {
		best := -1
		r.deliverable(w, func(_, _ sim.NodeID, ids []int) {
			if best < 0 || ids[0] < best {
				best = ids[0]
			}
		}, true)
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
	r.deliverable(w, func(_, to sim.NodeID, ids []int) { busy = append(busy, busyChannel{to, ids}) }, true)
	r.scratchChans = busy
	if len(busy) == 0 {
		return next{}, false
	}
	ch := busy[rnd.IntN(len(busy))]
	id := ch.ids[0]
	if !w.fifo && len(ch.ids) > 1 {
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
		return trace.Fault
	case a.Command != "":
		return trace.Command
	default:
		return trace.Deliver
	}
}
