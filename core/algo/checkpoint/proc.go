package checkpoint

import (
	"fmt"
	"strconv"

	"spacetime/core/algo/snapshot"
	"spacetime/core/sim"
)

// Checkpoint is a saved state on stable storage. It never changes once
// taken, so that copies of a process may share them.
type Checkpoint struct {
	// ID numbers the process's checkpoints from 0, the initial state.
	ID int
	// Round is the global checkpoint it is part of, 0 for a local one.
	Round int
	// Base says it was taken at a restore (or at the start): every
	// process's latest base makes a consistent line.
	Base  bool
	Epoch int
	// Work is the work done; Sent[q] the messages sent to q, and Recv[q]
	// the highest message number taken from q.
	Work       int
	Sent, Recv []int
	// Channel[q] counts the messages from q recorded as channel state
	// (coordinated): in transit at the cut, replayed on a restore.
	Channel []int
}

// round is a process's part of the global checkpoint it is taking: the
// marker rule's part, and the checkpoint it saved.
type round struct {
	snapshot.Part
	saved Checkpoint
}

// Proc is one process. Its checkpoints, epoch and counters of ids and
// rounds are on stable storage and survive a crash; the rest is lost.
type Proc struct {
	params *Params

	// Volatile state.
	Work       int
	Sent, Recv []int
	// Frozen says the process is stopped for recovery, and Restored that
	// it has restored its point on the line and waits for RESUME.
	Frozen, Restored bool
	// rounds are the global checkpoints it is taking part in, oldest first.
	rounds []*round
	// Blocked says the process holds its sends: it saved its part of
	// two-phase global checkpoint blockedRound at blockedSince, and waits
	// for DONE; acked says whose ACKs of it process 1 has (a network's
	// copy of an ACK is not another).
	Blocked      bool
	blockedRound int
	blockedSince sim.Time
	acked        []bool
	// rec is process 1's recovery in progress (or the last one, done).
	rec *recovery

	// Stable storage.
	Checkpoints []Checkpoint
	Epoch       int
	NextID      int
	NextEpoch   int
	NextRound   int
	// Resumed is the epoch the process last resumed in: one that restored
	// its point and crashed before RESUME is still restored.
	Resumed int

	// Counts for the reports, kept by the observer, not the process.
	// Propagated counts the rollbacks propagation made, over every recovery.
	Taken, Markers, Control, Recoveries, RolledBack, LostWork, LostMsgs, ToInitial, Propagated int
	// Coordination counts the two-phase protocol's messages sent, and
	// BlockedTicks the ticks the process held its sends for it.
	Coordination int
	BlockedTicks sim.Time
}

// Clone returns a deep copy; checkpoints never change, so they are shared.
func (p *Proc) Clone() sim.Node {
	c := *p
	c.Sent = append([]int(nil), p.Sent...)
	c.Recv = append([]int(nil), p.Recv...)
	c.acked = append([]bool(nil), p.acked...)
	c.Checkpoints = sim.Handoff(&p.Checkpoints)
	c.rounds = make([]*round, len(p.rounds))
	for i, r := range p.rounds {
		cr := *r
		cr.Part = r.Part.Clone()
		cr.saved.Channel = append([]int(nil), r.saved.Channel...)
		c.rounds[i] = &cr
	}
	if p.rec != nil {
		c.rec = p.rec.clone()
	}
	return &c
}

// Step reacts to one event.
func (p *Proc) Step(env *sim.Env, ev sim.Event) {
	switch ev.Kind {
	case sim.Init:
		p.start(env)
	case sim.Recover:
		p.restart(env)
	case sim.Workload:
		p.work(env, sim.None)
	case sim.Command:
		p.command(env, ev)
	case sim.Timer:
		p.timer(env, ev.Tag)
	case sim.Deliver:
		p.deliver(env, ev)
	}
}

func (p *Proc) start(env *sim.Env) {
	p.Sent, p.Recv = make([]int, env.N()), make([]int, env.N())
	p.save(env, 0, true)
	p.armCheckpoint(env)
	env.Explain("%s starts and saves its initial state as %s", env.Name(env.Self()), label(env, env.Self(), 0))
}

