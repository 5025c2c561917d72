// Package lease is a lock service that grants leases with fencing tokens
// (seed 000, after Gray and Cheriton and Kleppmann): process 1 is the lock
// service, process 2 the storage, and the others are clients. A client
// asks for the lease; the service grants it for params.lease ticks with a
// token one larger than the last; the client believes it holds the lease
// until its own timer says it has run out. A client writes to the storage
// with its token, and with params.fencing the storage rejects a write
// whose token is smaller than the largest it has seen. A GC pause that
// outlasts a lease makes two clients believe they hold it, and only the
// storage's check keeps the stale write out. With params.wall_clock the
// clients and the service judge leases by their wall clocks: a client's
// clock that runs slow keeps its lease alive in its mind, and a service's
// clock that runs fast ends a lease while its holder still holds it.
package lease

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"spacetime/core/algo/fencing"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "lease"

// The processes' places.
const (
	// Service is the lock service's id, and Storage the storage's.
	Service = fencing.Service
	Storage = fencing.Storage
)

// The message kinds.
const (
	KindAcquire = "ACQUIRE"
	KindGrant   = "GRANT"
	KindRenew   = "RENEW"
	KindRelease = "RELEASE"
)

// The commands the clients take.
const (
	CmdAcquire = "acquire"
	CmdWrite   = "write"
	CmdRenew   = "renew"
	CmdRelease = "release"
)

// The roles and timers.
const (
	// RoleLease is a lease as the service granted it, on the service's line.
	RoleLease = "lease"
	// RoleBelieved is a lease as a client believes it holds it.
	RoleBelieved = "believed"
	// TimerExpire fires when a lease runs out (the service's, a client's).
	TimerExpire = "expire"
)

// Params are the scenario's algorithm parameters.
type Params struct {
	fencing.WriteParams
	// Lease is how long a lease lasts (ticks, default 10).
	Lease sim.Time `json:"lease"`
	// FirstToken is the token of the first grant (default 33, as in the
	// seed).
	FirstToken int64 `json:"first_token"`
	// WallClock makes a client judge its lease by its own wall clock (the
	// time it read at the GRANT plus the lease) instead of a timer, so
	// that a clock stepped back keeps the lease alive in its mind; and the
	// service by its own, so that a clock that runs fast ends a lease
	// early.
	WallClock bool `json:"wall_clock"`
}

// WallClock is the switch between a client that judges its lease by a
// timer and one that reads its wall clock.
var WallClock = sim.Switch{Param: "wall_clock", Variant: true, Label: "wall clock", Help: "Run the same schedule again with each client, and the service, judging a lease by its own wall clock instead of a timer, or by a timer"}

