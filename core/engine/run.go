package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"

	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Failure is the first step at which an invariant failed.
type Failure struct {
	Name string
	// Step is the first failing step, -1 while the invariant holds.
	Step   int
	Detail string
	Msgs   []int
}

// Run is one scenario's run: its trace, the learner's inputs, keyframes to
// seek with, and the first failure of each invariant.
type Run struct {
	cfg    Config
	trace  *trace.Trace
	inputs []Input
	// keyframes are copies of the world to seek from, by step ascending;
	// the next is taken at step nextKeyframe.
	keyframes    []*world
	nextKeyframe int
	head         *world
	cache        *world
	failures     []Failure
	// Stopped says why the run ended.
	stopped string
	// failed is the first step a process could not take (its program
	// failed), which ends the run; nil while none has.
	failed *StepError
	// version counts the changes of the trace (one per learner input).
	version int
	env     sim.Env

	// replaying is set while a step is replayed for seeking, not recorded.
	replaying bool
	// replayed is the record a replayed step is written in: the trace
	// already holds the step, and a replay sets none of a record's parts
	// that hold pointers (its stamp, caption or extra part), so it is
	// never cleared. A local record would escape to the heap on every
	// step, through the fault world.
	replayed trace.Record
	// stamps, annotations and extras keep the records' parts in blocks,
	// and received the receivers' copies of messages' data.
	stamps      blocks[int32]
	annotations blocks[sim.Annotation]
	extras      blocks[trace.Extra]
	timerNotes  blocks[trace.TimerNote]
	received    blocks[int64]
	// kinds numbers the spec's message kinds, for the totals in flight.
	kinds    map[string]int
	labels   map[string]string
	headView *view

	scratchNodes []sim.NodeID
	scratchChans []busyChannel
	// firsts indexes the annotations of the roles asked about (indexed):
	// for a role and group, the first step at which each process made one
	// (-1: none yet). A role is indexed from the first time it is asked
	// about, so that a run whose checks ask about none pays nothing.
	firsts  map[annotationKey][]int
	indexed []string
	// flips indexes the intervals of the same roles: for a role and
	// group, the steps at which each process's interval opened or closed,
	// in order (open after an odd number of them).
	flips map[annotationKey][][]int

	// What a budget of memory has been charged for, beyond each step's
	// records: the room of the trace's records and messages, the live
	// world (as big as a keyframe of it), and the processes' states.
	roomRecords, roomMsgs int
	liveWorld             int64
	nodes                 nodeReckoning
	// text counts the bytes of text the step being recorded made that its
	// record does not keep (a caption a timer's firing rewrote), and the
	// copies of message data its receiver got.
	text int
}

// nodeReckoning is what a run within a budget of memory reckons its
// processes' states hold (see nodeSizer). Walking them every step would
// cost more than the step, so they are measured every so often (the
// larger they are, the less often: about nodeVisitsPerStep values walked
// a step, and, while they grow, at least every time the run doubles) and,
// in between, are reckoned to grow as they grew between the last two
// measures.
type nodeReckoning struct {
	sizer nodeSizer
	// charged is what the budget holds for them; size and at the last
	// measure and its step (-1: none yet); base what the first measure
	// found; rate the bytes a step they are reckoned to grow by; next the
	// step of the next measure.
	charged, size, base, rate int64
	at, next                  int
}

// Spacing of the measures of the processes' states.
const (
	nodeVisitsPerStep  = 2
	nodeMeasureAtLeast = 1024
)

// annotationKey names the annotations of one role and group.
type annotationKey struct {
	role  string
	group int
}

// New starts a run and advances it until its Until condition.
func New(cfg Config) (*Run, error) {
	r, err := start(cfg)
	if err != nil {
		return nil, err
	}
	r.extend()
	return r, nil
}

// NewWithInputs starts a run with a learner's inputs (a link's), in one
// pass: the run up to each input, the input, and on to the Until
// condition, so that opening a link with inputs costs one run, not a run
// and then a replay of most of it. Inputs come in increasing step order.
// An input that cannot happen ends the inputs: the run keeps those before
// it and goes on, and the error says why (ErrPastTheEnd when the run ended
// before its step).
func NewWithInputs(cfg Config, inputs []Input) (*Run, error) {
	r, err := start(cfg)
	if err != nil {
		return nil, err
	}
	if err := checkOrder(inputs); err != nil {
		r.extend()
		return r, err
	}
	return r, r.replayAt(r.head, inputs)
}

