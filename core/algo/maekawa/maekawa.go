// Package maekawa is Maekawa's quorum mutual exclusion (1985; seed 002):
// each process has a request set, and any two sets share a process. A
// process that wants the critical section asks every member of its set
// for its vote with a REQUEST and enters once all have voted; a member
// votes (REPLY) for one request at a time and queues the others until
// the holder of its vote sends RELEASE. With sets of K ≈ √N processes an
// entry costs 3(K−1) messages, about 3√N. Two requests can each hold
// votes the other needs, so the algorithm as the seed gives it can
// deadlock: the deadlock invariant names the wait-for cycle and points at
// the votes and queued requests that close it.
//
// params.inquire (a switch) runs the literature's fix, Maekawa's own
// INQUIRE, YIELD and FAILED (see inquire.go): requests carry Lamport
// timestamps, a member queues them in that order, asks the holder of its
// vote to give it back when an earlier request comes, and tells a later
// one that it must wait; a requester that cannot win gives back the votes
// it holds. It is deadlock-free, at up to 5(K−1) messages an entry.
package maekawa

import (
	"slices"

	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "maekawa"

// The message kinds.
const (
	KindRequest = mutex.KindRequest
	KindReply   = mutex.KindReply
	KindRelease = mutex.KindRelease
	// The fix's (params.inquire): a member asks its vote's holder to give
	// it back (INQUIRE), the holder does (YIELD), and a member tells a
	// request that an earlier one comes first (FAILED).
	KindInquire = "INQUIRE"
	KindYield   = "YIELD"
	KindFailed  = "FAILED"
)

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	// Sets are the request sets, one list of process numbers per process,
	// for an N that has no built-in sets (default: Singer's construction).
	Sets [][]int `json:"sets"`
	// Inquire runs the literature's deadlock-free version: INQUIRE, YIELD
	// and FAILED.
	Inquire bool `json:"inquire"`
}

