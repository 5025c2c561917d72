package barrier

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// Operator is Op: it has an input from every source, counts the records it
// processes and forwards each to Sink. It takes checkpoint n once barrier n
// has come on every input. Aligned, it buffers what an input sends after
// its barrier until the other inputs' barriers are in, so that its
// snapshot holds exactly the records before the barriers; unaligned, it
// goes on processing them, and its snapshot holds records the sources'
// offsets do not.
type Operator struct {
	Task
	Aligned bool
	// Count is how many records it has processed, and Last[i] the number
	// of the last record it processed from input i (source i+1).
	Count int
	Last  []int
	// Pending are the checkpoints whose barriers have come on some inputs
	// but not all, oldest first: at most one when aligned.
	Pending []Alignment
	// Passed is the latest checkpoint it snapshotted or gave up: a barrier
	// of one up to it is late or a copy.
	Passed int
	// Buffer holds, in arrival order, what blocked inputs sent while it
	// aligns.
	Buffer []Item
	// records counts the records (not barriers) in Buffer, so that a
	// caption need not count them at every record buffered.
	records int
	// Snapshots are its checkpoints, on stable storage.
	Snapshots []OpSnapshot
	// Buffered counts the records it ever buffered, and Barriers the
	// barriers it forwarded.
	Buffered, Barriers int
}

// Alignment is a checkpoint Op waits for: which inputs' barriers are in.
type Alignment struct {
	N       int
	Arrived []bool
}

// Item is a record or a barrier held in Op's alignment buffer.
type Item struct {
	Input int
	// Barrier says it is barrier N; otherwise it is record Seq.
	Barrier bool
	N, Seq  int
}

// OpSnapshot is Op's state at checkpoint N.
type OpSnapshot struct {
	N, Count int
	Last     []int
}

// Step reacts to one event.
func (o *Operator) Step(env *sim.Env, ev sim.Event) { stepTask(o, env, ev) }

func (o *Operator) start(env *sim.Env) string {
	rule := "aligned: once a barrier has come on an input, it buffers that input's records until the same barrier has come on every input"
	if !o.Aligned {
		rule = "alignment is off: it processes every record at once, barrier or not (at-least-once)"
	}
	inputs := "its input from S1"
	if k := len(o.Last); k > 1 {
		inputs = fmt.Sprintf("its %d inputs, one from each source", k)
	}
	return fmt.Sprintf("%s counts the records of %s and forwards them to Sink; %s", env.Name(env.Self()), inputs, rule)
}

// input is the input a source's messages come on, or false for a process
// that is no source.
func (o *Operator) input(from sim.NodeID) (int, bool) {
	i := int(from) - 1
	return i, i >= 0 && i < len(o.Last)
}

func (o *Operator) take(env *sim.Env, from sim.NodeID, m sim.Message, id int) string {
	me, them := env.Name(env.Self()), env.Name(from)
	i, ok := o.input(from)
	if !ok || (m.Kind != KindRecord && m.Kind != KindBarrier) {
		return fmt.Sprintf("%s ignores %s from %s: it takes records and barriers from the sources", me, describe(m), them)
	}
	it := Item{Input: i, Barrier: m.Kind == KindBarrier, N: int(m.Value), Seq: readRecord(m).Seq}
	text, did := o.admit(env, it)
	switch {
	case did == processed:
		text = o.processedWords(env, it)
	case did == buffered && !it.Barrier:
		o.Buffered++ // counted once, though a release may buffer it again
	}
	return fmt.Sprintf("%s gets %s from %s: %s", me, itemWords(it), them, text)
}

// blocked says whether input i is blocked: aligned, with its barrier of
// the checkpoint being aligned in.
func (o *Operator) blocked(i int) bool {
	return o.Aligned && len(o.Pending) > 0 && o.Pending[0].Arrived[i]
}

// outcome is what Op did with a record or barrier.
type outcome uint8

// The outcomes.
const (
	processed outcome = iota
	buffered
	tookBarrier
)

