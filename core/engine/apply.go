package engine

import (
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// apply makes one step happen in w. When record is set the step is appended
// to the trace (and invariants are checked); otherwise the step is being
// replayed and the trace already holds it, so no caption or stamp is made.
func (r *Run) apply(w *world, nx next, record bool) {
	r.replaying = !record
	w.stepped, w.steppedEv = sim.None, sim.Event{}
	if nx.at > w.now {
		w.now = nx.at
	}
	if nx.source == trace.Script {
		w.script++
	}
	if nx.queued {
		w.queue.pop() // pick chose the queue's top entry
	}
	// a recorded step is written in place at the trace's end; a replayed
	// one in the run's scratch record (see Run.replayed)
	rec := &r.replayed
	if record {
		rec = r.trace.Next()
	}
	rec.Step, rec.Time, rec.Node, rec.Kind, rec.Msg = w.step, w.now, nx.node, nx.kind, -1
	rec.FirstSent, rec.Source = w.nextMsg, nx.source
	kind := nx.kind
	if nx.source == trace.Script && (kind == trace.Fault || kind == trace.Deliver) {
		// The script was written before the run: a fault or a delivery that
		// cannot happen when its time comes (pause a crashed process, drop
		// or deliver a message that has arrived) is skipped, as a learner's
		// would be refused.
		if err := r.validate(w, *nx.act); err != nil {
			kind, rec.Kind = trace.Skip, trace.Skip
			if rec.Node < 0 || rec.Node >= sim.NodeID(len(w.nodes)) {
				rec.Node = sim.None
			}
			what := nx.act.Fault
			if what == "" {
				what = fmt.Sprintf("delivery of message #%d", nx.act.Msg)
			}
			r.stampFault(w, rec, "the script's %s is not applied: %v", what, err)
		}
	}
	switch kind {
	case trace.Init:
		w.inited++
		w.started[nx.node] = true
		r.stepNode(w, rec, sim.Event{Kind: sim.Init}, record)
	case trace.Timer:
		if i, ok := w.timerOf(nx.node, nx.tag); ok {
			w.timers[nx.node] = slices.Delete(w.timers[nx.node], i, i+1)
		}
		r.stepNode(w, rec, sim.Event{Kind: sim.Timer, Tag: nx.tag}, record)
		if record {
			r.extra(rec).Tag = nx.tag
			// appended into the run's text, not formatted: a timer fires
			// at most steps of some algorithms
			said := rec.Caption
			r.text += len(said) // the process's words stay where they were written
			rec.Caption = r.env.Text(func(b []byte) []byte {
				b = append(append(b, r.cfg.Names[nx.node]...), "'s timer "...)
				b = append(strconv.AppendQuote(b, nx.tag), " fires"...)
				if said != "" {
					b = append(append(b, ": "...), said...)
				}
				return b
			})
		}
	case trace.Workload:
		if nx.node < 0 { // the Earliest scheduler picks the process now
			up := w.upNodes(r.scratchNodes)
			r.scratchNodes = up
			w.nextWork = w.drawGap(r.cfg.Workload)
			if len(up) == 0 {
				rec.Node = 0
				r.stampFault(w, rec, "no process is up to do any work")
				break
			}
			nx.node = up[w.work.IntN(len(up))]
			rec.Node = nx.node
		}
		r.stepNode(w, rec, sim.Event{Kind: sim.Workload}, record)
	case trace.Command:
		a := nx.act
		if record {
			x := r.extra(rec)
			x.Tag, x.Args, x.Arg = a.Command, &a.Args, a.Arg
		}
		if !w.running(nx.node) {
			r.stampFault(w, rec, "%s is %s: the command %q is not run", r.cfg.Names[nx.node], w.health[nx.node].State, a.Command)
			break
		}
		if c, _ := r.cfg.Spec.Command(a.Command); !c.TakenBy(r.view(w), nx.node) {
			r.stampFault(w, rec, "%s does not take the command %q: %s", r.cfg.Names[nx.node], a.Command, who(c))
			break
		}
		r.stepNode(w, rec, sim.Event{Kind: sim.Command, Tag: a.Command, Target: a.Target, Arg: a.Arg}, record)
	case trace.Deliver:
		m := &r.trace.Msgs[nx.msg]
		r.takeOff(w, m)
		rec.Msg, rec.Node = m.ID, m.To
		if record {
			m.RecvStep, m.RecvTime = w.step, w.now
		}
		w.lamport[m.To] = w.lamport[m.To].Receive(m.Lamport)
		w.vector[m.To].Merge(m.Vector)
		msg := m.Message
		if len(msg.Data) > 0 {
			// the receiver gets its own copy: changing it must not change history
			msg.Data = r.received.copy(msg.Data)
			if record {
				r.text += 8 * len(msg.Data)
			}
		}
		r.stepNode(w, rec, sim.Event{Kind: sim.Deliver, From: m.From, Msg: msg, MsgID: m.ID}, record)
	case trace.Fault:
		r.applyFault(w, rec, nx.act, record)
	case trace.Wake:
		fw := &faultWorld{r: r, w: w, rec: rec, record: record}
		fw.SetHealth(nx.node, faults.Health{})
		r.stampFault(w, rec, "%s wakes from its GC pause, unaware that any time has passed", r.cfg.Names[nx.node])
	}
	rec.NumSent = w.nextMsg - rec.FirstSent
	w.step++
	if record {
		if rec.Caption == "" {
			name := "the network"
			if rec.Node >= 0 {
				name = r.cfg.Names[rec.Node]
			}
			rec.Caption = fmt.Sprintf("%s: %s", name, rec.What())
		}
	}
}

// applyFault applies a fault from the registry through the world's fault
// interface, which records what it changes.
func (r *Run) applyFault(w *world, rec *trace.Record, a *Action, record bool) {
	f, _ := faults.Lookup(a.Fault)
	if f.Takes("msg") && a.Msg >= 0 && a.Msg < len(r.trace.Msgs) {
		// a message's fault is drawn on the message, at its receiver's end
		rec.Msg, rec.Node = a.Msg, r.trace.Msgs[a.Msg].To
	} else if !f.Takes("node") || a.Node == sim.None {
		rec.Node = sim.None // the whole network
	}
	if record {
		x := r.extra(rec)
		x.Tag, x.Args = f.Name, &a.Args
	}
	fw := &faultWorld{r: r, w: w, rec: rec, record: record}
	caption := f.Apply(fw, a.Args)
	if !fw.stepped {
		r.stampFault(w, rec, "%s", caption)
	} else if record {
		rec.Caption = caption
	}
}

// extra returns the record's extra part, making it if needed.
func (r *Run) extra(rec *trace.Record) *trace.Extra {
	if rec.Extra == nil {
		rec.Extra = r.extras.one()
	}
	return rec.Extra
}

func who(c sim.CommandSpec) string {
	if c.Who != "" {
		return "only " + c.Who + " take it"
	}
	return "it is not one of the processes that take it"
}

// stampFault gives a record that is no event of the algorithm the
// process's current clocks (they do not tick) and a caption.
func (r *Run) stampFault(w *world, rec *trace.Record, format string, args ...any) {
	if r.replaying {
		return
	}
	if rec.Node >= 0 {
		rec.Lamport = w.lamport[rec.Node]
		rec.Vector = r.stamps.copy(w.vector[rec.Node])
	}
	rec.Caption = fmt.Sprintf(format, args...)
}

// stepNode runs one event at a node and applies its effects.
func (r *Run) stepNode(w *world, rec *trace.Record, ev sim.Event, record bool) {
	id := rec.Node
	if ev.Kind != sim.Deliver {
		w.lamport[id] = w.lamport[id].Tick()
	}
	w.vector[id].Tick(int(id))
	if w.own(id) && record {
		r.cfg.Budget.charge(nodeCost, 8*nodeCost)
	}
	w.stepped, w.steppedEv = id, ev
	env := &r.env
	env.Reset(sim.Context{Self: id, Now: w.now, Local: w.localTime(id), Names: r.cfg.Names,
		Rand: w.nodeRandOf(r.cfg.Generator, id), Lamport: w.lamport[id], Vector: w.vector[id], Quiet: r.replaying})
	w.nodes[id].Step(env, ev)
	effects := env.Effects()
	if w.ledger != nil {
		w.ledger.Stepped(id, w.nodes[id])
	}
	w.track(id, effects.Annotations)
	if effects.Err != nil && record && r.failed == nil {
		r.failed = &StepError{Step: w.step, Node: id, Err: effects.Err}
	}
	if record {
		rec.Lamport = w.lamport[id]
		rec.Vector = r.stamps.copy(w.vector[id])
		rec.Caption = effects.Caption
		if len(effects.Annotations) > 0 {
			x := r.extra(rec)
			if len(x.Annotations) == 0 {
				x.Annotations = r.annotations.copy(effects.Annotations)
			} else {
				x.Annotations = append(x.Annotations, effects.Annotations...)
			}
		}
	}
	cut := 0
	for _, s := range effects.Sends {
		if s.To < 0 || int(s.To) >= len(w.nodes) {
			panic(fmt.Sprintf("%s: process %s sent a %s message to process #%d, which does not exist", r.cfg.Spec.ID, r.cfg.Names[id], s.Msg.Kind, s.To))
		}
		if !r.send(w, id, s, record, rec.Vector) {
			cut++
		}
	}
	if record && cut > 0 {
		r.text += len(rec.Caption)
		rec.Caption += fmt.Sprintf(" (%d message(s) went out on a cut link and are lost)", cut)
	}
	for _, t := range effects.Timers {
		r.setTimer(w, id, t, rec, record)
	}
}

// setTimer arms, re-arms or cancels one of a node's timers.
func (r *Run) setTimer(w *world, id sim.NodeID, t sim.TimerRequest, rec *trace.Record, record bool) {
	i, armed := w.timerOf(id, t.Tag)
	if armed {
		// in place: a world's copy has timers of its own (world.clone)
		w.timers[id] = slices.Delete(w.timers[id], i, i+1)
	}
	if t.Cancel {
		if armed && record {
			r.noteTimer(rec, trace.TimerNote{Tag: t.Tag, Cancelled: true})
		}
		return
	}
	w.seq++
	due := w.now + max(t.After, 0)
	w.timers[id] = append(w.timers[id], timer{tag: t.Tag, due: due, seq: w.seq})
	w.queue.push(entry{at: due, due: due, seq: w.seq, what: queueTimer, node: int32(id)})
	if record {
		r.noteTimer(rec, trace.TimerNote{Tag: t.Tag, Due: due})
	}
}

// noteTimer adds a timer's note to a record's extra part. A step's first
// note lives in a block, as its annotations do; a step arms more than one
// timer rarely.
func (r *Run) noteTimer(rec *trace.Record, n trace.TimerNote) {
	x := r.extra(rec)
	if len(x.Timers) == 0 {
		x.Timers = r.timerNotes.copy([]trace.TimerNote{n})
		return
	}
	x.Timers = append(x.Timers, n)
}

// timerOfSeq finds a node's armed timer by its arming sequence.
func (w *world) timerOfSeq(id sim.NodeID, seq uint64) (int, bool) {
	for i, t := range w.timers[id] {
		if t.seq == seq {
			return i, true
		}
	}
	return -1, false
}

// send puts one message on the network: it draws its delay and whether it is
// lost from the network's own stream. It reports false when the link is cut
// (the message is lost).
func (r *Run) send(w *world, from sim.NodeID, s sim.Send, record bool, stamp []int32) bool {
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
	up := w.linkUp(from, s.To)
	if record {
		// written in place, field by field (see trace.Next)
		m := r.trace.NextMsg()
		m.ID, m.From, m.To, m.Original = id, from, s.To, id
		m.Kind, m.Value, m.Data = s.Msg.Kind, s.Msg.Value, s.Msg.Data // Data was copied by Env.Send
		m.Label = r.intern(s.Msg.Label)
		m.SendStep, m.SendTime, m.Due, m.RecvStep, m.DropStep = w.step, w.now, due, -1, -1
		m.Lamport, m.Vector = w.lamport[from], stamp
		if lost || !up {
			m.DropStep = w.step
		}
	}
	if !lost && up {
		r.putOn(w, from, s.To, id, s.Msg)
	}
	return up
}

// messageFields are sim.Message's fields, which send copies one by one:
// the conversion below stops the build when a field is added there and
// not here (and in send).
type messageFields struct {
	Kind  string
	Value int64
	Label string
	Data  []int64
}

var _ = sim.Message(messageFields{})

// putOn puts message id in flight on from→to.
func (r *Run) putOn(w *world, from, to sim.NodeID, id int, m sim.Message) {
	w.net.Add(from, to, id)
	if k, ok := r.kinds[m.Kind]; ok {
		w.flight[k].Count++
		w.flight[k].Sum += m.Value
	}
	if w.ledger != nil {
		w.ledger.Joined(m)
	}
	if !w.fifo || len(w.net.Channel(from, to)) == 1 {
		r.queueDelivery(w, id)
	}
}

// takeOff takes a message off the network (delivered or lost).
func (r *Run) takeOff(w *world, m *trace.Msg) {
	wasHead := w.net.Position(m.From, m.To, m.ID) == 0
	w.net.Remove(m.From, m.To, m.ID)
	if k, ok := r.kinds[m.Kind]; ok {
		w.flight[k].Count--
		w.flight[k].Sum -= m.Value
	}
	if w.ledger != nil {
		w.ledger.Left(m.Message)
	}
	if w.delayed != nil {
		delete(w.delayed, m.ID)
	}
	if ch := w.net.Channel(m.From, m.To); wasHead && w.fifo && len(ch) > 0 {
		r.queueDelivery(w, ch[0])
	}
}

// describe names a message for captions: "transfer $14 A→B (#12)".
func (r *Run) describe(m *trace.Msg) string {
	return fmt.Sprintf("%s %s→%s (#%d)", m.Describe(), r.cfg.Names[m.From], r.cfg.Names[m.To], m.ID)
}

// blocks hands out copies of small arrays (vector clocks, a step's
// annotations) and single values (a record's extra part) from large
// blocks: one allocation per block instead of one per step. A copy is
// capped at its length, so appending to it never reaches its neighbour.
type blocks[T any] struct{ block []T }

// copy returns a copy of v that lives in a block.
func (b *blocks[T]) copy(v []T) []T {
	if len(b.block) < len(v) {
		b.refill(len(v))
	}
	c := b.block[:len(v):len(v)]
	copy(c, v)
	b.block = b.block[len(v):]
	return c
}

// one returns a new zero value that lives in a block.
func (b *blocks[T]) one() *T {
	if len(b.block) == 0 {
		b.refill(1)
	}
	v := &b.block[0]
	b.block = b.block[1:]
	return v
}

// refill starts a new block of about blockBytes, room for 64 copies of n
// values at least.
func (b *blocks[T]) refill(n int) {
	var zero T
	b.block = make([]T, max(blockBytes/max(int(unsafe.Sizeof(zero)), 1), 64*n))
}

// blockBytes is about the size of a block: a short run (a campaign makes
// thousands) allocates one of each kind, a long one a block every few
// hundred steps.
const blockBytes = 32 << 10

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
