// Package ricartagrawala is Ricart and Agrawala's mutual exclusion (1981;
// seeds 000 to 003): a process that wants the critical section sends a
// REQUEST stamped with its Lamport clock to every other process and
// enters once all have replied. A process defers its REPLY while it is in
// the section, or while it wants it with an earlier request of its own
// (timestamps, then ids, break ties). 2(N−1) messages per entry, no
// coordinator, safe without FIFO channels, but one crashed process
// blocks everyone who needs its reply.
//
// Seed 002 states the reply rule as "reply if not executing the critical
// section or if your own request is later"; a process that only wants
// the section then replies to everyone, and two processes that ask at
// once both enter. params.seed_reply (a switch) runs that rule, so that a
// lesson shows it failing beside the paper's.
//
// Seed 003 broadcasts the REQUEST "to all processes (including self)"
// and enters once every process has acknowledged it, while its reply
// rule answers only a request earlier than the receiver's own: a
// process's own request is not, so it defers its own reply until it
// leaves a section it cannot enter without that reply. params.seed_self
// (a switch) runs those rules.
package ricartagrawala

import (
	"encoding/json"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "ricart-agrawala"

// The message kinds.
const (
	KindRequest = mutex.KindRequest
	KindReply   = mutex.KindReply
)

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Ricart–Agrawala",
	Summary:      "A process asks everyone with a Lamport-timestamped REQUEST and enters once all have replied; a process defers its REPLY while it holds the section or has an earlier request. 2(N−1) messages per entry.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds:        []sim.KindSpec{mutex.RequestKind, mutex.ReplyKind},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{mutex.Request},
		Switches: []sim.Switch{SeedReplySwitch, SeedSelfSwitch},
	},
	Picture: sim.PictureSpec{
		Roles:    mutex.Roles,
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.Safety, deadlock, mutex.Fairness, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a crashed process, or a lost REQUEST or REPLY, leaves a requester waiting for a reply that never comes: the algorithm assumes every process answers"},
			{Invariant: mutex.FairnessName, Faults: []string{"crash"}, Why: "a process that crashed forgets its request and its deferred replies, and answers later requests out of order"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: mutex.NewTally,
		Metrics:  func(v sim.View) []sim.Metric { return mutex.Metrics(v, deadlock) },
		Panels:   panels,
		Formula:  formula,
	},
}

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	// SeedReply runs seed 002's reply rule: defer only while in the
	// critical section with the earlier request.
	SeedReply bool `json:"seed_reply"`
	// SeedSelf runs seed 003's broadcast: the REQUEST to every process,
	// itself included, and a reply from each, its own too.
	SeedSelf bool `json:"seed_self"`
}

// SeedReplySwitch is the switch to seed 002's reply rule.
var SeedReplySwitch = sim.Switch{
	Param: "seed_reply", Label: "seed 002: reply unless in the section",
	Help: "reply to a REQUEST unless in the critical section with the earlier request, as seed 002 says, rather than also deferring while waiting with the earlier request, as the paper does: two processes that ask at once each reply to the other, and both enter",
}

// SeedSelfSwitch is the switch to seed 003's broadcast "including self".
var SeedSelfSwitch = sim.Switch{
	Param: "seed_self", Label: "seed 003: REQUEST to self too",
	Help: "send the REQUEST to every process, itself included, and wait for a REPLY from each, as seed 003 says, rather than to the N−1 others: by seed 003's reply rule a process answers only a request earlier than its own, and its own is not, so it defers its own reply until it leaves a section it cannot enter",
}

// Process is one process.
type Process struct {
	mutex.Want
	// Mine is the stamp of this process's current request.
	Mine mutex.Stamp
	// Replied marks who has replied to the current request.
	Replied []bool
	// Deferred are the requests this process answers when it leaves.
	Deferred []mutex.Stamp
	// SeedReply says the process runs seed 002's reply rule
	// (Params.SeedReply).
	SeedReply bool
	// SeedSelf says the process asks itself too (Params.SeedSelf).
	SeedSelf bool
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

// Stamp is the stamp of the process's current request.
func (p *Process) Stamp() mutex.Stamp { return p.Mine }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Params: mutex.Defaults()}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Process{Want: mutex.Want{CSTime: p.CSTime}, Replied: make([]bool, len(names)), SeedReply: p.SeedReply, SeedSelf: p.SeedSelf}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.SeedSelf {
			env.Explain("%s starts idle; to enter it needs a REPLY from every process, itself too (seed 003)", me)
			return
		}
		env.Explain("%s starts idle; to enter it needs a REPLY from each of the %d others", me, env.N()-1)
	case sim.Recover:
		p.Forget(env)
		p.Deferred = nil
		clear(p.Replied)
		env.Explain("%s recovers and has forgotten its request and the replies it deferred", me)
	case sim.Command, sim.Workload:
		if !p.Ask(env) {
			return
		}
		p.Mine = mutex.Stamp{Clock: int64(env.Lamport()), From: env.Self()}
		clear(p.Replied)
		for q := range env.N() {
			if sim.NodeID(q) != env.Self() || p.SeedSelf {
				p.send(env, sim.NodeID(q), KindRequest, p.Mine)
			}
		}
		if p.SeedSelf {
			env.Explain("%s wants the critical section: REQUEST %s to every process, itself too, as seed 003 says", me, p.Mine)
			return
		}
		if env.N() == 1 {
			p.Enter(env)
		}
		env.Explain("%s wants the critical section: REQUEST %s to every other process", me, p.Mine)
	case sim.Timer:
		if ev.Tag == mutex.TimerRelease && p.State == mutex.InCS {
			p.leave(env)
		}
	case sim.Deliver:
		stamp := mutex.Stamp{Clock: ev.Msg.Value, From: sim.NodeID(ev.Msg.Data[0])}
		switch ev.Msg.Kind {
		case KindRequest:
			p.request(env, ev.From, stamp)
		case KindReply:
			p.reply(env, ev.From, stamp)
		}
	}
}

