// Package fencing is what the lock algorithms that protect a storage share
// (seed 000, after Kleppmann): the layout (process 1 is the lock service,
// process 2 the storage, the others are clients), a client's write that
// goes out params.work ticks after the client checked its lock, the
// storage that, with params.fencing, rejects a write whose token is
// smaller than the largest it has seen, and the invariant, figures and
// panel rows about the storage's writes. The lock itself, a lease or a
// coordination service's entry, is the algorithm's own.
package fencing

import (
	"fmt"
	"strconv"

	"spacetime/core/sim"
)

// The processes' places.
const (
	// Service is the lock service's id, and Storage the storage's.
	Service sim.NodeID = 0
	Storage sim.NodeID = 1
)

// The storage's message kinds.
const (
	KindWrite    = "WRITE"
	KindWritten  = "WRITTEN"
	KindRejected = "REJECTED"
)

// Kinds are the storage's kinds' specs, for the algorithm's Spec.
var Kinds = []sim.KindSpec{
	{Name: KindWrite, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot},
	{Name: KindWritten, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
	{Name: KindRejected, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
}

// The storage's annotation roles and the client's write timer.
const (
	// RoleAccepted and RoleRejected mark the storage's decisions; the
	// annotation's group is the write's token.
	RoleAccepted = "accepted"
	RoleRejected = "rejected"
	// TimerWrite fires when a client's write has been prepared.
	TimerWrite = "write"
	// MaxTicks bounds the params that are durations.
	MaxTicks = 1_000_000
)

// Roles are the storage's decisions as the diagram draws them.
var Roles = []sim.RoleSpec{
	{Name: RoleAccepted, Style: sim.StyleGlyph, Glyph: sim.GlyphRing, Tone: sim.Green, Legend: "the storage accepts a write"},
	{Name: RoleRejected, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "the storage rejects a stale write"},
}

// Fencing is the switch that turns the storage's token check on and off.
var Fencing = sim.Switch{Param: "fencing", Default: true, Label: "fencing tokens", Help: "Run the same schedule again with the storage checking tokens, or taking every write as it comes"}

// WriteParams are the parameters of the writes to the storage, which every
// fenced lock takes; an algorithm's own params embed them.
type WriteParams struct {
	// Fencing makes the storage reject writes with a smaller token than
	// the largest it has seen (default true).
	Fencing *bool `json:"fencing"`
	// Work is how long a client takes to prepare a write before it goes
	// out (ticks, default 1): a pause then can outlast the lock.
	Work sim.Time `json:"work"`
}

// Defaults are the shared parameters' defaults.
func Defaults() WriteParams { return WriteParams{Work: 1} }

// Check refuses shared parameters out of range, naming the field.
func (p WriteParams) Check() error { return CheckTicks("params.work", p.Work) }

// Fenced says whether the storage checks tokens.
func (p WriteParams) Fenced() bool { return p.Fencing == nil || *p.Fencing }

// CheckTicks refuses a duration param out of range, naming the field.
func CheckTicks(field string, t sim.Time) error { return sim.CheckTicks(field, t, MaxTicks) }

// Names are the default names: the service, the storage, then clients.
func Names(n int) []string {
	out := []string{"lock", "storage"}
	for i := 1; i <= n-2; i++ {
		out = append(out, "client"+strconv.Itoa(i))
	}
	return out
}

// Part says which part a process plays.
type Part uint8

// The parts.
const (
	PartService Part = iota
	PartStorage
	PartClient
)

// PartOf is the part of a process, by its place.
func PartOf(id sim.NodeID) Part { return PartIn(id, 1) }

// PartIn is the part of a process, by its place, when the service is
// the first services processes (a replicated one): the storage follows
// them, and the clients the storage.
func PartIn(id sim.NodeID, services int) Part {
	switch {
	case int(id) < services:
		return PartService
	case int(id) == services:
		return PartStorage
	}
	return PartClient
}

// Plays is the part, for a node that embeds it.
func (part Part) Plays() Part { return part }

// Player is a node that plays a part: every node of a fenced lock
// embeds its Part.
type Player interface{ Plays() Part }

// plays is the part process id plays in the world v.
func plays(v sim.View, id sim.NodeID) Part {
	if p, ok := v.Node(id).(Player); ok {
		return p.Plays()
	}
	return PartOf(id)
}

// StorageOf is the storage's id in the world v.
func StorageOf(v sim.View) sim.NodeID {
	for i := range v.N() {
		if plays(v, sim.NodeID(i)) == PartStorage {
			return sim.NodeID(i)
		}
	}
	return Storage
}

// Step runs the step of the part a process plays: the algorithm's own
// service or client, or the shared storage.
func (part Part) Step(env *sim.Env, ev sim.Event, service, client func(*sim.Env, sim.Event), store *Store) {
	switch part {
	case PartService:
		service(env, ev)
	case PartStorage:
		store.Step(env, ev)
	default:
		client(env, ev)
	}
}

// IsClient says whether a process is a client.
func IsClient(v sim.View, id sim.NodeID) bool { return plays(v, id) == PartClient }

// ClientCommand is a command only the clients take.
func ClientCommand(name, help string) sim.CommandSpec {
	return sim.CommandSpec{Name: name, Help: help, Takes: IsClient, Who: "the clients"}
}

// ClientNumber is a client's number among the clients (client 1, 2, …),
// the storage being at storage: the clients follow it.
func ClientNumber(id, storage sim.NodeID) int { return int(id) - int(storage) }

// Clients lists the clients' ids.
func Clients(v sim.View) []sim.NodeID {
	out := make([]sim.NodeID, 0, v.N()-2)
	for i := range v.N() {
		if plays(v, sim.NodeID(i)) == PartClient {
			out = append(out, sim.NodeID(i))
		}
	}
	return out
}

// Services lists the ids of the service's processes (one, or a
// replicated service's group).
func Services(v sim.View) []sim.NodeID {
	var out []sim.NodeID
	for i := range v.N() {
		if plays(v, sim.NodeID(i)) == PartService {
			out = append(out, sim.NodeID(i))
		}
	}
	return out
}

// Star links the clients to the service and to the storage, and the
// processes of a replicated service to each other.
func Star(v sim.View) *sim.Topology {
	t := &sim.Topology{Kind: sim.Graph}
	services, storage := Services(v), StorageOf(v)
	for i, a := range services {
		for _, b := range services[i+1:] {
			t.Edges = append(t.Edges, [2]sim.NodeID{a, b})
		}
	}
	for _, c := range Clients(v) {
		for _, s := range services {
			t.Edges = append(t.Edges, [2]sim.NodeID{s, c})
		}
		t.Edges = append(t.Edges, [2]sim.NodeID{c, storage})
	}
	return t
}

// Store is the storage's state.
type Store struct {
	Fencing bool
	// MaxToken is the largest token it has seen; Value is what it holds.
	MaxToken int64
	Value    string
	Accepted int
	Rejected int
}

// Step is the storage's reaction to an event: it explains its rule, and
// takes or rejects each write.
func (s *Store) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		check := "it checks every write's token and rejects one smaller than the largest it has seen (fencing)"
		if !s.Fencing {
			check = "it takes every write as it comes (no fencing)"
		}
		env.Explain("%s is the storage: %s", me, check)
	case sim.Deliver:
		if ev.Msg.Kind != KindWrite {
			return
		}
		token, who := ev.Msg.Value, env.Name(ev.From)
		k := ClientNumber(ev.From, env.Self())
		if s.Fencing && token < s.MaxToken {
			s.Rejected++
			env.Send(ev.From, sim.Message{Kind: KindRejected, Value: token, Label: KindRejected})
			env.Annotate(sim.At(RoleRejected, int(token), fmt.Sprintf("REJECTED %d < %d", token, s.MaxToken)).About(ev.MsgID))
			env.Explain("%s: write by %s REJECTED (token %d < %d)", me, who, token, s.MaxToken)
			return
		}
		stale := token < s.MaxToken
		s.MaxToken = max(s.MaxToken, token)
		s.Accepted++
		s.Value = fmt.Sprintf("paid by client %d", k)
		if stale {
			s.Value = fmt.Sprintf("stale write by client %d", k)
		}
		env.Send(ev.From, sim.Message{Kind: KindWritten, Value: token, Label: KindWritten})
		env.Annotate(sim.At(RoleAccepted, int(token), fmt.Sprintf("ok, token %d", token)).About(ev.MsgID))
		env.Explain("%s: write by %s with token %d ok; it holds %q", me, who, token, s.Value)
	}
}

