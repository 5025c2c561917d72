// Package logreplay replays a logged execution, such as a ShiViz or
// GoVector log of a student's own program, as a run: each process does
// its host's logged events in the log's order. A process's next event
// that is not a receipt is the command "next"; a receipt is the delivery
// of the message its sender's event sent; a process's start is its first
// logged event, unless that is a receipt. The scenario's script forces
// the log's schedule (see logimport.FromLog), so that the diagram, the cut
// tool and causal highlighting work on the log as on any lesson. Each
// event keeps the vector clock the log wrote for it, which the caption
// says in the log's own form.
package logreplay

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/clock"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id.
const ID = "log"

// The command, the message kind and the label's role.
const (
	CmdNext = "next"
	KindMsg = "LOG"
	// RoleText labels an event with the log's text for it.
	RoleText = "text"
	// RoleCut makes an event a point of a cut, as a Spacetime export
	// marks a snapshot's points ("[cut 1]").
	RoleCut = "cut"
)

// Params are the logged events of every process, in order of the names.
type Params struct {
	Events [][]Event `json:"events"`
}

// Event is one logged event of a process.
type Event struct {
	// Text is what the log says happened.
	Text string `json:"text,omitempty"`
	// From names the process whose message this event receives; empty
	// for an event that receives nothing.
	From string `json:"from,omitempty"`
	// Also names the other processes whose messages the event receives,
	// for an event that merges several senders: each is delivered first
	// and held, the clock merging it without a tick, until From's.
	Also []string `json:"also,omitempty"`
	// To names the processes the event sends a message to, and Kinds
	// and Labels (when the log says them: a Spacetime export's receipts
	// do) each message's kind and label, in the same order; a kind left
	// out is LOG.
	To     []string `json:"to,omitempty"`
	Kinds  []string `json:"kinds,omitempty"`
	Labels []string `json:"labels,omitempty"`
	// Cut makes the event a point of the cut of this group (from 1), as
	// the log marks it; 0: none.
	Cut int `json:"cut,omitempty"`
}

// AppendJSON appends the params as encoding/json writes them, byte for
// byte, in one pass: a large log's params are megabytes, and the generic
// encoder walks them by reflection and grows its buffer by copying.
func (p Params) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, p.JSONLen())
	return p.appendJSON(b, func(b []byte, ev Event) []byte { return ev.appendJSON(b) })
}

// JSONLen is the length of what AppendJSON appends, found without
// keeping it: whether a large log's params fit in a link is known before
// they are encoded, and most do not. Each event is written in turn into
// one small buffer, so that the length comes from the encoder itself.
func (p Params) JSONLen() int {
	var scratch []byte
	events := 0
	around := p.appendJSON(nil, func(b []byte, ev Event) []byte {
		scratch = ev.appendJSON(scratch[:0])
		events += len(scratch)
		return b
	})
	return len(around) + events
}

// appendJSON appends the params' lists, and each event by event.
func (p Params) appendJSON(b []byte, event func(b []byte, ev Event) []byte) []byte {
	b = append(b, `{"events":`...)
	if p.Events == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, evs := range p.Events {
		if i > 0 {
			b = append(b, ',')
		}
		if evs == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for j, ev := range evs {
			if j > 0 {
				b = append(b, ',')
			}
			b = event(b, ev)
		}
		b = append(b, ']')
	}
	return append(b, "]}"...)
}