// admit is Op's rule for one record or barrier of an input: buffer it,
// process it, or take the barrier. It says what it did (for a processed
// record the words are the caller's, which knows where it is).
func (o *Operator) admit(env *sim.Env, it Item) (string, outcome) {
	if o.blocked(it.Input) {
		o.Buffer = append(o.Buffer, it)
		if !it.Barrier {
			o.records++
		}
		waiting := o.waitingFor(env, o.Pending[0])
		if it.Barrier {
			return fmt.Sprintf("%s is blocked while Op aligns checkpoint %d, so the barrier waits in the buffer behind its records (still waiting for %s)",
				o.sourceName(env, it.Input), o.Pending[0].N, waiting), buffered
		}
		return fmt.Sprintf("%s's barrier %d is in, so %s waits in the buffer until %s's comes (%d buffered: %s)",
			o.sourceName(env, it.Input), o.Pending[0].N, recordLabel(it.Input+1, it.Seq), waiting, o.bufferedRecords(), o.bufferWords(wordsListed)), buffered
	}
	if it.Barrier {
		return o.barrier(env, it), tookBarrier
	}
	o.process(env, it)
	return "", processed
}

// process counts a record and forwards it to Sink.
func (o *Operator) process(env *sim.Env, it Item) {
	o.Count++
	o.Last[it.Input] = it.Seq
	env.Send(sink(env.N()), record{Source: it.Input + 1, Seq: it.Seq, Attempt: o.Attempt}.message())
}

func (o *Operator) processedWords(env *sim.Env, it Item) string {
	text := fmt.Sprintf("it processes it (count %d) and forwards it to Sink", o.Count)
	for _, p := range o.Pending {
		if p.Arrived[it.Input] { // only unaligned: aligned, the input is blocked
			rec := recordLabel(it.Input+1, it.Seq)
			text += fmt.Sprintf(". %s's barrier %d is already in, so without alignment %s counts in Op's snapshot %d, though a restore of checkpoint %d has %s replay it",
				o.sourceName(env, it.Input), p.N, rec, p.N, p.N, o.sourceName(env, it.Input))
			break
		}
	}
	return text
}

// barrier takes barrier n of an input that is not blocked.
func (o *Operator) barrier(env *sim.Env, it Item) string {
	n := it.N
	if n <= o.Passed {
		return fmt.Sprintf("Op is past checkpoint %d already: a late or copied barrier, ignored", n)
	}
	var text []string
	if o.Aligned && len(o.Pending) > 0 && o.Pending[0].N > n {
		// another input is past checkpoint n already: its barrier n was lost
		o.Passed = max(o.Passed, n)
		return fmt.Sprintf("Op already aligns checkpoint %d, so checkpoint %d can no longer complete here: the barrier is ignored", o.Pending[0].N, n)
	}
	for o.Aligned && len(o.Pending) > 0 && o.Pending[0].N < n {
		// the older checkpoint's barrier on this input never came (lost):
		// it cannot align any more, and what it held back flows again
		old := o.Pending[0].N
		o.giveUp(env, old)
		text = append(text, fmt.Sprintf("barrier %d came before %s's barrier %d, so checkpoint %d can no longer align: Op gives it up", n, o.sourceName(env, it.Input), old, old))
		if s := o.release(env); s != "" {
			text = append(text, s)
		}
	}
	if n <= o.Passed || (o.Aligned && len(o.Pending) > 0 && o.Pending[0].N > n) {
		o.Passed = max(o.Passed, n)
		return strings.Join(append(text, fmt.Sprintf("checkpoint %d can no longer complete here: the barrier is ignored", n)), "; ")
	}
	p := o.pending(env, n)
	if p.Arrived[it.Input] {
		return fmt.Sprintf("Op has barrier %d from %s already: a copy, ignored", n, o.sourceName(env, it.Input))
	}
	p.Arrived[it.Input] = true
	if !allTrue(p.Arrived) {
		if o.Aligned {
			text = append(text, fmt.Sprintf("it aligns checkpoint %d: %s is blocked, and its records wait in a buffer until barrier %d comes from %s", n, o.sourceName(env, it.Input), n, o.waitingFor(env, *p)))
		} else {
			text = append(text, fmt.Sprintf("it waits for barrier %d from %s; alignment is off, so it goes on processing %s's records", n, o.waitingFor(env, *p), o.sourceName(env, it.Input)))
		}
		return strings.Join(text, "; ")
	}
	text = append(text, o.snapshot(env, n))
	if s := o.release(env); s != "" {
		text = append(text, s)
	}
	return strings.Join(text, "; ")
}

