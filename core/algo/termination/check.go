package termination

import (
	"fmt"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// The rules checks hold each step to what the process that took it must
// do, restated from the rules rather than by calling the code they judge
// (the mutation campaign leaves this file alone). They read the process's
// state after its step, the messages it sent and the diagram's marks,
// which tell what it was before: the active interval drawn before the
// step.

// The rules checks' names.
const (
	WorksName  = "a process does its tasks one at a time, each for params.work ticks, and then hands WORK one level down to other processes"
	CountsName = "a process counts the messages it sends, and the root announces termination once, as the diagram draws it"
	// maxQuoted is how many of a queue's depths a check quotes.
	maxQuoted = 3
)

// works holds every process to the computation's rules, which all the
// detectors share. A process is doing a task exactly while the diagram
// draws it active and its work timer is armed, due no later than
// params.work ticks on, and it queues tasks only behind one it is doing.
// At its start the root alone takes a task, of depth 0. A WORK it takes
// makes it do that task now if it was passive, or queues it. When its
// timer ends a task it sends WORK only then, one level deeper than the
// task, to other processes: params.fanout of them for the root's first
// task, at most that many for a later one, none below params.depth; it
// starts its next task, or goes passive and says when. A restart forgets
// every task. No other step starts or ends one.
var works = sim.Invariant{
	Name:  WorksName,
	Help:  "a process is drawn active exactly while it does a task, on a timer of params.work ticks, with more queued only behind it; at its end it sends WORK one level deeper to other processes (params.fanout for the root's first task, at most that for later ones, none at params.depth) and takes the next task or goes passive; a WORK it takes starts a task if it was passive and queues it otherwise; a restart forgets every task",
	Check: check.ProcessRule(checkWorks),
}

func checkWorks(v sim.View, id sim.NodeID, ev sim.Event) string {
	w := work(v, id)
	now := v.Steps() - 1
	was := v.DrawnBefore(id, RoleActive, 0, now)
	due, armed := v.Timer(id, TimerWork)
	switch {
	case len(w.Queue) > 0 && !w.Busy:
		return fmt.Sprintf("has %d task(s) queued and none under way", len(w.Queue))
	case w.Busy != armed || w.Busy && due > v.Now()+w.Work:
		return fmt.Sprintf("is doing a task: %t, with its work timer armed: %t (due at %d)", w.Busy, armed, due)
	case w.Busy != v.Drawn(id, RoleActive, 0):
		return fmt.Sprintf("is doing a task: %t, and drawn active: %t", w.Busy, !w.Busy)
	case w.Busy && (w.Doing < 0 || w.Doing > w.Depth):
		return fmt.Sprintf("is doing a task at depth %d, outside 0 to %d", w.Doing, w.Depth)
	}
	started, finished := false, false
	switch {
	case ev.Kind == sim.Init:
		root := id == Root
		if w.Started != root || w.Busy != root || root && (w.Doing != 0 || len(w.Queue) > 0) {
			return fmt.Sprintf("starts with a task: %t (depth %d, %d queued), begun: %t", w.Busy, w.Doing, len(w.Queue), w.Started)
		}
		started = root
	case ev.Kind == sim.Recover:
		if w.Busy || len(w.Queue) > 0 {
			return fmt.Sprintf("restarts with a task: %t and %d queued", w.Busy, len(w.Queue))
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork:
		depth := int(ev.Msg.Value)
		switch {
		case !w.Started || !w.Busy:
			return fmt.Sprintf("took WORK of depth %d and is doing no task (begun: %t)", depth, w.Started)
		case was && (len(w.Queue) == 0 || w.Queue[len(w.Queue)-1] != depth):
			return fmt.Sprintf("took WORK of depth %d while doing a task, and queues %v", depth, clip(w.Queue))
		case !was && (w.Doing != depth || len(w.Queue) > 0):
			return fmt.Sprintf("took WORK of depth %d while passive, and does a task at depth %d with %d queued", depth, w.Doing, len(w.Queue))
		}
		started = !was
	case ev.Kind == sim.Timer && ev.Tag == TimerWork && was:
		finished = true
		if w.Tasks < 1 {
			return "finished a task and counts none done"
		}
		if w.Busy {
			started = true
		} else if w.PassiveAt != v.Now() {
			return fmt.Sprintf("went passive at %d and says it did at %d", v.Now(), w.PassiveAt)
		}
	case w.Busy != was:
		return fmt.Sprintf("became active: %t, on a %s", w.Busy, ev.Kind)
	}
	if started && due != v.Now()+w.Work {
		return fmt.Sprintf("started a task at depth %d on a timer due at %d, not %s on", w.Doing, due, sim.Ticks(w.Work))
	}
	return checkSpawned(v, id, w, finished)
}

// checkSpawned holds the WORK a process sent at its step to the rules:
// only at the end of a task, one level deeper than the task, to other
// processes, as many as the rules allow, each counted.
func checkSpawned(v sim.View, id sim.NodeID, w *Work, finished bool) string {
	sent := check.SentKind(v, id, KindWork)
	if !finished {
		if len(sent) > 0 {
			return fmt.Sprintf("sent WORK to %s without finishing a task", v.Name(sent[0].To))
		}
		return ""
	}
	// the finished task's depth, where the state still says it: a process
	// that went passive did no task since
	depth := -1
	if !w.Busy {
		depth = w.Doing
	}
	if depth == 0 && w.Depth > 0 && v.N() > 1 && len(sent) == 0 {
		return fmt.Sprintf("finished the first task and sent no WORK, not %d", w.Fanout)
	}
	for _, e := range sent {
		if e.To == id || e.Value < 1 || e.Value > int64(w.Depth) || e.Value != sent[0].Value || depth >= 0 && e.Value != int64(depth+1) {
			return fmt.Sprintf("finished a task (at depth %d, if passive) and sent %s WORK of depth %d, within depth %d", depth, v.Name(e.To), e.Value, w.Depth)
		}
	}
	switch {
	case len(sent) > w.Fanout:
		return fmt.Sprintf("sent %d WORK at the end of a task, more than %d", len(sent), w.Fanout)
	case len(sent) > 0 && sent[0].Value == 1 && len(sent) != w.Fanout:
		return fmt.Sprintf("sent %d WORK at the end of the first task, not %d", len(sent), w.Fanout)
	case w.Spawned < len(sent):
		return fmt.Sprintf("sent %d WORK at this step and counts %d sent in all", len(sent), w.Spawned)
	}
	return ""
}

// clip is a queue as a check quotes it: its first few depths.
func clip(q []int) []int {
	if len(q) > maxQuoted {
		return q[:maxQuoted]
	}
	return q
}

// counts holds what every detector shares: the detector's messages a
// process sends are counted (the figures' control messages), and the root
// alone announces termination, once, drawn at the step it says it did.
var counts = sim.Invariant{
	Name:  CountsName,
	Help:  "every detector message a process sends is in its count, and only the root announces termination, once, at the step it draws the announcement",
	Check: check.ProcessRule(checkCounts),
}

func checkCounts(v sim.View, id sim.NodeID, ev sim.Event) string {
	b := v.Node(id).(detector).base()
	control := 0
	for e := range check.SentThisStep(v, id) {
		if e.Kind != KindWork {
			control++
		}
	}
	if b.Control < control {
		return fmt.Sprintf("sent %d detector message(s) at this step and counts %d in all", control, b.Control)
	}
	first := v.AnnotationStep(id, RoleAnnounce, 0)
	switch marked := check.Marked(v, RoleAnnounce, 0); {
	case marked && (id != Root || !b.Said || b.SaidAt != v.Now() || first != v.Steps()-1):
		return fmt.Sprintf("announced termination (root: %t), remembers it: %t, at %d, first drawn at step %d", id == Root, b.Said, b.SaidAt, first)
	case b.Said && first < 0:
		return "says it announced termination, and the diagram never drew it"
	}
	return ""
}