// save takes a checkpoint of the present state and keeps it.
func (p *Proc) save(env *sim.Env, round int, base bool) Checkpoint {
	c := p.snapshot(env, round, base)
	p.keep(c)
	return c
}

// snapshot is a checkpoint of the present state, with the next id, marked
// on the diagram for the lines.
func (p *Proc) snapshot(env *sim.Env, round int, base bool) Checkpoint {
	c := Checkpoint{ID: p.NextID, Round: round, Base: base, Epoch: p.Epoch, Work: p.Work,
		Sent: append([]int(nil), p.Sent...), Recv: append([]int(nil), p.Recv...)}
	p.NextID++
	p.Taken++
	env.Annotate(sim.At(RoleSaved, c.ID, ""))
	if round == 0 && (!base || c.ID == 0) { // a restore's base is marked as the rollback
		env.Annotate(sim.At(RoleCheckpoint, c.ID, env.Text(func(b []byte) []byte { return appendLabel(b, env.Name(env.Self()), c.ID) })))
	}
	return c
}

// keep adds a finished checkpoint to stable storage; a base makes the
// older ones useless, as no recovery line goes behind it. The process
// appends into its own spare capacity: a copy's list is capped at its
// length (Clone), so it never sees what is appended after it.
func (p *Proc) keep(c Checkpoint) {
	if c.Base {
		p.Checkpoints = nil
	}
	p.Checkpoints = append(p.Checkpoints, c)
}

// armCheckpoint sets the timer of the next checkpoint: a random gap
// around the interval (uncoordinated), or process 1's period.
func (p *Proc) armCheckpoint(env *sim.Env) {
	every := p.params.Interval
	switch {
	case every == 0:
	case p.params.Coordinated && env.Self() == Manager:
		env.SetTimer(timerCheckpoint, every)
	case !p.params.Coordinated:
		env.SetTimer(timerCheckpoint, every/2+1+sim.Time(env.Rand().IntN(int(every))))
	}
}

func (p *Proc) timer(env *sim.Env, tag string) {
	switch tag {
	case timerCheckpoint:
		if p.Frozen {
			env.Explain("%s is stopped for recovery: it checkpoints again once it resumes", env.Name(env.Self()))
			return // it sets the timer again when it resumes
		}
		p.checkpointNow(env)
		p.armCheckpoint(env)
	case timerPropagate:
		p.propagate(env)
	}
}

func (p *Proc) command(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	if p.Frozen {
		env.Explain("%s is stopped for recovery and does nothing until it resumes", me)
		return
	}
	switch ev.Tag {
	case CmdCheckpoint:
		p.checkpointNow(env)
	case CmdSend:
		p.work(env, ev.Target)
	}
}

// checkpointNow takes a local checkpoint, or starts a global one.
func (p *Proc) checkpointNow(env *sim.Env) {
	if p.params.Coordinated {
		p.startRound(env)
		return
	}
	c := p.save(env, 0, false)
	me := env.Name(env.Self())
	env.ExplainWith(func(b []byte) []byte {
		b = appendLabel(append(append(b, me...), " saves checkpoint "...), me, c.ID)
		b = strconv.AppendInt(append(b, " on its own: work "...), int64(c.Work), 10)
		return appendCounts(append(b, ", "...), env, c)
	})
}

