// Package logicalclock is seed 002's logical clocks as algorithms of their
// own. In lamport-clock each process P_i keeps C_i: every event adds d
// (params.d, default 1), a send stamps the message with the result, and a
// receipt sets C_i = max(C_i, t_m) + d. In vector-clock each keeps a vector
// V_i: every event adds d to V_i[i], a send stamps the message with V_i,
// and a receipt takes the entrywise max with the stamp after its own tick;
// it keeps the Lamport clock beside, so that the two can be read side by
// side. A process's start is its first event; then it does what the
// learner or the workload asks: a local event, or a send to another
// process. Each event is labelled with the clock's value after it. With
// d = 1 the clocks are those the engine keeps for every algorithm.
package logicalclock

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"spacetime/core/clock"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// The algorithms' ids.
const (
	LamportID = "lamport-clock"
	VectorID  = "vector-clock"
)

// The commands, the message kind, the label's role and a bound.
const (
	CmdLocal = "local"
	CmdSend  = "send"
	KindMsg  = "MSG"
	// RoleClock labels an event with the clock's value after it.
	RoleClock = "clock"
	// MaxD bounds params.d.
	MaxD = 1000
	// MaxN bounds the processes.
	MaxN = 16
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// D is what every event adds to the clock (default 1).
	D int64 `json:"d"`
	// SeedRule judges happened-before by seed 002's test, every entry of
	// V(a) less than V(b)'s, instead of every entry at most and one less
	// (vector-clock only). The test is too strict: it misses the send and
	// the receipt of every message, which the invariant shows.
	SeedRule bool `json:"seed_rule"`
	// SeedUpdate runs seed 002's paraphrase of the receipt rule: a process
	// updates its clock only when a message carries a higher timestamp
	// (then C_i = t_m + d), and otherwise leaves it as it is
	// (lamport-clock only). A receipt then need not tick, and can read no
	// later than its send.
	SeedUpdate bool `json:"seed_update"`
}

// SeedUpdateSwitch is lamport-clock's switch to seed 002's paraphrase.
var SeedUpdateSwitch = sim.Switch{
	Param: "seed_update", Label: "seed 002: update only on a higher timestamp",
	Help: "on a receipt, change the clock only when the message's timestamp is higher than it (C_i = t_m + d), as seed 002's \"in other words\" says, rather than C_i = max(C_i, t_m) + d on every receipt: a receipt whose stamp is not higher leaves the clock where it was, so the receipt can read the same as its send",
}

// SeedRuleSwitch is vector-clock's switch to seed 002's test.
var SeedRuleSwitch = sim.Switch{
	Param: "seed_rule", Label: "seed 002: every entry less",
	Help: "judge happened-before as seed 002 does, a before b when every entry of V(a) is less than V(b)'s; the usual test asks every entry to be at most, and one less",
}

// Spec and VectorSpec register the two algorithms.
var (
	Spec       = spec(LamportID, "Lamport clocks", "Each process keeps a counter C_i: every event adds d, a message carries its sender's C, and a receipt sets C_i = max(C_i, t_m) + d. If a happened before b then C(a) < C(b); the converse does not hold.", false)
	VectorSpec = spec(VectorID, "Vector clocks", "Each process keeps a vector V_i: every event adds d to V_i[i], a message carries its sender's V, and a receipt takes the entrywise max. V(a) < V(b) exactly when a happened before b, so the vectors tell concurrent events apart.", true)
)