// Fields are the storage's Inspect view.
func (s *Store) Fields() []sim.Field {
	return []sim.Field{{Name: "value", Value: strconv.Quote(s.Value)}, {Name: "largest token", Value: strconv.FormatInt(s.MaxToken, 10)}, {Name: "fencing", Value: strconv.FormatBool(s.Fencing)}}
}

// Rows are the storage's rows of the algorithm's panel.
func (s *Store) Rows() []sim.Row {
	fencing := "off: every write is taken"
	if s.Fencing {
		fencing = "on: a token smaller than the largest seen is rejected"
	}
	return []sim.Row{
		{Cells: []string{"storage holds", fmt.Sprintf("%q", s.Value)}},
		{Cells: []string{"largest token seen", fmt.Sprint(s.MaxToken)}},
		{Cells: []string{"fencing", fencing}},
		{Cells: []string{"writes rejected", fmt.Sprint(s.Rejected)}},
	}
}

// Metrics are the storage's figures: final_value (null before the first
// write), rejected_writes and accepted_writes.
func (s *Store) Metrics() []sim.Metric {
	var final any
	if s.Accepted > 0 {
		final = s.Value
	}
	return []sim.Metric{
		{Name: "final_value", Value: final},
		{Name: "rejected_writes", Value: s.Rejected},
		{Name: "accepted_writes", Value: s.Accepted},
	}
}

