// Package lamportmutex is Lamport's mutual exclusion (1978; seeds 001 and
// 002): every process keeps a queue of requests ordered by their Lamport
// stamps. A process that wants the section queues its REQUEST and sends it
// to everyone; a process that gets a REQUEST queues it and answers with a
// REPLY. A process enters when its own request heads its queue and it has
// heard from every other process with a later stamp; on leaving it sends
// RELEASE, and each process drops the request from its queue. 3(N−1)
// messages per entry. It needs FIFO channels: a REPLY that overtakes its
// sender's earlier REQUEST lets two processes in at once.
package lamportmutex

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "lamport-mutex"

// The message kinds.
const (
	KindRequest = mutex.KindRequest
	KindReply   = mutex.KindReply
	KindRelease = mutex.KindRelease
)

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Lamport's mutual exclusion",
	Summary:      "Every process keeps the requests in Lamport-stamp order; a process enters when its request heads its queue and every other process has answered with a later stamp. 3(N−1) messages per entry, on FIFO channels.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds:        []sim.KindSpec{mutex.RequestKind, mutex.ReplyKind, mutex.ReleaseKind},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{mutex.Request},
	},
	Picture: sim.PictureSpec{
		Roles:    mutex.Roles,
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.SafetyPointing(overtaken), deadlock, mutex.Fairness, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn, queue},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.SafetyName, Faults: []string{"fifo", "drop", "cut", "partition", "crash"}, Why: "without FIFO a REPLY can overtake its sender's earlier REQUEST; a lost, copied or forgotten REQUEST or RELEASE leaves the queues disagreeing: the algorithm assumes reliable FIFO channels"},
			{Invariant: mutex.FairnessName, Faults: []string{"fifo", "drop", "cut", "partition", "crash"}, Why: "the queues agree on the stamp order only while every REQUEST and RELEASE arrives, in order"},
			{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition", "fifo"}, Why: "a crashed process, or a lost or reordered REQUEST, REPLY or RELEASE, leaves a request that never reaches the head of its queue or never hears from everyone"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: mutex.NewTally,
		Metrics:  func(v sim.View) []sim.Metric { return mutex.Metrics(v, deadlock) },
		Panels:   panels,
		Formula: func(v sim.View) string {
			return mutex.Formula(v, fmt.Sprintf("REQUEST, REPLY and RELEASE to or from each other process, 3(N−1) = %d", 3*(v.N()-1)))
		},
	},
}

// Process is one process.
type Process struct {
	mutex.Want
	// Queue holds the requests this process knows of, earliest first.
	Queue []mutex.Stamp
	// Mine is the stamp of this process's own request.
	Mine mutex.Stamp
	// Heard is the latest stamp heard from each process (any message).
	Heard []int64
	// Released is the stamp of each process's latest released request: a
	// copy of an older REQUEST or RELEASE is recognised by it.
	Released []int64
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

// Stamp is the stamp of the process's current request.
func (p *Process) Stamp() mutex.Stamp { return p.Mine }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p, err := mutex.DecodeParams(raw)
	if err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Process{Want: mutex.Want{CSTime: p.CSTime}, Heard: make([]int64, len(names)), Released: make([]int64, len(names))}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s starts with an empty request queue", me)
	case sim.Recover:
		p.Forget(env)
		p.Queue = nil
		clear(p.Heard)
		clear(p.Released)
		env.Explain("%s recovers with an empty queue: it has forgotten every request", me)
	case sim.Command, sim.Workload:
		if !p.Ask(env) {
			return
		}
		p.Mine = mutex.Stamp{Clock: int64(env.Lamport()), From: env.Self()}
		p.enqueue(p.Mine)
		p.broadcast(env, KindRequest, p.Mine.Clock)
		env.Explain("%s wants the critical section: it queues its request %s and sends REQUEST to every other process (queue: %s)", me, p.Mine, p.queue())
		p.tryEnter(env)
	case sim.Timer:
		if ev.Tag != mutex.TimerRelease || p.State != mutex.InCS {
			return
		}
		p.Leave(env)
		p.drop(p.Mine)
		p.broadcast(env, KindRelease, p.Mine.Clock)
		env.Explain("%s leaves the critical section: it removes its request and sends RELEASE to every other process", me)
	case sim.Deliver:
		p.Heard[ev.From] = max(p.Heard[ev.From], ev.Msg.Value)
		who := env.Name(ev.From)
		switch ev.Msg.Kind {
		case KindRequest:
			theirs := mutex.Stamp{Clock: ev.Msg.Value, From: ev.From}
			if theirs.Clock <= p.Released[ev.From] {
				env.Explain("%s ignores a copy of %s's request %s, which %s has already released", me, who, theirs, who)
				return
			}
			p.enqueue(theirs)
			p.send(env, ev.From, KindReply, int64(env.Lamport()))
			env.Explain("%s queues %s's request %s and replies (queue: %s)", me, who, theirs, p.queue())
		case KindReply:
			env.Explain("%s gets %s's REPLY stamped %d", me, who, ev.Msg.Value)
		case KindRelease:
			done := mutex.Stamp{Clock: ev.Msg.Value, From: ev.From}
			p.Released[ev.From] = max(p.Released[ev.From], done.Clock)
			p.drop(done)
			env.Explain("%s removes %s's request %s on its RELEASE (queue: %s)", me, who, done, p.queue())
		}
		p.tryEnter(env)
	}
}