func spec(id, title, summary string, vector bool) *sim.Spec {
	clocks := "Lamport clock C"
	if vector {
		clocks = "vector clock V, and Lamport clock C beside it,"
	}
	switches := []sim.Switch{SeedUpdateSwitch}
	if vector {
		switches = []sim.Switch{SeedRuleSwitch}
	}
	return &sim.Spec{
		Learner: sim.LearnerSpec{
			Switches: switches,
			Commands: []sim.CommandSpec{
				{Name: CmdLocal, Help: "a local event: the clock ticks"},
				{Name: CmdSend, Help: "send a message to another process: the clock ticks and stamps it", Target: true},
			},
		},
		ID:           id,
		Title:        title,
		Summary:      summary,
		MinN:         2,
		MaxN:         MaxN,
		DefaultNames: names,
		Kinds:        []sim.KindSpec{{Name: KindMsg, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot}},
		Picture: sim.PictureSpec{
			Roles: []sim.RoleSpec{{Name: RoleClock, Style: sim.StyleLabel, Tone: sim.Blue, Legend: "the process's clock after the event"}},
		},
		New: func(names []string, raw json.RawMessage) ([]sim.Node, error) { return newProcesses(names, raw, vector) },
		Checks: sim.CheckSpec{
			Invariants: invariants(vector),
		},
		Figures: sim.FigureSpec{
			NewTally: newLabels,
			Metrics:  metrics,
			Panels:   func(v sim.View) []sim.Panel { return panels(v, clocks) },
		},
	}
}

// names are P1, P2, …, as the seed writes them.
func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "P" + strconv.Itoa(i+1)
	}
	return out
}

// Process is one process and its clocks.
type Process struct {
	D      int64
	Vector bool
	// C is the Lamport clock; V the vector clock (vector-clock only).
	C int64
	V []int64
	// Events counts the process's events since it started; Skipped its
	// steps that are none: recoveries, and sends to itself refused. The
	// run counts both (its own vector clocks), so the invariants hold
	// Events to it.
	Events, Skipped int
	// SeedRule says happened-before is judged by seed 002's test, and
	// SeedUpdate that receipts follow seed 002's paraphrase.
	SeedRule, SeedUpdate bool
	// Got and GotC are the stamp of the latest message received and the
	// clock just after its receipt (lamport-clock): the clock condition
	// wants Got < GotC.
	Got, GotC int64
	// Sent and Received are the stamp of the latest message received and
	// the vector just after its receipt (vector-clock): a pair that
	// happened-before must order.
	Sent, Received []int64
}

// rule is what an event's own tick did, for its caption: the process,
// its Lamport clock before, and its own vector entry before.
type rule struct {
	i           sim.NodeID
	before, own int64
}

func newProcesses(names []string, raw json.RawMessage, vector bool) ([]sim.Node, error) {
	p := Params{D: 1}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.D < 1 || p.D > MaxD {
		return nil, strictjson.FieldErrorf("params.d", "want an increment from 1 to %d, got %d", MaxD, p.D)
	}
	if p.SeedRule && !vector {
		return nil, strictjson.FieldErrorf("params.seed_rule", "want false: seed 002's test compares vector clocks, and lamport-clock has none (use vector-clock), got true")
	}
	if p.SeedUpdate && vector {
		return nil, strictjson.FieldErrorf("params.seed_update", "want false: seed 002's paraphrase is of the Lamport clock's rule (use lamport-clock), got true")
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		proc := &Process{D: p.D, Vector: vector, SeedRule: p.SeedRule, SeedUpdate: p.SeedUpdate}
		if vector {
			proc.V = make([]int64, len(names))
		}
		nodes[i] = proc
	}
	return nodes, nil
}

// Step reacts to one event: it ticks the clocks and says how.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		// the start is the process's first event, as the engine counts it
		r, _ := p.tick(env)
		env.ExplainWith(func(b []byte) []byte {
			return p.appendRule(append(append(b, me...), " starts, its first event: "...), r)
		})
	case sim.Recover:
		p.Skipped++
		env.Explain("%s recovers with its clock as it was (%s): a clock must never run backwards", me, p.state(env.Self()))
	case sim.Workload:
		if env.Rand().IntN(2) == 0 {
			p.local(env)
			return
		}
		to := sim.NodeID(env.Rand().IntN(env.N() - 1))
		if to >= env.Self() {
			to++
		}
		p.send(env, to)
	case sim.Command:
		switch ev.Tag {
		case CmdLocal:
			p.local(env)
		case CmdSend:
			if ev.Target == env.Self() {
				p.Skipped++
				env.Explain("%s does not send to itself: a message goes to another process", me)
				return
			}
			p.send(env, ev.Target)
		}
	case sim.Deliver:
		if ev.Msg.Kind == KindMsg {
			p.receive(env, ev.Msg)
		}
	}
}

