package engine

import (
	"fmt"

	"spacetime/core/clock"

	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// apply makes one step happen in w. When record is set the step is appended
// to the trace (and invariants are checked); otherwise the step is being
// replayed and the trace already holds it, so no caption or stamp is made.
func (r *Run) apply(w *world, nx next, record bool) {
	r.replaying = !record
	if nx.at > w.now {
		w.now = nx.at
	}
	if nx.source == trace.Script {
		w.script++
	}
	rec := trace.Record{Step: w.step, Time: w.now, Node: nx.node, Kind: nx.kind, Msg: -1,
		FirstSent: w.nextMsg, Source: nx.source, Command: nx.act.Command}
	kind := nx.kind
	if nx.source == trace.Script && nx.act.Fault != "" {
		// The script was written before the run: a fault that cannot happen
		// when its time comes (pause a crashed process, drop a message that
		// has arrived) is skipped, as a learner's would be refused.
		if err := r.validate(w, nx.act); err != nil {
			kind, rec.Kind = trace.Skip, trace.Skip
			r.stampFault(w, &rec, "the script's %s is not applied: %v", nx.act.Fault, err)
		}
	}
	switch kind {
	case trace.Init:
		w.inited++
		r.stepNode(w, &rec, sim.Event{Kind: sim.Init}, record)
	case trace.Timer:
		w.timers = removeTimer(w.timers, nx.node, nx.tag)
		r.stepNode(w, &rec, sim.Event{Kind: sim.Timer, Tag: nx.tag}, record)
	case trace.Workload:
		if nx.node < 0 { // the Earliest scheduler picks the process now
			up := w.upNodes(r.scratchNodes)
			r.scratchNodes = up
			w.nextWork = w.drawGap(r.cfg.Workload)
			if len(up) == 0 {
				rec.Node = 0
				r.stampFault(w, &rec, "no process is up to do any work")
				break
			}
			nx.node = up[w.work.IntN(len(up))]
			rec.Node = nx.node
		}
		r.stepNode(w, &rec, sim.Event{Kind: sim.Workload}, record)
	case trace.Command:
		if !w.running(nx.node) {
			r.stampFault(w, &rec, "%s is %s: the command %q is not run", r.cfg.Names[nx.node], w.health[nx.node].State, nx.act.Command)
			break
		}
		r.stepNode(w, &rec, sim.Event{Kind: sim.Command, Tag: nx.act.Command, Target: nx.act.Target, Arg: nx.act.Arg}, record)
	case trace.Deliver:
		m := &r.trace.Msgs[nx.msg]
		w.net.Remove(m.From, m.To, m.ID)
		r.landed(w, &m.Message)
		rec.Msg, rec.Node = m.ID, m.To
		if record {
			m.RecvStep, m.RecvTime = w.step, w.now
		}
		w.lamport[m.To] = w.lamport[m.To].Receive(m.Lamport)
		w.vector[m.To].Merge(m.Vector)
		r.stepNode(w, &rec, sim.Event{Kind: sim.Deliver, From: m.From, Msg: m.Message}, record)
	case trace.Crash:
		w.health[nx.node] = faults.Health{State: faults.Crashed}
		w.timers = removeTimersOf(w.timers, nx.node)
		r.stampFault(w, &rec, "%s crashes: it takes no events and its timers are cancelled; messages to it wait in their channels", r.cfg.Names[nx.node])
	case trace.Recover:
		w.health[nx.node] = faults.Health{}
		r.stepNode(w, &rec, sim.Event{Kind: sim.Recover}, record)
		if rec.Caption == "" {
			rec.Caption = r.cfg.Names[nx.node] + " recovers"
		}
	case trace.Pause:
		w.health[nx.node] = faults.Health{State: faults.Paused, Until: w.now + nx.act.For}
		r.stampFault(w, &rec, "%s stops for a GC pause of %d ticks: events for it queue up", r.cfg.Names[nx.node], nx.act.For)
	case trace.Wake:
		w.health[nx.node] = faults.Health{}
		r.stampFault(w, &rec, "%s wakes from its GC pause, unaware that any time has passed", r.cfg.Names[nx.node])
	case trace.Drop:
		m := &r.trace.Msgs[nx.msg]
		w.net.Remove(m.From, m.To, m.ID)
		r.landed(w, &m.Message)
		rec.Msg, rec.Node = m.ID, m.To
		if record {
			m.DropStep = w.step
		}
		r.stampFault(w, &rec, "the network loses %s", r.describe(m))
	}
	rec.NumSent = w.nextMsg - rec.FirstSent
	w.step++
	if record {
		if rec.Caption == "" {
			rec.Caption = fmt.Sprintf("%s: %s", r.cfg.Names[rec.Node], rec.Kind)
		}
		r.trace.Append(rec)
	}
}

// stampFault gives a fault record the process's current clocks (a fault is
// not an event of the algorithm, so the clocks do not tick) and a caption.
func (r *Run) stampFault(w *world, rec *trace.Record, format string, args ...any) {
	if r.replaying {
		return
	}
	rec.Lamport = w.lamport[rec.Node]
	rec.Vector = r.stamps.copy(w.vector[rec.Node])
	rec.Caption = fmt.Sprintf(format, args...)
}

// stepNode runs one event at a node and applies its effects.
func (r *Run) stepNode(w *world, rec *trace.Record, ev sim.Event, record bool) {
	id := rec.Node
	if ev.Kind != sim.Deliver {
		w.lamport[id] = w.lamport[id].Tick()
	}
	w.vector[id].Tick(int(id))
	env := &r.env
	env.Reset(id, w.now, r.cfg.Names, w.nodeRandOf(r.cfg.Generator, id), r.replaying)
	w.nodes[id].Step(env, ev)
	if record {
		rec.Lamport = w.lamport[id]
		rec.Vector = r.stamps.copy(w.vector[id])
		rec.Caption = env.Caption
		if len(env.Marks) > 0 {
			rec.Marks = append([]sim.Mark(nil), env.Marks...)
		}
	}
	for _, s := range env.Sends {
		r.send(w, id, s, record, rec.Vector)
	}
	for _, t := range env.Timers {
		w.timers = removeTimer(w.timers, id, t.Tag)
		if !t.Cancel {
			w.seq++
			w.timers = append(w.timers, timer{node: id, tag: t.Tag, due: w.now + max(t.After, 0), seq: w.seq})
		}
	}
}

// send puts one message on the network: it draws its delay and whether it is
// lost from the network's own stream.
func (r *Run) send(w *world, from sim.NodeID, s sim.Send, record bool, stamp []int32) {
	id := w.nextMsg
	w.nextMsg++
	due := w.now
	if r.cfg.Scheduler == Earliest {
		lo, hi := r.cfg.Net.DelayMin, r.cfg.Net.DelayMax
		due += lo
		if hi > lo {
			due += sim.Time(w.netRand.IntN(int(hi - lo + 1)))
		}
	}
	lost := r.cfg.Net.Loss > 0 && w.netRand.Float64() < r.cfg.Net.Loss
	if record {
		s.Msg.Label = r.intern(s.Msg.Label)
		m := trace.Msg{ID: id, From: from, To: s.To, Message: s.Msg, SendStep: w.step, SendTime: w.now,
			Due: due, RecvStep: -1, DropStep: -1, Lamport: w.lamport[from], Vector: stamp}
		if lost {
			m.DropStep = w.step
		}
		r.trace.AppendMsg(m)
	}
	if !lost {
		w.net.Add(from, s.To, id)
		if k, ok := r.kinds[s.Msg.Kind]; ok {
			w.flight[k].Count++
			w.flight[k].Sum += s.Msg.Value
		}
	}
}

// landed takes a message that left the network (delivered or lost) off the
// totals in flight.
func (r *Run) landed(w *world, m *sim.Message) {
	if k, ok := r.kinds[m.Kind]; ok {
		w.flight[k].Count--
		w.flight[k].Sum -= m.Value
	}
}

func removeTimer(ts []timer, node sim.NodeID, tag string) []timer {
	for i, t := range ts {
		if t.node == node && t.tag == tag {
			return append(ts[:i:i], ts[i+1:]...)
		}
	}
	return ts
}

func removeTimersOf(ts []timer, node sim.NodeID) []timer {
	out := ts[:0:0]
	for _, t := range ts {
		if t.node != node {
			out = append(out, t)
		}
	}
	return out
}

// describe names a message for captions: "transfer $14 A→B (#12)".
func (r *Run) describe(m *trace.Msg) string {
	label := m.Kind
	if m.Label != "" {
		label += " " + m.Label
	}
	return fmt.Sprintf("%s %s→%s (#%d)", label, r.cfg.Names[m.From], r.cfg.Names[m.To], m.ID)
}

// stamps hands out copies of vector clocks from large blocks: one
// allocation per block instead of one per step.
type stamps struct{ block []int32 }

func (s *stamps) copy(v clock.Vector) clock.Vector {
	if len(s.block) < len(v) {
		s.block = make([]int32, max(8192, 64*len(v)))
	}
	c := clock.Vector(s.block[:len(v):len(v)])
	copy(c, v)
	s.block = s.block[len(v):]
	return c
}

// intern returns one shared copy of a message label ("$14", "M1"): a long
// run then keeps a handful of label strings instead of one per message.
func (r *Run) intern(label string) string {
	if shared, ok := r.labels[label]; ok {
		return shared
	}
	if len(r.labels) < 4096 {
		r.labels[label] = label
	}
	return label
}
