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
var PollSpec = spec("idle-poll", "Termination detection: asking who is idle (wrong)",
	"The naive detector of seed 003's interview question: the root, once passive, asks every process whether it is idle and announces termination when all say yes. It forgets the messages in flight: a WORK still on its way will make an idle process active again.",
	[]sim.KindSpec{
		{Name: KindProbe, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindIdle, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindBusy, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
	},
	nil,
	func(p Params) detector { return &Poll{Base: Base{Work: Work{Params: p}}} },
	nil, pollPanel,
	[]sim.KnownLimit{{Invariant: SafeName, Always: true, Why: "asking whether every process is idle misses the WORK in flight: that is the lesson"}})

// Poll is a process under the naive detector; the root keeps the round.
type Poll struct {
	Base
	// Round numbers the root's rounds of questions; Answers and AllIdle
	// are the current round's.
	Round   int64
	Answers int
	AllIdle bool
}

// Step reacts to one event.
func (q *Poll) Step(env *sim.Env, ev sim.Event) {
	switch {
	case ev.Kind == sim.Recover:
		q.Forget(env)
	case ev.Kind == sim.Timer && ev.Tag == TimerPoll:
		q.ask(env)
		return
	}
	step(q, env, ev)
}

func (q *Poll) sendWork(env *sim.Env, to sim.NodeID, depth int) {
	env.Send(to, workMessage(depth, nil))
}

func (q *Poll) receiveWork(env *sim.Env, from sim.NodeID, m sim.Message, activated bool) string {
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
	q.Answers, q.AllIdle = 0, true
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
		q.send(env, ev.From, sim.Message{Kind: kind, Value: ev.Msg.Value, Label: kind})
		env.Explain("%s answers %s: it is %s", me, kind, map[bool]string{true: "active", false: "idle"}[q.Active()])
	case KindIdle, KindBusy:
		if ev.Msg.Value != q.Round || q.Said {
			return
		}
		q.Answers++
		q.AllIdle = q.AllIdle && ev.Msg.Kind == KindIdle
		if q.Answers < env.N()-1 {
			env.Explain("%s hears %s from %s (%d of %d answers)", me, ev.Msg.Kind, env.Name(ev.From), q.Answers, env.N()-1)
			return
		}
		if q.AllIdle && !q.Active() {
			q.announce(env)
			env.Explain("%s hears %s from %s: everyone said idle, so it announces termination, without a thought for messages in flight", me, ev.Msg.Kind, env.Name(ev.From))
			return
		}
		env.SetTimer(TimerPoll, 3)
		env.Explain("%s hears %s from %s: not everyone is idle; it will ask again", me, ev.Msg.Kind, env.Name(ev.From))
	}
}

// Inspect shows the process's state.
func (q *Poll) Inspect() []sim.Field {
	return []sim.Field{{Name: "active", Value: strconv.FormatBool(q.Active())}, {Name: "round", Value: strconv.FormatInt(q.Round, 10)}}
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