// appendCounts appends what a checkpoint has sent and taken: "sent 2 to
// 3, took 1 from 2".
func appendCounts(b []byte, env *sim.Env, c Checkpoint) []byte {
	start := len(b)
	part := func(verb string, n int, q int, to string) {
		if len(b) > start {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(append(b, verb...), int64(n), 10)
		b = append(append(b, to...), env.Name(sim.NodeID(q))...)
	}
	for q, n := range c.Sent {
		if n > 0 {
			part("sent ", n, q, " to ")
		}
	}
	for q, n := range c.Recv {
		if n > 0 {
			part("took ", n, q, " from ")
		}
	}
	if len(b) == start {
		b = append(b, "no messages yet"...)
	}
	return b
}

// work does one unit of the application's work: a message to to, or to
// another process drawn at random.
func (p *Proc) work(env *sim.Env, to sim.NodeID) {
	me := env.Name(env.Self())
	if p.Frozen {
		env.Explain("%s is stopped for recovery: no work", me)
		return
	}
	if p.Blocked {
		env.Explain("%s holds its message back: it saved its part of global checkpoint %d and sends nothing until DONE", me, p.blockedRound)
		return
	}
	if to == sim.None {
		to = sim.NodeID(env.Rand().IntN(env.N() - 1))
		if to >= env.Self() {
			to++
		}
	}
	p.Work++
	p.Sent[to]++
	seq := p.Sent[to]
	env.Send(to, sim.Message{Kind: KindMsg, Value: int64(seq), Label: env.Numbered("#", seq), Data: []int64{int64(p.Epoch)}})
	// appended, not formatted, as the other captions of every step are
	env.ExplainWith(func(b []byte) []byte {
		b = strconv.AppendInt(append(append(b, me...), " works (work "...), int64(p.Work), 10)
		b = strconv.AppendInt(append(b, ") and sends its message #"...), int64(seq), 10)
		return append(append(b, " to "...), env.Name(to)...)
	})
}

// deliver takes a message.
func (p *Proc) deliver(env *sim.Env, ev sim.Event) {
	switch ev.Msg.Kind {
	case KindMsg:
		p.receive(env, ev)
	case KindMarker:
		p.marker(env, ev)
	case KindRequest:
		p.request(env, ev)
	case KindRollback:
		p.rollback(env, ev)
	case KindResume:
		p.resume(env, ev)
	case KindFailed, KindInfo, KindRestored:
		p.manage(env, ev)
	case KindCheckpointRequest, KindAck, KindDone:
		p.twoPhase(env, ev)
	}
}

// receive takes an application message, unless it is from an older epoch,
// arrives while the process is stopped, or was taken already.
func (p *Proc) receive(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	seq := int(ev.Msg.Value)
	epoch := 0
	if len(ev.Msg.Data) > 0 {
		epoch = int(ev.Msg.Data[0])
	}
	why := ""
	switch {
	case p.Frozen && !p.Restored:
		why = "it is stopped for recovery, and the message is either undone or lost in transit by the rollback to come"
	case epoch != p.Epoch:
		why = fmt.Sprintf("it was sent in epoch %d, before the recovery to epoch %d: undone by the rollback, or lost in transit across the recovery line", epoch, p.Epoch)
	case seq <= p.Recv[ev.From]:
		why = fmt.Sprintf("it has taken #%d from %s already (a network duplicate)", seq, them)
	}
	if why != "" {
		env.Annotate(sim.At(RoleIgnored, ev.MsgID, ""))
		env.Explain("%s drops message #%d from %s: %s", me, seq, them, why)
		return
	}
	p.Recv[ev.From] = seq
	p.Work++
	for _, r := range p.rounds {
		if r.Records(ev.From) {
			r.saved.Channel[ev.From]++
			env.Annotate(sim.At(RoleChannel, r.saved.Round, env.Numbered("#", seq)).About(ev.MsgID))
		}
	}
	env.ExplainWith(func(b []byte) []byte {
		b = strconv.AppendInt(append(append(b, me...), " takes message #"...), int64(seq), 10)
		b = strconv.AppendInt(append(append(append(b, " from "...), them...), " (work "...), int64(p.Work), 10)
		b = append(b, ')')
		for _, r := range p.rounds {
			if r.Records(ev.From) {
				b = strconv.AppendInt(append(b, "; it saved its state for global checkpoint "...), int64(r.saved.Round), 10)
				b = append(append(append(b, " before this arrived and has no marker from "...), them...), " yet, so the message was in transit at that cut: it joins the checkpoint's channel state"...)
			}
		}
		return b
	})
}

// Inspect shows the process's state.
func (p *Proc) Inspect() []sim.Field {
	state := "working"
	switch {
	case p.Frozen:
		state = "stopped for recovery"
	case p.Blocked:
		state = "holds its sends"
	}
	f := []sim.Field{{Name: "work", Value: fmt.Sprint(p.Work)}, {Name: "state", Value: state}, {Name: "epoch", Value: fmt.Sprint(p.Epoch)}}
	if n := len(p.Checkpoints); n > 0 {
		c := p.Checkpoints[n-1]
		f = append(f, sim.Field{Name: "checkpoints kept", Value: fmt.Sprintf("%d, the last at work %d", n, c.Work)})
	}
	return f
}