// InquireSwitch is the switch to the deadlock-free version.
var InquireSwitch = sim.Switch{
	Param: "inquire", Variant: true, Label: "INQUIRE, YIELD and FAILED",
	Help: "run Maekawa's deadlock-free version: requests are ordered by Lamport timestamp; a member whose vote is held by a later request asks for it back (INQUIRE), the holder gives it back (YIELD) once it knows it cannot win yet (FAILED from another member), and the member votes for the earlier request. Like the paper, it assumes FIFO channels",
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Maekawa",
	Summary:      "A process asks only its request set for votes; any two sets share a process, which votes for one request at a time. About 3√N messages per entry, and deadlock-prone.",
	MinN:         2,
	MaxN:         64,
	Sizes:        Sizes,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{mutex.RequestKind, mutex.ReplyKind, mutex.ReleaseKind,
		{Name: KindInquire, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphPlus},
		{Name: KindYield, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphOpenDiamond},
		{Name: KindFailed, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross}},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{mutex.Request},
		Switches: []sim.Switch{InquireSwitch},
	},
	Picture: sim.PictureSpec{
		Roles: append(slices.Clone(mutex.Roles),
			sim.RoleSpec{Name: RoleWaitsFor, Style: sim.StyleWait, Tone: sim.Red, Legend: "waits for a vote the other holds: a cycle of them is a deadlock"}),
		Topology: quorums,
		Overlays: waits,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{mutex.Safety, deadlock, onlyCycles, mutex.Release, mutex.Obeys(mutex.Request), mutex.Drawn, votes, queued, rules},
		KnownLimits: []sim.KnownLimit{
			{Invariant: mutex.DeadlockName, Always: true, Unless: InquireSwitch.Param, Why: "two requests can each hold votes the other needs, a wait-for cycle: the algorithm as the seed gives it is deadlock-prone"},
			{Invariant: mutex.DeadlockName, When: InquireSwitch.Param, Faults: []string{"crash", "drop", "cut", "partition", "fifo"}, Why: "INQUIRE and YIELD break every wait-for cycle only while each message arrives, in order: a lost vote or INQUIRE, a crashed member, or an INQUIRE that overtakes the vote it asks about leaves a cycle standing"},
			{Invariant: mutex.SafetyName, Faults: []string{"crash"}, Why: "a member that crashes and recovers has forgotten whom it voted for, and votes again"},
			{Invariant: VotesName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a member that crashes forgets its vote, and a vote the network loses is nowhere"},
			{Invariant: CycleName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a vote or a request the network loses, or held by a crashed member, never comes: the wait is on nothing"},
			{Invariant: CycleName, When: InquireSwitch.Param, Faults: []string{"fifo"}, Why: "INQUIRE and YIELD assume FIFO channels: a vote that overtakes, or is overtaken by, the INQUIRE or YIELD it is about leaves a member's vote where no waiting process holds it"},
			{Invariant: VotesName, When: InquireSwitch.Param, Faults: copied, Why: copiedWhy},
			{Invariant: mutex.SafetyName, When: InquireSwitch.Param, Faults: copied, Why: copiedWhy},
			{Invariant: mutex.DeadlockName, When: InquireSwitch.Param, Faults: copied, Why: copiedWhy},
			{Invariant: CycleName, When: InquireSwitch.Param, Faults: copied, Why: copiedWhy},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: mutex.NewTally,
		Metrics:  func(v sim.View) []sim.Metric { return mutex.Metrics(v, deadlock) },
		Panels:   panels,
		Formula:  formula,
	},
}

// copied is the fault that breaks INQUIRE's version, and copiedWhy says
// how: a vote and its copy carry the same request number, so a copy that
// comes after its requester gave the vote back is counted as a vote the
// member gave again. The version assumes each message arrives once (the
// seed's own version ignores the copy: it never gives a vote back while
// it waits).
var (
	copied    = []string{"duplicate"}
	copiedWhy = "with INQUIRE, a network's copy of a vote that arrives after its requester gave the vote back (YIELD) is counted as a vote given again, while the member votes for another: two processes can count one vote, and a wait-for cycle can last; INQUIRE and YIELD assume each message arrives once"
)

// Ask is a request as a member of a set sees it: who, and its number;
// with params.inquire also its Lamport timestamp, and whether this member
// has told it FAILED.
type Ask struct {
	From   sim.NodeID
	N      int64
	Clock  int64
	Failed bool
}

// is says a and b are the same request.
func (a Ask) is(b Ask) bool { return a.From == b.From && a.N == b.N }

// Process is one process: a requester with its set, and a member that
// votes for the requests of the sets it is in.
type Process struct {
	mutex.Want
	// Set is the process's request set, and Asked its latest request's
	// number; Votes marks the members that voted for it.
	Set   []sim.NodeID
	Asked int64
	Votes []bool
	// Voted is the request this process gave its vote to (From is None
	// when it has not voted), Queue the requests waiting for its vote, and
	// Seen the latest request number it has heard from each process.
	Voted Ask
	Queue []Ask
	Seen  []int64
	// Inquire says the process runs the deadlock-free version
	// (Params.Inquire); the rest is that version's state. Clock is the
	// timestamp of its request. As a requester, Failed says it has heard
	// FAILED (or given a vote back) for its request, and Asking lists the
	// members whose INQUIRE it has not answered. As a member, Inquired
	// says it has asked its vote's holder to give it back.
	Inquire  bool
	Clock    int64
	Failed   bool
	Asking   []sim.NodeID
	Inquired bool
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	n := len(names)
	params := Params{Params: mutex.Defaults()}
	if err := sim.DecodeParams(raw, &params); err != nil {
		return nil, err
	}
	if err := params.Check(); err != nil {
		return nil, err
	}
	sets, err := Build(n, params.Sets)
	if err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, n)
	for i := range nodes {
		nodes[i] = &Process{Want: mutex.Want{CSTime: params.CSTime}, Set: sets[i], Votes: make([]bool, n), Voted: Ask{From: sim.None}, Seen: make([]int64, n), Inquire: params.Inquire}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s asks its request set %s for votes", me, p.setNames(env))
	case sim.Recover:
		p.Forget(env)
		p.Voted, p.Queue = Ask{From: sim.None}, nil
		p.Failed, p.Asking, p.Inquired = false, nil, false
		clear(p.Votes)
		clear(p.Seen)
		env.Explain("%s recovers and has forgotten its request, whom it voted for and its queue", me)
	case sim.Command, sim.Workload:
		if !p.Ask(env) {
			return
		}
		p.Asked++
		clear(p.Votes)
		p.Failed, p.Asking = false, nil
		mine := Ask{From: env.Self(), N: p.Asked}
		if p.Inquire {
			p.Clock = int64(env.Lamport())
			mine.Clock = p.Clock
		}
		for _, m := range p.Set {
			if m != env.Self() {
				p.sendAsk(env, m, KindRequest, mine)
			}
		}
		text := fmt.Sprintf("%s wants the critical section: REQUEST #%d to its set %s", me, p.Asked, p.setNames(env))
		if p.Inquire {
			text = fmt.Sprintf("%s wants the critical section: REQUEST #%d, stamped %s, to its set %s", me, p.Asked, stamp(mine), p.setNames(env))
		}
		if p.isMember(env.Self()) {
			text += "; as a member of its own set, " + p.onRequest(env, mine)
		}
		env.Explain("%s", text)
	case sim.Timer:
		if ev.Tag != mutex.TimerRelease || p.State != mutex.InCS {
			return
		}
		p.Leave(env)
		p.Failed, p.Asking = false, nil
		for _, m := range p.Set {
			if m != env.Self() {
				p.send(env, m, KindRelease, p.Asked)
			}
		}
		text := fmt.Sprintf("%s leaves the critical section: RELEASE to its set %s", me, p.setNames(env))
		if p.isMember(env.Self()) {
			text += "; as a member of its own set, " + p.onRelease(env, Ask{From: env.Self(), N: p.Asked})
		}
		env.Explain("%s", text)
	case sim.Deliver:
		a := Ask{From: ev.From, N: ev.Msg.Value}
		if len(ev.Msg.Data) > 0 {
			a.Clock = ev.Msg.Data[0]
		}
		if rule := p.rule(ev.Msg.Kind); rule != nil {
			env.Explain("%s %s", me, rule(env, a))
		}
	}
}

// rule is the process's rule for a message of a kind, which says what
// it did; nil for a kind it does not take.
func (p *Process) rule(kind string) func(*sim.Env, Ask) string {
	switch kind {
	case KindRequest:
		return p.onRequest
	case KindReply:
		return p.onVote
	case KindRelease:
		return p.onRelease
	case KindInquire:
		return p.onInquire
	case KindYield:
		return p.onYield
	case KindFailed:
		return p.onFailed
	}
	return nil
}

func (p *Process) isMember(id sim.NodeID) bool {
	for _, m := range p.Set {
		if m == id {
			return true
		}
	}
	return false
}

func (p *Process) send(env *sim.Env, to sim.NodeID, kind string, n int64) {
	env.Send(to, sim.Message{Kind: kind, Value: n, Label: fmt.Sprintf("%s #%d", kind, n)})
	p.Sent++
}

// onRequest is a member's rule for a request: vote for it if its vote is
// free, else queue it. It says what it did, without its subject.
func (p *Process) onRequest(env *sim.Env, a Ask) string {
	who := env.Name(a.From)
	if a.From == env.Self() {
		who = "itself"
	}
	if a.N <= p.Seen[a.From] {
		return fmt.Sprintf("already has %s's request #%d (this is a copy): it ignores it", who, a.N)
	}
	p.Seen[a.From] = a.N
	if p.Voted.From != sim.None && p.Inquire {
		return p.contest(env, a, who)
	}
	if p.Voted.From != sim.None {
		p.Queue = append(p.Queue, a)
		return fmt.Sprintf("queues the request of %s: it has voted for %s and waits for its RELEASE (queue: %s)", who, env.Name(p.Voted.From), p.queueNames(env))
	}
	return fmt.Sprintf("votes for %s: its vote was free", who) + p.vote(env, a)
}

// vote gives this member's vote to a request: a REPLY, or its own vote
// (then what that vote did).
func (p *Process) vote(env *sim.Env, a Ask) string {
	p.Voted = a
	if a.From == env.Self() {
		return "; it " + p.onVote(env, a)
	}
	p.send(env, a.From, KindReply, a.N)
	return ""
}

// onVote is a requester's rule for a vote: enter once every member of the
// set has voted.
func (p *Process) onVote(env *sim.Env, a Ask) string {
	who := env.Name(a.From)
	if a.N != p.Asked || p.State != mutex.Wanting || p.Votes[a.From] {
		return fmt.Sprintf("gets %s's vote for its request #%d, which it is not waiting for: it ignores it", who, a.N)
	}
	p.Votes[a.From] = true
	got := 0
	for _, m := range p.Set {
		if p.Votes[m] {
			got++
		}
	}
	if got < len(p.Set) {
		return fmt.Sprintf("has %d of the %d votes of its set %s", got, len(p.Set), p.setNames(env))
	}
	p.Enter(env)
	return fmt.Sprintf("has every vote of its set %s and enters the critical section for %s", p.setNames(env), sim.Ticks(p.CSTime))
}

// onRelease is a member's rule for a release: its vote goes to the next
// request in its queue.
func (p *Process) onRelease(env *sim.Env, a Ask) string {
	who := env.Name(a.From) + "'s"
	if a.From == env.Self() {
		who = "its own"
	}
	if !p.Voted.is(a) {
		return fmt.Sprintf("ignores %s RELEASE for request #%d, which does not hold its vote", who, a.N)
	}
	p.Voted, p.Inquired = Ask{From: sim.None}, false
	if len(p.Queue) == 0 {
		return fmt.Sprintf("takes %s RELEASE: its vote is free", who)
	}
	next := p.Queue[0]
	p.Queue = p.Queue[1:]
	return fmt.Sprintf("takes %s RELEASE and votes for %s, first in its queue", who, env.Name(next.From)) + p.vote(env, next)
}

func (p *Process) setNames(env *sim.Env) string {
	out := make([]string, len(p.Set))
	for i, m := range p.Set {
		out[i] = env.Name(m)
	}
	return "{" + strings.Join(out, ", ") + "}"
}

func (p *Process) queueNames(env *sim.Env) string {
	out := make([]string, len(p.Queue))
	for i, a := range p.Queue {
		out[i] = env.Name(a.From)
	}
	return strings.Join(out, ", ")
}

// Inspect shows the process's set, its request and its vote.
func (p *Process) Inspect() []sim.Field {
	voted := "nobody"
	if p.Voted.From != sim.None {
		voted = strconv.Itoa(p.Voted.From.Number())
	}
	return append(p.Fields(),
		sim.Field{Name: "set", Value: numbers(p.Set)},
		sim.Field{Name: "request", Value: "#" + strconv.FormatInt(p.Asked, 10)},
		sim.Field{Name: "voted for", Value: voted},
		sim.Field{Name: "queue", Value: fmt.Sprint(len(p.Queue))})
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Votes = append([]bool(nil), p.Votes...)
	c.Queue = append([]Ask(nil), p.Queue...)
	c.Seen = append([]int64(nil), p.Seen...)
	c.Asking = append([]sim.NodeID(nil), p.Asking...)
	return &c // Set is never changed after the start: shared
}

// setSize is K, the size of the largest request set.
func setSize(v sim.View) int {
	k := 0
	for i := range v.N() {
		k = max(k, len(v.Node(sim.NodeID(i)).(*Process).Set))
	}
	return k
}

// formula compares the messages per entry with 3(K−1), about 3√N.
func formula(v sim.View) string {
	k := setSize(v)
	text := fmt.Sprintf("REQUEST, REPLY and RELEASE to each other member of a set of K = %d, 3(K−1) = %d (3√N ≈ %.1f)", k, 3*(k-1), 3*math.Sqrt(float64(v.N())))
	if v.Node(0).(*Process).Inquire {
		text += fmt.Sprintf("; with INQUIRE, YIELD and FAILED up to 5(K−1) = %d", 5*(k-1))
	}
	return mutex.Formula(v, text)
}
