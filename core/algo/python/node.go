package python

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// Process is one process running a learner's program: the program, which
// every process shares, and what the process holds (p.state, which a crash
// loses, and p.disk, which it keeps).
type Process struct {
	prog   *Program       `state:"fixed"`
	params starlark.Value `state:"fixed"`
	state  *starlark.Dict
	disk   *starlark.Dict
	// started says init has run; wanting and inCS are where the process
	// stands with the critical section, for the intervals drawn.
	started, wanting, inCS bool
	// failed is the error that stopped the process's program, "" if none.
	failed string
	// thread is the interpreter thread the process's calls run on, made
	// at its first call; a copy makes its own.
	thread *starlark.Thread
	// frozen is a frozen copy of state as it stood after the process's
	// last step, for the invariants, which read every process's state
	// after every step: only the process that stepped is copied again.
	// It is shared by clones (nothing changes it); nil until made, and
	// dropped by every step.
	frozen *starlark.Dict
	// judged is what the run's invariants read at the last step they
	// were checked, kept by its first process (judgingAt); a copy
	// makes its own.
	judged *judging
}

// threadOf is the thread the process's calls run on. A run is stepped
// by one goroutine, so its processes' threads are never used at once.
func (n *Process) threadOf() *starlark.Thread {
	if n.thread == nil {
		n.thread = newThread()
	}
	return n.thread
}

// frozenState is the process's state as invariants read it.
func (n *Process) frozenState() *starlark.Dict {
	if n.frozen == nil {
		n.frozen = frozenCopy(n.state)
	}
	return n.frozen
}

// newProcesses makes the processes of a run.
func (p *Program) newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	params, err := readParams(raw)
	if err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Process{prog: p, params: params, state: starlark.NewDict(0), disk: starlark.NewDict(0)}
	}
	return nodes, nil
}

// MaxParams bounds the params a scenario gives a program, in bytes.
const MaxParams = 16 << 10

// readParams reads the scenario's params, which the program reads as
// p.params: any JSON object, frozen.
func readParams(raw json.RawMessage) (starlark.Value, error) {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		d := starlark.NewDict(0)
		d.Freeze()
		return d, nil
	}
	if len(raw) > MaxParams {
		return nil, strictjson.FieldErrorf("params", "want at most %s bytes for a program's params, got %s", grouped(MaxParams), grouped(len(raw)))
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, strictjson.FieldErrorf("params", "want a JSON object, got %v", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, strictjson.FieldErrorf("params", "want an object of the program's params, got %s", strings.TrimSpace(string(raw)))
	}
	d := fromJSON(m)
	d.Freeze()
	return d, nil
}

// fromJSON makes a Starlark value of decoded JSON, its keys in order.
func fromJSON(v any) starlark.Value {
	switch x := v.(type) {
	case nil:
		return starlark.None
	case bool:
		return starlark.Bool(x)
	case float64:
		if x == float64(int64(x)) {
			return starlark.MakeInt64(int64(x))
		}
		return starlark.Float(x)
	case string:
		return starlark.String(x)
	case []any:
		elems := make([]starlark.Value, len(x))
		for i, e := range x {
			elems[i] = fromJSON(e)
		}
		return starlark.NewList(elems)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := starlark.NewDict(len(x))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), fromJSON(x[k]))
		}
		return d
	}
	return starlark.None
}

// Clone copies the process's state and disk.
func (n *Process) Clone() sim.Node {
	c := *n
	c.state, c.disk = copyDict(n.state), copyDict(n.disk)
	c.thread, c.judged = nil, nil
	return &c
}

// Fingerprint writes what the process holds.
func (n *Process) Fingerprint(h *sim.Hash) {
	hashValue(h, n.state)
	hashValue(h, n.disk)
	h.Bool(n.started)
	h.Bool(n.wanting)
	h.Bool(n.inCS)
	h.String(n.failed)
}

// Inspect lists p.state, then p.disk, for the Processes panel.
func (n *Process) Inspect() []sim.Field {
	var fs []sim.Field
	add := func(prefix string, d *starlark.Dict) {
		for _, kv := range d.Items() {
			if len(fs) >= MaxFields {
				return
			}
			fs = append(fs, sim.Field{Name: prefix + show(kv[0], 24), Value: show(kv[1], 80)})
		}
	}
	add("", n.state)
	add("disk ", n.disk)
	if n.failed != "" {
		fs = append(fs, sim.Field{Name: "error", Value: n.failed})
	}
	return fs
}

