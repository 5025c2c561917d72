package python

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// proc is the p a handler is given: the process's fields and what it may
// do. It works only during its call: one kept in p.state, or by an
// invariant, can do nothing.
type proc struct{ call *call }

var (
	_ starlark.HasAttrs    = (*proc)(nil)
	_ starlark.HasSetField = (*proc)(nil)
)

func (p *proc) String() string        { return "<process>" }
func (p *proc) Type() string          { return "process" }
func (p *proc) Freeze()               {}
func (p *proc) Truth() starlark.Bool  { return starlark.True }
func (p *proc) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: process") }

// procAttrs are p's fields and methods, for dir(p) and errors.
var procAttrs = []string{"after", "broadcast", "cancel", "disk", "enter", "id", "lamport", "late", "leave", "mark", "n", "name", "names", "now", "params", "randint", "random", "record", "record_channel", "say", "send", "state", "vector", "want"}

func (p *proc) AttrNames() []string { return procAttrs }

// Attr is one of p's fields or methods.
func (p *proc) Attr(name string) (starlark.Value, error) {
	c := p.call
	if c == nil {
		return nil, fmt.Errorf("p.%s: this p belongs to a call that has ended (keep data in p.state, not p itself)", name)
	}
	env := c.env
	switch name {
	case "id":
		return intValue(env.Self().Number()), nil
	case "n":
		return intValue(env.N()), nil
	case "name":
		return starlark.String(env.Name(env.Self())), nil
	case "names":
		// every process's name, by id: p.names[m.sender - 1]
		t := make(starlark.Tuple, env.N())
		for i := range t {
			t[i] = starlark.String(env.Name(sim.NodeID(i)))
		}
		return t, nil
	case "state":
		return c.node.state, nil
	case "disk":
		return c.node.disk, nil
	case "params":
		return c.node.params, nil
	case "now":
		return intValue(int64(env.LocalTime())), nil
	case "lamport":
		return intValue(int64(env.Lamport())), nil
	case "late":
		// init of a process down from the start that comes up later
		return starlark.Bool(c.late), nil
	case "vector":
		v := env.Vector()
		t := make(starlark.Tuple, len(v))
		for i, x := range v {
			t[i] = intValue(int64(x))
		}
		return t, nil
	}
	if i, ok := methodIndex[name]; ok {
		b := &c.methods[i]
		b.p, b.i = p, uint8(i)
		return b, nil
	}
	return nil, nil // no such attribute: Starlark says so
}

// bound is one of p's methods (methodList[i]), bound to p.
type bound struct {
	p *proc
	i uint8
}

var _ starlark.Callable = (*bound)(nil)

func (b *bound) String() string        { return "<built-in method " + methodList[b.i].name + " of process>" }
func (b *bound) Type() string          { return "builtin_function_or_method" }
func (b *bound) Freeze()               {}
func (b *bound) Truth() starlark.Bool  { return starlark.True }
func (b *bound) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: method") }
func (b *bound) Name() string          { return "p." + methodList[b.i].name }

// CallInternal calls the method, while its call lasts.
func (b *bound) CallInternal(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if b.p.call == nil {
		return nil, fmt.Errorf("p.%s: this p belongs to a call that has ended", methodList[b.i].name)
	}
	return methodList[b.i].m(b.p.call, args, kwargs)
}

// SetField lets a handler replace p.state or p.disk with a new dict.
func (p *proc) SetField(name string, v starlark.Value) error {
	if p.call == nil {
		return fmt.Errorf("p.%s: this p belongs to a call that has ended", name)
	}
	d, ok := v.(*starlark.Dict)
	switch {
	case name != "state" && name != "disk":
		return fmt.Errorf("p.%s cannot be set (only p.state and p.disk can)", name)
	case !ok:
		return fmt.Errorf("p.%s is a dict, not a %s", name, v.Type())
	case d.Len() > 0 && d == p.call.node.params:
		return fmt.Errorf("p.%s cannot be p.params, which no process may change", name)
	}
	if name == "state" {
		p.call.node.state = d
	} else {
		p.call.node.disk = d
	}
	return nil
}

