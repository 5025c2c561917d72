// Package epochs is seed 000's warning about split brain, and its cure: a
// leader sends HEARTBEATs; a follower that hears none for its timeout
// takes over. Without epochs (params.epochs false) a silent leader is
// taken for dead, so a leader that was only GC-paused or cut off wakes
// still acting as leader, and the followers obey two leaders at once.
// With epochs, every election raises the epoch, a candidate needs the
// votes of a majority, and every message carries the epoch: a follower
// refuses a HEARTBEAT of an older epoch and says so (STALE), and the old
// leader steps down. Timeouts are staggered by id (the highest id first),
// standing in for Raft's random ones so that a lesson replays exactly.
package epochs

import (
	"encoding/json"
	"fmt"
	"strings"

	"spacetime/core/algo/election"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "epochs"

// The message kinds.
const (
	KindHeartbeat   = "HEARTBEAT"
	KindRequestVote = "REQUEST-VOTE"
	KindVote        = "VOTE"
	KindStale       = "STALE"
)

// The timers.
const (
	TimerHeartbeat = "heartbeat"
	TimerElection  = "election"
	maxTicks       = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Epochs turns on epochs and majority votes (default true).
	Epochs *bool `json:"epochs"`
	// Heartbeat is how often the leader sends HEARTBEAT (ticks, default 3),
	// and Timeout how long a follower waits for one before it takes over
	// (ticks, default 8, plus 2 for each id above its own).
	Heartbeat sim.Time `json:"heartbeat"`
	Timeout   sim.Time `json:"timeout"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Split brain and epochs",
	Summary:      "A leader that is only paused wakes still acting as leader: without epochs the followers obey two leaders; with epochs and majority votes its messages are refused as stale and it steps down.",
	MinN:         3,
	MaxN:         32,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindHeartbeat, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphDiamond},
		{Name: KindRequestVote, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindVote, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindStale, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{election.Start},
		Switches: []sim.Switch{{Param: "epochs", Default: true, Label: "epochs", Help: "Run the same schedule again with epochs and majority votes, or without them"}},
	},
	Picture: sim.PictureSpec{
		Roles:    election.Roles,
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{oneLeader, election.Drawn, waits, rules},
		KnownLimits: []sim.KnownLimit{
			{Invariant: oneLeaderName, Faults: []string{"pause", "delay", "drop", "cut", "partition", "crash", "recover", "duplicate", "fifo", "skew"}, Why: "without epochs a silent leader is taken for dead and wakes still leading: any pause, slow or lost HEARTBEAT, or cut makes two"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// Process is one process.
type Process struct {
	election.Belief
	// Epochs says epochs and majority votes are on.
	Epochs bool
	// Epoch is the latest epoch the process knows; Voted is whom it voted
	// for in it (None if nobody); Votes counts a candidate's votes.
	Epoch int64
	Voted sim.NodeID
	Votes int
	// Heartbeat and Timeout are the process's periods.
	Heartbeat, Timeout sim.Time
	// Refused counts the stale messages this process refused.
	Refused int
}

// Election is the process's part of the election.
func (p *Process) Election() *election.Belief { return &p.Belief }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	par := Params{Heartbeat: 3, Timeout: 8}
	if err := sim.DecodeParams(raw, &par); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		field string
		v     sim.Time
	}{{"params.heartbeat", par.Heartbeat}, {"params.timeout", par.Timeout}} {
		if err := sim.CheckTicks(d.field, d.v, maxTicks); err != nil {
			return nil, err
		}
	}
	n := len(names)
	nodes := make([]sim.Node, n)
	for i := range nodes {
		// the highest id leads epoch 1; the others time out later the lower
		// their id, so that the highest live one takes over first
		nodes[i] = &Process{Belief: election.Belief{Leader: sim.NodeID(n - 1)}, Epochs: par.Epochs == nil || *par.Epochs,
			Epoch: 1, Voted: sim.None, Heartbeat: par.Heartbeat, Timeout: par.Timeout + 2*sim.Time(n-1-i)}
	}
	return nodes, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.Leader == env.Self() {
			p.Lead(env)
			env.Explain("%s leads epoch %d: %s", me, p.Epoch, p.beat(env))
			return
		}
		env.SetTimer(TimerElection, p.Timeout)
		env.Explain("%s follows %s in epoch %d and takes over if it hears no HEARTBEAT for %s", me, env.Name(p.Leader), p.Epoch, sim.Ticks(p.Timeout))
	case sim.Recover:
		p.Forget(env)
		env.SetTimer(TimerElection, p.Timeout)
		env.Explain("%s recovers as a follower, at epoch %d", me, p.Epoch)
	case sim.Command:
		if p.Leading {
			// it would stand for the next epoch while still leading this
			// one, its HEARTBEATs of the new epoch followed unvoted
			env.Explain("%s leads epoch %d: it has no leader to lose", me, p.Epoch)
			return
		}
		env.Explain("%s %s", me, p.campaign(env))
	case sim.Timer:
		switch {
		case ev.Tag == TimerHeartbeat && p.Leading:
			env.Explain("%s, leader of epoch %d, %s", me, p.Epoch, p.beat(env))
		case ev.Tag == TimerElection && !p.Leading:
			env.Explain("%s heard no HEARTBEAT for %s: it %s", me, sim.Ticks(p.Timeout), p.campaign(env))
		}
	case sim.Deliver:
		p.deliver(env, ev)
	}
}

// beat sends a HEARTBEAT to everyone and arms the next; a leader needs
// no election timer.
func (p *Process) beat(env *sim.Env) string {
	env.CancelTimer(TimerElection)
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			env.Send(sim.NodeID(q), p.msg(KindHeartbeat))
		}
	}
	env.SetTimer(TimerHeartbeat, p.Heartbeat)
	return "it sends HEARTBEAT to all"
}

func (p *Process) msg(kind string) sim.Message {
	label := kind
	if p.Epochs {
		label = fmt.Sprintf("%s e%d", kind, p.Epoch)
	}
	return sim.Message{Kind: kind, Value: p.Epoch, Label: label}
}

// campaign takes over: without epochs at once, with them by asking for
// a majority's votes in a new epoch.
func (p *Process) campaign(env *sim.Env) string {
	p.Epoch++
	p.Begin(env)
	if !p.Epochs {
		p.Lead(env)
		return "takes the leader for dead and leads: " + p.beat(env)
	}
	p.Voted, p.Votes = env.Self(), 1
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			env.Send(sim.NodeID(q), p.msg(KindRequestVote))
		}
	}
	env.SetTimer(TimerElection, p.Timeout)
	return fmt.Sprintf("stands for epoch %d, votes for itself and asks the others for theirs (it needs %d of %d)", p.Epoch, env.N()/2+1, env.N())
}

func (p *Process) deliver(env *sim.Env, ev sim.Event) {
	me, who, e := env.Name(env.Self()), env.Name(ev.From), ev.Msg.Value
	if p.Epochs && e < p.Epoch && ev.Msg.Kind != KindStale {
		p.Refused++
		env.Send(ev.From, p.msg(KindStale))
		env.Explain("%s refuses %s's %s of epoch %d: it is at epoch %d, and says so with STALE", me, who, ev.Msg.Kind, e, p.Epoch)
		return
	}
	newEpoch := p.Epochs && e > p.Epoch
	if newEpoch {
		// a new epoch: whoever led the old one leads no more
		p.Epoch, p.Voted = e, sim.None
		wasLeading := p.Leading
		p.Follow(env, sim.None)
		if wasLeading {
			env.CancelTimer(TimerHeartbeat)
		}
		env.SetTimer(TimerElection, p.Timeout)
	}
	switch ev.Msg.Kind {
	case KindHeartbeat:
		if p.Leading && !p.Epochs {
			env.Explain("%s gets a HEARTBEAT from %s but goes on leading: without epochs nothing tells it which leader is current", me, who)
			return
		}
		p.Follow(env, ev.From)
		env.SetTimer(TimerElection, p.Timeout)
		env.Explain("%s follows %s's HEARTBEAT%s", me, who, p.epochText())
	case KindRequestVote:
		if p.Voted == sim.None || p.Voted == ev.From {
			p.Voted = ev.From
			env.SetTimer(TimerElection, p.Timeout)
			env.Send(ev.From, p.msg(KindVote))
			env.Explain("%s votes for %s in epoch %d", me, who, e)
			return
		}
		env.Explain("%s has voted for %s in epoch %d already: none for %s", me, env.Name(p.Voted), e, who)
	case KindVote:
		if !p.Electing || e != p.Epoch {
			env.Explain("%s gets a late vote from %s", me, who)
			return
		}
		p.Votes++
		if p.Votes <= env.N()/2 {
			env.Explain("%s has %d of the %d votes it needs for epoch %d", me, p.Votes, env.N()/2+1, p.Epoch)
			return
		}
		p.Lead(env)
		env.Explain("%s has a majority, %d of %d votes: it leads epoch %d and %s", me, p.Votes, env.N(), p.Epoch, p.beat(env))
	case KindStale:
		// only with epochs; a STALE of a later epoch has made the
		// process join it, and step down, above
		if !newEpoch && !p.Leading {
			env.Explain("%s hears from %s that its message was stale", me, who)
			return
		}
		if p.Leading {
			p.Follow(env, sim.None)
			env.CancelTimer(TimerHeartbeat)
			env.SetTimer(TimerElection, p.Timeout)
		}
		env.Explain("%s learns from %s that epoch %d has begun: it steps down and waits for the new leader's HEARTBEAT", me, who, e)
	}
}

func (p *Process) epochText() string {
	if p.Epochs {
		return fmt.Sprintf(" in epoch %d", p.Epoch)
	}
	return ""
}

// Inspect shows the process's epoch and whom it follows.
func (p *Process) Inspect() []sim.Field {
	leader := "nobody"
	if p.Leader != sim.None {
		leader = fmt.Sprint(p.Leader.Number())
	}
	return []sim.Field{{Name: "epoch", Value: fmt.Sprint(p.Epoch)}, {Name: "follows", Value: leader}, {Name: "leads", Value: fmt.Sprint(p.Leading)}}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	return &c
}

const oneLeaderName = "no two leaders are obeyed at once (with epochs, of one epoch)"

// oneLeader is the invariant split brain breaks: at no time do two
// processes that believe they lead each have a live follower obeying them.
// With epochs, an old leader can still be obeyed by followers that have
// not heard of the new epoch, but a minority that cannot decide anything;
// what epochs promise is that two leaders at once are never of one epoch.
var oneLeader = sim.Invariant{
	Name: oneLeaderName,
	Help: "at any time at most one leader is obeyed (with epochs: at most one per epoch): two leaders with followers are a split brain",
	Check: func(v sim.View) sim.Verdict {
		epochs := v.N() > 0 && v.Node(0).(*Process).Epochs
		byEpoch := map[int64]int{}
		var acting []string
		for i := range v.N() {
			l := sim.NodeID(i)
			if v.Health(l) == sim.Crashed || !v.Node(l).(*Process).Leading {
				continue
			}
			var followers []string
			leader := v.Node(l).(*Process)
			for j := range v.N() {
				f := sim.NodeID(j)
				fp := v.Node(f).(*Process)
				// with epochs, a follower obeys only a leader of its epoch
				if f != l && v.Health(f) != sim.Crashed && fp.Leader == l && (!fp.Epochs || fp.Epoch == leader.Epoch) {
					followers = append(followers, v.Name(f))
				}
			}
			if len(followers) > 0 {
				acting = append(acting, fmt.Sprintf("%s (obeyed by %s)", v.Name(l), strings.Join(followers, ", ")))
				byEpoch[leader.Epoch]++
			}
		}
		if len(acting) <= 1 {
			return sim.Verdict{OK: true}
		}
		if epochs {
			for e, n := range byEpoch {
				if n > 1 {
					return sim.Verdict{Detail: fmt.Sprintf("%s act as leaders of the same epoch %d", strings.Join(acting, " and "), e)}
				}
			}
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: strings.Join(acting, " and ") + " both act as leader"}
	},
}

func metrics(v sim.View) []sim.Metric {
	refused, epoch := 0, int64(0)
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		refused += p.Refused
		epoch = max(epoch, p.Epoch)
	}
	return append(election.Metrics(v), sim.Metric{Name: "epoch", Value: epoch}, sim.Metric{Name: "stale_refused", Value: refused})
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Leaders and epochs", Columns: []string{"process", "health", "follows", "epoch"}}
	if !v.Node(0).(*Process).Epochs {
		panel.Note = "no epochs: a message from any leader is obeyed"
	} else {
		panel.Note = "a message of an older epoch is refused; a leader needs a majority"
	}
	for i := range v.N() {
		p := v.Node(sim.NodeID(i)).(*Process)
		panel.Rows = append(panel.Rows, election.Row(v, sim.NodeID(i), fmt.Sprint(p.Epoch)))
	}
	return []sim.Panel{panel}
}

func formula(v sim.View) string {
	refused := 0
	for i := range v.N() {
		refused += v.Node(sim.NodeID(i)).(*Process).Refused
	}
	return fmt.Sprintf("Stale messages refused: %d; a leader needs %d of %d votes when epochs are on.", refused, v.N()/2+1, v.N())
}
