// Package suzukikasami is Suzuki and Kasami's broadcast token algorithm
// (1985; seed 003): a process that wants the critical section and does
// not hold the token numbers its request, RN[self]++, and sends REQUEST to
// every other process; each keeps RN[j], the latest request number it has
// heard from j. The token carries LN[j], the number of j's request last
// served, and a queue. The holder sends the token to j when RN[j] =
// LN[j] + 1 (j has a request not yet served); an older number is an
// outdated request and is ignored. A process leaving the section sets
// LN[self] = RN[self], queues every j with RN[j] = LN[j] + 1 and sends the
// token to the head. N messages per entry (N−1 REQUESTs and the TOKEN),
// none when the holder itself asks.
//
// Seed 003 updates LN[j] = RN[j] for every j when the token arrives; that
// marks requests that are still waiting as served and loses them, so
// here, as in the paper, a process updates only its own LN entry, on
// leaving. params.seed_ln (a switch) runs seed 003's rule instead, so
// that a lesson shows the request it loses.
//
// Seed 003's REQUEST handler sends the token to j whenever the receiver
// holds it and RN[j] = LN[j] + 1, without asking whether the holder is in
// the critical section: the token leaves while its holder is still
// inside, and j enters too. Here, as in the paper, a holder in the
// section queues j when it leaves; params.seed_request (a switch) runs
// seed 003's handler.
package suzukikasami

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "suzuki-kasami"

// The message kinds.
const (
	KindRequest = mutex.KindRequest
	KindToken   = mutex.KindToken
)

// RoleToken is the interval a process holds the token.
const RoleToken = "token"

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	// Holder is the first token holder's process number (default 1).
	Holder int `json:"holder"`
	// SeedLN runs seed 003's rule: the token's LN[j] = RN[j] for every j
	// when it arrives, which marks waiting requests as served.
	SeedLN bool `json:"seed_ln"`
	// SeedRequest runs seed 003's REQUEST handler: the holder sends the
	// token at once, even from inside the critical section.
	SeedRequest bool `json:"seed_request"`
}

// SeedLNSwitch is the switch to seed 003's rule for LN.
var SeedLNSwitch = sim.Switch{
	Param: "seed_ln", Label: "seed 003: LN[j] = RN[j], all j",
	Help: "on the token's arrival set LN[j] = RN[j] for every process, as seed 003 says, rather than LN[self] = RN[self] on leaving, as the paper does: a request the holder has heard of but not served is marked served, and its process waits for ever",
}

// SeedRequestSwitch is the switch to seed 003's REQUEST handler.
var SeedRequestSwitch = sim.Switch{
	Param: "seed_request", Label: "seed 003: send the token at once",
	Help: "on a REQUEST with RN[j] = LN[j] + 1, send the token at once, as seed 003's handler says, rather than only when the holder is idle, as the paper does: a holder inside the critical section gives the token away, and two processes are inside at once",
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Suzuki–Kasami",
	Summary:      "A process without the token broadcasts a numbered REQUEST; the token carries the number of each process's last served request and a queue. N messages per entry, none when the holder itself asks.",
	MinN:         2,
	MaxN:         64,
	DefaultNames: sim.NumberNames,
	Kinds:        []sim.KindSpec{mutex.RequestKind, mutex.TokenKind},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{mutex.Request},
		Switches: []sim.Switch{SeedLNSwitch, SeedRequestSwitch},
	},
	Picture: sim.PictureSpec{
		Roles: append(slices.Clip(mutex.Roles),
			sim.RoleSpec{Name: RoleToken, Style: sim.StyleToken, Tone: sim.Gold, Legend: "holds the token"}),
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.Safety, deadlock, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn, token, drawn},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a holder that crashes, or a TOKEN lost on its way, loses the token; a lost REQUEST leaves its process unserved: the algorithm assumes reliable processes and channels"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: mutex.NewTally,
		Metrics:  metrics,
		Panels:   panels,
		Formula:  formula,
	},
}

// Token is the token's content: the number of each process's request
// last served, the processes queued for it, and how often it has been
// sent (so that a network's copy is told from the token itself).
type Token struct {
	LN    []int64
	Queue []sim.NodeID
	Hop   int64
}

// encode packs the token into a message's data: hop, LN, then the queue.
func (t *Token) encode() []int64 {
	d := make([]int64, 0, 1+len(t.LN)+len(t.Queue))
	d = append(d, t.Hop)
	d = append(d, t.LN...)
	for _, q := range t.Queue {
		d = append(d, int64(q))
	}
	return d
}