// method is one of p's methods, called during its call.
type method func(c *call, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// MaxTimer bounds a timer's ticks.
const MaxTimer = 1_000_000

// numMethods is how many methods p has (a call keeps one of each).
const numMethods = 13

// methodList are p's methods, and methodIndex where each is in it.
var (
	methodList = [numMethods]struct {
		name string
		m    method
	}{
		{"send", (*call).send},
		{"broadcast", (*call).broadcast},
		{"after", (*call).after},
		{"cancel", (*call).cancel},
		{"say", (*call).sayMethod},
		{"want", (*call).want},
		{"enter", (*call).enter},
		{"leave", (*call).leave},
		{"mark", (*call).mark},
		{"record", (*call).record},
		{"record_channel", (*call).recordChannel},
		{"random", (*call).random},
		{"randint", (*call).randint},
	}
	methodIndex = func() map[string]int {
		m := make(map[string]int, len(methodList))
		for i, x := range methodList {
			if x.m == nil {
				panic("python: numMethods is more than p's methods")
			}
			m[x.name] = i
		}
		return m
	}()
)

// send is p.send(to, kind, label=None, **fields).
func (c *call) send(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("p.send takes the process to send to and the kind, then the fields by name: p.send(2, \"TOKEN\", hops=1); got %d values before the fields", len(args))
	}
	to, err := starlark.AsInt32(args[0])
	if err != nil || to < 1 || to > c.env.N() {
		return nil, fmt.Errorf("p.send: want a process from 1 to %d to send to, got %s", c.env.N(), args[0].String())
	}
	m, err := c.message("p.send", args[1], kwargs)
	if err != nil {
		return nil, err
	}
	c.env.Send(sim.NodeID(to-1), m)
	return starlark.None, nil
}

// broadcast is p.broadcast(kind, label=None, **fields): the message to
// every other process, in id order.
func (c *call) broadcast(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("p.broadcast takes the kind, then the fields by name: p.broadcast(\"ELECTION\", id=p.id)")
	}
	m, err := c.message("p.broadcast", args[0], kwargs)
	if err != nil {
		return nil, err
	}
	c.env.SendToOthers(m)
	return starlark.None, nil
}

// message makes the message of a send: its kind, checked, its fields as
// words, and its label (given, or the fields' values).
func (c *call) message(fn string, kind starlark.Value, kwargs []starlark.Tuple) (sim.Message, error) {
	k, ok := kind.(starlark.String)
	if !ok {
		return sim.Message{}, fmt.Errorf("%s: a message's kind is text (\"TOKEN\"), got %s", fn, kind.Type())
	}
	if !slices.ContainsFunc(c.node.prog.kinds, func(s sim.KindSpec) bool { return s.Name == string(k) }) {
		return sim.Message{}, fmt.Errorf("%s: %q is not one of the program's message kinds (%s): name it in KINDS", fn, string(k), kindNames(c.node.prog.kinds))
	}
	label, labelled := "", false
	fields := kwargs
	for i, kv := range kwargs {
		if string(kv[0].(starlark.String)) != "label" {
			continue
		}
		s, ok := kv[1].(starlark.String)
		if !ok {
			return sim.Message{}, fmt.Errorf("%s: label is the text drawn on the arrow, got %s", fn, kv[1].Type())
		}
		label, labelled = clip(string(s), 40), true
		fields = append(slices.Clip(kwargs[:i]), kwargs[i+1:]...)
		break
	}
	data, err := encodeFields(fields)
	if err != nil {
		return sim.Message{}, fmt.Errorf("%s: %v", fn, err)
	}
	if !labelled && !c.env.Quiet() {
		label = fieldsLabel(fields)
	}
	return sim.Message{Kind: string(k), Label: label, Data: data}, nil
}

// fieldsLabel is a message's label when the program gives none: its
// fields' values, short ("1", "3 7").
func fieldsLabel(fields []starlark.Tuple) string {
	switch len(fields) {
	case 0:
		return ""
	case 1:
		return clip(show(fields[0][1], 12), 24)
	}
	parts := make([]string, len(fields))
	for i, kv := range fields {
		parts[i] = show(kv[1], 12)
	}
	return clip(strings.Join(parts, " "), 24)
}

