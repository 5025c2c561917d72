package barrier

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// Sink is the job's output: per source, how many records it has counted
// and the number of the last. Its output since the last completed
// checkpoint is not yet committed (Flink's exactly-once sinks write in
// transactions), so a restore rolls it back with the rest of the job.
type Sink struct {
	Task
	Records int
	// Count[s] and Last[s] are the records counted from source s+1 and
	// the number of the last: each record counted once, in order, keeps
	// them equal.
	Count, Last []int
	// Snapshots are its checkpoints, on stable storage.
	Snapshots []SinkSnapshot
	// Twice and Missing count the records it counted a second time and
	// the gaps it saw.
	Twice, Missing int
}

// SinkSnapshot is Sink's output at checkpoint N.
type SinkSnapshot struct {
	N           int
	Count, Last []int
}

// Step reacts to one event.
func (s *Sink) Step(env *sim.Env, ev sim.Event) { stepTask(s, env, ev) }

func (s *Sink) start(env *sim.Env) string {
	return fmt.Sprintf("%s counts the output of Op: for every source, how many records and the last one", env.Name(env.Self()))
}

func (s *Sink) take(env *sim.Env, from sim.NodeID, m sim.Message, id int) string {
	me := env.Name(env.Self())
	switch m.Kind {
	case KindRecord:
		return s.count(env, readRecord(m), id)
	case KindBarrier:
		n := int(m.Value)
		if n <= latest(s.Snapshots) {
			return fmt.Sprintf("%s has already snapshotted checkpoint %d: a late or copied barrier, ignored", me, n)
		}
		s.Snapshots = append(s.Snapshots, SinkSnapshot{N: n, Count: append([]int(nil), s.Count...), Last: append([]int(nil), s.Last...)})
		s.ack(env, n, true)
		env.Annotate(sim.At(RoleSnapshot, n, s.outputWords()))
		return fmt.Sprintf("%s gets barrier %d: it snapshots its output (%s) and ACKs JM", me, n, s.outputWords())
	}
	return fmt.Sprintf("%s ignores %s: it takes records and barriers from Op", me, describe(m))
}

// count is Sink's rule for a record: count it, and say so when it was
// counted before or its predecessor never came.
func (s *Sink) count(env *sim.Env, r record, id int) string {
	me := env.Name(env.Self())
	i := r.Source - 1
	if i < 0 || i >= len(s.Count) {
		return fmt.Sprintf("%s ignores %s: no source of that name", me, r.label())
	}
	from := env.Name(sim.NodeID(r.Source))
	last := s.Last[i]
	s.Count[i]++
	switch {
	case r.Seq <= last:
		s.Twice++
		env.Annotate(sim.At(RoleTwice, r.Source, r.label()+" counted twice").About(id))
		return fmt.Sprintf("%s counts %s, but its output from %s already goes up to %s: %s is counted twice (%d records from %s for %s..%s)",
			me, r.label(), from, recordLabel(r.Source, last), r.label(), s.Count[i], from, recordLabel(r.Source, 1), recordLabel(r.Source, last))
	case r.Seq > last+1:
		s.Missing++
		s.Last[i] = r.Seq
		env.Annotate(sim.At(RoleMissing, r.Source, recordLabel(r.Source, last+1)+" missing").About(id))
		return fmt.Sprintf("%s counts %s, but %s never came: its output from %s skips a record", me, r.label(), recordLabel(r.Source, last+1), from)
	}
	s.Last[i] = r.Seq
	return fmt.Sprintf("%s counts %s (%d from %s)", me, r.label(), s.Count[i], from)
}

// outputWords is the output per source: "a 4, b 5".
func (s *Sink) outputWords() string { return outputWords(s.Count, s.Last) }

func outputWords(count, last []int) string {
	parts := make([]string, len(count))
	for i := range count {
		letter := string(rune('a' + i))
		if count[i] == last[i] {
			parts[i] = fmt.Sprintf("%s: %d", letter, count[i])
		} else {
			parts[i] = fmt.Sprintf("%s: %d (for %s1..%s%d)", letter, count[i], letter, letter, last[i])
		}
	}
	return strings.Join(parts, ", ")
}

func (s *Sink) forget() {
	s.Count, s.Last = make([]int, len(s.Count)), make([]int, len(s.Last))
}

// rollBack restores checkpoint c's output.
func (s *Sink) rollBack(env *sim.Env, c int) string {
	s.forget()
	snap, found := find(s.Snapshots, c)
	if found {
		s.Count, s.Last = append([]int(nil), snap.Count...), append([]int(nil), snap.Last...)
	}
	if !found && c != 0 {
		return fmt.Sprintf("it has no snapshot of checkpoint %d, so it starts from nothing", c)
	}
	return fmt.Sprintf("its output goes back to what %s holds (%s): what it took since was never committed", checkpointWords(c), s.outputWords())
}

// hasSnapshot says whether Sink holds a snapshot of checkpoint c.
func (s *Sink) hasSnapshot(c int) bool {
	_, ok := find(s.Snapshots, c)
	return ok
}

// label is Sink's state line in the topology view.
func (s *Sink) label() string {
	if s.Awaiting {
		return "waiting for RESTORE"
	}
	return s.outputWords()
}

// Inspect shows the output.
func (s *Sink) Inspect() []sim.Field {
	return []sim.Field{{Name: "output", Value: s.outputWords()}, s.attemptField()}
}

// Clone copies Sink.
func (s *Sink) Clone() sim.Node {
	c := *s
	c.Task = s.Task.clone()
	c.Count = append([]int(nil), s.Count...)
	c.Last = append([]int(nil), s.Last...)
	c.Snapshots = sim.Handoff(&s.Snapshots) // never changed once taken
	return &c
}
