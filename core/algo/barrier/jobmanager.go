package barrier

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// JobManager is JM, Flink's checkpoint coordinator: every Interval ticks
// it triggers a checkpoint at every source, one at a time as Flink does by
// default, and completes it when every task has acknowledged it; one not
// complete within Timeout ticks is abandoned. When a task reports that it
// failed, JM starts a new attempt in which every task restores the last
// completed checkpoint. Its counter, attempt and completed checkpoints are
// on stable storage (Flink keeps them in ZooKeeper); the ACKs of the
// checkpoint in progress are not.
type JobManager struct {
	Interval, Timeout sim.Time
	// Sources and Tasks are the job's numbers of sources and of tasks
	// (every process but JM).
	Sources, Tasks int
	// Next is the number the next checkpoint gets, Attempt the job's
	// attempt, and Completed the checkpoints completed, in order.
	Next, Attempt int
	Completed     []int
	// Finished says a completed checkpoint has every source past its last
	// record: there is nothing left to checkpoint.
	Finished bool
	// InProgress is the checkpoint triggered and not yet complete (N is 0
	// when there is none).
	InProgress Checkpoint
	// Control counts the TRIGGERs and RESTOREs JM sent.
	Control int
}

// Checkpoint is one JM waits for: when it was triggered (by JM's clock),
// which tasks (by id) have acknowledged it, and whether every source that
// did had emitted all its records.
type Checkpoint struct {
	N         int
	Triggered sim.Time
	Acked     []bool
	Finished  bool
}

// Step reacts to one event.
func (j *JobManager) Step(env *sim.Env, ev sim.Event) {
	switch ev.Kind {
	case sim.Init:
		j.stepInit(env)
	case sim.Recover:
		j.stepRecover(env)
	case sim.Timer:
		j.stepTrigger(env)
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindAck:
			j.stepAck(env, ev)
		case KindFailed:
			j.stepFailed(env, ev)
		default:
			env.Explain("JM ignores %s: it takes ACKs and FAILEDs", ev.Msg.Describe())
		}
	default:
		env.Explain("%s coordinates checkpoints only", env.Name(env.Self()))
	}
}

func (j *JobManager) stepInit(env *sim.Env) {
	env.SetTimer(TimerTrigger, j.Interval)
	env.Explain("%s is the job manager: it triggers a checkpoint every %s, one at a time, and when a task fails it has every task restore the last completed one",
		env.Name(env.Self()), sim.Ticks(j.Interval))
}

func (j *JobManager) stepRecover(env *sim.Env) {
	text := fmt.Sprintf("%s restarts with what its stable storage keeps: attempt %d, the next checkpoint number (%d) and the last completed checkpoint (%s)",
		env.Name(env.Self()), j.Attempt, j.Next, j.lastWords())
	if j.InProgress.N > 0 {
		text += fmt.Sprintf("; it has lost the ACKs of checkpoint %d, which will never complete", j.InProgress.N)
	}
	j.InProgress = Checkpoint{}
	if !j.Finished {
		env.SetTimer(TimerTrigger, j.Interval)
	}
	env.Explain("%s", text)
}

// stepTrigger starts the next checkpoint at every source, unless one is
// still in progress and has time left.
func (j *JobManager) stepTrigger(env *sim.Env) {
	me := env.Name(env.Self())
	if j.Finished {
		env.Explain("every record is in a completed checkpoint: %s triggers no more", me)
		return
	}
	env.SetTimer(TimerTrigger, j.Interval)
	expired := ""
	if c := j.InProgress; c.N > 0 {
		if waited := env.LocalTime() - c.Triggered; waited < j.Timeout {
			env.Explain("%s's checkpoint %d is still in progress (%s of its %s): it triggers no other until it completes", me, c.N, sim.Ticks(waited), sim.Ticks(j.Timeout))
			return
		}
		expired = fmt.Sprintf("checkpoint %d has not completed in %s: %s abandons it, and ", c.N, sim.Ticks(j.Timeout), me)
	}
	n := j.Next
	j.Next++
	names := make([]string, j.Sources)
	for s := 1; s <= j.Sources; s++ {
		env.Send(sim.NodeID(s), sim.Message{Kind: KindTrigger, Value: int64(n), Label: fmt.Sprintf("TRIGGER %d", n), Data: []int64{int64(j.Attempt)}})
		j.Control++
		names[s-1] = env.Name(sim.NodeID(s))
	}
	j.InProgress = Checkpoint{N: n, Triggered: env.LocalTime(), Acked: make([]bool, j.Tasks+1), Finished: true}
	env.Annotate(sim.At(RoleSnapshot, n, "trigger"))
	env.Explain("%s%s triggers checkpoint %d (attempt %d): TRIGGER %d to %s", expired, me, n, j.Attempt, n, strings.Join(names, " and "))
}

