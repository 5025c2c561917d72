package engine

import (
	"errors"
	"fmt"
	"sort"

	"spacetime/core/faults"
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

// Run is one scenario's run: its trace, the learner's inputs, checkpoints to
// seek with, and the first failure of each invariant.
type Run struct {
	cfg         Config
	trace       *trace.Trace
	inputs      []Input
	checkpoints []*world
	head        *world
	cache       *world
	failures    []Failure
	// Stopped says why the run ended.
	stopped string
	// version counts the changes of the trace (one per learner input).
	version int
	env     sim.Env

	// replaying is set while a step is replayed for seeking, not recorded.
	replaying bool
	stamps    stamps
	// kinds numbers the spec's message kinds, for the totals in flight.
	kinds    map[string]int
	labels   map[string]string
	headView *view

	scratchNodes []sim.NodeID
	scratchChans []busyChannel
}

// New starts a run and advances it until its Until condition.
func New(cfg Config) (*Run, error) {
	if cfg.Spec == nil || len(cfg.Nodes) == 0 || len(cfg.Nodes) != len(cfg.Names) {
		return nil, errors.New("engine: a run needs a spec and one name per node")
	}
	if cfg.CheckpointEvery <= 0 {
		// a checkpoint copies every process and channel: space them out as
		// the world grows, so that memory stays flat and a seek replays a
		// few hundred microseconds' worth of steps
		cfg.CheckpointEvery = 128 * max(1, len(cfg.Nodes)/4)
	}
	sort.SliceStable(cfg.Script, func(i, j int) bool { return cfg.Script[i].At < cfg.Script[j].At })
	r := &Run{cfg: cfg, trace: &trace.Trace{Names: cfg.Names}, kinds: map[string]int{}, labels: map[string]string{}}
	if u := cfg.Until; u.Steps > 0 && u.Time == 0 && !u.Done && !u.Quiescent {
		// a run of known length: one allocation instead of growing (capped,
		// since a larger run may still be cut short by a learner's input)
		r.trace.Records = make([]trace.Record, 0, min(u.Steps, 1<<18))
	}
	for i, k := range cfg.Spec.Kinds {
		r.kinds[k.Name] = i
	}
	for _, inv := range cfg.Spec.Invariants {
		r.failures = append(r.failures, Failure{Name: inv.Name, Step: -1})
	}
	r.head = newWorld(&r.cfg)
	r.checkpoints = []*world{r.head.clone()}
	r.extend()
	return r, nil
}

// Version changes whenever the trace does (a learner input forks the run),
// so that what is derived from the trace can be cached.
func (r *Run) Version() int { return r.version }

// Config returns the run's configuration.
func (r *Run) Config() *Config { return &r.cfg }

// Trace is the record of the whole run. Do not modify it.
func (r *Run) Trace() *trace.Trace { return r.trace }

// Len is the number of steps in the run.
func (r *Run) Len() int { return len(r.trace.Records) }

// Inputs are the learner's inputs, by step.
func (r *Run) Inputs() []Input { return r.inputs }

// Stopped says why the run ended: "steps", "time", "done", "quiescent".
func (r *Run) Stopped() string { return r.stopped }

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
func (r *Run) extend() {
	w := r.head
	u := r.cfg.Until
	done := func() bool {
		return u.Done && w.inited == len(w.nodes) && r.cfg.Spec.Done != nil && r.cfg.Spec.Done(r.view(w))
	}
	// "done" stops the run when the goal is reached, not while it still
	// holds: after a learner's input at the end of a finished run, the run
	// goes on until the goal is reached again (or the input's effects die out)
	armed := !done()
	for {
		switch {
		case u.Steps > 0 && w.step >= u.Steps, w.step >= MaxSteps:
			r.stopped = "steps"
			return
		case u.Time > 0 && w.now >= u.Time:
			r.stopped = "time"
			return
		case armed && done():
			r.stopped = "done"
			return
		}
		nx, ok := r.pick(w)
		if !ok {
			r.stopped = "quiescent"
			return
		}
		if u.Time > 0 && nx.at > u.Time {
			r.stopped = "time"
			return
		}
		r.record(w, nx)
		armed = armed || !done()
	}
}

// record applies one step at the head, checks invariants and checkpoints.
func (r *Run) record(w *world, nx next) {
	r.apply(w, nx, true)
	if w.step%r.cfg.CheckpointEvery == 0 {
		r.checkpoints = append(r.checkpoints, w.clone())
	}
	v := r.view(w)
	for i, inv := range r.cfg.Spec.Invariants {
		if r.failures[i].Step >= 0 {
			continue
		}
		if res := inv.Check(v); !res.OK {
			r.failures[i] = Failure{Name: inv.Name, Step: w.step - 1, Detail: res.Detail, Msgs: res.Msgs}
		}
	}
}

// view is the world as the spec's checkers see it. The head's view is one
// value reused for every step, so that checking invariants after each step
// allocates nothing; other worlds get their own.
func (r *Run) view(w *world) sim.View {
	if r.headView == nil {
		r.headView = &view{names: r.cfg.Names, tr: r.trace, spec: r.cfg.Spec}
	}
	if w == r.head {
		r.headView.w = w
		return r.headView
	}
	return &view{w: w, names: r.cfg.Names, tr: r.trace, spec: r.cfg.Spec}
}

// state returns the world after k steps, replaying from the nearest
// checkpoint (or from the last world it returned, when that is closer).
func (r *Run) state(k int) *world {
	k = min(max(k, 0), r.Len())
	var w *world
	if c := r.cache; c != nil && c.step <= k && c.step >= (k/r.cfg.CheckpointEvery)*r.cfg.CheckpointEvery {
		w = c
	} else {
		w = r.checkpoints[k/r.cfg.CheckpointEvery].clone()
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
	nx := next{kind: actionKind(a), node: a.Node, msg: a.Msg, act: a, at: w.now, source: trace.Learner}
	if nx.kind == trace.Deliver || nx.kind == trace.Drop {
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
	w := r.state(k)
	if err := r.validate(w, a); err != nil {
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

// Replay re-applies a list of learner inputs, in step order, as a shared link
// or a saved session gives them. It stops at the first that cannot happen.
func (r *Run) Replay(inputs []Input) error {
	for _, in := range inputs {
		if err := r.Insert(in.Step, in.Action); err != nil {
			return fmt.Errorf("input at step %d: %w", in.Step, err)
		}
	}
	return nil
}

// truncate forgets every step from k on.
func (r *Run) truncate(k int) {
	r.trace.Truncate(k)
	r.checkpoints = r.checkpoints[:k/r.cfg.CheckpointEvery+1]
	r.inputs = r.inputs[:sort.Search(len(r.inputs), func(i int) bool { return r.inputs[i].Step >= k })]
	for i := range r.failures {
		if r.failures[i].Step >= k {
			r.failures[i] = Failure{Name: r.failures[i].Name, Step: -1}
		}
	}
	r.cache = nil
}

// validate says why an action cannot happen in w, or nil if it can.
func (r *Run) validate(w *world, a Action) error {
	n := len(w.nodes)
	name := func(id sim.NodeID) string { return r.cfg.Names[id] }
	if a.Fault == faults.Drop || (a.Fault == "" && a.Command == "") {
		if a.Msg < 0 || a.Msg >= w.nextMsg {
			return fmt.Errorf("there is no message #%d", a.Msg)
		}
		m := &r.trace.Msgs[a.Msg]
		pos := w.net.Position(m.From, m.To, m.ID)
		if pos < 0 {
			return fmt.Errorf("%s is not in flight", r.describe(m))
		}
		if a.Fault == faults.Drop {
			return nil
		}
		if !w.running(m.To) {
			return fmt.Errorf("%s is %s: %s waits in its channel", name(m.To), w.health[m.To].State, r.describe(m))
		}
		if r.cfg.Net.FIFO && pos > 0 {
			head := &r.trace.Msgs[w.net.Channel(m.From, m.To)[0]]
			return fmt.Errorf("the channel %s→%s is FIFO: only its head, %s, can be delivered next", name(m.From), name(m.To), r.describe(head))
		}
		return nil
	}
	if a.Node < 0 || int(a.Node) >= n {
		return fmt.Errorf("there is no process %d", a.Node)
	}
	h := w.health[a.Node]
	switch a.Fault {
	case faults.Crash:
		if h.State == faults.Crashed {
			return fmt.Errorf("%s has already crashed", name(a.Node))
		}
	case faults.Recover:
		if h.State != faults.Crashed {
			return fmt.Errorf("%s has not crashed", name(a.Node))
		}
	case faults.Pause:
		if h.State != faults.Up {
			return fmt.Errorf("%s is %s and cannot pause", name(a.Node), h.State)
		}
		if a.For <= 0 {
			return fmt.Errorf("a pause must last at least one tick")
		}
	case "":
		c, ok := r.cfg.Spec.Command(a.Command)
		if !ok {
			return fmt.Errorf("%s has no command %q", r.cfg.Spec.ID, a.Command)
		}
		if !w.running(a.Node) {
			return fmt.Errorf("%s is %s and cannot %s", name(a.Node), h.State, a.Command)
		}
		if c.Target && (a.Target < 0 || int(a.Target) >= n || a.Target == a.Node) {
			return fmt.Errorf("%s needs another process as its target", a.Command)
		}
	default:
		return fmt.Errorf("unknown fault %q", a.Fault)
	}
	return nil
}