// Decode unpacks a token sent among n processes.
func Decode(data []int64, n int) Token {
	t := Token{LN: make([]int64, n)}
	if len(data) < 1+n {
		return t
	}
	t.Hop = data[0]
	copy(t.LN, data[1:1+n])
	for _, q := range data[1+n:] {
		t.Queue = append(t.Queue, sim.NodeID(q))
	}
	return t
}

func (t *Token) clone() *Token {
	if t == nil {
		return nil
	}
	return &Token{LN: slices.Clone(t.LN), Queue: slices.Clone(t.Queue), Hop: t.Hop}
}

// Process is one process.
type Process struct {
	mutex.Want
	// RN is the latest request number heard from each process (its own
	// included).
	RN []int64
	// Token is the token while this process holds it, else nil.
	Token *Token
	// Hop is the hop count of the latest token this process held.
	Hop int64
	// Passed counts the tokens this process sent.
	Passed int
	// SeedLN says the process runs seed 003's rule for LN (Params.SeedLN).
	SeedLN bool
	// SeedRequest says it runs seed 003's REQUEST handler
	// (Params.SeedRequest).
	SeedRequest bool
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	n := len(names)
	p := Params{Params: mutex.Defaults(), Holder: 1}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := mutex.CheckProcess("params.holder", p.Holder, n); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, n)
	for i := range nodes {
		nodes[i] = &Process{Want: mutex.Want{CSTime: p.CSTime}, RN: make([]int64, n), SeedLN: p.SeedLN, SeedRequest: p.SeedRequest}
	}
	nodes[p.Holder-1].(*Process).Token = &Token{LN: make([]int64, n)}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.Token != nil {
			env.Annotate(sim.Opens(RoleToken, 0, "token"))
			env.Explain("%s holds the token first, with LN = %s and an empty queue", me, numbers(p.Token.LN))
			return
		}
		env.Explain("%s starts without the token; RN = %s", me, numbers(p.RN))
	case sim.Recover:
		p.Forget(env)
		clear(p.RN)
		if p.Token != nil {
			p.Token = nil
			env.Annotate(sim.Closes(RoleToken, 0))
			env.Explain("%s recovers without the token it held when it crashed, and with RN forgotten: the token is lost", me)
			return
		}
		env.Explain("%s recovers with RN forgotten", me)
	case sim.Command, sim.Workload:
		p.request(env)
	case sim.Timer:
		if ev.Tag == mutex.TimerRelease && p.State == mutex.InCS {
			p.leave(env)
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindRequest:
			p.onRequest(env, ev.From, ev.Msg.Value)
		case KindToken:
			p.onToken(env, Decode(ev.Msg.Data, env.N()))
		}
	}
}

// request is the rule for wanting the section.
func (p *Process) request(env *sim.Env) {
	me := env.Name(env.Self())
	if !p.Ask(env) {
		return
	}
	self := env.Self()
	if p.Token != nil {
		p.Enter(env)
		env.Explain("%s wants the critical section and holds the token: it enters the critical section at once, with no message", me)
		return
	}
	p.RN[self]++
	for q := range env.N() {
		if sim.NodeID(q) != self {
			env.Send(sim.NodeID(q), sim.Message{Kind: KindRequest, Value: p.RN[self], Label: fmt.Sprintf("REQUEST #%d", p.RN[self])})
			p.Sent++
		}
	}
	env.Explain("%s wants the critical section: RN[%s] = %d, and REQUEST #%d to every other process", me, me, p.RN[self], p.RN[self])
}

// onRequest is the rule for a REQUEST: note its number, and hand over an
// idle token if the request is one the token has not served.
func (p *Process) onRequest(env *sim.Env, from sim.NodeID, seq int64) {
	me, who := env.Name(env.Self()), env.Name(from)
	old := p.RN[from]
	p.RN[from] = max(old, seq)
	rn := fmt.Sprintf("RN[%s] = max(%d, %d) = %d", who, old, seq, p.RN[from])
	switch {
	case seq <= old:
		env.Explain("%s gets %s's REQUEST #%d, outdated: it has already heard #%d (%s)", me, who, seq, old, rn)
	case p.Token == nil:
		env.Explain("%s notes %s's REQUEST #%d: %s; it does not hold the token", me, who, seq, rn)
	case p.RN[from] != p.Token.LN[from]+1:
		env.Explain("%s holds the token but %s's REQUEST #%d is outdated: LN[%s] = %d, so that request was served (%s)", me, who, seq, who, p.Token.LN[from], rn)
	case p.State == mutex.InCS && p.SeedRequest:
		env.Explain("%s is in the critical section, but by seed 003's handler it holds the token and RN[%s] = LN[%s] + 1 = %d, so it sends the token to %s at once", me, who, who, p.RN[from], who)
		p.send(env, from)
	case p.State == mutex.InCS:
		env.Explain("%s notes %s's REQUEST #%d (%s): it is in the section and queues %s when it leaves", me, who, seq, rn, who)
	default:
		env.Explain("%s holds the token idle and RN[%s] = LN[%s] + 1 = %d: it sends the token to %s", me, who, who, p.RN[from], who)
		p.send(env, from)
	}
}

