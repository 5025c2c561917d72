package barrier

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

func jobManager(v sim.View) *JobManager { return v.Node(JM).(*JobManager) }
func op(v sim.View) *Operator           { return v.Node(operator(v.N())).(*Operator) }
func output(v sim.View) *Sink           { return v.Node(sink(v.N())).(*Sink) }
func source(v sim.View, s int) *Source  { return v.Node(sim.NodeID(s)).(*Source) }
func taskOf(v sim.View, id sim.NodeID) task {
	return v.Node(id).(task)
}

// exactlyOnce is the point of the whole job: Sink's output holds every
// record up to the last it took from each source, once.
var exactlyOnce = sim.Invariant{
	Name: ExactlyOnceName,
	Help: "Sink's output from each source holds every record up to the last it took, each once: none counted twice, none skipped",
	Check: func(v sim.View) sim.Verdict {
		s := output(v)
		for i := range s.Count {
			if s.Count[i] == s.Last[i] {
				continue
			}
			return sim.Verdict{Detail: wrongOutput(v, s, i), Msgs: culprits(v, i+1)}
		}
		return sim.Verdict{OK: true}
	},
}

// wrongOutput says what is wrong with Sink's output from source i+1, by
// the annotation of the step that made it so.
func wrongOutput(v sim.View, s *Sink, i int) string {
	from := v.Name(sim.NodeID(i + 1))
	state := fmt.Sprintf("Sink's output from %s holds %d records for %s..%s", from, s.Count[i], recordLabel(i+1, 1), recordLabel(i+1, s.Last[i]))
	for _, a := range v.LastAnnotations() {
		switch {
		case a.Role == RoleTwice && a.Group == i+1:
			return strings.TrimSuffix(a.Text, " counted twice") + " is counted twice: " + state
		case a.Role == RoleMissing && a.Group == i+1:
			return strings.TrimSuffix(a.Text, " missing") + " never reached Sink: " + state
		}
	}
	return state
}

// culprits are the messages to point at: the RECORD this step's
// annotation is about, and for a record counted twice the earlier RECORD
// that brought it to Sink first.
func culprits(v sim.View, source int) []int {
	var msgs []int
	for _, a := range v.LastAnnotations() {
		if (a.Role != RoleTwice && a.Role != RoleMissing) || a.Group != source || a.Msg < 0 {
			continue
		}
		msgs = append(msgs, a.Msg)
		if a.Role != RoleTwice {
			continue
		}
		twice := v.Envelope(a.Msg)
		for id := range a.Msg {
			e := v.Envelope(id)
			if e.Kind == KindRecord && e.To == twice.To && e.RecvStep >= 0 && datum(e.Message, 0) == source && datum(e.Message, 1) == datum(twice.Message, 1) {
				msgs = append([]int{id}, msgs...)
				break
			}
		}
	}
	return msgs
}

// restoresCompleted checks what JM restores: at a task's restore, the
// checkpoint is the initial state or one every task has a snapshot of,
// and the tasks that are in the attempt all restored the same one.
var restoresCompleted = sim.Invariant{
	Name: RestoreName,
	Help: "a task restores the initial state or a checkpoint every task snapshotted, and every task of an attempt restores the same one",
	Check: func(v sim.View) sim.Verdict {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleRestored {
				continue
			}
			return checkRestore(v, a.Group)
		}
		return sim.Verdict{OK: true}
	},
}

func checkRestore(v sim.View, attempt int) sim.Verdict {
	first := sim.NodeID(sim.None)
	for id := sim.NodeID(1); int(id) < v.N(); id++ {
		t := taskOf(v, id).base()
		if t.Attempt != attempt {
			continue
		}
		if first == sim.None {
			first = id
		}
		if c := taskOf(v, first).base().Restored; t.Restored != c {
			return sim.Verdict{Detail: fmt.Sprintf("in attempt %d %s restored %s but %s restored %s", attempt, v.Name(first), checkpointWords(c), v.Name(id), checkpointWords(t.Restored))}
		}
	}
	if first == sim.None {
		return sim.Verdict{OK: true}
	}
	c := taskOf(v, first).base().Restored
	if c == 0 {
		return sim.Verdict{OK: true}
	}
	for id := sim.NodeID(1); int(id) < v.N(); id++ {
		if !taskOf(v, id).hasSnapshot(c) {
			return sim.Verdict{Detail: fmt.Sprintf("attempt %d restores checkpoint %d, which %s never snapshotted: it was never complete", attempt, c, v.Name(id))}
		}
	}
	return sim.Verdict{OK: true}
}

// figures are the run's counts, read from the processes.
type figures struct {
	emitted, output, twice, missing, stale, buffered, control, barriers, triggered int
}

func countsOf(v sim.View) figures {
	var f figures
	j := jobManager(v)
	f.control, f.triggered = j.Control, j.Next-1
	for s := 1; s <= sources(v.N()); s++ {
		src := source(v, s)
		f.emitted += src.Emitted
		f.barriers += src.Barriers
		f.control += src.Control
		f.stale += src.Stale
	}
	o, s := op(v), output(v)
	f.buffered, f.barriers = o.Buffered, f.barriers+o.Barriers
	f.control += o.Control + s.Control
	f.stale += o.Stale + s.Stale
	for _, c := range s.Count {
		f.output += c
	}
	f.twice, f.missing = s.Twice, s.Missing
	return f
}