// Step runs the handler of the event.
func (n *Process) Step(env *sim.Env, ev sim.Event) {
	n.frozen = nil
	c := &call{node: n, env: env, ev: ev}
	c.p.call = c
	switch ev.Kind {
	case sim.Init:
		n.started = true
		c.late = env.Now() > 0
		c.run(n.prog.init, "init", c.with())
	case sim.Recover:
		// a crash loses what the process held but its disk
		n.state = starlark.NewDict(0)
		n.forgetSection(env)
		n.started = true
		if n.prog.onRecover != nil {
			c.run(n.prog.onRecover, "on_recover", c.with())
		} else {
			c.run(n.prog.init, "init", c.with())
		}
	case sim.Deliver:
		if n.prog.onMessage == nil {
			c.fail(&Error{Msg: fmt.Sprintf("%s got a %s message, but the program has no on_message(p, m)", env.Name(env.Self()), ev.Msg.Kind)}, "")
			return
		}
		c.run(n.prog.onMessage, "on_message", c.with(&message{kind: ev.Msg.Kind, sender: ev.From.Number(), words: ev.Msg.Data}))
	case sim.Timer:
		c.run(n.prog.onTimer, "on_timer", c.with(starlark.String(ev.Tag)))
	case sim.Command:
		args := c.with(starlark.String(ev.Tag))
		if n.prog.commandArgs >= 2 {
			target := starlark.Value(starlark.None)
			if ev.Target >= 0 {
				target = intValue(ev.Target.Number())
			}
			args = append(args, target)
		}
		if n.prog.commandArgs >= 3 {
			args = append(args, intValue(ev.Arg))
		}
		c.run(n.prog.onCommand, "on_command", args)
	case sim.Workload:
		c.run(n.prog.onWorkload, "on_workload", c.with())
	}
}

// forgetSection ends the intervals of the critical section a crash ended.
func (n *Process) forgetSection(env *sim.Env) {
	if n.wanting {
		env.Annotate(sim.Closes(mutex.RoleWaiting, 0))
	}
	if n.inCS {
		env.Annotate(sim.Closes(mutex.RoleCS, 0))
	}
	n.wanting, n.inCS = false, false
}

// call is one call of a handler: the process, the step's Env, what the
// program said, and the p it is given. What a call is given and makes
// for the program is held in it, made once with it: a step costs the
// interpreter's own allocations and few of ours.
type call struct {
	node *Process
	env  *sim.Env
	ev   sim.Event
	p    proc
	said []string
	// late says init runs for a process that was down from the start and
	// comes up after it (p.late).
	late bool
	// argv holds the handler's arguments, which the interpreter copies.
	argv [4]starlark.Value
	// methods are p's methods bound to this call, each made at its
	// first use (proc.Attr).
	methods [numMethods]bound
}

// with is the handler's arguments: p, then args.
func (c *call) with(args ...starlark.Value) starlark.Tuple {
	argv := append(c.argv[:0], &c.p)
	return append(argv, args...)
}

// run calls a handler (nothing when the program has none) and keeps what
// it said as the step's caption; an error stops the run at this step.
func (c *call) run(fn *starlark.Function, handler string, args starlark.Tuple) {
	if fn == nil {
		return
	}
	_, err := callBounded(c.node.threadOf(), fn, args, c)
	c.p.call = nil // a p kept past its call can do nothing
	if err != nil {
		c.fail(evalError(err), fmt.Sprintf("in %s of %s, %s", handler, c.env.Name(c.env.Self()), c.what()))
		return
	}
	if len(c.said) == 0 && c.ev.Kind == sim.Deliver && !c.env.Quiet() {
		// a handler that says nothing still took a message: say which
		c.env.Explain("%s takes %s from %s", c.env.Name(c.env.Self()), c.ev.Msg.Describe(), c.env.Name(c.ev.From))
	}
	if len(c.said) > 0 && !c.env.Quiet() {
		c.env.ExplainWith(func(b []byte) []byte {
			b = append(b, c.env.Name(c.env.Self())...)
			b = append(b, ' ')
			return append(b, strings.Join(c.said, "; ")...)
		})
	}
}

// what says what the call takes, for its error: "taking TOKEN from 1".
func (c *call) what() string {
	ev := c.ev
	switch ev.Kind {
	case sim.Init:
		return "starting"
	case sim.Recover:
		return "recovering"
	case sim.Deliver:
		return fmt.Sprintf("taking %s from %s", ev.Msg.Kind, c.env.Name(ev.From))
	case sim.Timer:
		return fmt.Sprintf("its timer %q firing", ev.Tag)
	case sim.Command:
		return "the command " + ev.Tag
	}
	return "its workload"
}

// fail stops the run at this step with the program's error.
func (c *call) fail(e *Error, where string) {
	if e.Where == "" {
		e.Where = where
	}
	c.node.failed = clip(e.Error(), 200)
	c.env.Explain("%s", e.Error())
	c.env.Fail(e)
}

// say adds to the step's caption.
func (c *call) say(s string) {
	if !c.env.Quiet() && len(c.said) < 16 {
		c.said = append(c.said, clip(s, 200))
	}
}
