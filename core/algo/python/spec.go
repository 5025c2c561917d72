// Package python runs a learner's own algorithm, written in the course's
// Python (Starlark, go.starlark.net), as the engine runs any algorithm:
// every process is the program's handlers over its own p.state, stepped
// one event at a time, under every fault, check and search.
//
// A program defines some of init(p), on_message(p, m), on_timer(p, name),
// on_command(p, name[, target, arg]), on_recover(p), on_workload(p), and
// invariants invariant_NAME(states[, world]) that return True while they
// hold (or (False, "why")); done(states[, world]) says the goal is
// reached. p gives id, n, name, names, state (a dict, lost in a
// crash), disk (kept), params, now, lamport, vector, late (init of a
// process that comes up late), and send, broadcast, after, cancel, say,
// want, enter, leave, mark, record, record_channel, random and randint. KINDS and COMMANDS declare message
// kinds (with their roles) and commands. README's "Write it yourself"
// is the learner's contract.
//
// The program is bounded: its text (MaxCode), each call's interpreter
// steps (MaxCallSteps), each value an operation makes (MaxValue,
// MaxIntBits) and each message (MaxMessageWords); a run is bounded by the
// engine's budget as any run is. A handler's error stops the run at that
// step (sim.Env.Fail) with the line, the process, the handler and the
// event. The package is linked only where asked (all.Add): the lesson
// page leaves the interpreter out.
package python

