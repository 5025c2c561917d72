package ringelection

import (
	"slices"

	"spacetime/core/sim"
)

// CollectSwitch is the switch to the ring election whose ELECTION
// collects every id, seed 000's first ring election.
var CollectSwitch = sim.Switch{
	Param: "collect_ids", Variant: true, Label: "collect every id",
	Help: "run the ring election whose ELECTION collects the id of every process it passes, the first that seed 000 describes (Le Lann's): it comes back to its starter, which announces the largest id with an ELECTED that goes all the way round. 2N messages from any starter, but each carries up to N ids, and when every process starts, every ELECTION goes all the way round",
}

// The election that collects every id: an ELECTION carries the ids of
// the processes it has passed, its starter's first (Data), and every
// process adds its own and passes it on. Back at its starter it holds
// every id on the ring: the starter takes the largest as leader and
// sends ELECTED(leader) round the ring (Value; Data is the starter), each
// process following it, until it comes back. Nothing is discarded: with
// several starters, each ELECTION and each ELECTED goes all the way
// round, and all name the same leader.

// startCollecting starts an election of this process.
func (p *Process) startCollecting(env *sim.Env) {
	me := env.Name(env.Self())
	if p.Participant {
		env.Explain("%s already runs an election of its own", me)
		return
	}
	p.Begin(env)
	p.Participant = true
	p.sendIDs(env, KindElection, env.Self(), []int64{int64(env.Self())})
	env.Explain("%s starts an election: ELECTION(%s), collecting ids, to %s", me, me, env.Name(p.Next))
}

// collecting is the rule for an ELECTION or ELECTED, collecting ids.
func (p *Process) collecting(env *sim.Env, m sim.Message) {
	me, next := env.Name(env.Self()), env.Name(p.Next)
	ids := make([]sim.NodeID, 0, len(m.Data))
	for _, w := range m.Data {
		if w < 0 || int(w) >= env.N() {
			env.Explain("%s ignores a message naming no process (%d)", me, w)
			return
		}
		ids = append(ids, sim.NodeID(w))
	}
	if len(ids) == 0 {
		env.Explain("%s ignores a %s that names no starter", me, m.Kind)
		return
	}
	starter := ids[0]
	switch m.Kind {
	case KindElection:
		if starter == env.Self() {
			// back at its starter: every id on the ring is in it
			leader := slices.Max(ids)
			p.Announce(env, leader) // it runs the election until ELECTED comes back
			p.sendIDs(env, KindElected, leader, []int64{int64(starter)})
			env.Explain("%s gets its ELECTION back with every id on the ring, %s: the largest, %s, leads. ELECTED(%s) to %s", me, env.NameList(ids), env.Name(leader), env.Name(leader), next)
			return
		}
		if !p.Electing {
			p.Begin(env)
		}
		words := append(slices.Clone(m.Data), int64(env.Self()))
		p.sendIDs(env, KindElection, starter, words)
		env.Explain("%s adds its id to %s's ELECTION and passes it to %s: %s", me, env.Name(starter), next, env.NameList(append(ids, env.Self())))
	case KindElected:
		leader := sim.NodeID(m.Value)
		if starter == env.Self() {
			p.Participant = false
			p.Settle(env)
			env.Explain("%s gets its ELECTED(%s) back: every process on the ring has heard it", me, env.Name(leader))
			return
		}
		p.sendIDs(env, KindElected, leader, m.Data)
		if leader == env.Self() {
			p.Lead(env)
			env.Explain("%s learns that it leads and passes %s's ELECTED(%s) on to %s", me, env.Name(starter), me, next)
			return
		}
		p.Follow(env, leader)
		env.Explain("%s follows %s and passes %s's ELECTED(%s) on to %s", me, env.Name(leader), env.Name(starter), env.Name(leader), next)
	}
}

// sendIDs sends kind naming id (the starter of an ELECTION, the leader
// of an ELECTED) with the words of ids.
func (p *Process) sendIDs(env *sim.Env, kind string, id sim.NodeID, words []int64) {
	label := kind + "(" + env.Name(id) + ")"
	if kind == KindElection {
		ids := make([]sim.NodeID, len(words))
		for i, w := range words {
			ids[i] = sim.NodeID(w)
		}
		label = kind + "(" + env.NameList(ids) + ")"
	}
	env.Send(p.Next, sim.Message{Kind: kind, Value: int64(id), Data: words, Label: label})
	p.Sent++
}
