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
