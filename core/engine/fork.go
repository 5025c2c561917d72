package engine

import (
	"errors"
	"fmt"
	"slices"

	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Choice is one way a run may go on from a state: the run's own next
// event (Own: what its scheduler would make happen), or an action a
// learner could take instead (deliver a message now, a fault).
type Choice struct {
	Own    bool
	Action Action
}

// Fork is a private copy of a run, from one of its steps, for a search
// over the run's schedules: it takes one step at a time down a path of
// choices and goes back up it. Only its newest step is recorded in its
// trace, so that it keeps what the path holds, however many paths it
// tries. The run it was made from is not changed.
type Fork struct {
	r *Run
	// until is the run's own Until: where its scheduler would stop.
	until Until
	// path holds the world after each step down the path, path[0] the
	// world at the fork's start; taken the choices that led there.
	path  []*world
	taken []Choice
	// prefix are the run's inputs before the fork's start.
	prefix []Input
}

// ErrNoChoice says a choice cannot be taken where the fork stands (the
// run would stop there, or the action is refused).
var ErrNoChoice = errors.New("the choice cannot be taken here")

// Fork makes a private copy of the run at step k: the same scenario and
// the learner's inputs before k.
func (r *Run) Fork(k int) (*Fork, error) { return r.ForkWithin(k, nil) }

// ForkWithin makes the copy as Fork does, charging the memory the copy
// keeps (its trace up to k) to b; nil: no bound. When b runs out first,
// it returns ErrBudget. The steps taken down the fork's paths are not
// charged: the fork keeps only its newest one, and a search reckons what
// it keeps itself.
func (r *Run) ForkWithin(k int, b *Budget) (*Fork, error) {
	if r.cfg.Spec != nil && r.cfg.Spec.Learner.Record {
		return nil, ErrRecord
	}
	if k < 0 || k > r.Len() {
		return nil, fmt.Errorf("step %d is outside the run (0..%d)", k, r.Len())
	}
	prefix := r.inputs[:0:0]
	for _, in := range r.inputs {
		if in.Step < k {
			prefix = append(prefix, in)
		}
	}
	cfg := r.cfg
	cfg.Budget = b
	cfg.KeyframeEvery = MaxSteps // the fork seeks nothing: its path is its keyframes
	fr, err := start(cfg)
	if err != nil {
		return nil, err
	}
	w := fr.head
	for _, in := range prefix {
		if !fr.advance(w, in.Step) || fr.learnerMay(w, in.Action) != nil {
			if b.Exhausted() {
				return nil, ErrBudget
			}
			return nil, fmt.Errorf("the run's input at step %d cannot be taken again", in.Step)
		}
		fr.inputs = append(fr.inputs, in)
		fr.record(w, fr.inputNext(w, in.Action))
	}
	if !fr.advance(w, k) {
		if b.Exhausted() {
			return nil, ErrBudget
		}
		return nil, fmt.Errorf("the run's copy ends at step %d, before step %d", w.step, k)
	}
	fr.cfg.Budget = nil
	return &Fork{r: fr, until: r.cfg.Until, path: []*world{fr.head}, prefix: prefix}, nil
}

// Taken are the choices down the path, in order.
func (f *Fork) Taken() []Choice { return f.taken }

func (f *Fork) top() *world { return f.path[len(f.path)-1] }

// Back goes one step back up the path.
func (f *Fork) Back() {
	if len(f.taken) == 0 {
		return
	}
	f.path = f.path[:len(f.path)-1]
	f.taken = f.taken[:len(f.taken)-1]
}

// Choices lists what may happen next where the fork stands: the run's
// own next event (unless the run would stop here), each message a
// learner could deliver now, by id, and, with faults, each fault the
// registry offers a search, by registry order.
func (f *Fork) Choices(withFaults bool) []Choice {
	w, r := f.top(), f.r
	var out []Choice
	if !f.stops(w) {
		out = append(out, Choice{Own: true})
	}
	var ids []int
	r.deliverable(w, func(_, _ sim.NodeID, m []int) { ids = append(ids, m...) }, false)
	slices.Sort(ids)
	for _, id := range ids {
		out = append(out, Choice{Action: Deliver(id)})
	}
	if !withFaults {
		return out
	}
	fw := &faultWorld{r: r, w: w}
	for _, ft := range faults.Registry {
		if ft.Search == nil {
			continue
		}
		for _, args := range ft.Search(fw) {
			a := Fault(ft.Name, args)
			if r.validate(w, a) == nil {
				out = append(out, Choice{Action: a})
			}
		}
	}
	return out
}

// stops reports whether the run's own Until would end it in w, as
// advance would: a learner's action may still happen there.
func (f *Fork) stops(w *world) bool {
	u := f.until
	switch {
	case u.Steps > 0 && w.step >= u.Steps, w.step >= MaxSteps:
		return true
	case u.Time > 0 && w.now >= u.Time:
		return true
	case u.Done && w.inited == len(w.nodes) && f.r.cfg.Spec.Done != nil && f.r.cfg.Spec.Done(f.r.view(w)):
		return true
	}
	return false
}

// Take goes one step down the path by choice c. It returns ErrNoChoice,
// and stays where it was, when c cannot happen there.
func (f *Fork) Take(c Choice) error {
	r := f.r
	w := f.top().clone()
	r.truncate(w.step)
	var nx next
	if c.Own {
		if f.stops(w) {
			return ErrNoChoice
		}
		var ok bool
		nx, ok = r.pick(w)
		if !ok || (f.until.Time > 0 && nx.at > f.until.Time) {
			return ErrNoChoice
		}
	} else {
		if r.validate(w, c.Action) != nil {
			return ErrNoChoice
		}
		a := c.Action
		nx = r.inputNext(w, a)
		nx.act = &a
	}
	r.record(w, nx)
	f.path = append(f.path, w)
	f.taken = append(f.taken, c)
	return nil
}

// Failed returns the invariants that fail at the fork's newest step (and
// held before it).
func (f *Fork) Failed() []Failure {
	var out []Failure
	last := f.top().step - 1
	for _, fl := range f.r.failures {
		if fl.Step == last && len(f.taken) > 0 {
			out = append(out, fl)
		}
	}
	return out
}

// FailedBefore lists the invariants that had failed by the fork's start.
func (f *Fork) FailedBefore() []string {
	var out []string
	start := f.path[0].step
	for _, fl := range f.r.failures {
		if fl.Step >= 0 && fl.Step < start {
			out = append(out, fl.Name)
		}
	}
	return out
}

// Inputs is the path as a learner's inputs: the run's inputs before the
// fork's start, then every choice down the path that was not the run's own
// next event, at its step. Opened as an ordinary run (NewWithInputs), they
// make the path's steps happen again.
func (f *Fork) Inputs() []Input {
	out := append([]Input(nil), f.prefix...)
	for i, c := range f.taken {
		if !c.Own {
			out = append(out, Input{Step: f.path[i].step, Action: c.Action})
		}
	}
	return out
}

// Caption is what the step down the path at depth i (from 1) did, in the
// trace's words.
func (f *Fork) Caption(i int) string {
	if i < 1 || i >= len(f.path) {
		return ""
	}
	return f.r.trace.Records[f.path[i].step-1].Caption
}
