// Package tokenring is mutual exclusion by a token that circulates around a
// logical ring (seeds 000, 001 and 003): only the process that holds the
// token may enter the critical section; a holder that does not want it
// passes it to its successor. An entry costs 0 to N−1 passes, and the
// token keeps circulating when nobody wants it (idle passes, counted
// apart). A holder that crashes loses the token; regenerating it by hand
// while the old one still exists makes two, and two processes enter at
// once.
package tokenring

import (
	"encoding/json"
	"fmt"
	"slices"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "token-ring"

// KindToken is the one message kind.
const KindToken = mutex.KindToken

// The command, roles and timer of the ring.
const (
	// CmdRegenerate makes a process create a new token, as a recovery
	// that believes the token lost does.
	CmdRegenerate = "regenerate-token"
	// RoleToken is the interval a process holds the token.
	RoleToken = "token"
	// RolePass marks each pass of the token, for the message count.
	RolePass = "pass"
	// TimerPass fires when an idle holder has kept the token for Hold
	// ticks.
	TimerPass = "pass"
	// MaxHold bounds params.hold.
	MaxHold = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	// Holder is the first token holder's process number (default 1).
	Holder int `json:"holder"`
	// Ring lists the process numbers around the ring, each sending to the
	// next (default 1, 2, …, n).
	Ring []int `json:"ring"`
	// Hold is how many ticks a holder that does not want the section keeps
	// the token before it passes it on (default 1).
	Hold sim.Time `json:"hold"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Token ring",
	Summary:      "A token circulates around a logical ring; only its holder may enter the critical section. 0 to N−1 passes per entry, idle passes when nobody wants it, and a crashed holder loses the token.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds:        []sim.KindSpec{mutex.TokenKind},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{mutex.Request, {
			Name: CmdRegenerate,
			Help: "make a new token here, as a recovery that believes the token lost does (if the old one still exists, there are two)",
		}},
	},
	Picture: sim.PictureSpec{
		Roles: append(slices.Clip(mutex.Roles),
			sim.RoleSpec{Name: RoleToken, Style: sim.StyleToken, Tone: sim.Gold, Legend: "holds the token"},
			sim.RoleSpec{Name: RolePass, Style: sim.StyleHidden}),
		Topology: func(v sim.View) *sim.Topology {
			return sim.RingOf(sim.RingFrom(v.N(), func(id sim.NodeID) sim.NodeID { return process(v, id).Next }))
		},
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.Safety, deadlock, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn, {Name: MovesName, Help: "a process that holds the token is in the section, or has the pass armed that sends it on", Check: checkMoves}, drawn, stamps},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a holder that crashes, or a TOKEN lost on its way, loses the token: nobody enters again until it is regenerated"},
			{Invariant: mutex.SafetyName, Faults: []string{CmdRegenerate}, Why: "a token regenerated while the old one still exists makes two tokens, and two holders enter at once"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: newTally,
		Metrics:  metrics,
		Panels:   panels,
		Formula:  formula,
	},
}

// Stamp orders tokens: a regenerated token has a higher generation, and
// every pass raises the hop count, so that a process can tell a live token
// from a network's copy of one it has seen, or from an older generation.
type Stamp struct {
	Gen, Hop int64
}

// Before reports whether s is the older token.
func (s Stamp) Before(o Stamp) bool { return s.Gen < o.Gen || (s.Gen == o.Gen && s.Hop < o.Hop) }

// Process is one process of the ring.
type Process struct {
	mutex.Want
	// Next is the successor on the ring, and Hold how long an idle holder
	// keeps the token.
	Next sim.NodeID
	Hold sim.Time
	// Holds says the process holds a token, and Token is its stamp.
	Holds bool
	Token Stamp
	// Seen is the latest token stamp the process has held; it discards a
	// token that is not later.
	Seen Stamp
	// Regenerated counts the tokens this process created by command.
	Regenerated int
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	n := len(names)
	p := Params{Params: mutex.Defaults(), Holder: 1, Hold: 1}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := mutex.CheckProcess("params.holder", p.Holder, n); err != nil {
		return nil, err
	}
	if err := sim.CheckTicks("params.hold", p.Hold, MaxHold); err != nil {
		return nil, err
	}
	order, err := sim.ReadRing(p.Ring, n)
	if err != nil {
		return nil, err
	}
	// everyone knows the first token, generation 1 at hop 0; it arrives
	// anywhere with a later hop
	first := Stamp{Gen: 1}
	nodes := make([]sim.Node, n)
	for i, id := range order {
		nodes[id] = &Process{Want: mutex.Want{CSTime: p.CSTime}, Next: order[(i+1)%n], Hold: p.Hold, Seen: first}
	}
	holder := nodes[p.Holder-1].(*Process)
	holder.Holds, holder.Token = true, first
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me, next := env.Name(env.Self()), env.Name(p.Next)
	switch ev.Kind {
	case sim.Init:
		if p.Holds {
			p.take(env, "token")
			env.Explain("%s holds the token first; it passes it on to %s after %s unless it wants the section", me, next, sim.Ticks(p.Hold))
			return
		}
		env.Explain("%s starts without the token; its successor on the ring is %s", me, next)
	case sim.Recover:
		p.Forget(env)
		if p.Holds {
			p.Holds = false
			env.Annotate(sim.Closes(RoleToken, 0))
			env.Explain("%s recovers without the token it held when it crashed: the token is lost", me)
			return
		}
		env.Explain("%s recovers; it does not hold the token", me)
	case sim.Command, sim.Workload:
		if ev.Kind == sim.Command && ev.Tag == CmdRegenerate {
			p.regenerate(env)
			return
		}
		if !p.Ask(env) {
			return
		}
		if p.Holds {
			env.CancelTimer(TimerPass)
			p.Enter(env)
			env.Explain("%s wants the critical section and holds the token: it enters the critical section at once, with no message", me)
			return
		}
		env.Explain("%s wants the critical section: it waits for the token to come round", me)
	case sim.Timer:
		switch {
		case ev.Tag == mutex.TimerRelease && p.State == mutex.InCS:
			p.Leave(env)
			p.pass(env)
			env.Explain("%s leaves the critical section after %s and passes the token to %s", me, sim.Ticks(p.CSTime), next)
		case ev.Tag == TimerPass && p.Holds && p.State != mutex.InCS:
			p.pass(env)
			env.Explain("%s does not want the section: it passes the token to %s", me, next)
		}
	case sim.Deliver:
		p.receive(env, Stamp{Gen: ev.Msg.Value, Hop: hop(ev.Msg)})
	}
}

func hop(m sim.Message) int64 {
	if len(m.Data) == 0 {
		return 0
	}
	return m.Data[0]
}

// receive is the rule for an arriving token: discard it unless it is later
// than every token this process has held, else hold it and enter or pass.
func (p *Process) receive(env *sim.Env, t Stamp) {
	me := env.Name(env.Self())
	if !p.Seen.Before(t) {
		what := "a copy of a token it has already held"
		if t.Gen < p.Seen.Gen {
			what = fmt.Sprintf("a token of generation %d, older than the generation %d it has held", t.Gen, p.Seen.Gen)
		}
		env.Explain("%s discards %s", me, what)
		return
	}
	if p.Holds {
		// two tokens meet: keep one
		p.Token, p.Seen = t, t
		env.Explain("%s already holds a token and absorbs the second one (generation %d): one token goes on", me, t.Gen)
		return
	}
	p.Token, p.Seen = t, t
	p.take(env, "")
	if p.State == mutex.Wanting {
		env.CancelTimer(TimerPass)
		p.Enter(env)
		env.Explain("%s gets the token and enters the critical section for %s", me, sim.Ticks(p.CSTime))
		return
	}
	env.Explain("%s gets the token but does not want the section: it passes it to %s after %s", me, env.Name(p.Next), sim.Ticks(p.Hold))
}

// take starts holding the token, and arms the pass of an idle holder.
func (p *Process) take(env *sim.Env, text string) {
	p.Holds = true
	env.Annotate(sim.Opens(RoleToken, 0, text))
	if p.State == mutex.Idle {
		env.SetTimer(TimerPass, p.Hold)
	}
}

// pass sends the token to the successor.
func (p *Process) pass(env *sim.Env) {
	p.Holds = false
	p.Token.Hop++
	label := KindToken
	if p.Token.Gen > 1 {
		label = fmt.Sprintf("%s g%d", KindToken, p.Token.Gen)
	}
	env.Send(p.Next, sim.Message{Kind: KindToken, Value: p.Token.Gen, Label: label, Data: []int64{p.Token.Hop}})
	p.Sent++
	env.Annotate(sim.Closes(RoleToken, 0), sim.At(RolePass, 0, ""))
}

// regenerate makes a new token of a later generation here.
func (p *Process) regenerate(env *sim.Env) {
	me := env.Name(env.Self())
	if p.Holds {
		env.Explain("%s already holds the token: it has nothing to regenerate", me)
		return
	}
	p.Regenerated++
	p.Token = Stamp{Gen: p.Seen.Gen + 1}
	p.Seen = p.Token
	p.take(env, fmt.Sprintf("new token g%d", p.Token.Gen))
	then := "if the old one still exists, there are now two"
	if p.State == mutex.Wanting {
		p.Enter(env)
		then = "it enters the critical section with it (if the old one still exists, there are now two)"
	}
	env.Explain("%s regenerates the token as generation %d, believing the old one lost: %s", me, p.Token.Gen, then)
}

// Inspect shows the process's state and whether it holds the token.
func (p *Process) Inspect() []sim.Field {
	token := "no"
	if p.Holds {
		token = fmt.Sprintf("yes (generation %d, hop %d)", p.Token.Gen, p.Token.Hop)
	}
	return append(p.Fields(), sim.Field{Name: "token", Value: token})
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	return &c
}