var clientCommand = fencing.ClientCommand

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Leases and fencing tokens",
	Summary:      "A lock service grants leases with a growing fencing token; a client that is paused past its lease still believes it holds it, and only a storage that checks the token keeps its stale write out.",
	MinN:         4,
	MaxN:         16,
	DefaultNames: fencing.Names,
	Kinds: append([]sim.KindSpec{
		{Name: KindAcquire, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindGrant, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphDiamond},
		{Name: KindRenew, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphOpenTriangle},
		{Name: KindRelease, Role: sim.RoleControl, Tone: sim.Grey, Glyph: sim.GlyphSquare},
	}, fencing.Kinds...),
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{fencing.Fencing, WallClock},
		Commands: []sim.CommandSpec{
			clientCommand(CmdAcquire, "ask the lock service for the lease"),
			clientCommand(CmdWrite, "write to the storage with the lease's token (the write takes params.work ticks to go out)"),
			clientCommand(CmdRenew, "ask the service to extend the lease"),
			clientCommand(CmdRelease, "give the lease back"),
		},
	},
	Picture: sim.PictureSpec{
		Roles: append([]sim.RoleSpec{
			{Name: RoleLease, Style: sim.StyleBar, Tone: sim.Green, Legend: "the service's lease (on its line, one row per client)"},
			{Name: RoleBelieved, Style: sim.StyleOutline, Tone: sim.Purple, Legend: "a client believes it holds the lease"},
		}, fencing.Roles...),
		Topology: fencing.Star,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{oneBeliever, noStaleWrite, tokens, fencing.StorageRule, fencing.WritesAnswered, drawn, timed, ends, answered, takenBack, obeys, grants},
		KnownLimits: []sim.KnownLimit{
			{Invariant: oneBelieverName, Always: true, Why: "a client's belief is its own timer, started when the GRANT arrives: a pause, a slow message, or the GRANT's own delay lets it outlive the service's lease, which is why the storage must check"},
			{Invariant: answeredName, Faults: []string{"drop", "cut", "partition"}, Why: "a lost ACQUIRE, RENEW or GRANT leaves its client waiting: the clients do not ask again"},
			{Invariant: takenBackName, Faults: []string{"drop", "cut", "partition"}, Why: "a lost RELEASE leaves the lease with the client that gave it back until it runs out"},
			fencing.WritesLost,
			{Invariant: noStaleWriteName, Always: true, Why: "a client checks its lease and then writes: a pause or a slow write in between lands after the lease ran out; fencing refuses it only once a newer token has reached the storage"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// Process is one process: the service, the storage or a client; each
// uses its part.
type Process struct {
	fencing.Part
	// Lease and Work are the durations, from params, and WallClock says
	// that the clients judge their leases by their wall clocks.
	Lease, Work sim.Time
	WallClock   bool
	// FirstToken is the token of the first grant, from params.
	FirstToken int64
	Service    ServiceState
	Store      fencing.Store
	Client     ClientState
}

// Storage is the storage's state, for the shared figures.
func (p *Process) Storage() *fencing.Store { return &p.Store }

// Writes is a client's writer, for the shared check.
func (p *Process) Writes() *fencing.Writer { return &p.Client.Write }

// ServiceState is the lock service's state.
type ServiceState struct {
	// Holder is the client the lease is granted to (None if free), Token
	// the last token granted and Expiry when the lease runs out; Until is
	// when it runs out on the service's wall clock.
	Holder sim.NodeID
	Token  int64
	Expiry sim.Time
	Until  sim.Time
	// Queue are the clients waiting for the lease.
	Queue []sim.NodeID
	// Grants counts the leases granted.
	Grants int
	// Ended is the last lease that ended, as the service granted it, and
	// whether its holder gave it back.
	Ended Ended
}

// Ended is a lease the service no longer grants: its holder and token,
// when it was due to run out (by the world's clock, and the service's
// wall clock), and whether its holder gave it back.
type Ended struct {
	Holder        sim.NodeID
	Token         int64
	Expiry, Until sim.Time
	Released      bool
}

// ClientState is a client's state.
type ClientState struct {
	// Holds says the client believes it holds the lease, with Token;
	// Until is when it runs out on the client's wall clock, and Ends when
	// its timer ends it (by the world's clock: the GRANT's arrival plus
	// the lease it gives).
	Holds bool
	Token int64
	Until sim.Time
	Ends  sim.Time
	// Write is the write being prepared.
	Write fencing.Writer
	// Asked says the client asked for the lease (ACQUIRE, or RENEW) and
	// no GRANT has answered it yet.
	Asked bool
	// Released is the token of the lease it last gave back (0 for none
	// since its last GRANT).
	Released int64
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{WriteParams: fencing.Defaults(), Lease: 10, FirstToken: 33}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := fencing.CheckTicks("params.lease", p.Lease); err != nil {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if p.FirstToken < 1 || p.FirstToken > 1_000_000_000 {
		return nil, strictjson.FieldErrorf("params.first_token", "want a token from 1 to 1000000000, got %d", p.FirstToken)
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		proc := &Process{Part: fencing.PartOf(sim.NodeID(i)), Lease: p.Lease, Work: p.Work, WallClock: p.WallClock, FirstToken: p.FirstToken}
		switch proc.Part {
		case fencing.PartService:
			proc.Service = ServiceState{Holder: sim.None, Token: p.FirstToken - 1}
		case fencing.PartStorage:
			proc.Store = fencing.Store{Fencing: p.Fenced()}
		}
		nodes[i] = proc
	}
	return nodes, nil
}

// Step reacts to one event, in the part the process plays.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	p.Part.Step(env, ev, p.stepService, p.stepClient, &p.Store)
}

func (p *Process) stepService(env *sim.Env, ev sim.Event) {
	s := &p.Service
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s is the lock service: it grants the lease for %s with a fencing token from %d up", me, sim.Ticks(p.Lease), s.Token+1)
	case sim.Recover:
		p.recoverService(env)
	case sim.Timer:
		if ev.Tag != TimerExpire || s.Holder == sim.None || env.Now() < s.Expiry {
			return
		}
		if p.WallClock && env.LocalTime() < s.Until {
			// its clock runs slow or was stepped back: by it, time is left
			env.SetTimer(TimerExpire, s.Until-env.LocalTime())
			s.Expiry = env.Now() + s.Until - env.LocalTime()
			env.Explain("%s reads its wall clock, %d, before %d: the lease of %s (token %d) has not run out by it", me, env.LocalTime(), s.Until, env.Name(s.Holder), s.Token)
			return
		}
		who, token := env.Name(s.Holder), s.Token
		p.closeLease(env)
		env.Explain("%s: the lease of %s (token %d) runs out%s", me, who, token, p.grantNext(env))
	case sim.Deliver:
		who := env.Name(ev.From)
		switch ev.Msg.Kind {
		case KindAcquire:
			switch {
			case s.Holder != sim.None && s.Holder != ev.From && p.WallClock && p.runOut(env):
				// its clock says the lease is over, whatever time it is
				holder, token, until := env.Name(s.Holder), s.Token, s.Until
				p.endLease(env)
				env.Explain("%s's wall clock reads %d, past %d: the lease of %s (token %d) has run out by it, and it grants %s", me, env.LocalTime(), until, holder, token, p.grant(env, ev.From))
			case s.Holder == ev.From && !p.runOut(env):
				// it asks again (its GRANT was slow, or its own clock ended
				// its belief first): it is answered with what is left
				left := p.left(env)
				env.Send(ev.From, p.grantMessage(left))
				env.Explain("%s: %s already holds the lease (token %d): it sends the GRANT again, for the %s left", me, who, s.Token, sim.Ticks(left))
			case s.Holder == ev.From:
				// its lease ran out as the service judges it, and its timer
				// has not fired yet: the client asks anew, behind any waiting
				token := s.Token
				p.endLease(env)
				s.Queue = append(s.Queue, ev.From)
				env.Explain("%s: the lease of %s (token %d) has run out, and %s asks again%s", me, who, token, who, p.grantNext(env))
			case slices.Contains(s.Queue, ev.From):
				env.Explain("%s: %s is already waiting for the lease", me, who)
			case s.Holder != sim.None:
				s.Queue = append(s.Queue, ev.From)
				env.Explain("%s queues %s: %s holds the lease until %d", me, who, env.Name(s.Holder), s.Expiry)
			default:
				env.Explain("%s grants %s", me, p.grant(env, ev.From))
			}
		case KindRenew:
			if s.Holder == ev.From && p.runOut(env) {
				// by its clock the lease is over, though its timer has not fired
				p.endLease(env)
			}
			if s.Holder == ev.From {
				// the holder's lease (an older token of its own, when a
				// network's copy of an old GRANT misled it, is the same lease)
				s.Expiry, s.Until = env.Now()+p.Lease, env.LocalTime()+p.Lease
				env.SetTimer(TimerExpire, p.Lease)
				env.Send(ev.From, p.grantMessage(p.Lease))
				env.Explain("%s renews the lease of %s (token %d) until %d", me, who, s.Token, s.Expiry)
				return
			}
			if s.Holder == sim.None {
				env.Explain("%s: %s's lease (token %d) had run out; it grants %s", me, who, ev.Msg.Value, p.grant(env, ev.From))
				return
			}
			queued := ""
			if s.Holder != ev.From && !slices.Contains(s.Queue, ev.From) {
				s.Queue = append(s.Queue, ev.From)
				queued = fmt.Sprintf("; it queues %s for a new lease", who)
			}
			env.Explain("%s refuses to renew token %d for %s: the lease is %s's now (token %d)%s", me, ev.Msg.Value, who, env.Name(s.Holder), s.Token, queued)
		case KindRelease:
			if s.Holder != ev.From || ev.Msg.Value != s.Token {
				env.Explain("%s ignores %s's RELEASE of token %d, which does not hold the lease", me, who, ev.Msg.Value)
				return
			}
			p.endLease(env)
			s.Ended.Released = true
			env.Explain("%s takes back the lease from %s%s", me, who, p.grantNext(env))
		}
	}
}

// recoverService takes the service back up with what it kept (a real
// service keeps it on disk): the last token, the lease and the clients
// waiting. The crash lost its timer and ended the lease's bar, so a lease
// with time left is timed and drawn again, and one that ran out while the
// service was down ends now, passing to the next client waiting.
func (p *Process) recoverService(env *sim.Env) {
	s := &p.Service
	me := env.Name(env.Self())
	switch {
	case s.Holder == sim.None:
		env.Explain("%s recovers; it still knows the last token, %d (a real service keeps it on disk), and nobody holds the lease", me, s.Token)
	case p.runOut(env):
		who := env.Name(s.Holder)
		s.Holder = sim.None
		env.Explain("%s recovers; it still knows the last token, %d (a real service keeps it on disk): the lease of %s ran out while it was down%s", me, s.Token, who, p.grantNext(env))
	default:
		if p.WallClock { // what is left by its wall clock
			s.Expiry = env.Now() + s.Until - env.LocalTime()
		}
		env.SetTimer(TimerExpire, s.Expiry-env.Now())
		p.drawLease(env)
		env.Explain("%s recovers; it still knows the last token, %d (a real service keeps it on disk), and that %s holds the lease until %d", me, s.Token, env.Name(s.Holder), s.Expiry)
	}
}

// runOut says the current lease has run out as the service judges it: by
// its wall clock with params.wall_clock, else by the ticks that passed.
func (p *Process) runOut(env *sim.Env) bool {
	if p.WallClock {
		return env.LocalTime() >= p.Service.Until
	}
	return env.Now() >= p.Service.Expiry
}

// grant gives the lease to a client with the next token.
func (p *Process) grant(env *sim.Env, c sim.NodeID) string {
	s := &p.Service
	s.Token++
	s.Grants++
	s.Holder, s.Expiry, s.Until = c, env.Now()+p.Lease, env.LocalTime()+p.Lease
	// the client served waits no more: the first waiting, or one served
	// out of turn (the service's wall clock ended the lease before it)
	s.Queue = slices.DeleteFunc(s.Queue, func(q sim.NodeID) bool { return q == c })
	env.SetTimer(TimerExpire, p.Lease)
	env.Send(c, p.grantMessage(p.Lease))
	p.drawLease(env)
	if p.WallClock {
		return fmt.Sprintf("%s the lease with token %d, until %d on its wall clock", env.Name(c), s.Token, s.Until)
	}
	return fmt.Sprintf("%s the lease with token %d, until %d", env.Name(c), s.Token, s.Expiry)
}

// grantMessage is a GRANT of the last token, for a lease of d ticks.
func (p *Process) grantMessage(d sim.Time) sim.Message {
	t := p.Service.Token
	return sim.Message{Kind: KindGrant, Value: t, Label: fmt.Sprintf("GRANT %d", t), Data: []int64{int64(d)}}
}

// left is what is left of the lease as the service judges it (see runOut).
func (p *Process) left(env *sim.Env) sim.Time {
	if p.WallClock {
		return p.Service.Until - env.LocalTime()
	}
	return p.Service.Expiry - env.Now()
}

// endLease ends the lease before its timer fires: released, or run out by
// the service's clock.
func (p *Process) endLease(env *sim.Env) {
	p.closeLease(env)
	env.CancelTimer(TimerExpire)
}

// closeLease ends the lease the service grants, and its bar.
func (p *Process) closeLease(env *sim.Env) {
	s := &p.Service
	env.Annotate(sim.Closes(RoleLease, int(s.Holder)))
	s.Ended = Ended{Holder: s.Holder, Token: s.Token, Expiry: s.Expiry, Until: s.Until}
	s.Holder = sim.None
}

// drawLease opens the bar of the service's lease, on its holder's row.
func (p *Process) drawLease(env *sim.Env) {
	s := &p.Service
	env.Annotate(sim.Opens(RoleLease, int(s.Holder), fmt.Sprintf("%s, token %d", env.Name(s.Holder), s.Token)).To(s.Holder))
}

// grantNext gives a free lease to the first client waiting, if any.
func (p *Process) grantNext(env *sim.Env) string {
	s := &p.Service
	if len(s.Queue) == 0 {
		return "; nobody waits"
	}
	return "; it grants " + p.grant(env, s.Queue[0])
}

func (p *Process) stepClient(env *sim.Env, ev sim.Event) {
	c := &p.Client
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s is a client: it takes the lease from %s and writes to %s", me, env.Name(Service), env.Name(Storage))
	case sim.Recover:
		if c.Holds {
			env.Annotate(sim.Closes(RoleBelieved, 0))
		}
		*c = ClientState{}
		env.Explain("%s recovers and believes it holds no lease", me)
	case sim.Workload:
		// a client at work takes the lease, then writes with it
		tag := CmdWrite
		if !c.Holds {
			tag = CmdAcquire
		}
		p.stepClient(env, sim.Event{Kind: sim.Command, Tag: tag})
	case sim.Command:
		switch ev.Tag {
		case CmdAcquire:
			env.Send(Service, sim.Message{Kind: KindAcquire, Label: KindAcquire})
			c.Asked = true
			env.Explain("%s asks %s for the lease", me, env.Name(Service))
		case CmdRenew:
			if !c.Holds {
				env.Explain("%s holds no lease to renew", me)
				return
			}
			env.Send(Service, sim.Message{Kind: KindRenew, Value: c.Token, Label: fmt.Sprintf("RENEW %d", c.Token)})
			c.Asked = true
			env.Explain("%s asks to renew its lease (token %d)", me, c.Token)
		case CmdRelease:
			if !c.Holds {
				env.Explain("%s holds no lease to release", me)
				return
			}
			env.Send(Service, sim.Message{Kind: KindRelease, Value: c.Token, Label: fmt.Sprintf("RELEASE %d", c.Token)})
			c.Holds, c.Released = false, c.Token
			env.CancelTimer(TimerExpire)
			env.Annotate(sim.Closes(RoleBelieved, 0))
			env.Explain("%s gives the lease back (token %d)", me, c.Token)
		case CmdWrite:
			switch {
			case !c.Holds:
				env.Explain("%s believes it holds no lease, so it does not write", me)
			case p.WallClock && env.LocalTime() >= c.Until:
				p.endBelief(env)
				env.Explain("%s's wall clock reads %d, past %d: its lease (token %d) has run out, so it does not write", me, env.LocalTime(), c.Until, c.Token)
			case c.Write.Writing:
				env.Explain("%s is already writing", me)
			default:
				c.Write.Start(env, c.Token, p.Work)
				env.Explain("%s believes it holds the lease (token %d) and starts a write, which goes out in %s", me, c.Token, sim.Ticks(p.Work))
			}
		}
	case sim.Timer:
		switch {
		case c.Write.Fire(env, ev):
			env.Explain("%s sends its write with token %d to %s: it checked its lease when it began, and does not check again", me, c.Write.Token, env.Name(Storage))
		case ev.Tag == TimerExpire && c.Holds && p.WallClock && env.LocalTime() < c.Until:
			// the clock was stepped back: by the wall clock there is time left
			env.SetTimer(TimerExpire, c.Until-env.LocalTime())
			env.Explain("%s reads its wall clock, %d, before %d: it still believes it holds the lease (token %d)", me, env.LocalTime(), c.Until, c.Token)
		case ev.Tag == TimerExpire && c.Holds && p.WallClock:
			p.endBelief(env)
			env.Explain("%s's wall clock reads %d: its lease (token %d) has run out", me, env.LocalTime(), c.Token)
		case ev.Tag == TimerExpire && c.Holds:
			p.endBelief(env)
			env.Explain("%s's own timer says its lease (token %d) has run out", me, c.Token)
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindGrant:
			lease := p.Lease
			if len(ev.Msg.Data) > 0 {
				lease = sim.Time(ev.Msg.Data[0])
			}
			if !c.Holds {
				env.Annotate(sim.Opens(RoleBelieved, 0, fmt.Sprintf("token %d", ev.Msg.Value)))
			}
			c.Holds, c.Token, c.Until, c.Asked, c.Released = true, ev.Msg.Value, env.LocalTime()+lease, false, 0
			c.Ends = env.Now() + lease
			env.SetTimer(TimerExpire, lease)
			if p.WallClock {
				env.Explain("%s gets the lease with token %d: its wall clock reads %d, so it believes it holds it until %d", me, c.Token, env.LocalTime(), c.Until)
				return
			}
			env.Explain("%s gets the lease with token %d: it believes it holds it for %s, by its own timer", me, c.Token, sim.Ticks(lease))
		case fencing.KindWritten:
			c.Write.Answered(ev)
			env.Explain("%s's write with token %d is stored", me, ev.Msg.Value)
		case fencing.KindRejected:
			c.Write.Answered(ev)
			env.Explain("%s's write with token %d is rejected: its lease is stale", me, ev.Msg.Value)
		}
	}
}

// endBelief ends the client's belief that it holds the lease.
func (p *Process) endBelief(env *sim.Env) {
	p.Client.Holds = false
	env.Annotate(sim.Closes(RoleBelieved, 0))
}

// Inspect shows the part the process plays.
func (p *Process) Inspect() []sim.Field {
	switch p.Part {
	case fencing.PartService:
		holder := "nobody"
		if p.Service.Holder != sim.None {
			holder = strconv.Itoa(p.Service.Holder.Number())
		}
		return []sim.Field{{Name: "holder", Value: holder}, {Name: "token", Value: strconv.FormatInt(p.Service.Token, 10)}, {Name: "expires", Value: fmt.Sprint(p.Service.Expiry)}}
	case fencing.PartStorage:
		return p.Store.Fields()
	}
	return []sim.Field{{Name: "believes it holds", Value: strconv.FormatBool(p.Client.Holds)}, {Name: "token", Value: strconv.FormatInt(p.Client.Token, 10)}}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Service.Queue = append([]sim.NodeID(nil), p.Service.Queue...)
	return &c
}