// Every step's caption is appended straight into the run's text
// (ExplainWith), not formatted: a clock lesson captions every event, and
// formatting was most of what a step cost.

func (p *Process) local(env *sim.Env) {
	r, _ := p.tick(env)
	me := env.Name(env.Self())
	env.ExplainWith(func(b []byte) []byte {
		return p.appendRule(append(append(b, me...), ": a local event, "...), r)
	})
}

func (p *Process) send(env *sim.Env, to sim.NodeID) {
	r, stamp := p.tick(env)
	env.Send(to, sim.Message{Kind: KindMsg, Value: p.C, Label: "m " + stamp, Data: p.V})
	me, them := env.Name(env.Self()), env.Name(to)
	env.ExplainWith(func(b []byte) []byte {
		b = append(append(append(append(append(b, me...), " sends m to "...), them...), " stamped "...), stamp...)
		return p.appendRule(append(b, ": "...), r)
	})
}

// tick is every event's own tick: it labels the event with its stamp,
// which it returns, and what it did, for the caption's rule.
func (p *Process) tick(env *sim.Env) (rule, string) {
	r := rule{i: env.Self(), before: p.C}
	p.C += p.D
	p.Events++
	if p.Vector {
		r.own = p.V[r.i]
		p.V[r.i] += p.D
	}
	stamp := p.stamp()
	env.Annotate(sim.At(RoleClock, 0, stamp))
	return r, stamp
}

// appendRule appends the rule of a tick, as the clocks stand after it:
// "C₁ = 0 + 1 = 1", or for a vector clock "V₁[1] = 0 + 1 = 1, so V₁ =
// [1,0] (and C₁ = 0 + 1 = 1)".
func (p *Process) appendRule(b []byte, r rule) []byte {
	if p.Vector {
		b = appendSub(append(b, 'V'), r.i)
		b = append(strconv.AppendInt(append(b, '['), int64(r.i.Number()), 10), "] = "...)
		b = strconv.AppendInt(b, r.own, 10)
		b = strconv.AppendInt(append(b, " + "...), p.D, 10)
		b = strconv.AppendInt(append(b, " = "...), p.V[r.i], 10)
		b = appendSub(append(b, ", so V"...), r.i)
		b = append(clock.AppendFormat(append(b, " = "...), p.V), " (and "...)
	}
	b = appendSub(append(b, 'C'), r.i)
	b = strconv.AppendInt(append(b, " = "...), r.before, 10)
	b = strconv.AppendInt(append(b, " + "...), p.D, 10)
	b = strconv.AppendInt(append(b, " = "...), p.C, 10)
	if p.Vector {
		b = append(b, ')')
	}
	return b
}