func kindNames(kinds []sim.KindSpec) string {
	if len(kinds) == 0 {
		return "it has none"
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// after is p.after(ticks, name): the timer name fires ticks from now
// (again, if it is armed).
func (c *call) after(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var ticks int
	var name string
	if err := starlark.UnpackPositionalArgs("p.after", args, kwargs, 2, &ticks, &name); err != nil {
		return nil, err
	}
	if ticks < 0 || ticks > MaxTimer {
		return nil, fmt.Errorf("p.after: want ticks from 0 to %s, got %d", grouped(MaxTimer), ticks)
	}
	if name == "" {
		return nil, fmt.Errorf("p.after: a timer has a name: p.after(1, \"pass\")")
	}
	c.env.SetTimer(name, sim.Time(ticks))
	return starlark.None, nil
}

// cancel is p.cancel(name): the timer no longer fires.
func (c *call) cancel(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs("p.cancel", args, kwargs, 1, &name); err != nil {
		return nil, err
	}
	c.env.CancelTimer(name)
	return starlark.None, nil
}

// sayMethod is p.say(text): words for the step's caption.
func (c *call) sayMethod(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("p.say takes text, not names")
	}
	var parts []string
	for _, a := range args {
		if s, ok := a.(starlark.String); ok {
			parts = append(parts, string(s))
		} else {
			parts = append(parts, show(a, 200))
		}
	}
	c.say(strings.Join(parts, " "))
	return starlark.None, nil
}

// want is p.want(): the process asks for the critical section (an
// interval drawn until it enters).
func (c *call) want(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(mutex.RoleWaiting, "want"); err != nil {
		return nil, err
	}
	if err := starlark.UnpackPositionalArgs("p.want", args, kwargs, 0); err != nil {
		return nil, err
	}
	if !c.node.wanting && !c.node.inCS {
		c.node.wanting = true
		c.env.Annotate(sim.Opens(mutex.RoleWaiting, 0, "wants"))
	}
	return starlark.None, nil
}

// enter is p.enter(): the process is in the critical section.
func (c *call) enter(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(mutex.RoleCS, "enter"); err != nil {
		return nil, err
	}
	if err := starlark.UnpackPositionalArgs("p.enter", args, kwargs, 0); err != nil {
		return nil, err
	}
	if c.node.inCS {
		return nil, fmt.Errorf("p.enter: %s is already in the critical section", c.env.Name(c.env.Self()))
	}
	if c.node.wanting {
		c.env.Annotate(sim.Closes(mutex.RoleWaiting, 0))
	}
	c.node.wanting, c.node.inCS = false, true
	c.env.Annotate(sim.Opens(mutex.RoleCS, 0, "in"))
	return starlark.None, nil
}

// leave is p.leave(): the process leaves the critical section.
func (c *call) leave(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(mutex.RoleCS, "leave"); err != nil {
		return nil, err
	}
	if err := starlark.UnpackPositionalArgs("p.leave", args, kwargs, 0); err != nil {
		return nil, err
	}
	if !c.node.inCS {
		return nil, fmt.Errorf("p.leave: %s is not in the critical section", c.env.Name(c.env.Self()))
	}
	c.node.inCS = false
	c.env.Annotate(sim.Closes(mutex.RoleCS, 0))
	return starlark.None, nil
}

// mark is p.mark(text): a mark on the step, with its text beside it.
func (c *call) mark(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(RoleMark, "mark"); err != nil {
		return nil, err
	}
	var text string
	if err := starlark.UnpackPositionalArgs("p.mark", args, kwargs, 1, &text); err != nil {
		return nil, err
	}
	c.env.Annotate(sim.At(RoleMark, 0, clip(text, 24)))
	return starlark.None, nil
}

// record is p.record(snapshot=1, text=""): the process records its
// state for a snapshot (or a checkpoint): the point is drawn on the
// snapshot's cut, and the cut is checked for consistency once every
// process has recorded it.
func (c *call) record(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(RoleRecorded, "record"); err != nil {
		return nil, err
	}
	snapshot, text := 1, ""
	if err := starlark.UnpackArgs("p.record", args, kwargs, "snapshot?", &snapshot, "text?", &text); err != nil {
		return nil, err
	}
	if snapshot < 1 || snapshot > MaxSnapshot {
		return nil, fmt.Errorf("p.record: want a snapshot from 1 to %s, got %d", grouped(MaxSnapshot), snapshot)
	}
	c.env.Annotate(sim.At(RoleRecorded, snapshot, clip(text, 24)))
	return starlark.None, nil
}

// recordChannel is p.record_channel(snapshot=1, text=""), in on_message:
// the message being taken joins the state of its channel recorded for
// the snapshot (haloed on the diagram, listed with the cut).
func (c *call) recordChannel(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := c.node.prog.draws(RoleChannel, "record_channel"); err != nil {
		return nil, err
	}
	snapshot, text := 1, ""
	if err := starlark.UnpackArgs("p.record_channel", args, kwargs, "snapshot?", &snapshot, "text?", &text); err != nil {
		return nil, err
	}
	if c.ev.Kind != sim.Deliver {
		return nil, fmt.Errorf("p.record_channel records the message being taken: call it in on_message")
	}
	if snapshot < 1 || snapshot > MaxSnapshot {
		return nil, fmt.Errorf("p.record_channel: want a snapshot from 1 to %s, got %d", grouped(MaxSnapshot), snapshot)
	}
	c.env.Annotate(sim.At(RoleChannel, snapshot, clip(text, 24)).About(c.ev.MsgID))
	return starlark.None, nil
}

// MaxSnapshot bounds a snapshot's number.
const MaxSnapshot = 1_000_000

// random is p.random(): a number in [0, 1) from the run's seeded stream.
func (c *call) random(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("p.random", args, kwargs, 0); err != nil {
		return nil, err
	}
	return starlark.Float(c.env.Rand().Float64()), nil
}

// randint is p.randint(a, b): a whole number from a to b, both included,
// from the run's seeded stream.
func (c *call) randint(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lo, hi int64
	if err := starlark.UnpackPositionalArgs("p.randint", args, kwargs, 2, &lo, &hi); err != nil {
		return nil, err
	}
	if hi < lo || hi-lo >= 1<<62 || hi-lo < 0 {
		return nil, fmt.Errorf("p.randint: want a <= b, less than 2**62 apart, got %d and %d", lo, hi)
	}
	return starlark.MakeInt64(lo + int64(c.env.Rand().IntN(int(hi-lo+1)))), nil
}

// message is the m on_message is given: m.kind, m.sender, m.fields, and
// each field by name (m.hops).
type message struct {
	kind   string
	sender int
	// receiver is set for a message in flight (world.in_flight); a
	// handler's m is its own.
	receiver int
	// words are the fields as the message carries them; fields is made
	// of them the first time a program asks for m.fields (m.hops reads
	// one field from the words).
	words  []int64
	fields *starlark.Dict
	frozen bool
	// kindValue is m.kind as a program reads it, made at its first
	// reading: an invariant reads the kind of every message in flight at
	// every step, and a text made into a value is an allocation.
	kindValue starlark.Value
}

// carries says m is the message e in flight, as world.in_flight made it.
func (m *message) carries(e sim.Envelope) bool {
	return m.kind == e.Kind && m.sender == e.From.Number() && m.receiver == e.To.Number() &&
		len(m.words) == len(e.Data) && (len(m.words) == 0 || &m.words[0] == &e.Data[0])
}

// dict is m.fields, made once.
func (m *message) dict() *starlark.Dict {
	if m.fields == nil {
		m.fields = decode(m.words)
		if m.frozen {
			m.fields.Freeze()
		}
	}
	return m.fields
}

var _ starlark.HasAttrs = (*message)(nil)

func (m *message) String() string {
	return fmt.Sprintf("message(kind=%q, sender=%d, fields=%s)", m.kind, m.sender, m.dict().String())
}
func (m *message) Type() string { return "message" }
func (m *message) Freeze() {
	m.frozen = true
	if m.fields != nil {
		m.fields.Freeze()
	}
}
func (m *message) Truth() starlark.Bool  { return starlark.True }
func (m *message) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: message") }

// AttrNames are m's fields: kind, sender, fields and each field's name.
func (m *message) AttrNames() []string {
	names := []string{"fields", "kind", "sender"}
	if m.receiver > 0 {
		names = append(names, "receiver")
	}
	for _, k := range m.dict().Keys() {
		if s, ok := k.(starlark.String); ok {
			names = append(names, string(s))
		}
	}
	return names
}

// Attr is m.kind, m.sender, m.fields, or a field by name.
func (m *message) Attr(name string) (starlark.Value, error) {
	switch name {
	case "kind":
		if m.kindValue == nil {
			m.kindValue = starlark.String(m.kind)
		}
		return m.kindValue, nil
	case "sender":
		return intValue(m.sender), nil
	case "receiver":
		if m.receiver > 0 {
			return intValue(m.receiver), nil
		}
	case "fields":
		return m.dict(), nil
	}
	if m.fields != nil {
		v, found, err := m.fields.Get(starlark.String(name))
		if err != nil || !found {
			return nil, nil
		}
		return v, nil
	}
	return field(m.words, name), nil
}