// start makes a run at step 0, not yet advanced.
func start(cfg Config) (*Run, error) {
	if cfg.Spec == nil || len(cfg.Nodes) == 0 || len(cfg.Nodes) != len(cfg.Names) {
		return nil, errors.New("engine: a run needs a spec and one name per node")
	}
	for _, id := range cfg.Down {
		if id < 0 || int(id) >= len(cfg.Nodes) {
			return nil, fmt.Errorf("engine: there is no process %d to start down", id.Number())
		}
	}
	if cfg.KeyframeEvery <= 0 {
		// a keyframe copies what changed of the processes and channels:
		// space them out as the world grows, so that memory stays flat and
		// a seek replays a few hundred microseconds' worth of steps
		cfg.KeyframeEvery = 128 * max(1, len(cfg.Nodes)/4)
	}
	byTime := func(a, b Timed) int { return cmp.Compare(a.At, b.At) }
	if !slices.IsSortedFunc(cfg.Script, byTime) { // a long script is mostly written in order
		slices.SortStableFunc(cfg.Script, byTime)
	}
	tr := &trace.Trace{Names: cfg.Names, Down: append([]sim.NodeID(nil), cfg.Down...)}
	r := &Run{cfg: cfg, trace: tr, kinds: map[string]int{}, labels: map[string]string{}, firsts: map[annotationKey][]int{}, flips: map[annotationKey][][]int{}, nodes: nodeReckoning{at: -1}}
	r.reserve()
	for i, k := range cfg.Spec.Kinds {
		r.kinds[k.Name] = i
	}
	for _, inv := range cfg.Spec.Checks.Invariants {
		r.failures = append(r.failures, Failure{Name: inv.Name, Step: -1})
	}
	r.head = newWorld(&r.cfg)
	r.keyframes = []*world{r.head.clone()}
	r.nextKeyframe = cfg.KeyframeEvery
	return r, nil
}

// SetBudget bounds the run's next extensions (a learner's input, a replay
// of inputs) by b instead of the budget it was made with; nil: no bound.
func (r *Run) SetBudget(b *Budget) { r.cfg.Budget = b }

// Version changes whenever the trace does (a learner input forks the run),
// so that what is derived from the trace can be cached.
func (r *Run) Version() int { return r.version }

// Config returns the run's configuration.
func (r *Run) Config() *Config { return &r.cfg }

// Trace is the record of the whole run. Do not modify it.
func (r *Run) Trace() *trace.Trace { return r.trace }

// reserve sizes the trace for what the run is known to hold, so that a
// long run's records and messages are allocated once instead of copied as
// they grow (copying arrays that hold pointers is what a garbage
// collector pays most for, in wasm above all). A run of a known number of
// steps holds that many records; otherwise every script entry is a step,
// and every scripted delivery delivers a message that was sent. Both are
// capped, since a learner's input may still cut the run short, and a run
// within a budget of memory reserves at most half of it for its records
// and a quarter for its messages.
func (r *Run) reserve() {
	mostSteps, mostMsgs := 1<<18, 1<<18
	if b := r.cfg.Budget; b != nil && b.Bytes > 0 {
		mostSteps = int(min(int64(mostSteps), b.Bytes/2/recordBytes))
		mostMsgs = int(min(int64(mostMsgs), b.Bytes/4/msgBytes))
	}
	steps, msgs := 0, 0
	if len(r.cfg.Script) > 1024 {
		steps = len(r.cfg.Script) + len(r.cfg.Nodes)
		for _, e := range r.cfg.Script {
			if e.Fault == "" && e.Command == "" {
				msgs++
			}
		}
	}
	if u := r.cfg.Until; u.Steps > 0 && u.Time == 0 && !u.Done && !u.Quiescent {
		steps = u.Steps
	}
	if steps > 0 {
		r.trace.Records = make([]trace.Record, 0, min(steps, mostSteps))
	}
	if msgs > 1024 {
		r.trace.Msgs = make([]trace.Msg, 0, min(msgs, mostMsgs))
	}
}

// Len is the number of steps in the run.
func (r *Run) Len() int { return len(r.trace.Records) }