func metrics(v sim.View) []sim.Metric {
	f := countsOf(v)
	j := jobManager(v)
	return []sim.Metric{
		{Name: "records_emitted", Value: f.emitted},
		{Name: "output_records", Value: f.output},
		{Name: "duplicates", Value: f.twice},
		{Name: "missing_records", Value: f.missing},
		{Name: "checkpoints_triggered", Value: f.triggered},
		{Name: "checkpoints_completed", Value: len(j.Completed)},
		{Name: "last_completed", Value: j.last()},
		{Name: "attempt", Value: j.Attempt},
		{Name: "buffered_records", Value: f.buffered},
		{Name: "stale_dropped", Value: f.stale},
		{Name: "control_messages", Value: f.control},
		{Name: "barriers", Value: f.barriers},
	}
}

// formula compares the barriers sent with one per source and one from Op
// for every checkpoint triggered.
func formula(v sim.View) string {
	f := countsOf(v)
	k := sources(v.N())
	return fmt.Sprintf("Barriers: %d sent; every checkpoint takes one per source and one from Op: (%d + 1) × %d triggered = %d.",
		f.barriers, k, f.triggered, (k+1)*f.triggered)
}

// done: every source has emitted all its records, and Sink has counted
// each once.
func done(v sim.View) bool {
	records := output(v).Records
	for s := 1; s <= sources(v.N()); s++ {
		if src := source(v, s); src.Awaiting || src.Next <= src.Records {
			return false
		}
	}
	s := output(v)
	for i := range s.Count {
		if s.Count[i] != records || s.Last[i] != records {
			return false
		}
	}
	return true
}

// panels is one table of every process: where it is in its stream, what
// it buffers, its attempt and its checkpoints.
func panels(v sim.View) []sim.Panel {
	j := jobManager(v)
	p := sim.Panel{
		Title:   "Job",
		Note:    "A checkpoint is complete once JM has an ACK from every task; after a failure every task restores the last completed one, and the sources replay from its offsets.",
		Columns: []string{"process", "position", "buffered", "attempt", "checkpoints"},
	}
	p.Rows = append(p.Rows, sim.Row{Cells: []string{v.Name(JM), fmt.Sprintf("next checkpoint %d", j.Next), "–", fmt.Sprint(j.Attempt), fmt.Sprintf("%d completed, last %s", len(j.Completed), j.lastWords())}})
	for id := sim.NodeID(1); int(id) < v.N(); id++ {
		t := taskOf(v, id)
		b := t.base()
		attempt := fmt.Sprint(b.Attempt)
		var em []string
		if b.Awaiting {
			attempt += " (failed)"
			em = []string{"", "", "", "bad", ""}
		}
		buffered := "–"
		position := ""
		var last int
		switch t := t.(type) {
		case *Source:
			position, last = "offset "+t.offsetWords(), latest(t.Snapshots)
		case *Operator:
			position, last = fmt.Sprintf("count %d", t.Count), latest(t.Snapshots)
			buffered = "none"
			if k := t.bufferedRecords(); k > 0 {
				buffered = fmt.Sprintf("%d: %s", k, t.bufferWords(wordsListed))
			}
		case *Sink:
			position, last = "output "+t.outputWords(), latest(t.Snapshots)
			if t.Twice > 0 {
				em = []string{"", "bad", "", "", ""}
			}
		}
		if b.Awaiting {
			position = "lost in its crash"
		}
		if len(b.Held) > 0 {
			buffered = fmt.Sprintf("%s; %d held for attempt %d", buffered, len(b.Held), attemptOf(b.Held[0].Msg))
		}
		snap := "none"
		if last > 0 {
			snap = fmt.Sprintf("last snapshot %d", last)
		}
		p.Rows = append(p.Rows, sim.Row{Cells: []string{v.Name(id), position, buffered, attempt, snap}, CellEmphasis: em})
	}
	return []sim.Panel{p}
}

// topology is the dataflow graph: JM triggers the sources, which feed Op,
// which feeds Sink.
func topology(v sim.View) *sim.Topology {
	n := v.N()
	t := &sim.Topology{Kind: sim.Graph, Directed: true}
	for s := 1; s <= sources(n); s++ {
		t.Edges = append(t.Edges, [2]sim.NodeID{JM, sim.NodeID(s)}, [2]sim.NodeID{sim.NodeID(s), operator(n)})
	}
	t.Edges = append(t.Edges, [2]sim.NodeID{operator(n), sink(n)})
	return t
}

// overlays write each process's state under it in the dataflow graph,
// and draw an input Op holds back as held.
func overlays(v sim.View) []sim.Overlay {
	out := []sim.Overlay{{Role: RoleState, Node: JM, Text: jobManager(v).label()}}
	for id := sim.NodeID(1); int(id) < v.N(); id++ {
		r := taskOf(v, id)
		out = append(out, sim.Overlay{Role: RoleState, Node: id, Text: r.label()})
		held := r.base().heldFrom(id)
		if o, ok := r.(*Operator); ok {
			held = o.blockedInputs(id)
		}
		for _, e := range held {
			out = append(out, sim.Overlay{Role: RoleHeld, Node: e[0], Peer: e[1]})
		}
	}
	return out
}