// Writer is a client's write in preparation: the client checked its lock
// when it started, and does not check again when the write goes out.
type Writer struct {
	Writing bool
	// Awaiting says a write went out that the storage has not answered
	// yet (WRITTEN or REJECTED).
	Awaiting bool
	Token    int64
	// To is the storage the write goes to; 0 is the usual place, Storage
	// (the service is always at 0).
	To sim.NodeID
}

// Start begins a write with the lock's token, to go out in work ticks (a
// write already in preparation is replaced).
func (w *Writer) Start(env *sim.Env, token int64, work sim.Time) {
	w.Writing, w.Token = true, token
	env.SetTimer(TimerWrite, work)
}

// Fire sends the prepared write to the storage when its timer fires; it
// reports whether it did.
func (w *Writer) Fire(env *sim.Env, ev sim.Event) bool {
	if ev.Kind != sim.Timer || ev.Tag != TimerWrite || !w.Writing {
		return false
	}
	w.Writing, w.Awaiting = false, true
	to := w.To
	if to == 0 {
		to = Storage
	}
	env.Send(to, sim.Message{Kind: KindWrite, Value: w.Token, Label: fmt.Sprintf("WRITE %d", w.Token)})
	return true
}

// Answered takes the storage's answer to the client's write, WRITTEN or
// REJECTED: it reports whether ev is one.
func (w *Writer) Answered(ev sim.Event) bool {
	if ev.Kind != sim.Deliver || ev.Msg.Kind != KindWritten && ev.Msg.Kind != KindRejected {
		return false
	}
	w.Awaiting = false
	return true
}

// Writing is a node that may write to the storage: a client's Writer.
type Writing interface {
	// Writes is the client's writer (nil for a process that never
	// writes).
	Writes() *Writer
}

// Stored is a node that holds the storage's state, for the shared
// invariant and figures.
type Stored interface {
	// Storage is the storage's state (the storage process's).
	Storage() *Store
}

// StoreOf is the storage's state in a view.
func StoreOf(v sim.View) *Store { return v.Node(StorageOf(v)).(Stored).Storage() }

// Waits says a write in preparation at process id will go out: its timer
// is armed. A write that is not being prepared waits for nothing.
func (w *Writer) Waits(v sim.View, id sim.NodeID) bool {
	_, armed := v.Timer(id, TimerWrite)
	return !w.Writing || armed
}