// onToken is the rule for an arriving token.
func (p *Process) onToken(env *sim.Env, t Token) {
	me := env.Name(env.Self())
	if t.Hop <= p.Hop || p.Token != nil {
		env.Explain("%s discards a copy of a token it has already held", me)
		return
	}
	p.Token, p.Hop = &t, t.Hop
	env.Annotate(sim.Opens(RoleToken, 0, ""))
	if p.State == mutex.Wanting {
		p.Enter(env)
		if p.SeedLN {
			before := numbers(t.LN)
			copy(p.Token.LN, p.RN)
			env.Explain("%s gets the token (LN = %s, queue [%s]) and enters the critical section for %s; by seed 003's rule LN[j] = RN[j] for all j: LN = %s", me, before, env.NameList(t.Queue), sim.Ticks(p.CSTime), numbers(p.Token.LN))
			return
		}
		env.Explain("%s gets the token (LN = %s, queue [%s]) and enters the critical section for %s", me, numbers(t.LN), env.NameList(t.Queue), sim.Ticks(p.CSTime))
		return
	}
	// a token for a request this process forgot in a crash: pass it on
	p.handOn(env, fmt.Sprintf("%s gets the token but no longer wants the section", me))
}

// leave is the rule for leaving the section: the token records the
// request served and queues the unserved ones.
func (p *Process) leave(env *sim.Env) {
	me, self := env.Name(env.Self()), env.Self()
	p.Leave(env)
	if p.Token == nil {
		env.Explain("%s leaves the critical section without the token: it sent the token away while inside, by seed 003's handler", me)
		return
	}
	p.Token.LN[self] = p.RN[self]
	p.handOn(env, fmt.Sprintf("%s leaves the critical section: LN[%s] = RN[%s] = %d", me, me, me, p.RN[self]))
}

// handOn queues every process with an unserved request and sends the
// token to the first in line, or keeps it when nobody waits.
func (p *Process) handOn(env *sim.Env, why string) {
	t := p.Token
	var added []string
	for j := range env.N() {
		id := sim.NodeID(j)
		if p.RN[j] == t.LN[j]+1 && !slices.Contains(t.Queue, id) && id != env.Self() {
			t.Queue = append(t.Queue, id)
			added = append(added, fmt.Sprintf("%s (RN = %d = LN + 1)", env.Name(id), p.RN[j]))
		}
	}
	queued := ""
	if len(added) > 0 {
		queued = "; it queues " + strings.Join(added, ", ")
	}
	if len(t.Queue) == 0 {
		env.Explain("%s%s; nobody waits, and it keeps the token", why, queued)
		return
	}
	next := t.Queue[0]
	t.Queue = t.Queue[1:]
	env.Explain("%s%s; it sends the token to %s, first in the queue", why, queued, env.Name(next))
	p.send(env, next)
}

// send hands the token to another process.
func (p *Process) send(env *sim.Env, to sim.NodeID) {
	t := p.Token
	t.Hop++
	env.Send(to, sim.Message{Kind: KindToken, Label: KindToken, Data: t.encode()})
	p.Sent++
	p.Passed++
	p.Hop = t.Hop
	p.Token = nil
	env.Annotate(sim.Closes(RoleToken, 0))
}

// Inspect shows the process's RN and, while it holds it, the token.
func (p *Process) Inspect() []sim.Field {
	f := append(p.Fields(), sim.Field{Name: "RN", Value: numbers(p.RN)})
	if p.Token != nil {
		f = append(f, sim.Field{Name: "token LN", Value: numbers(p.Token.LN)}, sim.Field{Name: "token queue", Value: ids(p.Token.Queue)})
	}
	return f
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.RN = slices.Clone(p.RN)
	c.Token = p.Token.clone()
	return &c
}

// numbers writes an array as [0 1 0].
func numbers(a []int64) string { return fmt.Sprint(a) }

func ids(q []sim.NodeID) string {
	out := make([]string, len(q))
	for i, id := range q {
		out[i] = fmt.Sprint(id.Number())
	}
	return "[" + strings.Join(out, " ") + "]"
}
