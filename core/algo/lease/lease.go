// Package lease is a lock service that grants leases with fencing tokens
// (seed 000, after Gray and Cheriton and Kleppmann): process 1 is the lock
// service, process 2 the storage, and the others are clients. A client
// asks for the lease; the service grants it for params.lease ticks with a
// token one larger than the last; the client believes it holds the lease
// until its own timer says it has run out. A client writes to the storage
// with its token, and with params.fencing the storage rejects a write
// whose token is smaller than the largest it has seen. A GC pause that
// outlasts a lease makes two clients believe they hold it, and only the
// storage's check keeps the stale write out.
package lease

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "lease"

// The processes' places.
const (
	// Service is the lock service's id, and Storage the storage's.
	Service sim.NodeID = 0
	Storage sim.NodeID = 1
)

// The message kinds.
const (
	KindAcquire  = "ACQUIRE"
	KindGrant    = "GRANT"
	KindRenew    = "RENEW"
	KindRelease  = "RELEASE"
	KindWrite    = "WRITE"
	KindWritten  = "WRITTEN"
	KindRejected = "REJECTED"
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
	// RoleAccepted and RoleRejected mark the storage's decisions.
	RoleAccepted = "accepted"
	RoleRejected = "rejected"
	// TimerExpire fires when a lease runs out (the service's, a client's).
	TimerExpire = "expire"
	// TimerWrite fires when a client's write has been prepared.
	TimerWrite = "write"
	// MaxTicks bounds the params that are durations.
	MaxTicks = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Lease is how long a lease lasts (ticks, default 10).
	Lease sim.Time `json:"lease"`
	// Fencing makes the storage reject writes with a smaller token than
	// the largest it has seen (default true).
	Fencing *bool `json:"fencing"`
	// FirstToken is the token of the first grant (default 33, as in the
	// seed).
	FirstToken int64 `json:"first_token"`
	// Work is how long a client takes to prepare a write before it goes
	// out (ticks, default 1): a pause then can outlast the lease.
	Work sim.Time `json:"work"`
}

var isClient = func(v sim.View, id sim.NodeID) bool { return id > Storage }