// pending finds the alignment of checkpoint n, opening it if it is new.
func (o *Operator) pending(env *sim.Env, n int) *Alignment {
	at := len(o.Pending)
	for i := range o.Pending {
		if o.Pending[i].N == n {
			return &o.Pending[i]
		}
		if o.Pending[i].N > n {
			at = i
			break
		}
	}
	o.Pending = append(o.Pending, Alignment{})
	copy(o.Pending[at+1:], o.Pending[at:])
	o.Pending[at] = Alignment{N: n, Arrived: make([]bool, len(o.Last))}
	if len(o.Last) > 1 {
		text := "aligning"
		if !o.Aligned {
			text = "waiting for barriers"
		}
		env.Annotate(sim.Opens(RoleAligning, n, fmt.Sprintf("%s ‖%d", text, n)))
	}
	return &o.Pending[at]
}

// giveUp drops the alignment of checkpoint n.
func (o *Operator) giveUp(env *sim.Env, n int) {
	for i, p := range o.Pending {
		if p.N == n {
			o.Pending = append(o.Pending[:i], o.Pending[i+1:]...)
			break
		}
	}
	if len(o.Last) > 1 {
		env.Annotate(sim.Closes(RoleAligning, n))
	}
	o.Passed = max(o.Passed, n)
}

// snapshot takes checkpoint n: state to stable storage, the barrier on to
// Sink, an ACK to JM. Older checkpoints still pending can never complete
// here now (a barrier of theirs was lost): they are given up.
func (o *Operator) snapshot(env *sim.Env, n int) string {
	for len(o.Pending) > 0 && o.Pending[0].N <= n {
		o.giveUp(env, o.Pending[0].N)
	}
	o.Snapshots = append(o.Snapshots, OpSnapshot{N: n, Count: o.Count, Last: append([]int(nil), o.Last...)})
	env.Send(sink(env.N()), barrierMessage(n, o.Attempt))
	o.Barriers++
	o.ack(env, n, true)
	env.Annotate(sim.At(RoleSnapshot, n, fmt.Sprintf("count %d", o.Count)))
	return fmt.Sprintf("barrier %d has now come on every input, so Op snapshots its state (count %d, %s), forwards barrier %d to Sink and ACKs JM",
		n, o.Count, o.lastWords(), n)
}

// release takes what the buffer holds, in order, now that an alignment is
// over; what an input that is blocked again sends goes back in the buffer.
func (o *Operator) release(env *sim.Env) string {
	items := o.Buffer
	o.Buffer, o.records = nil, 0
	var processedLabels, events []string
	for _, it := range items {
		switch text, did := o.admit(env, it); did {
		case processed:
			processedLabels = append(processedLabels, recordLabel(it.Input+1, it.Seq))
		case tookBarrier:
			events = append(events, text)
		}
	}
	var out []string
	if len(processedLabels) > 0 {
		out = append(out, fmt.Sprintf("then it processes the buffered %s and forwards them to Sink (count %d)", strings.Join(processedLabels, " "), o.Count))
	}
	out = append(out, events...)
	if len(o.Buffer) > 0 {
		out = append(out, fmt.Sprintf("%d wait in the buffer again", len(o.Buffer)))
	}
	return strings.Join(out, "; ")
}

// waitingFor names the inputs whose barrier of p has not come.
func (o *Operator) waitingFor(env *sim.Env, p Alignment) string {
	var names []string
	for i, in := range p.Arrived {
		if !in {
			names = append(names, o.sourceName(env, i))
		}
	}
	return strings.Join(names, " and ")
}

func (o *Operator) sourceName(env *sim.Env, input int) string { return env.Name(sim.NodeID(input + 1)) }

// bufferWords lists the buffered records, "a6 a7", the first most of
// them and then "…" (most < 0: all). A caption is written for every record
// buffered, so it names a few, not the whole buffer.
func (o *Operator) bufferWords(most int) string {
	var labels []string
	for _, it := range o.Buffer {
		if it.Barrier {
			continue
		}
		if len(labels) == most {
			labels = append(labels, "…")
			break
		}
		labels = append(labels, recordLabel(it.Input+1, it.Seq))
	}
	return strings.Join(labels, " ")
}

// wordsListed is how many buffered records a caption or a state line names.
const wordsListed = 6

