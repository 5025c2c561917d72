package barrier

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// Task is what every task (a source, Op, Sink) keeps to follow the job's
// attempts. Attempt and Restored are on stable storage with the snapshots:
// a crash keeps them.
type Task struct {
	// Attempt is the attempt the task runs in, and Restored the checkpoint
	// it last restored (0: the initial state).
	Attempt  int
	Restored int
	// Awaiting says the task has restarted after a crash and waits for
	// JM's RESTORE: until then it drops what its failed attempt sends.
	Awaiting bool
	// Held are messages of a newer attempt than the task's, which wait
	// unread in its input until its RESTORE comes (a crash does not lose
	// them: they were never taken in).
	Held []Held
	// Control counts the ACKs and FAILEDs the task sent, and Stale the
	// messages of failed attempts it dropped.
	Control, Stale int
}

// Held is a message a task holds back until its RESTORE.
type Held struct {
	From sim.NodeID
	Msg  sim.Message
	ID   int
}

func firstAttempt() Task { return Task{Attempt: 1} }

func (t *Task) base() *Task { return t }

// clone copies the task's own slices.
func (t *Task) clone() Task {
	c := *t
	c.Held = sim.Handoff(&t.Held) // only appended to, and dropped whole
	return c
}

// task is a source, Op or Sink: its part of the dataflow, around which
// stepTask follows the job's attempts.
type task interface {
	sim.Node
	base() *Task
	// start is the task's Init; it returns the caption.
	start(env *sim.Env) string
	// take handles a RECORD, BARRIER or TRIGGER of the task's own attempt,
	// and returns what it did, for the caption.
	take(env *sim.Env, from sim.NodeID, m sim.Message, id int) string
	// forget drops the task's volatile state, as a crash does.
	forget()
	// rollBack restores checkpoint c (0: the initial state), dropping what
	// the task did since; it returns what it restored, for the caption.
	rollBack(env *sim.Env, c int) string
	// hasSnapshot says whether its stable storage holds checkpoint c.
	hasSnapshot(c int) bool
	// label is its state line in the topology view.
	label() string
}

// stepTask is every task's Step but a source's emit timer: the attempt's
// gate around the task's own rules.
func stepTask(r task, env *sim.Env, ev sim.Event) {
	t := r.base()
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s", r.start(env))
	case sim.Recover:
		r.forget()
		t.Awaiting = true
		env.Send(JM, sim.Message{Kind: KindFailed, Value: int64(t.Attempt), Label: KindFailed})
		t.Control++
		env.Explain("%s restarts with what its stable storage keeps: its snapshots and its attempt, %d; the rest is lost. It tells JM it failed (FAILED) and waits for a RESTORE", me, t.Attempt)
	case sim.Deliver:
		if ev.Msg.Kind == KindRestore {
			env.Explain("%s", restore(r, env, ev))
			return
		}
		if ok, why := t.gate(env, ev); !ok {
			env.Explain("%s", why)
			return
		}
		env.Explain("%s", r.take(env, ev.From, ev.Msg, ev.MsgID))
	case sim.Workload, sim.Command:
		env.Explain("%s does only its part of the job", me)
	default:
		env.Explain("%s has nothing to do", me)
	}
}

// gate decides what the task does with a RECORD, BARRIER or TRIGGER: it
// takes one of its own attempt, holds one of a newer attempt until its
// RESTORE, and drops one of a failed attempt. When it does not take the
// message it says why.
func (t *Task) gate(env *sim.Env, ev sim.Event) (bool, string) {
	me, what := env.Name(env.Self()), describe(ev.Msg)
	attempt := attemptOf(ev.Msg)
	switch {
	case attempt > t.Attempt:
		t.Held = append(t.Held, Held{From: ev.From, Msg: ev.Msg, ID: ev.MsgID})
		return false, fmt.Sprintf("%s holds %s from %s back: it belongs to attempt %d, and %s has not had its RESTORE for that attempt yet (%d held)",
			me, what, env.Name(ev.From), attempt, me, len(t.Held))
	case attempt < t.Attempt || t.Awaiting:
		t.Stale++
		env.Annotate(sim.At(RoleStale, attempt, "stale").About(ev.MsgID))
		return false, fmt.Sprintf("%s drops %s from %s: it belongs to attempt %d, which failed", me, what, env.Name(ev.From), attempt)
	}
	return true, ""
}

