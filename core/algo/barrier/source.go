package barrier

import (
	"fmt"

	"spacetime/core/sim"
)

// Source reads a numbered input, as a Kafka partition gives it, and
// emits one record every Rate ticks. Its offset (Next) is what a
// checkpoint records: on a restore it replays from there.
type Source struct {
	Task
	// Number is the source's number (S1 is 1), which names its records.
	Number  int
	Records int
	Rate    sim.Time
	// Next is the number of the next record to emit, its offset; 0 when
	// a crash has lost it.
	Next int
	// Snapshots are the offsets of the checkpoints it took, on stable
	// storage.
	Snapshots []Offset
	// Emitted and Barriers count what it sent, replays included.
	Emitted, Barriers int
}

// Offset is a source's snapshot: its offset at checkpoint N.
type Offset struct{ N, Next int }

// Step reacts to one event.
func (s *Source) Step(env *sim.Env, ev sim.Event) {
	if ev.Kind == sim.Timer {
		env.Explain("%s", s.emit(env))
		return
	}
	stepTask(s, env, ev)
}

func (s *Source) start(env *sim.Env) string {
	s.Next = 1
	env.SetTimer(TimerEmit, s.Rate)
	return fmt.Sprintf("%s reads its input: %d records, %s to %s, one every %s", env.Name(env.Self()), s.Records,
		recordLabel(s.Number, 1), recordLabel(s.Number, s.Records), sim.Ticks(s.Rate))
}

// emit sends the next record to Op.
func (s *Source) emit(env *sim.Env) string {
	me := env.Name(env.Self())
	if s.Awaiting || s.Next < 1 || s.Next > s.Records {
		return fmt.Sprintf("%s has no record to emit", me)
	}
	r := record{Source: s.Number, Seq: s.Next, Attempt: s.Attempt}
	env.Send(operator(env.N()), r.message())
	s.Next++
	s.Emitted++
	if s.Next > s.Records {
		return fmt.Sprintf("%s emits %s, its last record", me, r.label())
	}
	env.SetTimer(TimerEmit, s.Rate)
	return fmt.Sprintf("%s emits %s (%d of %d)", me, r.label(), r.Seq, s.Records)
}

// take handles JM's TRIGGER: snapshot the offset, send the barrier behind
// the records already emitted, and acknowledge.
func (s *Source) take(env *sim.Env, from sim.NodeID, m sim.Message, id int) string {
	me := env.Name(env.Self())
	n := int(m.Value)
	if m.Kind != KindTrigger {
		return fmt.Sprintf("%s ignores %s: a source takes only TRIGGERs", me, describe(m))
	}
	if last := latest(s.Snapshots); n <= last {
		return fmt.Sprintf("%s has already snapshotted checkpoint %d", me, n)
	}
	s.Snapshots = append(s.Snapshots, Offset{N: n, Next: s.Next})
	env.Send(operator(env.N()), barrierMessage(n, s.Attempt))
	s.Barriers++
	finished := s.Next > s.Records
	s.ack(env, n, finished)
	env.Annotate(sim.At(RoleSnapshot, n, "offset "+s.offsetWords()))
	behind := "ahead of its first record"
	if s.Next > 1 {
		behind = fmt.Sprintf("behind %s..%s", recordLabel(s.Number, 1), recordLabel(s.Number, s.Next-1))
	}
	offset := s.offsetWords() + " next"
	if finished {
		offset = "past its last record"
	}
	return fmt.Sprintf("%s gets TRIGGER %d: it snapshots its offset (%s), sends barrier %d to Op %s and ACKs JM", me, n, offset, n, behind)
}

// offsetWords names the offset: the next record, or "end".
func (s *Source) offsetWords() string { return offsetWords(s.Number, s.Next, s.Records) }

func offsetWords(source, next, records int) string {
	if next > records {
		return "end"
	}
	return recordLabel(source, next)
}

func (s *Source) forget() { s.Next = 0 }

// hasSnapshot says whether the source holds a snapshot of checkpoint c.
func (s *Source) hasSnapshot(c int) bool {
	_, ok := find(s.Snapshots, c)
	return ok
}

// rollBack goes back to checkpoint c's offset and replays from there.
func (s *Source) rollBack(env *sim.Env, c int) string {
	snap, found := find(s.Snapshots, c)
	s.Next = 1
	if found {
		s.Next = snap.Next
	}
	found = found || c == 0
	what := "it replays from " + s.offsetWords()
	if !found {
		what = fmt.Sprintf("it has no snapshot of checkpoint %d, so it starts over from %s", c, s.offsetWords())
	}
	if s.Next > s.Records {
		env.CancelTimer(TimerEmit)
		return what + ": it had emitted all its records by then"
	}
	env.SetTimer(TimerEmit, s.Rate)
	return what
}

// label is the source's state line in the topology view.
func (s *Source) label() string {
	switch {
	case s.Awaiting:
		return "waiting for RESTORE"
	case s.Next > s.Records:
		return "all emitted"
	}
	return "next " + s.offsetWords()
}

// Inspect shows the source's offset and snapshots.
func (s *Source) Inspect() []sim.Field {
	offset := s.offsetWords()
	if s.Next == 0 {
		offset = "lost"
	}
	f := []sim.Field{{Name: "offset", Value: offset}, s.attemptField()}
	if len(s.Snapshots) > 0 {
		o := s.Snapshots[len(s.Snapshots)-1]
		f = append(f, sim.Field{Name: fmt.Sprintf("snapshot %d", o.N), Value: "offset " + offsetWords(s.Number, o.Next, s.Records)})
	}
	return f
}

// Clone copies the source.
func (s *Source) Clone() sim.Node {
	c := *s
	c.Task = s.Task.clone()
	c.Snapshots = sim.Handoff(&s.Snapshots)
	return &c
}
