// Package termination is seed 003's termination detection on a diffusing
// computation. Process 1 starts with one task; a task takes params.work
// ticks, and then spawns up to params.fanout WORK messages to other
// processes, each a task one level deeper, until params.depth: how many
// and to whom is drawn from the process's own random stream, so that a
// computation is a function of the seed. A process is active while it has
// tasks, and passive otherwise; the computation has terminated when every
// process is passive and no WORK is in flight.
//
// Three detectors watch the same computation: Dijkstra–Scholten's
// spanning tree of acknowledgements (dijkstra-scholten), Mattern's credit
// recovery with exact fractions (credit-recovery), and the naive detector
// that only asks every process whether it is idle (idle-poll), which is
// wrong when a message is still in flight.
package termination

import (
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// The computation's message kind, roles and timer.
const (
	KindWork = "WORK"
	// RoleActive is the interval a process is active; RoleAnnounce marks
	// the detector's announcement of termination.
	RoleActive   = "active"
	RoleAnnounce = "announce"
	// TimerWork fires when a task is done.
	TimerWork = "work"
	// Root is the initiator.
	Root sim.NodeID = 0
	// maxParam bounds the computation's params.
	maxParam = 1000
)

// Params shape the computation.
type Params struct {
	// Depth is how many levels of WORK a task may spawn below it (default
	// 4), Fanout the most WORK messages one task sends (default 3), and
	// Work how long a task takes (ticks, default 2).
	Depth  int      `json:"depth"`
	Fanout int      `json:"fanout"`
	Work   sim.Time `json:"work"`
}

// defaults are the computation's default params.
func defaults() Params { return Params{Depth: 4, Fanout: 3, Work: 2} }

// check refuses params out of range, naming the field.
func (p Params) check() error {
	for _, c := range []struct {
		field   string
		v, low  int64
		meaning string
	}{{"params.depth", int64(p.Depth), 0, "levels"}, {"params.fanout", int64(p.Fanout), 0, "messages"}, {"params.work", int64(p.Work), 1, "ticks"}} {
		if c.v < c.low || c.v > maxParam {
			return strictjson.FieldErrorf(c.field, "want %s from %d to %d, got %d", c.meaning, c.low, maxParam, c.v)
		}
	}
	return nil
}

// Work is a process's part of the computation, embedded in every
// detector's node.
type Work struct {
	Params
	// Queue holds the depths of the tasks waiting; Busy says one is being
	// done (at depth Doing).
	Queue []int
	Busy  bool
	Doing int
	// Tasks and Spawned count the tasks done and the WORK sent, and
	// PassiveAt is when the process last went passive; Started says it
	// has had a task (the computation has begun once the root has).
	Tasks, Spawned int
	PassiveAt      sim.Time
	Started        bool
}

// Active says whether the process has work.
func (w *Work) Active() bool { return w.Busy || len(w.Queue) > 0 }

// Accept queues a task of the given depth and starts it if the process was
// passive; it reports whether the process became active.
func (w *Work) Accept(env *sim.Env, depth int) bool {
	was := w.Active()
	w.Started = true
	w.Queue = append(w.Queue, depth)
	if !was {
		env.Annotate(sim.Opens(RoleActive, 0, "active"))
		w.next(env)
	}
	return !was
}

func (w *Work) next(env *sim.Env) {
	w.Doing, w.Queue = w.Queue[0], w.Queue[1:]
	w.Busy = true
	env.SetTimer(TimerWork, w.Params.Work)
}

// Finish ends the task whose timer fired: it spawns the task's WORK,
// calling send for each (the detector stamps and counts it), and takes the
// next task or goes passive. It returns the processes it sent to, and
// whether the process went passive.
func (w *Work) Finish(env *sim.Env, send func(to sim.NodeID, depth int)) (sent []sim.NodeID, passive bool) {
	w.Busy = false
	w.Tasks++
	if w.Doing < w.Depth && env.N() > 1 {
		k := w.Fanout // the first task spreads the work wide
		if w.Doing > 0 {
			k = env.Rand().IntN(w.Fanout + 1)
		}
		for range k {
			to := sim.NodeID(env.Rand().IntN(env.N() - 1))
			if to >= env.Self() {
				to++
			}
			send(to, w.Doing+1)
			w.Spawned++
			sent = append(sent, to)
		}
	}
	if len(w.Queue) > 0 {
		w.next(env)
		return sent, false
	}
	env.Annotate(sim.Closes(RoleActive, 0))
	w.PassiveAt = env.Now()
	return sent, true
}

// Forget drops the process's tasks, as a crash does.
func (w *Work) Forget(env *sim.Env) {
	if w.Active() {
		env.Annotate(sim.Closes(RoleActive, 0))
	}
	w.Queue, w.Busy = nil, false
}

// clone copies the work, sharing its queue (see sim.Handoff), which only
// grows at its end and shrinks at its front.
func (w *Work) clone() Work {
	c := *w
	c.Queue = sim.Handoff(&w.Queue)
	return c
}

// Worker is a node with a Work, for the shared invariants and figures.
type Worker interface {
	// Computation is the node's part of the computation.
	Computation() *Work
	// Announced says the node announced termination, and when.
	Announced() (bool, sim.Time)
}

func work(v sim.View, id sim.NodeID) *Work { return v.Node(id).(Worker).Computation() }

// Terminated says whether the computation has really terminated: it has
// begun, and every process is passive with no WORK in flight.
func Terminated(v sim.View) bool {
	if !work(v, Root).Started {
		return false
	}
	for i := range v.N() {
		if work(v, sim.NodeID(i)).Active() && v.Health(sim.NodeID(i)) != sim.Crashed {
			return false
		}
	}
	return v.InFlightTotal(KindWork).Count == 0
}