func clientCommand(name, help string) sim.CommandSpec {
	return sim.CommandSpec{Name: name, Help: help, Takes: isClient, Who: "the clients"}
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Leases and fencing tokens",
	Summary:      "A lock service grants leases with a growing fencing token; a client that is paused past its lease still believes it holds it, and only a storage that checks the token keeps its stale write out.",
	MinN:         4,
	MaxN:         16,
	DefaultNames: names,
	Kinds: []sim.KindSpec{
		{Name: KindAcquire, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindGrant, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphDiamond},
		{Name: KindRenew, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphTriangle},
		{Name: KindRelease, Role: sim.RoleControl, Tone: sim.Grey, Glyph: sim.GlyphSquare},
		{Name: KindWrite, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot},
		{Name: KindWritten, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindRejected, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
	},
	Commands: []sim.CommandSpec{
		clientCommand(CmdAcquire, "ask the lock service for the lease"),
		clientCommand(CmdWrite, "write to the storage with the lease's token (the write takes params.work ticks to go out)"),
		clientCommand(CmdRenew, "ask the service to extend the lease"),
		clientCommand(CmdRelease, "give the lease back"),
	},
	Roles: []sim.RoleSpec{
		{Name: RoleLease, Style: sim.StyleBar, Tone: sim.Green, Legend: "the service's lease (on its line, one row per client)"},
		{Name: RoleBelieved, Style: sim.StyleOutline, Tone: sim.Purple, Legend: "a client believes it holds the lease"},
		{Name: RoleAccepted, Style: sim.StyleGlyph, Glyph: sim.GlyphRing, Tone: sim.Green, Legend: "the storage accepts a write"},
		{Name: RoleRejected, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "the storage rejects a stale write"},
	},
	New:        newProcesses,
	Invariants: []sim.Invariant{oneBeliever, noStaleWrite},
	Metrics:    metrics,
	Panels:     panels,
	Formula:    formula,
	Topology:   star,
	KnownLimits: []sim.KnownLimit{
		{Invariant: oneBelieverName, Always: true, Why: "a client's belief is its own timer, started when the GRANT arrives: a pause, a slow message, or the GRANT's own delay lets it outlive the service's lease, which is why the storage must check"},
		{Invariant: noStaleWriteName, Always: true, Why: "a client checks its lease and then writes: a pause or a slow write in between lands after the lease ran out; fencing refuses it only once a newer token has reached the storage"},
	},
}

// names are the default names: the service, the storage, then clients.
func names(n int) []string {
	out := []string{"lock", "storage"}
	for i := 1; i <= n-2; i++ {
		out = append(out, "client"+strconv.Itoa(i))
	}
	return out
}

// Process is one process: the service, the storage or a client; each
// uses its part.
type Process struct {
	Part
	// Lease and Work are the durations, from params.
	Lease, Work sim.Time
	Service     ServiceState
	Storage     StorageState
	Client      ClientState
}

// Part says which part a process plays.
type Part uint8

// The parts.
const (
	PartService Part = iota
	PartStorage
	PartClient
)

// ServiceState is the lock service's state.
type ServiceState struct {
	// Holder is the client the lease is granted to (None if free), Token
	// the last token granted and Expiry when the lease runs out.
	Holder sim.NodeID
	Token  int64
	Expiry sim.Time
	// Queue are the clients waiting for the lease.
	Queue []sim.NodeID
	// Grants counts the leases granted.
	Grants int
}

// StorageState is the storage's state.
type StorageState struct {
	Fencing bool
	// MaxToken is the largest token it has seen; Value is what it holds.
	MaxToken int64
	Value    string
	Accepted int
	Rejected int
}

// ClientState is a client's state.
type ClientState struct {
	// Holds says the client believes it holds the lease, with Token.
	Holds bool
	Token int64
	// Writing says a write is being prepared, with WriteToken.
	Writing    bool
	WriteToken int64
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Lease: 10, FirstToken: 33, Work: 1}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		field string
		v     sim.Time
	}{{"params.lease", p.Lease}, {"params.work", p.Work}} {
		if d.v < 1 || d.v > MaxTicks {
			return nil, sim.FieldErrorf(d.field, "want ticks from 1 to %d, got %d", MaxTicks, d.v)
		}
	}
	if p.FirstToken < 1 || p.FirstToken > 1_000_000_000 {
		return nil, sim.FieldErrorf("params.first_token", "want a token from 1 to 1000000000, got %d", p.FirstToken)
	}
	fencing := p.Fencing == nil || *p.Fencing
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		proc := &Process{Part: PartClient, Lease: p.Lease, Work: p.Work}
		switch sim.NodeID(i) {
		case Service:
			proc.Part = PartService
			proc.Service = ServiceState{Holder: sim.None, Token: p.FirstToken - 1}
		case Storage:
			proc.Part = PartStorage
			proc.Storage = StorageState{Fencing: fencing}
		}
		nodes[i] = proc
	}
	return nodes, nil
}

// Step reacts to one event, in the part the process plays.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	switch p.Part {
	case PartService:
		p.stepService(env, ev)
	case PartStorage:
		p.stepStorage(env, ev)
	default:
		p.stepClient(env, ev)
	}
}

// clientNumber is a client's number among the clients: client 1, 2, ….
func clientNumber(id sim.NodeID) int { return int(id) - int(Storage) }