// tryEnter enters when the process's request heads its queue and every
// other process has sent it something stamped later than the request.
func (p *Process) tryEnter(env *sim.Env) {
	if p.State != mutex.Wanting || len(p.Queue) == 0 || p.Queue[0] != p.Mine {
		return
	}
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() && p.Heard[q] <= p.Mine.Clock {
			return
		}
	}
	p.Enter(env)
	env.Explain("%s enters the critical section: its request %s heads its queue and every other process has answered with a later stamp", env.Name(env.Self()), p.Mine)
}

func (p *Process) send(env *sim.Env, to sim.NodeID, kind string, stamp int64) {
	env.Send(to, sim.Message{Kind: kind, Value: stamp, Label: kind})
	p.Sent++
}

func (p *Process) broadcast(env *sim.Env, kind string, stamp int64) {
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			p.send(env, sim.NodeID(q), kind, stamp)
		}
	}
}

// enqueue adds a request in stamp order (a copy of one it has is not
// added twice).
func (p *Process) enqueue(s mutex.Stamp) {
	if slices.Contains(p.Queue, s) {
		return
	}
	i, _ := slices.BinarySearchFunc(p.Queue, s, mutex.Stamp.Compare)
	p.Queue = slices.Insert(p.Queue, i, s)
}

// drop removes a request, and any older one of its process, from the
// queue.
func (p *Process) drop(done mutex.Stamp) {
	p.Queue = slices.DeleteFunc(p.Queue, func(s mutex.Stamp) bool { return s.From == done.From && s.Clock <= done.Clock })
}

func (p *Process) queue() queueText { return queueText(p.Queue) }

// queueText writes a request queue for captions and panels, its first few
// stamps then how many more: formatted only when a caption is made, and
// short enough to read with many processes.
type queueText []mutex.Stamp

// shownStamps is how many stamps a queue's text lists.
const shownStamps = 6

func (q queueText) String() string {
	if len(q) == 0 {
		return "empty"
	}
	parts := make([]string, 0, min(len(q), shownStamps)+1)
	for _, s := range q[:min(len(q), shownStamps)] {
		parts = append(parts, s.String())
	}
	if len(q) > shownStamps {
		parts = append(parts, fmt.Sprintf("… and %d more", len(q)-shownStamps))
	}
	return strings.Join(parts, " ")
}

// Inspect shows the process's state.
func (p *Process) Inspect() []sim.Field {
	return append(p.Fields(), sim.Field{Name: "queue", Value: p.queue().String()})
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Queue = append([]mutex.Stamp(nil), p.Queue...)
	c.Heard = append([]int64(nil), p.Heard...)
	c.Released = append([]int64(nil), p.Released...)
	return &c
}

var deadlock = mutex.Deadlock(blocked)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// blocked says why the waiting processes cannot enter.
func blocked(v sim.View) string {
	var parts []string
	for _, id := range mutex.Waiting(v) {
		i, p := int(id), process(v, id)
		if len(p.Queue) > 0 && p.Queue[0] != p.Mine {
			parts = append(parts, fmt.Sprintf("%s waits behind %s's request %s, whose RELEASE never comes", v.Name(sim.NodeID(i)), v.Name(p.Queue[0].From), p.Queue[0]))
			continue
		}
		var missing []string
		for q := range v.N() {
			if q != i && p.Heard[q] <= p.Mine.Clock {
				missing = append(missing, v.Name(sim.NodeID(q)))
			}
		}
		parts = append(parts, fmt.Sprintf("%s waits to hear from %s", v.Name(sim.NodeID(i)), strings.Join(missing, " and ")))
	}
	return strings.Join(parts, "; ") + ", and nothing is on its way"
}

// overtaken points at a REPLY that arrived before its sender's earlier
// REQUEST on the same channel: the reason two processes are in at once.
func overtaken(v sim.View) []int {
	return check.Overtaken(v, KindReply, KindRequest)
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Request queues", Note: "a process enters when its request heads its queue and it has heard from everyone with a later stamp", Columns: []string{"process", "state", "request", "queue"}}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		request := ""
		if p.State != mutex.Idle {
			request = p.Mine.String()
		}
		panel.Rows = append(panel.Rows, mutex.Row(v, sim.NodeID(i), request, p.queue().String()))
	}
	return []sim.Panel{panel}
}
