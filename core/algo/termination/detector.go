package termination

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// detector is what each detector adds to the computation: its rules when
// the process sends WORK, receives it, goes passive, and receives one of
// the detector's own messages.
type detector interface {
	sim.Node
	Worker
	base() *Base
	// sendWork sends WORK of the given depth to a process, stamped as the
	// detector needs (a credit).
	sendWork(env *sim.Env, to sim.NodeID, depth int)
	// receiveWork takes the WORK ev delivers; activated says it made the
	// process active.
	receiveWork(env *sim.Env, ev sim.Event, activated bool) string
	// passive is the detector's rule when the process goes passive.
	passive(env *sim.Env) string
	// control takes one of the detector's own messages.
	control(env *sim.Env, ev sim.Event)
}

// Base is what every detector's node holds: its part of the computation,
// whether it announced termination, and its count of control messages.
type Base struct {
	Work
	Said   bool
	SaidAt sim.Time
	// Control counts the detector's messages this process sent.
	Control int
}

func (b *Base) base() *Base { return b }

// Computation is the process's part of the computation.
func (b *Base) Computation() *Work { return &b.Work }

// Announced says the process announced termination, and when.
func (b *Base) Announced() (bool, sim.Time) { return b.Said, b.SaidAt }

// announce says the computation has terminated.
func (b *Base) announce(env *sim.Env) {
	b.Said, b.SaidAt = true, env.Now()
	env.Annotate(sim.At(RoleAnnounce, 0, "terminated"))
}

// sendWork sends WORK as it is, for a detector that stamps nothing on it
// (Dijkstra–Scholten and credit recovery have their own).
func (b *Base) sendWork(env *sim.Env, to sim.NodeID, depth int) {
	env.Send(to, workMessage(depth, nil))
}

// stepWithRound is the Step of a detector whose root runs rounds of its
// own on a timer (questions, snapshots): a restart forgets the tasks, the
// timer tag starts a round, and the rest is the computation's.
func stepWithRound(d detector, env *sim.Env, ev sim.Event, tag string, round func()) {
	switch {
	case ev.Kind == sim.Recover:
		d.base().Forget(env)
	case ev.Kind == sim.Timer && ev.Tag == tag:
		round()
		return
	}
	step(d, env, ev)
}

// send sends one of the detector's messages, counted as control.
func (b *Base) send(env *sim.Env, to sim.NodeID, m sim.Message) {
	env.Send(to, m)
	b.Control++
}

// step is every detector's Step: the computation's rules, with the
// detector's at the points where it acts.
func step(d detector, env *sim.Env, ev sim.Event) {
	b := d.base()
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if env.Self() != Root {
			env.Explain("%s is passive until WORK comes", me)
			return
		}
		b.Accept(env, 0)
		env.Explain("%s starts the computation: one task, %s long; tasks hand WORK on down to depth %d", me, sim.Ticks(b.Params.Work), b.Depth)
	case sim.Recover:
		env.Explain("%s recovers passive: it has lost its tasks and what its detector knew", me)
	case sim.Timer:
		if ev.Tag != TimerWork || !b.Busy {
			return
		}
		depth := b.Doing
		sent, passive := b.Finish(env, func(to sim.NodeID, depth int) { d.sendWork(env, to, depth) })
		what := fmt.Sprintf("%s finishes a task at depth %d", me, depth)
		if len(sent) > 0 {
			names := make([]string, len(sent))
			for i, to := range sent {
				names[i] = env.Name(to)
			}
			what += " and sends WORK to " + strings.Join(names, ", ")
		}
		if passive {
			what += "; it is passive now" + d.passive(env)
		} else {
			what += fmt.Sprintf("; it starts its next task, %s long", sim.Ticks(b.Params.Work))
		}
		env.Explain("%s", what)
	case sim.Deliver:
		if ev.Msg.Kind != KindWork {
			d.control(env, ev)
			return
		}
		activated := b.Accept(env, int(ev.Msg.Value))
		state := "it queues the task behind its own"
		if activated {
			state = "it becomes active"
		}
		env.Explain("%s receives WORK from %s: %s%s", me, env.Name(ev.From), state, d.receiveWork(env, ev, activated))
	case sim.Workload, sim.Command:
		env.Explain("%s does only the computation's work", me)
	}
}

// workMessage is a WORK message of a depth, with what the detector adds.
func workMessage(depth int, data []int64) sim.Message {
	return sim.Message{Kind: KindWork, Value: int64(depth), Label: "WORK", Data: data}
}

// builder builds a detector's nodes from the scenario's params.
type builder func(names []string, raw json.RawMessage) ([]sim.Node, error)

// plain builds a detector whose params are the computation's alone.
func plain(newNode func(Params) detector) builder {
	return own(defaults(), func(p *Params) *Params { return p }, newNode)
}

// own builds a detector with params of its own, T, which embed the
// computation's (computation finds them): decoded, checked, one node per
// process.
func own[T any](start T, computation func(*T) *Params, newNode func(T) detector) builder {
	return func(names []string, raw json.RawMessage) ([]sim.Node, error) {
		p := start
		if err := sim.DecodeParams(raw, &p); err != nil {
			return nil, err
		}
		if err := computation(&p).check(); err != nil {
			return nil, err
		}
		nodes := make([]sim.Node, len(names))
		for i := range nodes {
			nodes[i] = newNode(p)
		}
		return nodes, nil
	}
}

