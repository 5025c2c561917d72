// Package central is mutual exclusion by a central coordinator (seeds 000
// and 001): a process that wants the critical section sends REQUEST to the
// coordinator, which answers GRANT when the section is free and queues the
// request otherwise; the holder sends RELEASE when done, and the
// coordinator grants the next in line. Three messages per entry; the
// coordinator is a single point of failure.
package central

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/election"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "central"

// The message kinds.
const (
	KindRequest = mutex.KindRequest
	KindGrant   = mutex.KindGrant
	KindRelease = mutex.KindRelease
)

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	// Coordinator is the coordinator's process number (default 1).
	Coordinator int `json:"coordinator"`
	// Reelect makes the processes elect a new coordinator when theirs
	// stops answering (see reelect.go): a waiting process PINGs it every
	// Ping ticks, holds a bully election when no PONG comes within
	// Timeout, and a new coordinator grants nothing for Wait ticks while
	// the requests come in again.
	Reelect bool     `json:"reelect"`
	Ping    sim.Time `json:"ping"`
	Timeout sim.Time `json:"timeout"`
	Wait    sim.Time `json:"wait"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Central coordinator",
	Summary:      "One process grants the critical section: REQUEST, GRANT, RELEASE. Three messages per entry, and a single point of failure.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds:        append([]sim.KindSpec{mutex.RequestKind, mutex.GrantKind, mutex.ReleaseKind}, reelectKinds...),
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{Reelect},
		Commands: []sim.CommandSpec{mutex.Request},
	},
	Picture: sim.PictureSpec{
		Roles:    append(append([]sim.RoleSpec(nil), mutex.Roles...), election.Roles...),
		Topology: star,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.Safety, deadlock, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn, election.Drawn, election.WaitsOnATimeout, election.BullyRules, knows, queued, watches, gathers, follows, rules},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a crashed coordinator, or a lost REQUEST, GRANT or RELEASE, leaves the waiting processes with nothing on its way: the algorithm assumes a coordinator that stays up and reliable channels"},
			{Invariant: KnownName, Faults: []string{"drop", "cut", "partition"}, Why: "a REQUEST or GRANT lost on the way leaves its process waiting with nobody that knows it: the algorithm assumes reliable channels"},
			{Invariant: KnownName, Unless: Reelect.Param, Faults: []string{"crash"}, Why: "a coordinator that crashes and recovers has forgotten its queue"},
			{Invariant: QueuedName, Faults: []string{"crash"}, Why: "a process that crashes forgets the request the coordinator still queues"},
			{Invariant: KnownName, When: Reelect.Param, Faults: fooled, Why: fooledWhy},
			{Invariant: QueuedName, When: Reelect.Param, Faults: fooled, Why: fooledWhy},
			{Invariant: mutex.SafetyName, Unless: Reelect.Param, Faults: []string{"crash"}, Why: "a coordinator that crashes and recovers has forgotten who holds the section, and grants it again"},
			{Invariant: mutex.SafetyName, When: Reelect.Param, Faults: fooled, Why: "with re-election, a timeout stands in for a failure detector: a coordinator that is paused, slow or cut off looks gone, and the one elected in its place grants the section while the old one's holder is still in it"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: mutex.NewTally,
		Metrics:  func(v sim.View) []sim.Metric { return mutex.Metrics(v, deadlock) },
		Panels:   panels,
		Formula:  formula,
	},
}

var deadlock = mutex.Deadlock(blocked)

// fooled are the faults that fool re-election's timeouts, and fooledWhy
// says what that does to the coordinator's bookkeeping.
var (
	fooled    = []string{"pause", "delay", "drop", "cut", "partition"}
	fooledWhy = "with re-election, a coordinator that is paused, slow or cut off looks gone: the processes that elect another, and those that still follow it, count different holders and queues"
)

// Process is one process; the coordinator also keeps the queue.
//
// Requests are numbered by their process, and a GRANT and a RELEASE carry
// the number of the request they answer: the network may copy or reorder
// messages, and a copy of an old REQUEST must not queue a process twice,
// nor a REQUEST that overtook its process's RELEASE be taken for a copy.
type Process struct {
	mutex.Want
	params *Params
	// Self is the process's own id, and Coordinator the coordinator's.
	Self        sim.NodeID
	Coordinator sim.NodeID
	// Asked is the number of this process's latest request.
	Asked int64
	// Holder is whom the coordinator granted the section to, or sim.None,
	// and HolderAsk the number of that request (the coordinator's state).
	Holder    sim.NodeID
	HolderAsk int64
	// Queue are the requests waiting, in arrival order, and Seen the
	// latest request number of each process (coordinator only).
	Queue []Ask
	Seen  []int64
	// Elect is the process's part of electing a new coordinator, Watching
	// says it checks on its coordinator (a PING or its timer on the way),
	// and Collecting that a new coordinator waits for the requests before
	// it grants (re-election only).
	Elect      election.Bully
	Watching   bool
	Collecting bool
}

// Ask is a queued request: who asked, and its number.
type Ask struct {
	From sim.NodeID
	N    int64
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Params: mutex.Defaults(), Coordinator: 1, Ping: defaultPing, Timeout: defaultTimeout, Wait: defaultWait}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		field string
		v     sim.Time
	}{{"params.ping", p.Ping}, {"params.timeout", p.Timeout}, {"params.wait", p.Wait}} {
		if err := sim.CheckTicks(t.field, t.v, maxTicks); err != nil {
			return nil, err
		}
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := mutex.CheckProcess("params.coordinator", p.Coordinator, len(names)); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		c := sim.NodeID(p.Coordinator - 1)
		nodes[i] = &Process{Want: mutex.Want{CSTime: p.CSTime}, params: &p, Self: sim.NodeID(i), Coordinator: c, Holder: sim.None, Seen: make([]int64, len(names)),
			Elect: election.Bully{Belief: election.Belief{Leader: c}, Timeout: p.Timeout, Wait: p.Wait}}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.coordinator(env) {
			env.Explain("%s is the coordinator: it grants the critical section", me)
			return
		}
		env.Explain("%s starts idle; it asks the coordinator %s for the critical section", me, env.Name(p.Coordinator))
	case sim.Recover:
		p.Forget(env)
		p.Holder, p.Queue = sim.None, nil
		clear(p.Seen)
		if p.params.Reelect {
			// it no longer knows who coordinates: not itself, until elected
			p.Elect.Forget(env)
			p.Elect.Leader, p.Coordinator = sim.None, sim.None
			p.Elect.Asking, p.Watching, p.Collecting = false, false, false
			env.Explain("%s recovers, has forgotten whether it wanted the section and who coordinates, and holds an election: %s", me, p.Elect.Start(env))
			p.settle(env, false)
			return
		}
		env.Explain("%s recovers and has forgotten whether it wanted the section; as coordinator it has forgotten the holder and the queue", me)
	case sim.Command, sim.Workload:
		if !p.Ask(env) {
			return
		}
		p.Asked++
		if p.Coordinator == sim.None {
			env.Explain("%s wants the critical section; it asks once the election it runs names a coordinator", me)
			return
		}
		if p.coordinator(env) {
			env.Explain("%s, the coordinator, wants the critical section itself", me)
			p.request(env, Ask{From: env.Self(), N: p.Asked})
			return
		}
		p.send(env, p.Coordinator, KindRequest, p.Asked)
		p.watch(env)
		env.Explain("%s wants the critical section: REQUEST to the coordinator %s", me, env.Name(p.Coordinator))
	case sim.Timer:
		if p.params.Reelect && p.reelectTimer(env, ev.Tag) {
			return
		}
		if ev.Tag != mutex.TimerRelease || p.State != mutex.InCS {
			return
		}
		p.Leave(env)
		if p.coordinator(env) {
			env.Explain("%s, the coordinator, leaves the critical section", me)
			p.release(env, Ask{From: env.Self(), N: p.Asked})
			return
		}
		p.send(env, p.Coordinator, KindRelease, p.Asked)
		env.Explain("%s leaves the critical section after %d ticks: RELEASE to %s", me, p.CSTime, env.Name(p.Coordinator))
	case sim.Deliver:
		if p.params.Reelect && p.reelectDeliver(env, ev) {
			return
		}
		switch ev.Msg.Kind {
		case KindRequest:
			if p.params.Reelect && !p.coordinator(env) {
				env.Explain("%s is not the coordinator: it ignores %s's REQUEST (its sender will find out, and elect)", me, env.Name(ev.From))
				return
			}
			if len(ev.Msg.Data) == 1 && ev.Msg.Data[0] == 1 && p.coordinator(env) {
				p.heldReport(env, Ask{From: ev.From, N: ev.Msg.Value})
				return
			}
			p.request(env, Ask{From: ev.From, N: ev.Msg.Value})
		case KindRelease:
			if p.params.Reelect && !p.coordinator(env) {
				env.Explain("%s is not the coordinator: it ignores %s's RELEASE", me, env.Name(ev.From))
				return
			}
			p.release(env, Ask{From: ev.From, N: ev.Msg.Value})
		case KindGrant:
			waited := ev.Msg.Value == p.Asked && p.State == mutex.Wanting
			switch {
			case ev.Msg.Value == p.Asked && p.State == mutex.InCS:
				env.Explain("%s gets a copy of the GRANT it holds the section by: it ignores it", me)
				return
			case !waited || ev.From != p.Coordinator:
				// a copy of an old GRANT, one for a request it forgot in a
				// crash, or one from a coordinator it no longer follows
				// (which the one it follows does not know of, and may grant
				// the section again): hand it back, or nobody gets in (the
				// coordinator ignores it unless it is the grant it counts).
				// It goes to the GRANT's sender, the coordinator that
				// counts it: a process recovering with re-election knows
				// no coordinator yet
				p.send(env, ev.From, KindRelease, ev.Msg.Value)
				if !waited {
					env.Explain("%s gets a GRANT for its request #%d, which it is not waiting for (it is %s): it hands it back with RELEASE", me, ev.Msg.Value, p.State)
					return
				}
				follows := "knows no coordinator yet"
				if p.Coordinator != sim.None {
					follows = "follows " + env.Name(p.Coordinator)
				}
				env.Explain("%s gets a GRANT from %s, which is no longer its coordinator (it %s): it hands it back with RELEASE", me, env.Name(ev.From), follows)
				return
			}
			p.Enter(env)
			env.CancelTimer(timerCheck)
			env.CancelTimer(timerPong)
			p.Watching = false
			env.Explain("%s gets the GRANT and enters the critical section for %d ticks", me, p.CSTime)
		}
	}
}

func (p *Process) coordinator(env *sim.Env) bool { return env.Self() == p.Coordinator }

func (p *Process) send(env *sim.Env, to sim.NodeID, kind string, ask int64) {
	env.Send(to, sim.Message{Kind: kind, Value: ask, Label: kind})
	p.Sent++
}

// request is the coordinator's rule for a request.
func (p *Process) request(env *sim.Env, a Ask) {
	me, who := env.Name(env.Self()), env.Name(a.From)
	if a.N <= p.Seen[a.From] {
		env.Explain("%s already has %s's request #%d (this is a copy): it ignores it", me, who, a.N)
		return
	}
	p.Seen[a.From] = a.N
	if p.Holder != sim.None {
		p.Queue = append(p.Queue, a)
		env.Explain("%s queues %s's request: %s holds the section (queue: %s)", me, who, env.Name(p.Holder), names(env, p.Queue))
		return
	}
	if p.Collecting {
		p.Queue = append(p.Queue, a)
		env.Explain("%s queues %s's request: as a new coordinator it grants nothing until the requests are in (queue: %s)", me, who, names(env, p.Queue))
		return
	}
	p.grant(env, a)
	env.Explain("%s grants the section to %s: it is free", me, who)
}

// grant gives the section to a request: a GRANT message, or entering
// itself.
func (p *Process) grant(env *sim.Env, a Ask) {
	p.Holder, p.HolderAsk = a.From, a.N
	if a.From == env.Self() {
		p.Enter(env)
		return
	}
	p.send(env, a.From, KindGrant, a.N)
}

// release is the coordinator's rule for a release.
func (p *Process) release(env *sim.Env, a Ask) {
	me, who := env.Name(env.Self()), env.Name(a.From)
	if a.From != p.Holder || a.N != p.HolderAsk {
		env.Explain("%s ignores a RELEASE from %s for request #%d, which does not hold the section", me, who, a.N)
		return
	}
	p.Holder = sim.None
	if len(p.Queue) == 0 {
		env.Explain("%s takes %s's RELEASE: the section is free and nobody waits", me, who)
		return
	}
	next := p.Queue[0]
	p.Queue = p.Queue[1:]
	p.grant(env, next)
	env.Explain("%s takes %s's RELEASE and grants the section to %s, first in the queue", me, who, env.Name(next.From))
}

// Election is the process's part of electing a new coordinator.
func (p *Process) Election() *election.Belief { return &p.Elect.Belief }

// Bullying is the bully election the process runs to elect one.
func (p *Process) Bullying() *election.Bully { return &p.Elect }

// Inspect shows the process's state, and the coordinator's grant and
// queue.
func (p *Process) Inspect() []sim.Field {
	f := append(p.Fields(), sim.Field{Name: "request", Value: "#" + strconv.FormatInt(p.Asked, 10)})
	if p.params.Reelect {
		f = append(f, p.reelectFields()...)
	}
	if p.Self != p.Coordinator {
		return f
	}
	holder := "none"
	if p.Holder != sim.None {
		holder = strconv.Itoa(p.Holder.Number())
	}
	return append(f, sim.Field{Name: "holder", Value: holder}, sim.Field{Name: "queue", Value: fmt.Sprint(numbers(p.Queue))})
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Queue = append([]Ask(nil), p.Queue...)
	c.Seen = append([]int64(nil), p.Seen...)
	return &c
}

func names(env *sim.Env, q []Ask) string {
	out := make([]string, len(q))
	for i, a := range q {
		out[i] = env.Name(a.From)
	}
	return strings.Join(out, ", ")
}

func numbers(q []Ask) []int {
	out := make([]int, len(q))
	for i, a := range q {
		out[i] = a.From.Number()
	}
	return out
}