// Inputs are the learner's inputs, by step.
func (r *Run) Inputs() []Input { return r.inputs }

// Stopped says why the run ended: "steps", "time", "done", "quiescent", or
// StoppedBudget.
func (r *Run) Stopped() string { return r.stopped }

// StoppedFailed is Stopped() of a run that ended because a process
// could not take a step (see sim.Env.Fail).
const StoppedFailed = "failed"

// StepError is a step a process could not take: its program failed.
type StepError struct {
	// Step is the step, counted from 0; Node the process.
	Step int
	Node sim.NodeID
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %v", e.Step+1, e.Err) }

// Unwrap is the process's own error.
func (e *StepError) Unwrap() error { return e.Err }

// Err is the step a process could not take, which ended the run, or nil.
func (r *Run) Err() *StepError { return r.failed }

// Failures lists each invariant with its first failing step, if any.
func (r *Run) Failures() []Failure { return r.failures }

// FailuresAt lists each invariant as seen after k steps: a failure at a
// later step does not show yet.
func (r *Run) FailuresAt(k int) []Failure {
	out := make([]Failure, len(r.failures))
	for i, f := range r.failures {
		if f.Step >= k {
			f = Failure{Name: f.Name, Step: -1}
		}
		out[i] = f
	}
	return out
}

// extend advances the head until the run's Until condition.
func (r *Run) extend() { r.advance(r.head, -1) }

// advance records steps at w (the head) until the run's Until condition, or
// until step limit when limit >= 0. It reports whether the limit was
// reached; otherwise r.stopped says why the run ended first.
func (r *Run) advance(w *world, limit int) bool {
	u := r.cfg.Until
	done := func() bool {
		return u.Done && w.inited == len(w.nodes) && r.cfg.Spec.Done != nil && r.cfg.Spec.Done(r.view(w))
	}
	// "done" stops the run when the goal is reached, not while it still
	// holds: after a learner's input at the end of a finished run, the run
	// goes on until the goal is reached again (or the input's effects die out)
	armed := !done()
	for {
		if r.failed != nil {
			r.stopped = StoppedFailed
			return false
		}
		if limit >= 0 && w.step >= limit {
			return true
		}
		switch {
		case u.Steps > 0 && w.step >= u.Steps, w.step >= MaxSteps:
			r.stopped = "steps"
			return false
		case u.Time > 0 && w.now >= u.Time:
			r.stopped = "time"
			return false
		case armed && done():
			r.stopped = "done"
			return false
		}
		nx, ok := r.pick(w)
		if !ok {
			r.stopped = "quiescent"
			return false
		}
		if u.Time > 0 && nx.at > u.Time {
			r.stopped = "time"
			return false
		}
		r.chargeRoom()
		if !r.cfg.Budget.allows(len(w.nodes)) {
			r.stopped = StoppedBudget
			return false
		}
		r.record(w, nx)
		armed = armed || !done()
	}
}

// record applies one step at the head, checks invariants and keyframes.
func (r *Run) record(w *world, nx next) {
	msgs := len(r.trace.Msgs)
	r.chargeRoom()
	r.apply(w, nx, true)
	r.charge(msgs)
	if b := r.cfg.Budget; b != nil && b.Bytes > 0 {
		r.reckonNodes(w)
	}
	if w.step >= r.nextKeyframe {
		r.keyframe(w)
	}
	v := r.view(w)
	for i, inv := range r.cfg.Spec.Checks.Invariants {
		if r.failures[i].Step >= 0 {
			continue
		}
		if res := inv.Check(v); !res.OK {
			r.failures[i] = Failure{Name: inv.Name, Step: w.step - 1, Detail: res.Detail, Msgs: res.Msgs}
		}
	}
}

// keyframe keeps a copy of the head to seek from. A world that is costly
// to copy (a long queue, many delayed messages) is copied less often: the
// next keyframe comes after at least a step per keyframeWordsPerStep
// words this one copied, so that keyframes keep a few words a step
// whatever the world holds.
func (r *Run) keyframe(w *world) {
	cost := w.cloneCost()
	r.keyframes = append(r.keyframes, w.clone())
	// the copy, and the live world grown to the copy's size since the last
	live := 8 * int64(cost)
	r.cfg.Budget.charge(int64(cost), 8*int64(cost)+live-r.liveWorld)
	r.liveWorld = live
	r.nextKeyframe = w.step + max(r.cfg.KeyframeEvery, cost/keyframeWordsPerStep)
}

// reckonNodes brings what the budget holds for the processes' states up
// to date after a step at w, the head (see nodeReckoning).
func (r *Run) reckonNodes(w *world) {
	nr := &r.nodes
	if nr.at >= 0 && w.step > nr.at && w.step < nr.next {
		nr.charged += nr.rate
		r.cfg.Budget.charge(0, nr.rate)
		return
	}
	size, visits := nr.sizer.measure(w.nodes)
	if nr.at < 0 {
		nr.base = size
	}
	// and what the keyframes keep of them besides: the older arrays of
	// what grew since the start (sim.Handoff), at most as large as the
	// growth. What the states held from the start (a log's events, an
	// algorithm's parameters) the keyframes share, and a node's own copy
	// is charged as it is made (nodeCost).
	size += max(0, size-nr.base)
	nr.rate = 0
	if nr.at >= 0 && w.step > nr.at {
		nr.rate = max(0, (size-nr.size)/int64(w.step-nr.at))
	}
	r.cfg.Budget.charge(0, size-nr.charged)
	nr.charged, nr.size, nr.at = size, size, w.step
	// a state that grows is measured again at least as the run doubles;
	// one that did not grow since the last measure (a log's events, which
	// a walk visits by the hundred thousand) only as often as walking it
	// costs nodeVisitsPerStep a step
	interval := visits / nodeVisitsPerStep
	if nr.rate > 0 || w.step < nodeMeasureAtLeast {
		interval = min(interval, w.step)
	}
	nr.next = w.step + max(nodeMeasureAtLeast, interval)
}

// keyframeWordsPerStep is how many words keyframes may copy per step
// of the run, at most, in a world that is costly to copy.
const keyframeWordsPerStep = 8

// Reckoned sizes, in bytes, of what a run keeps for each step and message
// (see TestReckonedSizes).
const (
	recordBytes     = 120
	extraBytes      = 104
	annotationBytes = 64
	timerNoteBytes  = 32
	changeBytes     = 40
	msgBytes        = 176
)

// chargeRoom charges the room the trace's records and messages take, and
// early: before a step when the records' room is full, or the messages'
// but an eighth (a step may send many), for the twice as large room the
// step makes (see trace.Grown), so that a budget stops a run before it
// copies its trace into an array it cannot hold.
func (r *Run) chargeRoom() {
	bytes := 0
	if room := roomFor(r.trace.Records, 0); room > r.roomRecords {
		bytes += recordBytes * (room - r.roomRecords)
		r.roomRecords = room
	}
	if room := roomFor(r.trace.Msgs, cap(r.trace.Msgs)/8); room > r.roomMsgs {
		bytes += msgBytes * (room - r.roomMsgs)
		r.roomMsgs = room
	}
	r.cfg.Budget.charge(0, int64(bytes))
}

// charge adds the step just recorded, and the messages it made (those from
// msgs on), to the memory the run keeps, and indexes its annotations; the
// records and messages themselves are reckoned by their room (see
// chargeRoom).
func (r *Run) charge(msgs int) {
	rec := &r.trace.Records[len(r.trace.Records)-1]
	bytes := 4*len(rec.Vector) + len(rec.Caption) + r.text
	r.text = 0
	if x := rec.Extra; x != nil {
		bytes += extraBytes + len(x.Tag) + annotationBytes*len(x.Annotations) + timerNoteBytes*len(x.Timers) + changeBytes*len(x.Changes)
		for _, a := range x.Annotations {
			bytes += len(a.Text)
			if slices.Contains(r.indexed, a.Role) {
				r.index(rec, a)
			}
		}
	}
	for i := msgs; i < len(r.trace.Msgs); i++ {
		bytes += 8 * len(r.trace.Msgs[i].Data)
	}
	r.cfg.Budget.charge(0, int64(bytes))
}

// roomFor is the room a slice of the trace is reckoned to take: its
// capacity, or the capacity it grows to once at most margin is left.
func roomFor[T any](s []T, margin int) int {
	if cap(s)-len(s) <= margin {
		return trace.Grown(cap(s))
	}
	return cap(s)
}

// firstSteps is the index of a role and group: for each process, the first
// recorded step at which it made such an annotation, or -1 (nil when none
// did). The first time a role is asked about, the trace so far is read
// for it.
func (r *Run) firstSteps(role string, group int) []int {
	if !slices.Contains(r.indexed, role) {
		r.indexed = append(r.indexed, role)
		for i := range r.trace.Records {
			rec := &r.trace.Records[i]
			for _, a := range rec.Annotations() {
				if a.Role == role {
					r.index(rec, a)
				}
			}
		}
	}
	return r.firsts[annotationKey{role, group}]
}

// flipSteps is the interval index of a role and group: for each process,
// the steps at which its interval opened or closed (nil when none did),
// read as firstSteps is.
func (r *Run) flipSteps(role string, group int) [][]int {
	r.firstSteps(role, group)
	return r.flips[annotationKey{role, group}]
}

// index notes the first step at which a process made an annotation of a
// role and group, and the steps at which its interval opened or closed
// (as the world tracks them: a Begin opens one that is not open, an End
// closes one that is).
func (r *Run) index(rec *trace.Record, a sim.Annotation) {
	if rec.Node < 0 {
		return
	}
	key := annotationKey{a.Role, a.Group}
	if a.Phase != sim.Point {
		flips := r.flips[key]
		if flips == nil {
			flips = make([][]int, len(r.cfg.Nodes))
			r.flips[key] = flips
		}
		if open := len(flips[rec.Node])%2 == 1; open == (a.Phase == sim.End) {
			flips[rec.Node] = append(flips[rec.Node], rec.Step)
		}
	}
	steps, ok := r.firsts[key]
	if !ok {
		steps = make([]int, len(r.cfg.Nodes))
		for i := range steps {
			steps[i] = -1
		}
		r.firsts[key] = steps
	}
	if steps[rec.Node] < 0 {
		steps[rec.Node] = rec.Step
	}
}

// view is the world as the spec's checkers see it. The head's view is one
// value reused for every step, so that checking invariants after each step
// allocates nothing; other worlds get their own.
func (r *Run) view(w *world) sim.View {
	if r.headView == nil {
		r.headView = &view{r: r, names: r.cfg.Names, tr: r.trace, spec: r.cfg.Spec, kinds: r.kinds}
	}
	if w == r.head {
		r.headView.w = w
		return r.headView
	}
	return &view{r: r, w: w, names: r.cfg.Names, tr: r.trace, spec: r.cfg.Spec, kinds: r.kinds}
}

// state returns the world after k steps, replaying from the nearest
// keyframe (or from the last world it returned, when that is closer).
func (r *Run) state(k int) *world {
	k = min(max(k, 0), r.Len())
	cp := r.keyframes[sort.Search(len(r.keyframes), func(i int) bool { return r.keyframes[i].step > k })-1]
	var w *world
	if c := r.cache; c != nil && c.step <= k && c.step >= cp.step {
		w = c
	} else {
		w = cp.clone()
	}
	in := sort.Search(len(r.inputs), func(i int) bool { return r.inputs[i].Step >= w.step })
	for w.step < k {
		if in < len(r.inputs) && r.inputs[in].Step == w.step {
			r.apply(w, r.inputNext(w, r.inputs[in].Action), false)
			in++
			continue
		}
		nx, _ := r.pick(w)
		r.apply(w, nx, false)
	}
	r.cache = w
	return w
}

// inputNext turns a learner's action into the step that carries it out.
func (r *Run) inputNext(w *world, a Action) next {
	nx := next{kind: actionKind(a), node: a.Node, msg: a.Msg, act: &a, at: w.now, source: trace.Learner}
	if nx.kind == trace.Deliver {
		nx.node = r.trace.Msgs[a.Msg].To
	}
	return nx
}

// Insert makes the learner's action happen as step k. Inputs at k and later
// are forgotten (a new future is forked) and the run advances again to its
// Until condition. An action that cannot happen at k is refused with an
// error that says why, and the run is left as it was.
func (r *Run) Insert(k int, a Action) error {
	if k < 0 || k > r.Len() {
		return fmt.Errorf("step %d is outside the run (0..%d)", k, r.Len())
	}
	if r.failed != nil && k > r.failed.Step {
		return fmt.Errorf("the run stops at step %d, where %s could not go on: %v", r.failed.Step+1, r.cfg.Names[r.failed.Node], r.failed.Err)
	}
	w := r.state(k)
	if err := r.learnerMay(w, a); err != nil {
		return err
	}
	w = w.clone()
	r.truncate(k)
	r.version++
	r.inputs = append(r.inputs, Input{Step: k, Action: a})
	r.record(w, r.inputNext(w, a))
	r.head = w
	r.extend()
	return nil
}

// Replay re-applies a list of learner inputs, in increasing step order, as
// a shared link or a saved session gives them, in one pass over the run:
// the work is one run's, however many inputs there are. It stops at the
// first input that cannot happen, keeping those before it, and says why.
func (r *Run) Replay(inputs []Input) error {
	if len(inputs) == 0 {
		return nil
	}
	return r.ReplayFrom(inputs[0].Step, inputs)
}

// ReplayFrom forgets the run from step k on (the learner's inputs there
// too) and replays inputs, all at k or later, in one pass: how a schedule
// found by a search replaces the future it was searched from.
func (r *Run) ReplayFrom(k int, inputs []Input) error {
	if err := checkOrder(inputs); err != nil {
		return err
	}
	if k < 0 || k > r.Len() {
		return fmt.Errorf("input at step %d: step %d is outside the run (0..%d)", k, k, r.Len())
	}
	if len(inputs) > 0 && inputs[0].Step < k {
		return fmt.Errorf("input at step %d: it comes before step %d, where the replay starts", inputs[0].Step, k)
	}
	w := r.state(k).clone()
	r.truncate(k)
	r.version++
	r.head = w
	return r.replayAt(w, inputs)
}

// ErrRecord refuses the learner's actions on the replay of a record.
var ErrRecord = errors.New("this run replays a log, a record of what happened: it takes no faults, commands or deliveries")

// learnerMay says why the learner's action cannot happen in w, or nil if
// it can: as a script's action, unless the run replays a record.
func (r *Run) learnerMay(w *world, a Action) error {
	if r.cfg.Spec != nil && r.cfg.Spec.Learner.Record {
		return ErrRecord
	}
	return r.validate(w, a)
}

// ErrPastTheEnd says an input's step is past where the run ended.
var ErrPastTheEnd = errors.New("the run ends before it")

// checkOrder refuses inputs out of increasing step order.
func checkOrder(inputs []Input) error {
	for i := 1; i < len(inputs); i++ {
		if inputs[i].Step <= inputs[i-1].Step {
			return fmt.Errorf("input at step %d: inputs must come in increasing step order", inputs[i].Step)
		}
	}
	return nil
}

// replayAt advances the head w through each input in turn, then to the
// Until condition; it stops taking inputs at the first that cannot happen.
func (r *Run) replayAt(w *world, inputs []Input) error {
	var err error
	for _, in := range inputs {
		if !r.advance(w, in.Step) {
			err = fmt.Errorf("input at step %d: %w, at step %d (%s)", in.Step, ErrPastTheEnd, w.step, r.stopped)
			break
		}
		if verr := r.learnerMay(w, in.Action); verr != nil {
			err = fmt.Errorf("input at step %d: %w", in.Step, verr)
			break
		}
		r.inputs = append(r.inputs, in)
		r.record(w, r.inputNext(w, in.Action))
	}
	r.extend()
	return err
}

// truncate forgets every step from k on.
func (r *Run) truncate(k int) {
	r.trace.Truncate(k)
	r.keyframes = r.keyframes[:sort.Search(len(r.keyframes), func(i int) bool { return r.keyframes[i].step > k })]
	r.nextKeyframe = r.keyframes[len(r.keyframes)-1].step + r.cfg.KeyframeEvery
	for _, steps := range r.firsts {
		for i, s := range steps {
			if s >= k {
				steps[i] = -1
			}
		}
	}
	for _, flips := range r.flips {
		for i, steps := range flips {
			flips[i] = steps[:sort.SearchInts(steps, k)]
		}
	}
	r.inputs = r.inputs[:sort.Search(len(r.inputs), func(i int) bool { return r.inputs[i].Step >= k })]
	if r.failed != nil && r.failed.Step >= k {
		r.failed = nil
	}
	for i := range r.failures {
		if r.failures[i].Step >= k {
			r.failures[i] = Failure{Name: r.failures[i].Name, Step: -1}
		}
	}
	r.cache = nil
}