// send sends a REQUEST or REPLY about the request stamped s.
func (p *Process) send(env *sim.Env, to sim.NodeID, kind string, s mutex.Stamp) {
	env.Send(to, sim.Message{Kind: kind, Value: s.Clock, Data: []int64{int64(s.From)}, Label: kind})
	p.Sent++
}

// request is the rule for another's request: reply now, or defer.
func (p *Process) request(env *sim.Env, from sim.NodeID, theirs mutex.Stamp) {
	me, who := env.Name(env.Self()), env.Name(from)
	switch {
	case from == env.Self() && p.State == mutex.Wanting:
		// only with seed 003's broadcast, which sends a process its own
		p.deferReply(theirs)
		env.Explain("%s gets its own REQUEST %s and defers its reply: by seed 003's rule it answers at once only a request earlier than its own, and this one is its own. It answers when it leaves the section, which it cannot enter without this reply", me, theirs)
	case p.State == mutex.InCS:
		p.deferReply(theirs)
		env.Explain("%s defers its reply to %s: it is in the critical section", me, who)
	case p.State == mutex.Wanting && p.Mine.Before(theirs) && p.SeedReply:
		p.send(env, from, KindReply, theirs)
		env.Explain("%s replies to %s at once: by seed 002's rule it defers only in the critical section, though its own request %s is earlier than %s's %s", me, who, p.Mine, who, theirs)
	case p.State == mutex.Wanting && p.Mine.Before(theirs):
		p.deferReply(theirs)
		env.Explain("%s defers its reply to %s: %s wants the section with %s, earlier than %s's %s", me, who, me, p.Mine, who, theirs)
	case p.State == mutex.Wanting:
		p.send(env, from, KindReply, theirs)
		env.Explain("%s replies to %s at once: %s's request %s is earlier than its own %s", me, who, who, theirs, p.Mine)
	default:
		p.send(env, from, KindReply, theirs)
		env.Explain("%s replies to %s at once: it does not want the section", me, who)
	}
}

func (p *Process) deferReply(s mutex.Stamp) {
	for _, d := range p.Deferred {
		if d == s {
			return // a copy of a request it already deferred
		}
	}
	p.Deferred = append(p.Deferred, s)
}

// reply counts a reply to the current request, and enters on the last.
func (p *Process) reply(env *sim.Env, from sim.NodeID, to mutex.Stamp) {
	me, who := env.Name(env.Self()), env.Name(from)
	if p.State != mutex.Wanting || to != p.Mine || p.Replied[from] {
		env.Explain("%s ignores a REPLY from %s to its request %s: it is not the one it waits for (a copy, or an answer to an old request)", me, who, to)
		return
	}
	p.Replied[from] = true
	got, need := p.replies(env.Self())
	if got < need {
		env.Explain("%s has %d of the %d replies it needs (this one from %s)", me, got, need, who)
		return
	}
	p.Enter(env)
	env.Explain("%s has every reply (the last from %s) and enters the critical section for %d ticks", me, who, p.CSTime)
}

// replies counts the replies the current request has and needs: one
// from every other process, and by seed 003's broadcast one from itself.
func (p *Process) replies(self sim.NodeID) (got, need int) {
	for q, ok := range p.Replied {
		if ok && (sim.NodeID(q) != self || p.SeedSelf) {
			got++
		}
	}
	if p.SeedSelf {
		return got, len(p.Replied)
	}
	return got, len(p.Replied) - 1
}

// leave takes the process out of the section and sends its deferred
// replies.
func (p *Process) leave(env *sim.Env) {
	p.Leave(env)
	me := env.Name(env.Self())
	if len(p.Deferred) == 0 {
		env.Explain("%s leaves the critical section; it deferred no replies", me)
		return
	}
	var to []string
	for _, d := range p.Deferred {
		p.send(env, d.From, KindReply, d)
		to = append(to, env.Name(d.From))
	}
	p.Deferred = nil
	env.Explain("%s leaves the critical section and sends the replies it deferred, to %s", me, strings.Join(to, " and "))
}

// Inspect shows the process's state.
func (p *Process) Inspect() []sim.Field {
	f := p.Fields()
	if p.State != mutex.Idle {
		f = append(f, sim.Field{Name: "request", Value: p.Mine.String()})
	}
	if len(p.Deferred) == 0 {
		return f
	}
	var deferred []string
	for _, d := range p.Deferred {
		deferred = append(deferred, d.String())
	}
	return append(f, sim.Field{Name: "deferred", Value: strings.Join(deferred, " ")})
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Replied = append([]bool(nil), p.Replied...)
	c.Deferred = append([]mutex.Stamp(nil), p.Deferred...)
	return &c
}