// appendJSON appends the event as encoding/json writes it.
func (ev Event) appendJSON(b []byte) []byte {
	b = append(b, '{')
	comma := false
	field := func(name string) {
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
	}
	if ev.Text != "" {
		field("text")
		b = appendString(b, ev.Text)
	}
	if ev.From != "" {
		field("from")
		b = appendString(b, ev.From)
	}
	list := func(name string, names []string) {
		if len(names) == 0 {
			return
		}
		field(name)
		b = append(b, '[')
		for k, n := range names {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendString(b, n)
		}
		b = append(b, ']')
	}
	list("also", ev.Also)
	list("to", ev.To)
	list("kinds", ev.Kinds)
	list("labels", ev.Labels)
	if ev.Cut != 0 {
		field("cut")
		b = strconv.AppendInt(b, int64(ev.Cut), 10)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string as encoding/json writes it:
// plain printable ASCII as it is, anything else by encoding/json itself
// (which escapes <, > and &, control characters and bad UTF-8).
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:      ID,
	Title:   "A logged execution",
	Summary: "The events of a logged run (a ShiViz or GoVector log) replayed in the log's order: each host is a process, each logged event a step, and a receipt the delivery of the message whose sending its vector clock merges.",
	MinN:    1,
	MaxN:    64,
	Kinds:   []sim.KindSpec{{Name: KindMsg, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot}},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: CmdNext, Help: "the process's next logged event, if it receives nothing"},
		},
		Record: true,
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleText, Style: sim.StyleLabel, Tone: sim.Blue, Legend: "what the log says happened"},
			{Name: RoleCut, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "a point of a cut the log marks (a Spacetime export's snapshot)"},
		},
	},
	New: newProcesses,
}

// Process is one host of the log: its events and how far it is.
type Process struct {
	// Events are the host's logged events; shared between clones, never
	// changed.
	Events []Event `state:"fixed"`
	// to holds each event's receivers as process ids, from Events.
	to [][]sim.NodeID `state:"fixed"`
	// Done counts the events done, and Held the messages held for the
	// next (Event.Also).
	Done int
	Held int
	// Clock is the log's vector clock after the last event done.
	Clock []int64
	// quoted are the processes' names, quoted, for the captions' clocks;
	// shared by every process.
	quoted []string `state:"fixed"`
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	var p Params
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	return New(names, p)
}

// New makes the processes of a log from its params, as the algorithm
// does from their JSON: an importer that has the params at hand need not
// encode and decode them (a large log's are most of the cost of opening
// it).
func New(names []string, p Params) ([]sim.Node, error) {
	if len(p.Events) > len(names) {
		return nil, strictjson.FieldErrorf("params.events", "want the events of at most %d processes, one list each, got %d lists", len(names), len(p.Events))
	}
	index := make(map[string]sim.NodeID, len(names))
	for i, n := range names {
		index[n] = sim.NodeID(i)
	}
	nodes := make([]sim.Node, len(names))
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	for i := range nodes {
		proc := &Process{Clock: make([]int64, len(names)), quoted: quoted}
		if i < len(p.Events) {
			proc.Events = p.Events[i]
		}
		proc.to = make([][]sim.NodeID, len(proc.Events))
		sends := 0
		for _, ev := range proc.Events {
			sends += len(ev.To)
		}
		slab := make([]sim.NodeID, 0, sends) // one array for every event's receivers
		for j, ev := range proc.Events {
			field := func(f string) string { return fmt.Sprintf("params.events[%d][%d].%s", i, j, f) }
			if _, ok := index[ev.From]; ev.From != "" && !ok {
				return nil, strictjson.FieldErrorf(field("from"), "want the name of a process (%s), got %q", strings.Join(names, ", "), ev.From)
			}
			if ev.Cut < 0 {
				return nil, strictjson.FieldErrorf(field("cut"), "want a cut's group from 1, or none, got %d", ev.Cut)
			}
			if len(ev.Also) > 0 && ev.From == "" {
				return nil, strictjson.FieldErrorf(field("also"), "want no other senders for an event that receives nothing (from is empty), got %d", len(ev.Also))
			}
			for k, name := range ev.Also {
				if _, ok := index[name]; !ok {
					return nil, strictjson.FieldErrorf(field(fmt.Sprintf("also[%d]", k)), "want the name of a process (%s), got %q", strings.Join(names, ", "), name)
				}
			}
			for k, name := range ev.To {
				id, ok := index[name] // itself too: a message to itself
				if !ok {
					return nil, strictjson.FieldErrorf(field(fmt.Sprintf("to[%d]", k)), "want the name of a process (%s), got %q", strings.Join(names, ", "), name)
				}
				slab = append(slab, id)
			}
			proc.to[j] = slab[len(slab)-len(ev.To) : len(slab) : len(slab)]
			if len(ev.Kinds) > len(ev.To) || len(ev.Labels) > len(ev.To) {
				return nil, strictjson.FieldErrorf(field("kinds"), "want at most a kind and a label for each of the %d messages of to, got %d kinds and %d labels", len(ev.To), len(ev.Kinds), len(ev.Labels))
			}
		}
		nodes[i] = proc
	}
	return nodes, nil
}