// stepAck counts a task's acknowledgement; the last one completes the
// checkpoint.
func (j *JobManager) stepAck(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	n, attempt := int(ev.Msg.Value), datum(ev.Msg, 0)
	c := &j.InProgress
	switch {
	case attempt != j.Attempt:
		env.Explain("%s ignores %s's ACK %d: it is of attempt %d, and the job runs attempt %d", me, them, n, attempt, j.Attempt)
		return
	case c.N != n || ev.From < 1 || int(ev.From) >= len(c.Acked):
		env.Explain("%s ignores %s's ACK %d: checkpoint %d is no longer in progress (it was abandoned, or a crash lost its ACKs)", me, them, n, n)
		return
	}
	c.Acked[ev.From] = true
	if int(ev.From) <= j.Sources && datum(ev.Msg, 1) == 0 {
		c.Finished = false
	}
	if missing := j.missing(env, *c); len(missing) > 0 {
		env.Explain("%s has %s's ACK %d; it still waits for %s", me, them, n, strings.Join(missing, ", "))
		return
	}
	j.Completed = append(j.Completed, n)
	finished := c.Finished
	j.InProgress = Checkpoint{}
	env.Annotate(sim.At(RoleComplete, n, fmt.Sprintf("checkpoint %d complete", n)))
	text := fmt.Sprintf("%s has %s's ACK %d, the last: checkpoint %d is complete, and a failure from now on restores it", me, them, n, n)
	if finished {
		j.Finished = true
		env.CancelTimer(TimerTrigger)
		text += ". Every source had emitted all its records by then, so there is nothing left to checkpoint"
	}
	env.Explain("%s", text)
}

// missing names the tasks that have not acknowledged checkpoint c.
func (j *JobManager) missing(env *sim.Env, c Checkpoint) []string {
	ids := j.missingIDs(c)
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = env.Name(id)
	}
	return names
}

func (j *JobManager) missingIDs(c Checkpoint) []sim.NodeID {
	var out []sim.NodeID
	for id := 1; id <= j.Tasks && id < len(c.Acked); id++ {
		if !c.Acked[id] {
			out = append(out, sim.NodeID(id))
		}
	}
	return out
}

// stepFailed starts a new attempt from the last completed checkpoint.
func (j *JobManager) stepFailed(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	if failed := int(ev.Msg.Value); failed < j.Attempt {
		env.Explain("%s has %s's FAILED in attempt %d: attempt %d has already begun, and its RESTORE is on its way to %s", me, them, failed, j.Attempt, them)
		return
	}
	j.Attempt++
	j.InProgress = Checkpoint{}
	c := j.last()
	for id := 1; id <= j.Tasks; id++ {
		env.Send(sim.NodeID(id), sim.Message{Kind: KindRestore, Value: int64(c), Label: fmt.Sprintf("RESTORE %d", c), Data: []int64{int64(j.Attempt)}})
		j.Control++
	}
	env.Explain("%s hears %s has failed: it starts attempt %d, in which every task restores %s (RESTORE %d to every task) and the sources replay from its offsets; a checkpoint in progress is abandoned",
		me, them, j.Attempt, checkpointWords(c), c)
}

// last is the last completed checkpoint, or 0 for none.
func (j *JobManager) last() int {
	if len(j.Completed) == 0 {
		return 0
	}
	return j.Completed[len(j.Completed)-1]
}

func (j *JobManager) lastWords() string {
	if c := j.last(); c > 0 {
		return fmt.Sprint(c)
	}
	return "none yet"
}

// label is JM's state line in the topology view.
func (j *JobManager) label() string {
	return fmt.Sprintf("attempt %d · last done %s", j.Attempt, j.lastWords())
}

// Inspect shows the checkpoints and the attempt.
func (j *JobManager) Inspect() []sim.Field {
	progress := "none"
	if c := j.InProgress; c.N > 0 {
		progress = fmt.Sprintf("checkpoint %d, ACKs from %d of %d tasks", c.N, j.Tasks-len(j.missingIDs(c)), j.Tasks)
	}
	return []sim.Field{
		{Name: "attempt", Value: fmt.Sprint(j.Attempt)},
		{Name: "last completed", Value: j.lastWords()},
		{Name: "in progress", Value: progress},
	}
}

// Clone copies JM.
func (j *JobManager) Clone() sim.Node {
	c := *j
	c.Completed = sim.Handoff(&j.Completed)
	c.InProgress.Acked = append([]bool(nil), j.InProgress.Acked...)
	return &c
}
