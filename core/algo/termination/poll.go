package termination

import (
	"fmt"
	"strconv"

	"spacetime/core/sim"
)

// The naive detector's message kinds and timer.
const (
	KindProbe = "PROBE"
	KindIdle  = "IDLE"
	KindBusy  = "BUSY"
	// TimerPoll fires when the root asks again.
	TimerPoll = "poll"
)

// PollSpec registers the naive detector.
var PollSpec = func() *sim.Spec {
	s := spec("idle-poll", "Termination detection: asking who is idle (wrong)",
		"The naive detector of seed 003's interview question: the root, once passive, asks every process whether it is idle and announces termination when all say yes. It forgets the messages in flight: a WORK still on its way will make an idle process active again. Counting WORK sent and received catches that, but the answers come at different times: they make an inconsistent cut, on which the counts can agree while a WORK is still on its way.",
		[]sim.KindSpec{
			{Name: KindProbe, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
			{Name: KindIdle, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
			{Name: KindBusy, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
		},
		nil,
		own(pollParams{Params: defaults()}, func(p *pollParams) *Params { return &p.Params },
			func(p pollParams) detector { return &Poll{Base: Base{Work: Work{Params: p.Params}}, Count: p.Count} }),
		[]sim.Invariant{poll}, pollPanel,
		[]sim.KnownLimit{{Invariant: SafeName, Always: true, Why: "answers given at different times make an inconsistent cut: asking who is idle misses the WORK in flight, and counting can be fooled by a WORK received before its sender answered: that is the lesson"}})
	// counting is no fix, but either setting is the naive detector held
	// to the same invariants, so a campaign draws both
	s.Learner.Switches = []sim.Switch{{Param: "count", Variant: true, Label: "count WORK sent and received",
		Help: "every answer also says how many WORK the process has sent and received, and the root announces termination only when the totals agree; the answers still come at different times"}}
	return s
}()

// pollParams are the naive detector's params: the computation's, and
// whether it counts WORK.
type pollParams struct {
	Params
	Count bool `json:"count"`
}

// Poll is a process under the naive detector; the root keeps the round.
type Poll struct {
	Base
	// Count says the answers count WORK; Received counts the WORK this
	// process has received.
	Count    bool
	Received int
	// Round numbers the root's rounds of questions; Answers and AllIdle
	// are the current round's, and Sent and Got its totals of WORK.
	Round     int64
	Answers   int
	AllIdle   bool
	Sent, Got int
}

// Step reacts to one event.
func (q *Poll) Step(env *sim.Env, ev sim.Event) {
	stepWithRound(q, env, ev, TimerPoll, func() { q.ask(env) })
}

func (q *Poll) receiveWork(env *sim.Env, ev sim.Event, activated bool) string {
	q.Received++
	return ""
}

func (q *Poll) passive(env *sim.Env) string {
	if env.Self() != Root || q.Said {
		return ""
	}
	env.SetTimer(TimerPoll, 1)
	return "; the root will ask everyone whether they are idle"
}

// ask starts a round: PROBE to every other process.
func (q *Poll) ask(env *sim.Env) {
	if q.Active() || q.Said {
		env.Explain("%s is busy again: no round now", env.Name(env.Self()))
		return
	}
	q.Round++
	q.Answers, q.AllIdle, q.Sent, q.Got = 0, true, q.Spawned, q.Received
	for to := range env.N() {
		if sim.NodeID(to) != env.Self() {
			q.send(env, sim.NodeID(to), sim.Message{Kind: KindProbe, Value: q.Round, Label: KindProbe})
		}
	}
	env.Explain("%s is idle and asks every other process whether it is idle too (round %d)", env.Name(env.Self()), q.Round)
}

func (q *Poll) control(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Msg.Kind {
	case KindProbe:
		kind := KindIdle
		if q.Active() {
			kind = KindBusy
		}
		answer := sim.Message{Kind: kind, Value: ev.Msg.Value, Label: kind}
		counts := ""
		if q.Count {
			answer.Data = []int64{int64(q.Spawned), int64(q.Received)}
			answer.Label = fmt.Sprintf("%s %d/%d", kind, q.Spawned, q.Received)
			counts = fmt.Sprintf(", and has sent %d WORK and received %d", q.Spawned, q.Received)
		}
		q.send(env, ev.From, answer)
		env.Explain("%s answers %s: it is %s%s", me, kind, map[bool]string{true: "active", false: "idle"}[q.Active()], counts)
	case KindIdle, KindBusy:
		if ev.Msg.Value != q.Round || q.Said {
			return
		}
		q.Answers++
		q.AllIdle = q.AllIdle && ev.Msg.Kind == KindIdle
		if d := ev.Msg.Data; q.Count && len(d) == 2 {
			q.Sent += int(d[0])
			q.Got += int(d[1])
		}
		if q.Answers < env.N()-1 {
			env.Explain("%s hears %s from %s (%d of %d answers)", me, ev.Msg.Kind, env.Name(ev.From), q.Answers, env.N()-1)
			return
		}
		switch {
		case q.AllIdle && !q.Active() && !q.Count:
			q.announce(env)
			env.Explain("%s hears %s from %s: everyone said idle, so it announces termination, without a thought for messages in flight", me, ev.Msg.Kind, env.Name(ev.From))
			return
		case q.AllIdle && !q.Active() && q.Sent == q.Got:
			q.announce(env)
			env.Explain("%s hears %s from %s: everyone said idle, and the answers count %d WORK sent and %d received, so it announces termination. Each process counted when it answered, at its own time: the answers make a cut that may be inconsistent, and on one equal totals can hide a WORK in flight", me, ev.Msg.Kind, env.Name(ev.From), q.Sent, q.Got)
			return
		case q.AllIdle && !q.Active():
			env.SetTimer(TimerPoll, 3)
			env.Explain("%s hears %s from %s: everyone said idle, but the answers count %d WORK sent and only %d received: some is in flight; it will ask again", me, ev.Msg.Kind, env.Name(ev.From), q.Sent, q.Got)
			return
		}
		env.SetTimer(TimerPoll, 3)
		env.Explain("%s hears %s from %s: not everyone is idle; it will ask again", me, ev.Msg.Kind, env.Name(ev.From))
	}
}

// Inspect shows the process's state.
func (q *Poll) Inspect() []sim.Field {
	f := []sim.Field{{Name: "active", Value: strconv.FormatBool(q.Active())}, {Name: "round", Value: strconv.FormatInt(q.Round, 10)}}
	if q.Count {
		f = append(f, sim.Field{Name: "WORK sent/received", Value: fmt.Sprintf("%d/%d", q.Spawned, q.Received)})
	}
	return f
}

// Clone copies the process.
func (q *Poll) Clone() sim.Node {
	c := *q
	c.Work = q.Work.clone()
	return &c
}

func pollPanel(v sim.View) sim.Panel {
	root := v.Node(Root).(*Poll)
	p := sim.Panel{Title: "Who is idle", Note: fmt.Sprintf("the root's round %d: %d answers", root.Round, root.Answers), Columns: []string{"process", "state", "tasks"}}
	for i := range v.N() {
		p.Rows = append(p.Rows, sim.Row{Cells: rows(v, sim.NodeID(i))})
	}
	return p
}
