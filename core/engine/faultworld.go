package engine

import (
	"fmt"
	"slices"

	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// faultWorld is the world as the fault registry sees it during one step:
// every change goes to the cloned world and, when the step is recorded,
// into the step's record as a Change.
type faultWorld struct {
	r      *Run
	w      *world
	rec    *trace.Record
	record bool
	// stepped says the fault stepped the process (a recovery), which
	// stamps and captions the record itself.
	stepped bool
}

var _ faults.World = (*faultWorld)(nil)

func (f *faultWorld) change(c trace.Change) {
	if f.record && f.rec != nil {
		x := f.r.extra(f.rec)
		x.Changes = append(x.Changes, c)
	}
}

func (f *faultWorld) N() int                             { return len(f.w.nodes) }
func (f *faultWorld) Name(id sim.NodeID) string          { return f.r.cfg.Names[id] }
func (f *faultWorld) Now() sim.Time                      { return f.w.now }
func (f *faultWorld) Health(id sim.NodeID) faults.Health { return f.w.health[id] }

func (f *faultWorld) SetHealth(id sim.NodeID, h faults.Health) {
	old := f.w.health[id]
	f.w.health[id] = h
	if h.State == sim.Paused {
		f.w.queue.push(entry{at: h.Until, due: h.Until, seq: uint64(id), what: queueWake, node: int32(id)})
	}
	if old.State == sim.Crashed && h.State == sim.Up {
		f.r.queueChannels(f.w, id)
	}
	f.change(trace.Change{What: trace.ChangeHealth, Node: id, Peer: sim.None, Msg: sim.None, Value: int64(h.State)})
}

func (f *faultWorld) DropTimers(id sim.NodeID) int {
	ts := f.w.timers[id]
	f.w.timers[id] = nil
	if f.record {
		for _, t := range ts {
			f.r.noteTimer(f.rec, trace.TimerNote{Tag: t.tag, Cancelled: true})
		}
	}
	return len(ts)
}

func (f *faultWorld) EndIntervals(id sim.NodeID) int {
	open := f.w.intervals[id]
	if len(open) == 0 {
		return 0
	}
	closes := make([]sim.Annotation, len(open))
	for i, a := range open {
		closes[i] = sim.Closes(a.Role, a.Group)
	}
	f.w.track(id, closes)
	if f.record {
		x := f.r.extra(f.rec)
		x.Annotations = append(x.Annotations, closes...)
	}
	return len(open)
}

func (f *faultWorld) Restart(id sim.NodeID) string {
	f.stepped = true
	ev := sim.Event{Kind: sim.Recover}
	if !f.w.started[id] {
		f.w.started[id] = true
		ev.Kind = sim.Init
	}
	f.r.stepNode(f.w, f.rec, ev, f.record)
	return f.rec.Caption
}

func (f *faultWorld) InFlight(id int) (sim.NodeID, sim.NodeID, bool) {
	if id < 0 || id >= f.w.nextMsg {
		return 0, 0, false
	}
	m := &f.r.trace.Msgs[id]
	return m.From, m.To, f.w.net.Position(m.From, m.To, id) >= 0
}

func (f *faultWorld) Describe(id int) string { return f.r.describe(&f.r.trace.Msgs[id]) }

func (f *faultWorld) Lose(id int) {
	m := &f.r.trace.Msgs[id]
	f.r.takeOff(f.w, m)
	if f.record {
		m.DropStep = f.w.step
	}
}

func (f *faultWorld) Delay(id int, by sim.Time) sim.Time {
	due := max(f.r.due(f.w, id), f.w.now) + by
	if f.w.delayed == nil {
		f.w.delayed = map[int]sim.Time{}
	}
	f.w.delayed[id] = due
	f.r.queueDelivery(f.w, id)
	f.change(trace.Change{What: trace.ChangeDelay, Node: f.r.trace.Msgs[id].To, Peer: sim.None, Msg: id, Value: int64(due)})
	return due
}

func (f *faultWorld) Duplicate(id int) int {
	orig := f.r.trace.Msgs[id]
	c := f.w.nextMsg
	f.w.nextMsg++
	if f.record {
		dup := orig
		// a copy of a copy copies what the process sent
		dup.ID, dup.Original, dup.RecvStep, dup.RecvTime, dup.DropStep = c, orig.Original, -1, 0, -1
		f.r.trace.AppendMsg(dup)
	}
	if d, ok := f.w.delayed[id]; ok {
		f.w.delayed[c] = d
	}
	f.r.putOn(f.w, orig.From, orig.To, c, orig.Message)
	return c
}

func (f *faultWorld) LinkUp(from, to sim.NodeID) bool { return f.w.linkUp(from, to) }

func (f *faultWorld) SetLink(from, to sim.NodeID, up bool) int {
	if from == to || f.w.linkUp(from, to) == up {
		return 0
	}
	n := len(f.w.nodes)
	if f.w.cut == nil {
		f.w.cut = make([]bool, n*n)
	}
	f.w.cut[int(from)*n+int(to)] = !up
	lost := 0
	if !up {
		for _, id := range append([]int(nil), f.w.net.Channel(from, to)...) {
			f.Lose(id)
			lost++
		}
	}
	value := int64(0)
	if up {
		value = 1
	}
	f.change(trace.Change{What: trace.ChangeLink, Node: from, Peer: to, Msg: sim.None, Value: value})
	return lost
}

func (f *faultWorld) Skew(id sim.NodeID) sim.Time { return f.w.localTime(id) - f.w.now }

func (f *faultWorld) SetSkew(id sim.NodeID, by sim.Time) {
	f.w.setClock(id, f.w.clock(id).Skewed(f.w.now, by))
	f.change(trace.Change{What: trace.ChangeSkew, Node: id, Peer: sim.None, Msg: sim.None, Value: int64(by)})
}

func (f *faultWorld) ClockRate(id sim.NodeID) int64 { return f.w.clock(id).Rate() }

func (f *faultWorld) SetClockRate(id sim.NodeID, rate int64) {
	f.w.setClock(id, f.w.clock(id).Rated(f.w.now, rate))
	f.change(trace.Change{What: trace.ChangeRate, Node: id, Peer: sim.None, Msg: sim.None, Value: rate})
}

func (f *faultWorld) FIFO() bool { return f.w.fifo }

func (f *faultWorld) SetFIFO(on bool) {
	f.w.fifo = on
	if !on {
		// every message in flight may now arrive, not only each channel's head
		for to := range f.w.nodes {
			f.r.queueChannels(f.w, sim.NodeID(to))
		}
	}
	value := int64(0)
	if on {
		value = 1
	}
	f.change(trace.Change{What: trace.ChangeFIFO, Node: sim.None, Peer: sim.None, Msg: sim.None, Value: value})
}

// validate says why an action cannot happen in w, or nil if it can.
func (r *Run) validate(w *world, a Action) error {
	n := len(w.nodes)
	name := func(id sim.NodeID) string { return r.cfg.Names[id] }
	switch {
	case a.Fault != "":
		f, err := faults.Parse(a.Fault)
		if err != nil {
			return err
		}
		if err := f.Validate(a.Args, n, f.Given(a.Args)); err != nil {
			return fmt.Errorf("%s: %v", f.Name, err)
		}
		if f.Takes("msg") && a.Msg >= w.nextMsg {
			return fmt.Errorf("there is no message #%d", a.Msg)
		}
		return f.Check(&faultWorld{r: r, w: w}, a.Args)
	case a.Command != "":
		c, ok := r.cfg.Spec.Command(a.Command)
		if !ok {
			return fmt.Errorf("%s has no command %q", r.cfg.Spec.ID, a.Command)
		}
		if a.Node < 0 || int(a.Node) >= n {
			return fmt.Errorf("there is no process %d", a.Node.Number())
		}
		if !w.running(a.Node) {
			return fmt.Errorf("%s is %s and cannot %s", name(a.Node), w.health[a.Node].State, a.Command)
		}
		if !c.TakenBy(r.view(w), a.Node) {
			return fmt.Errorf("%s does not take the command %q: %s", name(a.Node), a.Command, who(c))
		}
		if c.Target && (a.Target < 0 || int(a.Target) >= n || a.Target == a.Node) {
			return fmt.Errorf("%s needs another process as its target", a.Command)
		}
		return c.CheckArg(a.Arg)
	}
	if a.Msg < 0 || a.Msg >= w.nextMsg {
		return fmt.Errorf("there is no message #%d", a.Msg)
	}
	m := &r.trace.Msgs[a.Msg]
	pos := w.net.Position(m.From, m.To, m.ID)
	if pos < 0 {
		return fmt.Errorf("%s is not in flight", r.describe(m))
	}
	if !w.running(m.To) {
		return fmt.Errorf("%s is %s: %s waits in its channel", name(m.To), w.health[m.To].State, r.describe(m))
	}
	if w.fifo && pos > 0 {
		head := &r.trace.Msgs[w.net.Channel(m.From, m.To)[0]]
		return fmt.Errorf("the channel %s→%s is FIFO: only its head, %s, can be delivered next", name(m.From), name(m.To), r.describe(head))
	}
	return nil
}

// Messages lists the ids of the messages in flight, in id order (a
// faults.Scene, for the faults a search tries).
func (f *faultWorld) Messages() []int {
	var ids []int
	f.w.net.Busy(func(_, _ sim.NodeID, m []int) { ids = append(ids, m...) })
	slices.Sort(ids)
	return ids
}
