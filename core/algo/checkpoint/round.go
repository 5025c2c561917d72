package checkpoint

import (
	"fmt"

	"spacetime/core/algo/snapshot"
	"spacetime/core/sim"
)

// Coordinated checkpoints are Chandy–Lamport snapshots of the processes'
// work: process 1 starts round g by saving its state and sending MARKER g
// on every channel; a process saves at its first marker and sends its own,
// and records what arrives on a channel before that channel's marker. Its
// part is kept once every marker is in.

// startRound starts global checkpoint NextRound+1 at process 1, once its
// part of the last one is done.
func (p *Proc) startRound(env *sim.Env) {
	if p.params.TwoPhase {
		p.startTwoPhase(env)
		return
	}
	me := env.Name(env.Self())
	if len(p.rounds) > 0 {
		env.Explain("%s waits for the markers of global checkpoint %d before it starts another", me, p.rounds[0].saved.Round)
		return
	}
	p.NextRound++
	g := p.NextRound
	p.record(env, g, &round{Part: snapshot.NewPart(env.N())})
	env.Explain("%s starts global checkpoint %d: it saves its state (work %d), sends a marker on every channel and records what arrives on each until that channel's marker comes", me, g, p.Work)
}

// record saves the process's part r of round g and sends its markers.
func (p *Proc) record(env *sim.Env, g int, r *round) {
	c := p.snapshot(env, g, false)
	c.Channel = make([]int, env.N())
	r.Recorded, r.saved = true, c
	p.rounds = append(p.rounds, r)
	env.Annotate(sim.At(RoleRound, g, label(env, env.Self(), c.ID)))
	env.SendToOthers(sim.Message{Kind: KindMarker, Value: int64(g), Label: fmt.Sprintf("M%d", g), Data: []int64{int64(p.Epoch)}})
	p.Markers += env.N() - 1
}

// marker takes a marker: the first of a round saves the process's part;
// each closes its channel; the last keeps the checkpoint.
func (p *Proc) marker(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	g := int(ev.Msg.Value)
	if (p.Frozen && !p.Restored) || len(ev.Msg.Data) == 0 || int(ev.Msg.Data[0]) != p.Epoch {
		env.Explain("%s drops %s's marker of global checkpoint %d: it was sent before a recovery, or the process is stopped for one", me, them, g)
		return
	}
	var r *round
	for _, x := range p.rounds {
		if x.saved.Round == g {
			r = x
		}
	}
	if r == nil {
		if p.lastRound() >= g {
			env.Explain("%s drops %s's marker of global checkpoint %d: its part of that one is done", me, them, g)
			return
		}
		r = &round{Part: snapshot.NewPart(env.N())}
	}
	first, complete := r.Marker(env.Self(), ev.From, func() { p.record(env, g, r) })
	text := fmt.Sprintf("%s gets its first marker of global checkpoint %d, from %s: it saves its state (work %d), sends its own markers, and records every other channel until its marker comes", me, g, them, p.Work)
	if !first {
		text = fmt.Sprintf("%s gets %s's marker of global checkpoint %d and stops recording %s→%s: %d message(s) in transit there", me, them, g, them, me, r.saved.Channel[ev.From])
	}
	if !complete {
		env.Explain("%s", text)
		return
	}
	p.keep(r.saved)
	var open []*round
	for _, x := range p.rounds {
		if x != r {
			open = append(open, x)
		}
	}
	p.rounds = open
	env.Explain("%s. Every marker is in: its part of global checkpoint %d is saved", text, g)
}

// lastRound is the latest global checkpoint the process has kept, or 0.
func (p *Proc) lastRound() int {
	last := 0
	for _, c := range p.Checkpoints {
		last = max(last, c.Round)
	}
	return last
}

// Two-phase checkpoints (params.two_phase) are the blocking protocol that
// seed 003 names beside the markers (Tanenbaum and van Steen's): process 1
// saves its checkpoint, stops sending and sends CHECKPOINT g to every
// process; each saves its checkpoint to stable storage, stops sending
// application messages and answers ACK g; once every ACK is in, the global
// checkpoint is complete, and process 1 sends DONE g, which lets everyone
// send again. Nobody sends between its checkpoint and DONE, so no message
// is sent after one point of the cut and taken before another: the line
// is consistent without markers, for the price of the sending held back
// for a round trip. What was in transit at the cut is in no checkpoint: a
// restore loses it.

