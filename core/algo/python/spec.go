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
	"errors"
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

// ErrNotShipped refuses a program that is not one of those a Shipped
// algorithm runs.
var ErrNotShipped = errors.New("this program is run by the page, not by the server, which runs only the programs Spacetime ships")

// Shipped is the algorithm as Spec is, for the programs whose text is one
// of texts only; any other is refused with ErrNotShipped. A server that
// opens links on others' behalf registers it rather than Spec: a program
// is bounded in steps, and in what the operations that copy or compare
// whole values read, but not in everything one instruction can do (the
// interpreter's maintainers hold that only another process, killed when
// its time is up, bounds untrusted code), so the server runs no program
// but its own.
func Shipped(texts ...string) *sim.Spec {
	known := make(map[string]bool, len(texts))
	for _, t := range texts {
		known[t] = true
	}
	s := base()
	s.Program = func(code string) (*sim.Spec, error) {
		if !known[code] {
			return nil, ErrNotShipped
		}
		return programSpec(code)
	}
	return s
}

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
	if p.drawsRole(RoleRecorded) && !slices.ContainsFunc(p.invariants, func(i invariant) bool { return i.name == check.RecordedCutName }) {
		// a program that records cuts has them checked, as the built-in
		// snapshots do
		s.Checks.Invariants = append(s.Checks.Invariants, check.RecordedCuts(RoleRecorded))
	}
	if p.drawsRole(RoleRecorded) && p.drawsRole(RoleChannel) && !slices.ContainsFunc(p.invariants, func(i invariant) bool { return i.name == check.RecordedChannelName }) {
		// and what it records on channels, too
		s.Checks.Invariants = append(s.Checks.Invariants, check.RecordedChannels(RoleRecorded, RoleChannel))
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
	first, ok := v.Node(0).(*Process)
	if !ok {
		return true, ""
	}
	j := first.judgingAt(v)
	if j == nil {
		return true, "" // not every process has started
	}
	unstarted := j.unstarted
	args := j.args[:1]
	if fn.NumParams() == 2 {
		args = j.args[:2]
	}
	// the invariants of a run borrow its first process's thread
	res, err := callBounded(first.threadOf(), fn, args, nil)
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

// judging is what every invariant (and done) of a run reads at one step:
// the states, frozen, and the world. It is made again at the first
// invariant of a step, in place (nothing an invariant is given outlives
// its call: the states and the world are frozen and the program's
// globals too), and kept by the run's first process for the others.
type judging struct {
	view sim.View
	step int
	// healths are the processes' health, by id. A process that steps
	// again makes a new frozen state, which makes states stale; so does a
	// process's health changing. A view at the same step of another
	// timeline (a run replayed from a keyframe with other events) can
	// have the same of both: world.in_flight checks its messages.
	healths []sim.Health
	// unstarted says a process down from the start has not run init.
	unstarted bool
	// states are the processes' frozen states, by id: the list args holds.
	states []starlark.Value
	world  world
	// args are the invariants' arguments: the states, then the world.
	args starlark.Tuple
	// health and flying are world.health and world.in_flight's messages
	// as the last step had them, which the next one mostly has too: they
	// are kept rather than made again (spare is flying's next map).
	health        starlark.Tuple
	flying, spare map[int]*message
}

// judgingAt is what the invariants read at v: the one kept, if v is at
// the step it was made for, or it made again; nil while a process that
// is up has not started.
func (n *Process) judgingAt(v sim.View) *judging {
	j := n.judged
	if j != nil && j.view == v && j.step == v.Steps() && j.current(v) {
		return j
	}
	if j == nil || len(j.states) != v.N() {
		j = &judging{healths: make([]sim.Health, v.N()), states: make([]starlark.Value, v.N())}
		j.args = starlark.Tuple{starlark.NewList(j.states), &j.world}
		n.judged = j
	}
	j.view, j.step, j.unstarted = nil, -1, false
	for id := range v.N() {
		p, ok := v.Node(sim.NodeID(id)).(*Process)
		if !ok || !p.started && v.Health(sim.NodeID(id)) == sim.Up {
			return nil
		}
		j.unstarted = j.unstarted || !p.started
		j.healths[id] = v.Health(sim.NodeID(id))
		j.states[id] = p.frozenState()
	}
	j.args[0].Freeze() // its states are frozen already: this marks the list
	j.view, j.step = v, v.Steps()
	j.world = world{v: v, j: j, ids: j.world.ids[:0]}
	return j
}

// current says no process has changed its state since j was made.
func (j *judging) current(v sim.View) bool {
	for id, s := range j.states {
		p, ok := v.Node(sim.NodeID(id)).(*Process)
		if !ok || p.frozen == nil || s != starlark.Value(p.frozen) || v.Health(sim.NodeID(id)) != j.healths[id] {
			return false
		}
	}
	return true
}

// world is what an invariant or done may read beyond the processes'
// states, in its second parameter: world.health ("up", "crashed" or
// "paused", in id order), world.now, world.step, world.fifo, and
// world.in_flight, the messages on their way (each with kind, sender,
// receiver and fields), oldest first on each channel. It stands for one
// step, so health and in_flight are made once, at their first reading.
type world struct {
	v        sim.View
	j        *judging
	health   starlark.Tuple
	inFlight *starlark.List
	// ids are inFlight's messages, to check it against the view's
	ids []int
}

// healthWords are the words of a process's health, made once.
var healthWords = [...]starlark.Value{sim.Up: starlark.String(sim.Up.String()), sim.Crashed: starlark.String(sim.Crashed.String()), sim.Paused: starlark.String(sim.Paused.String())}

// healthWord is world.health's word for h.
func healthWord(h sim.Health) starlark.Value {
	if int(h) < len(healthWords) {
		return healthWords[h]
	}
	return starlark.String(h.String())
}

var _ starlark.HasAttrs = (*world)(nil)

func (w *world) String() string        { return "<world>" }
func (w *world) Type() string          { return "world" }
func (w *world) Freeze()               {}
func (w *world) Truth() starlark.Bool  { return starlark.True }
func (w *world) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: world") }

func (w *world) AttrNames() []string {
	return []string{"fifo", "health", "in_flight", "now", "step"}
}

// flies says the view's messages in flight are ids, in order.
func (w *world) flies(ids []int) bool {
	k := 0
	for from := range w.v.N() {
		for to := range w.v.N() {
			for _, id := range w.v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
				if k >= len(ids) || ids[k] != id {
					return false
				}
				k++
			}
		}
	}
	return k == len(ids)
}

