package barrier

import (
	"fmt"
	"slices"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// JMName names the job manager's rules check.
const JMName = "JM triggers a checkpoint every interval, one at a time, completes it with every task's ACK, and restores the last completed after a failure"

// coordinates holds JM to Flink's coordinator rules for the step it just
// took, restated rather than by calling the code it judges (the mutation
// campaign leaves this file alone): its trigger timer is armed, every
// interval ticks from when it was set, exactly while the job is not
// finished; at its timer it triggers checkpoint Next−1 (one past the
// last), sending TRIGGER of its attempt once to every source (a trigger
// with none sent is none), unless one is in progress with time left; it completes a checkpoint once every
// task's ACK of it in its attempt has come, and not before, and is
// finished when every source's ACK said it was past its last record;
// after a FAILED of its attempt it starts the next, sending every task a
// RESTORE of the last completed checkpoint; restarting, it keeps its
// storage and forgets the checkpoint in progress.
var coordinates = sim.Invariant{
	Name:  JMName,
	Help:  "JM's trigger is armed every interval while the job is not finished; at it, JM sends TRIGGER n, one past the last, to every source unless one in progress has time left; it completes n once every task's ACK of n in its attempt has come; after a failure it starts the next attempt and sends every task RESTORE of the last completed",
	Check: check.ProcessRule(checkJM),
}

func checkJM(v sim.View, id sim.NodeID, ev sim.Event) string {
	if id != JM {
		return ""
	}
	j := jobManager(v)
	due, armed := v.Timer(JM, TimerTrigger)
	if armed == j.Finished {
		return fmt.Sprintf("has its next trigger armed: %t, with the job finished: %t", armed, j.Finished)
	}
	set := ev.Kind == sim.Init || ev.Kind == sim.Recover || ev.Kind == sim.Timer && ev.Tag == TimerTrigger
	if armed && set && due != v.Now()+j.Interval {
		return fmt.Sprintf("set its next trigger %s ahead, not its interval, %s", sim.Ticks(due-v.Now()), sim.Ticks(j.Interval))
	}
	triggers := check.SentKind(v, JM, KindTrigger)
	switch {
	case ev.Kind == sim.Recover && j.InProgress.N != 0:
		return fmt.Sprintf("restarted still waiting for the ACKs of checkpoint %d, which its crash lost", j.InProgress.N)
	case ev.Kind == sim.Timer && len(triggers) == 0 && !j.Finished:
		if c := j.InProgress; c.N == 0 || v.LocalTime(JM)-c.Triggered >= j.Timeout || check.Marked(v, RoleSnapshot, c.N) {
			return "triggered no checkpoint, with none in progress that has time left"
		}
	case len(triggers) > 0:
		n := j.Next - 1
		to := make([]int, v.N())
		for _, e := range triggers {
			if int(e.Value) != n || datum(e.Message, 0) != j.Attempt {
				return fmt.Sprintf("sent TRIGGER %d of attempt %d; the last it numbered is %d, in attempt %d", e.Value, datum(e.Message, 0), n, j.Attempt)
			}
			to[e.To]++
		}
		for q, k := range to {
			if source := q >= 1 && q <= j.Sources; source != (k == 1) || k > 1 {
				return fmt.Sprintf("sent %d TRIGGERs of checkpoint %d to %s", k, n, v.Name(sim.NodeID(q)))
			}
		}
		if c := j.InProgress; ev.Kind != sim.Timer || c.N != n || c.Triggered != v.LocalTime(JM) || len(c.Acked) != j.Tasks+1 || slices.Contains(c.Acked, true) || n > 1 && v.AnnotationStep(JM, RoleSnapshot, n-1) < 0 {
			return fmt.Sprintf("triggered checkpoint %d and does not wait for its ACKs alone, from now", n)
		}
	}
	switch {
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindAck:
		return checkAck(v, j, ev)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindFailed:
		return checkFailed(v, j, ev)
	}
	return ""
}

// checkAck checks JM after an ACK: a checkpoint completed now is the one
// JM triggered last, has every task's ACK in JM's attempt, and finishes
// the job exactly when every source's said it was past its last record
// (none is completed once it is); one not completed still lacks one.
func checkAck(v sim.View, j *JobManager, ev sim.Event) string {
	n := int(ev.Msg.Value)
	if k := len(j.Completed); k > 0 && j.Completed[k-1] == n && v.AnnotationStep(JM, RoleComplete, n) < 0 {
		return fmt.Sprintf("completed checkpoint %d and did not draw it so", n)
	}
	if !check.Marked(v, RoleComplete, n) {
		c := j.InProgress
		if c.N == n && datum(ev.Msg, 0) == j.Attempt && ev.From >= 1 && int(ev.From) < len(c.Acked) {
			if !c.Acked[ev.From] || !slices.Contains(c.Acked[1:], false) {
				return fmt.Sprintf("took %s's ACK %d and has every task's ACK, or lacks %s's, and has not completed it", v.Name(ev.From), n, v.Name(ev.From))
			}
		}
		return ""
	}
	if len(j.Completed) == 0 || j.Completed[len(j.Completed)-1] != n || j.InProgress.N != 0 || n != j.Next-1 {
		return fmt.Sprintf("completed checkpoint %d and does not keep it as its last completed, or still waits for it", n)
	}
	acked, finished := make([]bool, v.N()), true
	for m := v.SentFrom(max(v.AnnotationStep(JM, RoleSnapshot, n), 0)); m < v.NumSent(); m++ {
		e := v.Envelope(m)
		if e.Kind == KindAck && e.To == JM && int(e.Value) == n && datum(e.Message, 0) == j.Attempt && e.RecvStep >= 0 && e.RecvStep < v.Steps() {
			acked[e.From] = true
			finished = finished && (int(e.From) > j.Sources || datum(e.Message, 1) == 1)
		}
	}
	if i := slices.Index(acked[1:], false); i >= 0 {
		return fmt.Sprintf("completed checkpoint %d before %s's ACK of it came", n, v.Name(sim.NodeID(i+1)))
	}
	if finished != j.Finished {
		return fmt.Sprintf("completed checkpoint %d, every source past its last record: %t, and takes the job for finished: %t", n, finished, j.Finished)
	}
	return ""
}

// checkFailed checks JM after a FAILED: one of its attempt starts the
// next, with a RESTORE of the last completed checkpoint to every task and
// none in progress; an older one changes nothing.
func checkFailed(v sim.View, j *JobManager, ev sim.Event) string {
	restores := check.SentKind(v, JM, KindRestore)
	failed := int(ev.Msg.Value)
	if len(restores) == 0 {
		if failed >= j.Attempt {
			return fmt.Sprintf("heard that %s failed in attempt %d, its own, and started no other", v.Name(ev.From), failed)
		}
		if j.Attempt > 1 && !announced(v, j.Attempt) {
			return fmt.Sprintf("runs attempt %d and has sent no task a RESTORE for it", j.Attempt)
		}
		return ""
	}
	last := 0
	if len(j.Completed) > 0 {
		last = j.Completed[len(j.Completed)-1]
	}
	if failed != j.Attempt-1 || j.InProgress.N != 0 || len(restores) != j.Tasks {
		return fmt.Sprintf("started attempt %d on a FAILED of attempt %d, sending %d RESTOREs, with checkpoint %d in progress", j.Attempt, failed, len(restores), j.InProgress.N)
	}
	to := make([]bool, v.N())
	for _, e := range restores {
		if int(e.Value) != last || datum(e.Message, 0) != j.Attempt || e.To == JM || to[e.To] {
			return fmt.Sprintf("sent %s RESTORE %d of attempt %d; the last completed is %d, and the attempt %d", v.Name(e.To), e.Value, datum(e.Message, 0), last, j.Attempt)
		}
		to[e.To] = true
	}
	return ""
}

// announced says JM has sent a RESTORE of attempt a: an attempt it runs
// began with one to every task.
func announced(v sim.View, a int) bool {
	for m := v.NumSent() - 1; m >= 0; m-- {
		if e := v.Envelope(m); e.Kind == KindRestore && e.From == JM && datum(e.Message, 0) == a {
			return true
		}
	}
	return false
}

// TasksName names the tasks' rules check.
const TasksName = "a task takes what is of its attempt, holds what is of a later one and drops what is of a failed one; it snapshots each checkpoint once and ACKs it"

// works holds a source, Op or Sink to its rules for the step it just
// took: a RECORD, BARRIER or TRIGGER of a later attempt than its own is
// held, unread, until its RESTORE, and one of an older attempt, or any
// while it waits for its RESTORE, is dropped as stale, both sending
// nothing; restarting, it forgets what is not on stable storage, tells
// JM it failed in its attempt, and waits; at the RESTORE of a later
// attempt it adopts it and the checkpoint, keeping held only what is of
// a later one still. A source starts at its first record with its emit
// timer set, emits its next record, numbered from its offset, and sets
// its timer again while records are left (a restore too); at a TRIGGER
// it snapshots its offset, sends the barrier behind its records and ACKs,
// once per checkpoint. Op processes a record at once (forwarding it to
// Sink) unless, aligned, its input's barrier is in, when it buffers it;
// it ACKs a checkpoint as it snapshots it and forwards its barrier. Sink
// snapshots its output at a barrier and ACKs once per checkpoint, and
// counts each record from where its output stands.
var works = sim.Invariant{
	Name:  TasksName,
	Help:  "a task holds what belongs to a later attempt and drops what belongs to a failed one; restarting it forgets its volatile state and reports FAILED; a source emits its records in order and at a TRIGGER snapshots its offset, sends the barrier and ACKs once; Op processes or, aligned and blocked, buffers a record; Op and Sink snapshot, forward and ACK each checkpoint once",
	Check: check.ProcessRule(checkTask),
}

func checkTask(v sim.View, id sim.NodeID, ev sim.Event) string {
	if id == JM {
		return ""
	}
	r := taskOf(v, id)
	t := r.base()
	switch ev.Kind {
	case sim.Recover:
		f := check.SentKind(v, id, KindFailed)
		if !t.Awaiting || len(f) != 1 || f[0].To != JM || int(f[0].Value) != t.Attempt || !forgot(r) {
			return fmt.Sprintf("restarted without forgetting what is not on stable storage, waiting for its RESTORE, or telling JM once that it failed in attempt %d", t.Attempt)
		}
		return ""
	case sim.Timer:
		if s, ok := r.(*Source); ok {
			return checkEmit(v, id, s, check.SentKind(v, id, KindRecord))
		}
		return ""
	case sim.Init:
		if s, ok := r.(*Source); ok {
			if due, armed := v.Timer(id, TimerEmit); s.Next != 1 || !armed || due != v.Now()+s.Rate {
				return fmt.Sprintf("started at offset %d, its first emit armed: %t", s.Next, armed)
			}
		}
		return ""
	case sim.Deliver:
	default:
		return ""
	}
	if ev.Msg.Kind == KindRestore {
		a := datum(ev.Msg, 0)
		if !check.Marked(v, RoleRestored, a) {
			if a > t.Attempt || check.SentAny(v, id) {
				return fmt.Sprintf("ignored RESTORE %d of attempt %d in attempt %d", ev.Msg.Value, a, t.Attempt)
			}
			return ""
		}
		if first := v.AnnotationStep(id, RoleRestored, a); first != v.Steps()-1 {
			return fmt.Sprintf("restored for attempt %d again (first at step %d)", a, first)
		}
		if t.Attempt != a || t.Restored != int(ev.Msg.Value) || t.Awaiting || slices.ContainsFunc(t.Held, func(h Held) bool { return attemptOf(h.Msg) <= a }) {
			return fmt.Sprintf("restored for attempt %d, RESTORE %d, and runs attempt %d from checkpoint %d, waiting: %t, with %d held", a, ev.Msg.Value, t.Attempt, t.Restored, t.Awaiting, len(t.Held))
		}
		if s, ok := r.(*Source); ok {
			want := 1
			if o, found := snapshotOf(s.Snapshots, t.Restored); found {
				want = o.Next
			}
			if s.Next != want {
				return fmt.Sprintf("restored checkpoint %d at offset %d, not its snapshot's %d", t.Restored, s.Next, want)
			}
			if due, armed := v.Timer(id, TimerEmit); armed != (s.Next <= s.Records) || armed && due != v.Now()+s.Rate {
				return fmt.Sprintf("restored offset %d of %d records with its next emit armed: %t", s.Next, s.Records, armed)
			}
		}
		return ""
	}
	switch a := attemptOf(ev.Msg); {
	case a > t.Attempt:
		if len(t.Held) == 0 || t.Held[len(t.Held)-1].ID != ev.MsgID || check.SentAny(v, id) {
			return fmt.Sprintf("did not hold %s of attempt %d, a later one than its %d, unread", ev.Msg.Label, a, t.Attempt)
		}
		return ""
	case a < t.Attempt || t.Awaiting:
		if !check.Marked(v, RoleStale, a) || check.SentAny(v, id) {
			return fmt.Sprintf("did not drop %s of attempt %d, in attempt %d (waiting for RESTORE: %t)", ev.Msg.Label, a, t.Attempt, t.Awaiting)
		}
		return ""
	}
	switch r := r.(type) {
	case *Source:
		if ev.Msg.Kind == KindTrigger {
			n := int(ev.Msg.Value)
			return snapshotOnce(v, id, n, lastOf(r.Snapshots), len(r.Snapshots) > 1 && r.Snapshots[len(r.Snapshots)-2].N >= n, r.Next > r.Records,
				len(r.Snapshots) > 0 && r.Snapshots[len(r.Snapshots)-1].Next == r.Next, operator(v.N()), t.Attempt)
		}
	case *Sink:
		switch ev.Msg.Kind {
		case KindBarrier:
			n := int(ev.Msg.Value)
			k := len(r.Snapshots)
			return snapshotOnce(v, id, n, lastOf(r.Snapshots), k > 1 && r.Snapshots[k-2].N >= n, true,
				k > 0 && slices.Equal(r.Snapshots[k-1].Count, r.Count) && slices.Equal(r.Snapshots[k-1].Last, r.Last), sim.None, t.Attempt)
		case KindRecord:
			rec := readRecord(ev.Msg)
			if i := rec.Source - 1; i >= 0 && i < len(r.Last) {
				twice := check.Marked(v, RoleTwice, rec.Source)
				switch {
				case twice && r.Last[i] < rec.Seq || !twice && r.Last[i] != rec.Seq:
					return fmt.Sprintf("counted %s, and its output from that source goes up to %d (counted twice: %t)", rec.label(), r.Last[i], twice)
				case r.Count[i] != r.Last[i] && v.AnnotationStep(id, RoleTwice, rec.Source) < 0 && v.AnnotationStep(id, RoleMissing, rec.Source) < 0:
					return fmt.Sprintf("holds %d records up to %d from %s and never marked one counted twice or missing", r.Count[i], r.Last[i], v.Name(sim.NodeID(rec.Source)))
				}
			}
		}
	case *Operator:
		i := int(ev.From) - 1 // a source's input, restated
		ok := i >= 0 && i < len(r.Last)
		if ok && ev.Msg.Kind == KindBarrier {
			return checkOpBarrier(v, id, r, i, int(ev.Msg.Value))
		}
		if !ok || ev.Msg.Kind != KindRecord {
			return ""
		}
		rec, out := readRecord(ev.Msg), check.SentKind(v, id, KindRecord)
		blocked := r.Aligned && len(r.Pending) > 0 && r.Pending[0].Arrived[i]
		switch {
		case blocked:
			if len(out) > 0 || len(r.Buffer) == 0 || r.Buffer[len(r.Buffer)-1] != (Item{Input: i, N: rec.Seq, Seq: rec.Seq}) {
				return fmt.Sprintf("took %s on an input its barrier %d blocks, and did not buffer it", rec.label(), r.Pending[0].N)
			}
		case len(out) != 1 || out[0].To != sink(v.N()) || readRecord(out[0].Message) != (record{Source: i + 1, Seq: rec.Seq, Attempt: t.Attempt}) || r.Last[i] != rec.Seq:
			return fmt.Sprintf("took %s on an input no barrier blocks, and did not process it and forward it to Sink", rec.label())
		}
	}
	return ""
}

// checkOpBarrier checks Op after barrier n on input i (which aligns each
// checkpoint once, oldest first, and none it is past): aligned, with the
// input blocked, it waits in the buffer, sending nothing; otherwise, with
// n's barrier now in on every input, Op snapshots n (giving up every
// older checkpoint still aligning), forwards the barrier to Sink and
// ACKs; or it waits for n's other barriers, or ignores a barrier of a
// checkpoint it is past.
func checkOpBarrier(v sim.View, id sim.NodeID, o *Operator, i, n int) string {
	acks := check.SentKind(v, id, KindAck)
	if slices.ContainsFunc(o.Pending, func(p Alignment) bool { return p.N <= o.Passed }) {
		return fmt.Sprintf("aligns checkpoint %d, which it is past (%d)", o.Pending[0].N, o.Passed)
	}
	for k := 1; k < len(o.Pending); k++ {
		if o.Pending[k-1].N >= o.Pending[k].N {
			return fmt.Sprintf("aligns checkpoints %d and %d, not once each, oldest first", o.Pending[k-1].N, o.Pending[k].N)
		}
	}
	if k := len(o.Buffer); k > 0 && o.Buffer[k-1] == (Item{Input: i, Barrier: true, N: n}) {
		if !o.Aligned || len(o.Pending) == 0 || !o.Pending[0].Arrived[i] || len(acks) > 0 || len(check.SentKind(v, id, KindBarrier)) > 0 {
			return fmt.Sprintf("buffered barrier %d of an input no barrier blocks, or acted on it too", n)
		}
		return ""
	}
	if len(acks) > 0 {
		forwarded := check.SentKind(v, id, KindBarrier)
		switch {
		case len(acks) != 1 || acks[0].To != JM || int(acks[0].Value) != n || datum(acks[0].Message, 0) != o.Attempt:
			return fmt.Sprintf("ACKed checkpoint %d other than once to JM in attempt %d", n, o.Attempt)
		case lastOf(o.Snapshots) != n || !check.Marked(v, RoleSnapshot, n) || o.Passed < n:
			return fmt.Sprintf("ACKed checkpoint %d without a snapshot of it, or not past it", n)
		case len(o.Snapshots) > 1 && o.Snapshots[len(o.Snapshots)-2].N >= n:
			return fmt.Sprintf("snapshotted checkpoint %d after one of %d", n, o.Snapshots[len(o.Snapshots)-2].N)
		case len(forwarded) != 1 || forwarded[0].To != sink(v.N()) || int(forwarded[0].Value) != n || datum(forwarded[0].Message, 0) != o.Attempt:
			return fmt.Sprintf("snapshotted checkpoint %d and did not forward its barrier to Sink once", n)
		case slices.ContainsFunc(o.Pending, func(p Alignment) bool { return p.N <= n }):
			return fmt.Sprintf("snapshotted checkpoint %d and still aligns one up to it", n)
		}
		return ""
	}
	if check.Marked(v, RoleSnapshot, n) {
		return fmt.Sprintf("snapshotted checkpoint %d and did not ACK it", n)
	}
	for _, p := range o.Pending {
		if p.N == n && p.Arrived[i] && slices.Contains(p.Arrived, false) {
			return "" // waiting for its other barriers
		}
	}
	if n > o.Passed || !passed(v, o, n) {
		return fmt.Sprintf("ignored barrier %d, a checkpoint it had neither snapshotted nor given up, nor aligns a later one", n)
	}
	return ""
}

// passed says Op may ignore barrier n: it snapshotted n or a later
// checkpoint, had given up aligning one before this step (drawn: its
// alignment opened and was over), or, aligned, aligns a later one now. Read off its snapshots,
// the diagram and its alignment, not off what it says it passed.
func passed(v sim.View, o *Operator, n int) bool {
	if lastOf(o.Snapshots) >= n || o.Aligned && len(o.Pending) > 0 && o.Pending[0].N > n {
		return true
	}
	op := operator(v.N())
	for m := n; m < jobManager(v).Next; m++ {
		if v.AnnotationStep(op, RoleAligning, m) >= 0 && !v.DrawnBefore(op, RoleAligning, m, v.Steps()-1) &&
			!slices.ContainsFunc(o.Pending, func(p Alignment) bool { return p.N == m }) {
			return true
		}
	}
	return false
}

// snapshotOnce checks a source's TRIGGER or Sink's barrier n: the task
// ACKs n in its attempt (with finished, whether a source is past its last
// record) and sends the barrier on to next (sim.None: nowhere) only with
// a new snapshot of n, its present state (taken), after its older ones;
// otherwise it has one of n or later already, and sends nothing.
func snapshotOnce(v sim.View, id sim.NodeID, n, last int, older, finished, taken bool, next sim.NodeID, attempt int) string {
	acks, barriers := check.SentKind(v, id, KindAck), check.SentKind(v, id, KindBarrier)
	if len(acks) == 0 {
		if len(barriers) > 0 || last < n || check.Marked(v, RoleSnapshot, n) {
			return fmt.Sprintf("took checkpoint %d's barrier or TRIGGER and neither snapshotted it nor had one of it", n)
		}
		return ""
	}
	done := datum(acks[0].Message, 1) == 1
	switch {
	case len(acks) != 1 || acks[0].To != JM || int(acks[0].Value) != n || datum(acks[0].Message, 0) != attempt || done != finished:
		return fmt.Sprintf("ACKed checkpoint %d other than once to JM in attempt %d, saying finished: %t", n, attempt, finished)
	case last != n || older || !taken || !check.Marked(v, RoleSnapshot, n):
		return fmt.Sprintf("ACKed checkpoint %d without a new snapshot of its present state", n)
	case next != sim.None && (len(barriers) != 1 || barriers[0].To != next || int(barriers[0].Value) != n || datum(barriers[0].Message, 0) != attempt):
		return fmt.Sprintf("snapshotted checkpoint %d and did not send its barrier on once", n)
	}
	return ""
}

// checkEmit checks a source at its emit timer: it sends its next record,
// from its offset, in its attempt, to Op, and sets the timer again while
// records are left; with none left, or waiting for RESTORE, it sends none.
func checkEmit(v sim.View, id sim.NodeID, s *Source, out []sim.Envelope) string {
	if len(out) == 0 {
		if !s.Awaiting && s.Next <= s.Records {
			return fmt.Sprintf("emitted nothing with %s next", recordLabel(s.Number, s.Next))
		}
		return ""
	}
	due, armed := v.Timer(id, TimerEmit)
	switch {
	case s.Awaiting || len(out) != 1 || out[0].To != operator(v.N()) || readRecord(out[0].Message) != (record{Source: s.Number, Seq: s.Next - 1, Attempt: s.Attempt}):
		return fmt.Sprintf("emitted %s and is at offset %d, attempt %d", out[0].Label, s.Next, s.Attempt)
	case armed != (s.Next <= s.Records) || armed && due != v.Now()+s.Rate:
		return fmt.Sprintf("emitted %s and set its next emit %s ahead (armed: %t) with %d of %d records emitted", out[0].Label, sim.Ticks(due-v.Now()), armed, s.Next-1, s.Records)
	}
	return ""
}

// forgot says a task holds none of its volatile state: a crash lost it.
func forgot(r task) bool {
	switch r := r.(type) {
	case *Source:
		return r.Next == 0
	case *Operator:
		return r.Count == 0 && check.Cleared(r.Last) && len(r.Pending) == 0 && len(r.Buffer) == 0 && r.Passed == 0
	case *Sink:
		return check.Cleared(r.Count) && check.Cleared(r.Last)
	}
	return true
}

// lastOf is the checkpoint of a task's last snapshot, or 0, and
// snapshotOf its snapshot of checkpoint c: restated here, so that the
// checks do not call the code they judge.
func lastOf[S numbered](snaps []S) int {
	if len(snaps) == 0 {
		return 0
	}
	return snaps[len(snaps)-1].checkpoint()
}

func snapshotOf[S numbered](snaps []S, c int) (S, bool) {
	for _, s := range snaps {
		if s.checkpoint() == c {
			return s, true
		}
	}
	var none S
	return none, false
}