func (p *Process) receive(env *sim.Env, m sim.Message) {
	i := env.Self()
	me := env.Name(i)
	p.Events++
	if !p.Vector {
		before := p.C
		switch {
		case !p.SeedUpdate:
			p.C = max(p.C, m.Value) + p.D
		case m.Value > before: // seed 002's paraphrase: only a higher stamp
			p.C = m.Value + p.D
		}
		p.Got, p.GotC = m.Value, p.C
		env.Annotate(sim.At(RoleClock, 0, p.stamp()))
		switch {
		case !p.SeedUpdate:
			env.Explain("%s receives m stamped %d: C%s = max(%d, %d) + %d = %d", me, m.Value, sub(i), before, m.Value, p.D, p.C)
		case m.Value > before:
			env.Explain("%s receives m stamped %d, higher than its clock %d: by seed 002's paraphrase it updates, C%s = %d + %d = %d", me, m.Value, before, sub(i), m.Value, p.D, p.C)
		default:
			env.Explain("%s receives m stamped %d, not higher than its clock %d: by seed 002's paraphrase it leaves C%s at %d, and this event does not tick", me, m.Value, before, sub(i), p.C)
		}
		return
	}
	own := p.V[i]
	p.V[i] += p.D
	// for the caption: the vector between the tick and the merge, in a
	// buffer of the step's own
	var buf [96]byte
	var ticked []byte
	if !env.Quiet() {
		ticked = clock.AppendFormat(buf[:0], p.V)
	}
	for j := range p.V {
		if j < len(m.Data) {
			p.V[j] = max(p.V[j], m.Data[j])
		}
	}
	p.Sent, p.Received = append(p.Sent[:0], m.Data...), append(p.Received[:0], p.V...)
	before := p.C
	p.C = max(p.C, m.Value) + p.D
	env.Annotate(sim.At(RoleClock, 0, p.stamp()))
	env.ExplainWith(func(b []byte) []byte {
		// "2 receives m stamped [1,0]: V₂[2] = 0 + 1 = 1, then V₂ =
		// max([0,1], [1,0]) = [1,1] (and C₂ = max(0, 1) + 1 = 2)"
		b = clock.AppendFormat(append(append(b, me...), " receives m stamped "...), m.Data)
		b = appendSub(append(b, ": V"...), i)
		b = append(strconv.AppendInt(append(b, '['), int64(i.Number()), 10), "] = "...)
		b = strconv.AppendInt(b, own, 10)
		b = strconv.AppendInt(append(b, " + "...), p.D, 10)
		b = strconv.AppendInt(append(b, " = "...), own+p.D, 10)
		b = appendSub(append(b, ", then V"...), i)
		b = append(append(b, " = max("...), ticked...)
		b = clock.AppendFormat(append(b, ", "...), m.Data)
		b = clock.AppendFormat(append(b, ") = "...), p.V)
		b = appendSub(append(b, " (and C"...), i)
		b = strconv.AppendInt(append(b, " = max("...), before, 10)
		b = strconv.AppendInt(append(b, ", "...), m.Value, 10)
		b = strconv.AppendInt(append(b, ") + "...), p.D, 10)
		return append(strconv.AppendInt(append(b, " = "...), p.C, 10), ')')
	})
}

// stamp is the clock a message carries and an event is labelled with.
func (p *Process) stamp() string {
	if p.Vector {
		return clock.Format(p.V)
	}
	return strconv.FormatInt(p.C, 10)
}

func (p *Process) state(id sim.NodeID) string {
	if p.Vector {
		return fmt.Sprintf("V%s = %s", sub(id), clock.Format(p.V))
	}
	return fmt.Sprintf("C%s = %d", sub(id), p.C)
}

// Inspect shows the clocks.
func (p *Process) Inspect() []sim.Field {
	f := []sim.Field{{Name: "C", Value: strconv.FormatInt(p.C, 10)}}
	if p.Vector {
		f = append([]sim.Field{{Name: "V", Value: clock.Format(p.V)}}, f...)
	}
	return f
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.V = append([]int64(nil), p.V...)
	c.Sent, c.Received = append([]int64(nil), p.Sent...), append([]int64(nil), p.Received...)
	return &c
}

// sub is a process number as a subscript: ₁₂.
func sub(id sim.NodeID) string { return string(appendSub(nil, id)) }

// appendSub appends a process number as a subscript.
func appendSub(b []byte, id sim.NodeID) []byte {
	var digits [20]byte
	for _, d := range strconv.AppendInt(digits[:0], int64(id.Number()), 10) {
		b = utf8.AppendRune(b, '₀'+rune(d-'0'))
	}
	return b
}