// Attr is one of the world's fields.
func (w *world) Attr(name string) (starlark.Value, error) {
	v := w.v
	switch name {
	case "health":
		if w.health == nil {
			// the last step's, unless a process's health has changed
			j := w.j
			w.health = j.health
			for id, h := range j.healths {
				if len(w.health) != len(j.healths) || w.health[id] != healthWord(h) {
					w.health = make(starlark.Tuple, len(j.healths))
					for id, h := range j.healths {
						w.health[id] = healthWord(h)
					}
					break
				}
			}
			j.health = w.health
		}
		return w.health, nil
	case "now":
		return intValue(int64(v.Now())), nil
	case "step":
		return intValue(v.Steps()), nil
	case "fifo":
		return starlark.Bool(v.FIFO()), nil
	case "in_flight":
		if w.inFlight != nil && w.flies(w.ids) {
			return w.inFlight, nil
		}
		j := w.j
		if j.spare == nil {
			j.spare = map[int]*message{}
		}
		var msgs []starlark.Value
		w.ids = w.ids[:0]
		for from := range v.N() {
			for to := range v.N() {
				for _, id := range v.InFlight(sim.NodeID(from), sim.NodeID(to)) {
					e := v.Envelope(id)
					m := j.flying[id]
					if m == nil || !m.carries(e) {
						m = &message{kind: e.Kind, sender: e.From.Number(), receiver: e.To.Number(), words: e.Data}
						m.Freeze()
					}
					j.spare[id] = m
					msgs = append(msgs, m)
					w.ids = append(w.ids, id)
				}
			}
		}
		j.flying, j.spare = j.spare, j.flying
		clear(j.spare)
		w.inFlight = starlark.NewList(msgs)
		w.inFlight.Freeze()
		return w.inFlight, nil
	}
	return nil, nil
}