// restore is a task's rule for JM's RESTORE c of a new attempt: roll back
// to checkpoint c, adopt the attempt, and take the messages of that
// attempt it held.
func restore(r task, env *sim.Env, ev sim.Event) string {
	t := r.base()
	me := env.Name(env.Self())
	c, attempt := int(ev.Msg.Value), datum(ev.Msg, 0)
	if attempt <= t.Attempt {
		return fmt.Sprintf("%s ignores RESTORE %d of attempt %d: it already runs attempt %d", me, c, attempt, t.Attempt)
	}
	what := r.rollBack(env, c)
	t.Attempt, t.Restored, t.Awaiting = attempt, c, false
	env.Annotate(sim.At(RoleRestored, attempt, "restores "+checkpointWords(c)))
	text := fmt.Sprintf("%s restores %s in attempt %d: %s", me, checkpointWords(c), attempt, what)
	held := t.Held
	t.Held = nil
	var taken []string
	for _, h := range held {
		switch a := attemptOf(h.Msg); {
		case a == t.Attempt:
			taken = append(taken, r.take(env, h.From, h.Msg, h.ID))
		case a > t.Attempt:
			t.Held = append(t.Held, h)
		default:
			t.Stale++
		}
	}
	if len(taken) > 0 {
		text += fmt.Sprintf(". Then it takes the %d message(s) of attempt %d it held: %s", len(taken), attempt, strings.Join(taken, "; "))
	}
	return text
}

// describe names a data message in captions: "a3", "barrier 2",
// "TRIGGER 2".
func describe(m sim.Message) string {
	switch m.Kind {
	case KindRecord:
		return readRecord(m).label()
	case KindBarrier:
		return fmt.Sprintf("barrier %d", m.Value)
	}
	return m.Describe()
}

// ack tells JM the task has snapshotted checkpoint n; finished says a
// source had emitted all its records by then.
func (t *Task) ack(env *sim.Env, n int, finished bool) {
	done := int64(0)
	if finished {
		done = 1
	}
	env.Send(JM, sim.Message{Kind: KindAck, Value: int64(n), Label: fmt.Sprintf("ACK %d", n), Data: []int64{int64(t.Attempt), done}})
	t.Control++
}

// attemptField is the Inspect line of the task's attempt.
func (t *Task) attemptField() sim.Field {
	v := fmt.Sprint(t.Attempt)
	if t.Awaiting {
		v += " (failed: waiting for RESTORE)"
	}
	return sim.Field{Name: "attempt", Value: v}
}

// heldFrom lists the links whose messages the task holds back for a newer
// attempt.
func (t *Task) heldFrom(self sim.NodeID) [][2]sim.NodeID {
	var out [][2]sim.NodeID
	for _, h := range t.Held {
		l := [2]sim.NodeID{h.From, self}
		if len(out) == 0 || out[len(out)-1] != l {
			out = append(out, l)
		}
	}
	return out
}

// numbered is a snapshot of some checkpoint.
type numbered interface{ checkpoint() int }

func (o Offset) checkpoint() int       { return o.N }
func (s OpSnapshot) checkpoint() int   { return s.N }
func (s SinkSnapshot) checkpoint() int { return s.N }

// find is the snapshot of checkpoint c among a task's snapshots.
func find[S numbered](snaps []S, c int) (S, bool) {
	for _, s := range snaps {
		if s.checkpoint() == c {
			return s, true
		}
	}
	var none S
	return none, false
}

// latest is the number of the last checkpoint a task snapshotted, or 0.
func latest[S numbered](snaps []S) int {
	if len(snaps) == 0 {
		return 0
	}
	return snaps[len(snaps)-1].checkpoint()
}