// startTwoPhase starts two-phase global checkpoint NextRound+1 at
// process 1, once the last one is done.
func (p *Proc) startTwoPhase(env *sim.Env) {
	me := env.Name(env.Self())
	if p.Blocked {
		env.Explain("%s waits for the ACKs of global checkpoint %d before it starts another", me, p.blockedRound)
		return
	}
	p.NextRound++
	g := p.NextRound
	p.saveAndBlock(env, g)
	p.acked = make([]bool, env.N())
	env.SendToOthers(sim.Message{Kind: KindCheckpointRequest, Value: int64(g), Label: fmt.Sprintf("CHECKPOINT %d", g), Data: []int64{int64(p.Epoch)}})
	p.Coordination += env.N() - 1
	env.Explain("%s starts two-phase global checkpoint %d: it saves its checkpoint (work %d), stops sending, and asks every process to do the same", me, g, p.Work)
}

// saveAndBlock saves the process's part of round g on stable storage and
// holds its sends until the round is done.
func (p *Proc) saveAndBlock(env *sim.Env, g int) {
	c := p.snapshot(env, g, false)
	c.Channel = make([]int, env.N())
	p.keep(c)
	p.Blocked, p.blockedRound, p.blockedSince = true, g, env.Now()
	env.Annotate(sim.At(RoleRound, g, label(env, env.Self(), c.ID)))
	env.Annotate(sim.Opens(RoleBlocked, g, "holds its sends"))
}

// unblock lets the process send again: its round is done, or a recovery
// forgets it.
func (p *Proc) unblock(env *sim.Env) {
	if !p.Blocked {
		return
	}
	p.BlockedTicks += env.Now() - p.blockedSince
	p.Blocked = false
	env.Annotate(sim.Closes(RoleBlocked, p.blockedRound))
}

// twoPhase takes a CHECKPOINT, an ACK or a DONE.
func (p *Proc) twoPhase(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	g := int(ev.Msg.Value)
	// a process that has restored its point takes part as it waits for
	// RESUME, as with markers: on channels that keep no order process 1's
	// next CHECKPOINT can overtake its RESUME, and dropped, it would leave
	// the global checkpoint under way for good
	if (p.Frozen && !p.Restored) || len(ev.Msg.Data) == 0 || int(ev.Msg.Data[0]) != p.Epoch {
		env.Explain("%s drops %s's %s of global checkpoint %d: it was sent before a recovery, or the process is stopped for one", me, them, ev.Msg.Kind, g)
		return
	}
	switch ev.Msg.Kind {
	case KindCheckpointRequest:
		overtook := ""
		if p.Blocked && p.blockedRound < g {
			// process 1 starts a global checkpoint only once the last is
			// done: its DONE is on its way, overtaken on a channel that
			// keeps no order, and a process that waited for it would
			// never answer this one
			overtook = fmt.Sprintf(", taking it as the DONE of global checkpoint %d that it overtook (process 1 starts one only once the last is done)", p.blockedRound)
			p.unblock(env)
		}
		if p.Blocked || p.lastRound() >= g {
			env.Explain("%s drops a CHECKPOINT of global checkpoint %d: it has saved its part already", me, g)
			return
		}
		p.saveAndBlock(env, g)
		env.Send(ev.From, sim.Message{Kind: KindAck, Value: int64(g), Label: fmt.Sprintf("ACK %d", g), Data: []int64{int64(p.Epoch)}})
		p.Coordination++
		env.Explain("%s saves its checkpoint for global checkpoint %d (work %d)%s, stops sending application messages, and answers ACK", me, g, p.Work, overtook)
	case KindAck:
		if !p.Blocked || p.blockedRound != g {
			env.Explain("%s drops %s's ACK of global checkpoint %d: that one is not waiting for ACKs", me, them, g)
			return
		}
		if p.acked[ev.From] {
			env.Explain("%s has %s's ACK of global checkpoint %d already: this is a copy", me, them, g)
			return
		}
		p.acked[ev.From] = true
		if acks := countTrue(p.acked); acks < env.N()-1 {
			env.Explain("%s has %d of the %d ACKs of global checkpoint %d", me, acks, env.N()-1, g)
			return
		}
		p.unblock(env)
		env.SendToOthers(sim.Message{Kind: KindDone, Value: int64(g), Label: fmt.Sprintf("DONE %d", g), Data: []int64{int64(p.Epoch)}})
		p.Coordination += env.N() - 1
		env.Explain("%s has every ACK of global checkpoint %d: every process has saved its part, so it sends DONE and sends again", me, g)
	case KindDone:
		if !p.Blocked || p.blockedRound != g {
			env.Explain("%s drops a DONE of global checkpoint %d: it is not holding its sends for it", me, g)
			return
		}
		held := env.Now() - p.blockedSince
		p.unblock(env)
		env.Explain("%s hears that global checkpoint %d is done and sends again, after %s of holding its sends", me, g, sim.Ticks(held))
	}
}

// countTrue counts the true elements of bs.
func countTrue(bs []bool) int {
	k := 0
	for _, b := range bs {
		if b {
			k++
		}
	}
	return k
}