// spec registers a detector.
func spec(id, title, summary string, kinds []sim.KindSpec, roles []sim.RoleSpec, build builder, invariants []sim.Invariant, panel func(v sim.View) sim.Panel, limits []sim.KnownLimit) *sim.Spec {
	return &sim.Spec{
		ID:           id,
		Title:        title,
		Summary:      summary,
		MinN:         2,
		MaxN:         16,
		DefaultNames: sim.NumberNames,
		Kinds:        append([]sim.KindSpec{{Name: KindWork, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot}}, kinds...),
		Picture: sim.PictureSpec{
			Roles: append([]sim.RoleSpec{
				{Name: RoleActive, Style: sim.StyleBar, Tone: sim.Orange, Legend: "active: the process has work"},
				{Name: RoleAnnounce, Style: sim.StyleGlyph, Glyph: sim.GlyphDiamond, Tone: sim.Green, Legend: "termination announced"},
			}, roles...),
		},
		New: build,
		Checks: sim.CheckSpec{
			Invariants:  append(append([]sim.Invariant{safe}, invariants...), works, counts),
			KnownLimits: limits,
		},
		Figures: sim.FigureSpec{
			Metrics: metrics,
			Panels:  func(v sim.View) []sim.Panel { return []sim.Panel{panel(v)} },
			Formula: formula,
		},
		Done: func(v sim.View) bool { said, _ := announced(v); return said },
	}
}

// announced says whether termination was announced, and when.
func announced(v sim.View) (bool, sim.Time) {
	return v.Node(Root).(Worker).Announced()
}

// safe is every detector's safety: termination is announced only once the
// computation has really terminated.
var safe = sim.Invariant{
	Name: SafeName,
	Help: "the detector announces termination only when every process is passive and no WORK is in flight",
	Check: func(v sim.View) sim.Verdict {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleAnnounce || Terminated(v) {
				continue
			}
			var busy []string
			for i := range v.N() {
				if work(v, sim.NodeID(i)).Active() {
					busy = append(busy, v.Name(sim.NodeID(i)))
				}
			}
			if len(busy) > 0 {
				return sim.Verdict{Detail: fmt.Sprintf("termination announced while %s still active", strings.Join(busy, " and ")+map[bool]string{true: " is", false: " are"}[len(busy) == 1])}
			}
			return sim.Verdict{Detail: fmt.Sprintf("termination announced with every process passive but %d WORK message(s) still in flight", v.InFlightTotal(KindWork).Count)}
		}
		return sim.Verdict{OK: true}
	},
}

// SafeName and LiveName name the two invariants.
const (
	SafeName = "termination is announced only after it happened"
	LiveName = "termination is announced once it has happened"
)

// waiter is a root that may still have a round of its own to start once
// nothing is in flight (a snapshot on a timer).
type waiter interface{ waiting() bool }

// live is the detectors' liveness: once the computation has terminated and
// nothing is in flight (and the root has no round of its own to start),
// termination has been announced.
var live = sim.Invariant{
	Name: LiveName,
	Help: "when every process is passive and no message at all is in flight, the detector has announced termination",
	Check: func(v sim.View) sim.Verdict {
		if said, _ := announced(v); said || !Terminated(v) || v.InFlightCount() > 0 || v.Health(Root) == sim.Crashed {
			return sim.Verdict{OK: true}
		}
		if w, ok := v.Node(Root).(waiter); ok && w.waiting() {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: "the computation has terminated and nothing is in flight, but termination was never announced"}
	},
}

// totals are the computation's and the detector's message counts.
func totals(v sim.View) (basic, control int) {
	for i := range v.N() {
		d := v.Node(sim.NodeID(i)).(detector).base()
		basic += d.Spawned
		control += d.Control
	}
	return basic, control
}

func metrics(v sim.View) []sim.Metric {
	basic, control := totals(v)
	var terminatedAt, detectedAt any
	if Terminated(v) {
		terminatedAt = lastPassive(v)
	}
	if said, at := announced(v); said {
		detectedAt = at
	}
	perBasic := 0.0
	if basic > 0 {
		perBasic, _ = strconv.ParseFloat(fmt.Sprintf("%.2f", float64(control)/float64(basic)), 64)
	}
	return []sim.Metric{
		{Name: "terminated_at", Value: terminatedAt},
		{Name: "detected_at", Value: detectedAt},
		{Name: "basic_messages", Value: basic},
		{Name: "control_messages", Value: control},
		{Name: "control_per_basic", Value: perBasic},
	}
}

// lastPassive is when the last process went passive: the computation's end,
// once it has ended.
func lastPassive(v sim.View) sim.Time {
	var last sim.Time
	for i := range v.N() {
		last = max(last, v.Node(sim.NodeID(i)).(detector).base().PassiveAt)
	}
	return last
}

func formula(v sim.View) string {
	basic, control := totals(v)
	return fmt.Sprintf("Control messages: %d for %d WORK messages.", control, basic)
}

// rows are the computation's columns of a detector's panel: name, state,
// tasks done.
func rows(v sim.View, id sim.NodeID) []string {
	w := work(v, id)
	state := "passive"
	if w.Active() {
		state = fmt.Sprintf("active (%d queued)", len(w.Queue))
	}
	return []string{v.Name(id), state, strconv.Itoa(w.Tasks)}
}