import (
	"fmt"
	"slices"

	"go.starlark.net/starlark"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "python"

// The roles of what a program draws: p.mark's point, p.record's point
// on a snapshot's cut, and p.record_channel's message recorded as its
// channel's state.
const (
	RoleMark     = "mark"
	RoleRecorded = "recorded"
	RoleChannel  = "channel-state"
)

// Spec registers the algorithm: a scenario that names it gives its
// program as code, and Program makes the program's own Spec.
var Spec = func() *sim.Spec {
	s := base()
	s.Program = programSpec
	return s
}()

// base is what every program's Spec has.
func base() *sim.Spec {
	return &sim.Spec{
		ID:           ID,
		Title:        "Your own algorithm, in Python",
		Summary:      "A program of a few Python functions over one process and its messages, run under every tool: faults, rewind, the cut, checks and the search for a breaking schedule.",
		MinN:         1,
		MaxN:         64,
		DefaultNames: sim.NumberNames,
	}
}

// roleSpecs are the intervals and marks a program can draw.
var roleSpecs = append(append([]sim.RoleSpec(nil), mutex.Roles...),
	sim.RoleSpec{Name: RoleMark, Style: sim.StyleGlyph, Glyph: sim.GlyphOpenDiamond, Tone: sim.Orange, Legend: "marked (p.mark)"},
	sim.RoleSpec{Name: RoleRecorded, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "state recorded (p.record); a snapshot's points make its cut"},
	sim.RoleSpec{Name: RoleChannel, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "recorded in channels (p.record_channel)", Of: RoleRecorded})

// programSpec compiles a program and makes its Spec.
func programSpec(code string) (*sim.Spec, error) {
	p, err := Compile(code)
	if err != nil {
		return nil, err
	}
	return p.Spec(), nil
}

// Spec is the program's algorithm: its kinds, commands and invariants.
func (p *Program) Spec() *sim.Spec {
	s := base()
	s.Kinds = p.kinds
	s.New = p.newProcesses
	s.Learner = sim.LearnerSpec{Commands: p.commands}
	s.Picture = sim.PictureSpec{Roles: p.roles}
	s.Checks = sim.CheckSpec{Invariants: []sim.Invariant{runsWithoutError}}
	if p.records && !slices.ContainsFunc(p.invariants, func(i invariant) bool { return i.name == check.RecordedCutName }) {
		// a program that records cuts has them checked, as the built-in
		// snapshots do
		s.Checks.Invariants = append(s.Checks.Invariants, check.RecordedCuts(RoleRecorded))
	}
	s.Figures.Measure = p.measure
	for _, inv := range p.invariants {
		s.Checks.Invariants = append(s.Checks.Invariants, sim.Invariant{
			Name:  inv.name,
			Help:  "the program's " + inv.fn.Name() + "(states)",
			Check: func(v sim.View) sim.Verdict { return p.check(v, inv) },
		})
	}
	if p.done != nil {
		s.Done = func(v sim.View) bool {
			ok, _ := p.judge(v, p.done, "done")
			return ok
		}
	}
	return s
}

// NoErrorName is the invariant every program has: no handler raised an
// error. A search finds the schedule that makes one raise.
const NoErrorName = "no handler raises an error"

var runsWithoutError = sim.Invariant{
	Name: NoErrorName,
	Help: "every call of the program's handlers ends without an error",
	Check: func(v sim.View) sim.Verdict {
		for id := range v.N() {
			if n, ok := v.Node(sim.NodeID(id)).(*Process); ok && n.failed != "" {
				return sim.Verdict{Detail: fmt.Sprintf("%s: %s", v.Name(sim.NodeID(id)), n.failed)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// check runs one invariant. It holds, vacuously, until every process
// that is up has started (run init), and an error it raises while a
// process that is down has never started is taken as holding.
func (p *Program) check(v sim.View, inv invariant) sim.Verdict {
	ok, detail := p.judge(v, inv.fn, inv.fn.Name())
	if ok {
		return sim.Verdict{OK: true}
	}
	return sim.Verdict{Detail: detail}
}

// judge calls fn(states) over frozen copies of the processes' states and
// reads its answer: True, False, or (False, "why").
func (p *Program) judge(v sim.View, fn *starlark.Function, name string) (bool, string) {
	states := make([]starlark.Value, v.N())
	unstarted := false
	for id := range v.N() {
		n, ok := v.Node(sim.NodeID(id)).(*Process)
		if !ok {
			return true, ""
		}
		if !n.started && v.Health(sim.NodeID(id)) == sim.Up {
			return true, "" // not every process has started
		}
		unstarted = unstarted || !n.started
		states[id] = n.frozenState()
	}
	list := starlark.NewList(states)
	list.Freeze()
	args := starlark.Tuple{list}
	if fn.NumParams() == 2 {
		args = append(args, &world{v: v})
	}
	// the invariants of a run borrow its first process's thread
	res, err := callBounded(v.Node(0).(*Process).threadOf(), fn, args, nil)
	if err != nil && unstarted {
		// a process down from the start (crashed before its init) has an
		// empty state, which an invariant may not expect: what it says
		// waits until every process has started
		return true, ""
	}
	if err != nil {
		e := evalError(err)
		return false, fmt.Sprintf("%s raised an error: %s", name, e.Error())
	}
	switch r := res.(type) {
	case starlark.Bool:
		if r {
			return true, ""
		}
		return false, name + " returned False"
	case starlark.Tuple:
		if len(r) == 2 {
			if ok, isBool := r[0].(starlark.Bool); isBool {
				if ok {
					return true, ""
				}
				if s, isText := r[1].(starlark.String); isText {
					return false, clip(string(s), 200)
				}
				return false, show(r[1], 200)
			}
		}
	}
	return false, fmt.Sprintf("%s must return True or False (or (False, \"why\")), but returned %s", name, show(res, 60))
}

// world is what an invariant or done may read beyond the processes'
// states, in its second parameter: world.health ("up", "crashed" or
// "paused", in id order), world.now, world.step, world.fifo, and
// world.in_flight, the messages on their way (each with kind, sender,
// receiver and fields), oldest first on each channel.
type world struct{ v sim.View }

var _ starlark.HasAttrs = (*world)(nil)

func (w *world) String() string        { return "<world>" }
func (w *world) Type() string          { return "world" }
func (w *world) Freeze()               {}
func (w *world) Truth() starlark.Bool  { return starlark.True }
func (w *world) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: world") }

func (w *world) AttrNames() []string {
	return []string{"fifo", "health", "in_flight", "now", "step"}
}

// Attr is one of the world's fields.
func (w *world) Attr(name string) (starlark.Value, error) {
	v := w.v
	switch name {
	case "health":
		t := make(starlark.Tuple, v.N())
		for id := range t {
			t[id] = starlark.String(v.Health(sim.NodeID(id)).String())
		}
		return t, nil
	case "now":
		return starlark.MakeInt64(int64(v.Now())), nil
	case "step":
		return starlark.MakeInt(v.Steps()), nil
	case "fifo":
		return starlark.Bool(v.FIFO()), nil
	case "in_flight":
		var msgs []starlark.Value
		for from := range v.N() {
			for to := range v.N() {
				for _, id := range v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
					e := v.Envelope(id)
					m := &message{kind: e.Kind, sender: e.From.Number(), receiver: e.To.Number(), words: e.Data}
					m.Freeze()
					msgs = append(msgs, m)
				}
			}
		}
		l := starlark.NewList(msgs)
		l.Freeze()
		return l, nil
	}
	return nil, nil
}