func (p *Process) stepService(env *sim.Env, ev sim.Event) {
	s := &p.Service
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s is the lock service: it grants the lease for %s with a fencing token from %d up", me, sim.Ticks(p.Lease), s.Token+1)
	case sim.Recover:
		env.Explain("%s recovers; it still knows the last token, %d (a real service keeps it on disk)", me, s.Token)
	case sim.Timer:
		if ev.Tag != TimerExpire || s.Holder == sim.None || env.Now() < s.Expiry {
			return
		}
		who := env.Name(s.Holder)
		env.Annotate(sim.Closes(RoleLease, int(s.Holder)))
		s.Holder = sim.None
		env.Explain("%s: the lease of %s (token %d) runs out%s", me, who, s.Token, p.grantNext(env))
	case sim.Deliver:
		who := env.Name(ev.From)
		switch ev.Msg.Kind {
		case KindAcquire:
			switch {
			case s.Holder == ev.From:
				env.Explain("%s: %s already holds the lease (token %d)", me, who, s.Token)
			case slices.Contains(s.Queue, ev.From):
				env.Explain("%s: %s is already waiting for the lease", me, who)
			case s.Holder != sim.None:
				s.Queue = append(s.Queue, ev.From)
				env.Explain("%s queues %s: %s holds the lease until %d", me, who, env.Name(s.Holder), s.Expiry)
			default:
				env.Explain("%s grants %s", me, p.grant(env, ev.From))
			}
		case KindRenew:
			if s.Holder == ev.From && ev.Msg.Value == s.Token && env.Now() < s.Expiry {
				s.Expiry = env.Now() + p.Lease
				env.SetTimer(TimerExpire, p.Lease)
				env.Send(ev.From, sim.Message{Kind: KindGrant, Value: s.Token, Label: fmt.Sprintf("GRANT %d", s.Token), Data: []int64{int64(p.Lease)}})
				env.Explain("%s renews the lease of %s (token %d) until %d", me, who, s.Token, s.Expiry)
				return
			}
			if s.Holder == sim.None {
				env.Explain("%s: %s's lease (token %d) had run out; it grants %s", me, who, ev.Msg.Value, p.grant(env, ev.From))
				return
			}
			if s.Holder != ev.From && !slices.Contains(s.Queue, ev.From) {
				s.Queue = append(s.Queue, ev.From)
			}
			env.Explain("%s refuses to renew token %d for %s: the lease is %s's now (token %d)", me, ev.Msg.Value, who, env.Name(s.Holder), s.Token)
		case KindRelease:
			if s.Holder != ev.From || ev.Msg.Value != s.Token {
				env.Explain("%s ignores %s's RELEASE of token %d, which does not hold the lease", me, who, ev.Msg.Value)
				return
			}
			env.Annotate(sim.Closes(RoleLease, int(s.Holder)))
			s.Holder = sim.None
			env.CancelTimer(TimerExpire)
			env.Explain("%s takes back the lease from %s%s", me, who, p.grantNext(env))
		}
	}
}

// grant gives the lease to a client with the next token.
func (p *Process) grant(env *sim.Env, c sim.NodeID) string {
	s := &p.Service
	s.Token++
	s.Grants++
	s.Holder, s.Expiry = c, env.Now()+p.Lease
	env.SetTimer(TimerExpire, p.Lease)
	env.Send(c, sim.Message{Kind: KindGrant, Value: s.Token, Label: fmt.Sprintf("GRANT %d", s.Token), Data: []int64{int64(p.Lease)}})
	env.Annotate(sim.Opens(RoleLease, int(c), fmt.Sprintf("%s, token %d", env.Name(c), s.Token)).To(c))
	return fmt.Sprintf("%s the lease with token %d, until %d", env.Name(c), s.Token, s.Expiry)
}

// grantNext gives a free lease to the first client waiting, if any.
func (p *Process) grantNext(env *sim.Env) string {
	s := &p.Service
	if len(s.Queue) == 0 {
		return "; nobody waits"
	}
	next := s.Queue[0]
	s.Queue = s.Queue[1:]
	return "; it grants " + p.grant(env, next)
}