// bufferedRecords counts the records in the buffer.
func (o *Operator) bufferedRecords() int { return o.records }

// lastWords names the last record processed from each input: "up to a5, b4".
func (o *Operator) lastWords() string {
	parts := make([]string, len(o.Last))
	for i, seq := range o.Last {
		if seq == 0 {
			parts[i] = fmt.Sprintf("nothing from S%d", i+1)
		} else {
			parts[i] = recordLabel(i+1, seq)
		}
	}
	return "up to " + strings.Join(parts, ", ")
}

func itemWords(it Item) string {
	if it.Barrier {
		return fmt.Sprintf("barrier %d", it.N)
	}
	return recordLabel(it.Input+1, it.Seq)
}

// hasSnapshot says whether Op holds a snapshot of checkpoint c.
func (o *Operator) hasSnapshot(c int) bool {
	_, ok := find(o.Snapshots, c)
	return ok
}

func (o *Operator) forget() {
	o.Count, o.Last = 0, make([]int, len(o.Last))
	o.Pending, o.Buffer, o.Passed, o.records = nil, nil, 0, 0
}

// rollBack restores checkpoint c and drops the alignment in progress and
// its buffer: they belong to the failed attempt.
func (o *Operator) rollBack(env *sim.Env, c int) string {
	dropped := o.bufferedRecords()
	for len(o.Pending) > 0 {
		o.giveUp(env, o.Pending[0].N)
	}
	o.Buffer, o.records = nil, 0
	o.Count, o.Last = 0, make([]int, len(o.Last))
	snap, found := find(o.Snapshots, c)
	if found {
		o.Count, o.Last = snap.Count, append([]int(nil), snap.Last...)
	}
	found = found || c == 0
	text := fmt.Sprintf("count %d, %s", o.Count, o.lastWords())
	if !found {
		text = fmt.Sprintf("it has no snapshot of checkpoint %d, so it starts from nothing", c)
	}
	if dropped > 0 {
		text += fmt.Sprintf(", and it drops the %d record(s) of its buffer", dropped)
	}
	return text
}

// blockedInputs are the links Op holds back: blocked inputs, and those it
// holds messages of a newer attempt from.
func (o *Operator) blockedInputs(self sim.NodeID) [][2]sim.NodeID {
	var out [][2]sim.NodeID
	for i := range o.Last {
		if o.blocked(i) {
			out = append(out, [2]sim.NodeID{sim.NodeID(i + 1), self})
		}
	}
	return append(out, o.heldFrom(self)...)
}

// label is Op's state line in the topology view.
func (o *Operator) label() string {
	switch {
	case o.Awaiting:
		return "waiting for RESTORE"
	case len(o.Buffer) > 0:
		return fmt.Sprintf("count %d · buffering %s", o.Count, o.bufferWords(4))
	}
	return fmt.Sprintf("count %d", o.Count)
}

// Inspect shows Op's count, its alignment and its buffer.
func (o *Operator) Inspect() []sim.Field {
	f := []sim.Field{{Name: "count", Value: fmt.Sprint(o.Count)}, {Name: "processed", Value: o.lastWords()}, o.attemptField()}
	for _, p := range o.Pending {
		var in []string
		for i, ok := range p.Arrived {
			if ok {
				in = append(in, fmt.Sprintf("S%d", i+1))
			}
		}
		f = append(f, sim.Field{Name: fmt.Sprintf("checkpoint %d", p.N), Value: "barriers from " + strings.Join(in, ", ")})
	}
	if len(o.Buffer) > 0 {
		f = append(f, sim.Field{Name: "buffer", Value: o.bufferWords(-1)})
	}
	return f
}

// Clone copies Op.
func (o *Operator) Clone() sim.Node {
	c := *o
	c.Task = o.Task.clone()
	c.Last = append([]int(nil), o.Last...)
	c.Pending = make([]Alignment, len(o.Pending))
	for i, p := range o.Pending {
		c.Pending[i] = Alignment{N: p.N, Arrived: append([]bool(nil), p.Arrived...)}
	}
	// the buffer and the snapshots only grow at their ends (a snapshot's
	// Last is never changed): the copy shares them
	c.Buffer = sim.Handoff(&o.Buffer)
	c.Snapshots = sim.Handoff(&o.Snapshots)
	return &c
}

func allTrue(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}