// Step does the process's next logged event when its turn comes.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		// the start is the first logged event, unless that is a receipt
		if len(p.Events) > 0 && p.Events[0].From == "" {
			p.do(env, nil)
			return
		}
		env.Explain("%s starts; its first logged event receives a message", me)
	case sim.Command:
		if p.Done == len(p.Events) {
			env.Explain("%s has no more logged events", me)
			return
		}
		if from := p.Events[p.Done].From; from != "" {
			env.Explain("%s's next logged event receives from %s: it waits for that message", me, from)
			return
		}
		p.do(env, nil)
	case sim.Deliver:
		if p.Done < len(p.Events) && p.Held < len(p.Events[p.Done].Also) && p.Events[p.Done].Also[p.Held] == env.Name(ev.From) {
			p.hold(env, ev.Msg.Data)
			return
		}
		if p.Done == len(p.Events) || p.Events[p.Done].From != env.Name(ev.From) {
			// only a learner's change to the schedule brings this about
			env.Explain("%s receives a message from %s that its log does not receive here", me, env.Name(ev.From))
			return
		}
		p.do(env, ev.Msg.Data)
	}
}

// hold keeps a message that the next event merges with another sender's:
// the clock merges it without a tick, so that the event's clock is the
// log's.
func (p *Process) hold(env *sim.Env, received []int64) {
	p.merge(received)
	p.Held++
	next := p.Events[p.Done]
	env.ExplainWith(func(b []byte) []byte {
		b = append(b, env.Name(env.Self())...)
		b = append(b, " holds "...)
		b = append(b, next.Also[p.Held-1]...)
		b = append(b, "'s message: its next logged event receives it with "...)
		b = append(b, next.From...)
		return append(b, "'s"...)
	})
}

// merge takes into the clock what a received one knows.
func (p *Process) merge(received []int64) {
	for i := range p.Clock {
		if i < len(received) {
			p.Clock[i] = max(p.Clock[i], received[i])
		}
	}
}

// do does the next event: the clock ticks (and merges a received one),
// the event's messages go out stamped with it.
func (p *Process) do(env *sim.Env, received []int64) {
	ev := p.Events[p.Done]
	sends := p.to[p.Done]
	p.Done++
	p.Held = 0
	// the clock changes in place: a clone has its own, and a message
	// its copy (sim.Env.Send)
	p.merge(received)
	p.Clock[env.Self()]++
	for i, to := range sends {
		m := sim.Message{Kind: KindMsg, Data: p.Clock}
		if i < len(ev.Kinds) && ev.Kinds[i] != "" {
			m.Kind = ev.Kinds[i]
		}
		if i < len(ev.Labels) {
			m.Label = ev.Labels[i]
		}
		env.Send(to, m)
	}
	if ev.Text != "" {
		env.Annotate(sim.At(RoleText, 0, ev.Text))
	}
	if ev.Cut > 0 {
		env.Annotate(sim.At(RoleCut, ev.Cut, ""))
	}
	// the caption is written without formatting: a log has a caption for
	// every one of its (up to 100,000) events
	env.ExplainWith(func(b []byte) []byte {
		b = append(b, env.Name(env.Self())...)
		b = append(b, ' ')
		b = clock.AppendLog(b, p.Clock, p.quoted)
		if ev.Text != "" {
			b = append(b, ": "...)
			b = append(b, ev.Text...)
		}
		return b
	})
}

// Inspect shows how far the process is in its log.
func (p *Process) Inspect() []sim.Field {
	return []sim.Field{{Name: "done", Value: strconv.Itoa(p.Done) + " of " + strconv.Itoa(len(p.Events))}}
}

// Clone copies the process; the events are shared, the clock copied.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Clock = slices.Clone(p.Clock)
	return &c
}