func (p *Process) stepStorage(env *sim.Env, ev sim.Event) {
	s := &p.Storage
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		check := "it checks every write's token and rejects one smaller than the largest it has seen (fencing)"
		if !s.Fencing {
			check = "it takes every write as it comes (no fencing)"
		}
		env.Explain("%s is the storage: %s", me, check)
	case sim.Deliver:
		if ev.Msg.Kind != KindWrite {
			return
		}
		token, who := ev.Msg.Value, env.Name(ev.From)
		k := clientNumber(ev.From)
		if s.Fencing && token < s.MaxToken {
			s.Rejected++
			env.Send(ev.From, sim.Message{Kind: KindRejected, Value: token, Label: KindRejected})
			env.Annotate(sim.At(RoleRejected, int(token), fmt.Sprintf("REJECTED %d < %d", token, s.MaxToken)).About(ev.MsgID))
			env.Explain("%s: write by %s REJECTED (token %d < %d)", me, who, token, s.MaxToken)
			return
		}
		stale := token < s.MaxToken
		s.MaxToken = max(s.MaxToken, token)
		s.Accepted++
		s.Value = fmt.Sprintf("paid by client %d", k)
		if stale {
			s.Value = fmt.Sprintf("stale write by client %d", k)
		}
		env.Send(ev.From, sim.Message{Kind: KindWritten, Value: token, Label: KindWritten})
		env.Annotate(sim.At(RoleAccepted, int(token), fmt.Sprintf("ok, token %d", token)).About(ev.MsgID))
		env.Explain("%s: write by %s with token %d ok; it holds %q", me, who, token, s.Value)
	}
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
			env.Explain("%s asks %s for the lease", me, env.Name(Service))
		case CmdRenew:
			if !c.Holds {
				env.Explain("%s holds no lease to renew", me)
				return
			}
			env.Send(Service, sim.Message{Kind: KindRenew, Value: c.Token, Label: fmt.Sprintf("RENEW %d", c.Token)})
			env.Explain("%s asks to renew its lease (token %d)", me, c.Token)
		case CmdRelease:
			if !c.Holds {
				env.Explain("%s holds no lease to release", me)
				return
			}
			env.Send(Service, sim.Message{Kind: KindRelease, Value: c.Token, Label: fmt.Sprintf("RELEASE %d", c.Token)})
			c.Holds = false
			env.CancelTimer(TimerExpire)
			env.Annotate(sim.Closes(RoleBelieved, 0))
			env.Explain("%s gives the lease back (token %d)", me, c.Token)
		case CmdWrite:
			switch {
			case !c.Holds:
				env.Explain("%s believes it holds no lease, so it does not write", me)
			case c.Writing:
				env.Explain("%s is already writing", me)
			default:
				c.Writing, c.WriteToken = true, c.Token
				env.SetTimer(TimerWrite, p.Work)
				env.Explain("%s believes it holds the lease (token %d) and starts a write, which goes out in %s", me, c.Token, sim.Ticks(p.Work))
			}
		}
	case sim.Timer:
		switch {
		case ev.Tag == TimerWrite && c.Writing:
			// it checked its lease when it started: it does not check again
			c.Writing = false
			env.Send(Storage, sim.Message{Kind: KindWrite, Value: c.WriteToken, Label: fmt.Sprintf("WRITE %d", c.WriteToken)})
			env.Explain("%s sends its write with token %d to %s: it checked its lease when it began, and does not check again", me, c.WriteToken, env.Name(Storage))
		case ev.Tag == TimerExpire && c.Holds:
			c.Holds = false
			env.Annotate(sim.Closes(RoleBelieved, 0))
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
			c.Holds, c.Token = true, ev.Msg.Value
			env.SetTimer(TimerExpire, lease)
			env.Explain("%s gets the lease with token %d: it believes it holds it for %s, by its own timer", me, c.Token, sim.Ticks(lease))
		case KindWritten:
			env.Explain("%s's write with token %d is stored", me, ev.Msg.Value)
		case KindRejected:
			env.Explain("%s's write with token %d is rejected: its lease is stale", me, ev.Msg.Value)
		}
	}
}

// Inspect shows the part the process plays.
func (p *Process) Inspect() []sim.Field {
	switch p.Part {
	case PartService:
		holder := "nobody"
		if p.Service.Holder != sim.None {
			holder = strconv.Itoa(p.Service.Holder.Number())
		}
		return []sim.Field{{Name: "holder", Value: holder}, {Name: "token", Value: strconv.FormatInt(p.Service.Token, 10)}, {Name: "expires", Value: fmt.Sprint(p.Service.Expiry)}}
	case PartStorage:
		return []sim.Field{{Name: "value", Value: strconv.Quote(p.Storage.Value)}, {Name: "largest token", Value: strconv.FormatInt(p.Storage.MaxToken, 10)}, {Name: "fencing", Value: strconv.FormatBool(p.Storage.Fencing)}}
	}
	return []sim.Field{{Name: "believes it holds", Value: strconv.FormatBool(p.Client.Holds)}, {Name: "token", Value: strconv.FormatInt(p.Client.Token, 10)}}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Service.Queue = append([]sim.NodeID(nil), p.Service.Queue...)
	return &c
}
