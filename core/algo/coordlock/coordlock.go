// Package coordlock is the lock recipe of ZooKeeper and etcd (seed 000's
// "what real systems do"), on a coordination service that is one process
// here: its replication by consensus is the next course's subject.
//
// Process 1 is the service, process 2 the storage, the others clients. A
// client's session is its lease: the service ends it when no KEEPALIVE has
// come for params.session ticks, and with it the client's entries. A client
// that wants the lock creates a sequential entry (CREATE); the service
// numbers it with its revision, which rises on every change, and answers
// with the entry below it (CREATED). The lowest entry holds the lock, and
// the others each watch only their predecessor: when an entry goes, one
// client is told (DELETED) and asks again (CHECK, CHECKED), so a release
// wakes one client, not the herd (params.herd makes every waiter watch the
// holder instead, to show the herd). The entry's revision is the fencing
// token the storage checks.
//
// A client reckons its session by its own timer, from the time it sent the
// last request the service answered: it gives the lock up before the
// service can hand it on, unless a GC pause stops it from noticing.
package coordlock

import (
	"encoding/json"
	"slices"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/raft"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "coordination-lock"

// The processes' places.
const (
	Service = fencing.Service
	Storage = fencing.Storage
)

// The lock's message kinds.
const (
	KindCreate    = "CREATE"
	KindCreated   = "CREATED"
	KindCheck     = "CHECK"
	KindChecked   = "CHECKED"
	KindDeleted   = "DELETED"
	KindDelete    = "DELETE"
	KindKeepalive = "KEEPALIVE"
	KindKept      = "KEPT"
	KindExpired   = "EXPIRED"
)

// The roles and timers.
const (
	// RoleHolder is the entry that holds the lock as the service sees it,
	// on the service's line, one row per client.
	RoleHolder = "holder"
	// TimerKeepalive fires when a client sends its next KEEPALIVE, and
	// TimerSession when, by its own reckoning, its session has run out.
	TimerKeepalive = "keepalive"
	TimerSession   = "session"
	// timerExpire is the service's timer for one session, followed by its
	// number ("expire 3").
	timerExpire = "expire "
)

// Params are the scenario's algorithm parameters.
type Params struct {
	mutex.Params
	fencing.WriteParams
	// Session is how long a session lives without a request from its
	// client (ticks, default 20).
	Session sim.Time `json:"session"`
	// Keepalive is how often a client with an entry sends KEEPALIVE
	// (ticks, default 5). A client reckons its session from when it sent
	// the request last answered, so that with messages of up to MaxDelay
	// ticks, 4·MaxDelay + keepalive must stay under session for a session
	// to last: the defaults keep it.
	Keepalive sim.Time `json:"keepalive"`
	// Herd makes every waiting client watch the holder's entry instead of
	// its predecessor's, so that each release wakes them all.
	Herd bool `json:"herd"`
}

// Config is what every process knows from the params.
type Config struct {
	Session, Keepalive, Work sim.Time
	Herd                     bool
	// Replicas is the number of the service's processes: 1, or a Raft
	// group's (the replicated lock); Storage is the storage's id, which
	// follows them.
	Replicas int
	Storage  sim.NodeID
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:      ID,
	Title:   "Lock from a coordination service",
	Summary: "ZooKeeper's and etcd's lock recipe: sessions kept alive as leases, a sequential entry per waiting client that watches only its predecessor, the lowest entry holds, and its revision is the fencing token.",
	MinN:    3,
	MaxN:    32,
	Checks: sim.CheckSpec{
		MaxDelay:    3,
		Invariants:  []sim.Invariant{mutex.Safety, mutex.Release, deadlock, noStaleWrite, fencing.StorageRule, fencing.WritesAnswered, writesWithTheLock, mutex.Obeys(request), mutex.Drawn, entries, answers, clients},
		KnownLimits: []sim.KnownLimit{pausedHolder, staleWrite, lostNews, fencing.WritesLost},
	},
	DefaultNames: fencing.Names,
	Kinds: append([]sim.KindSpec{
		{Name: KindCreate, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindCreated, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphDiamond},
		{Name: KindCheck, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphSquare},
		{Name: KindChecked, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphOpenSquare},
		{Name: KindDeleted, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphOpenDiamond},
		{Name: KindDelete, Role: sim.RoleControl, Tone: sim.Grey, Glyph: sim.GlyphBar},
		{Name: KindKeepalive, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphOpenTriangle},
		{Name: KindKept, Role: sim.RoleControl, Tone: sim.Teal},
		{Name: KindExpired, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphPlus},
	}, fencing.Kinds...),
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{fencing.Fencing, {Param: "herd", Variant: true, Label: "herd", Help: "Run the same schedule again with every waiting client watching the holder's entry, so that each release wakes them all, or only its predecessor's"}},
		Commands: []sim.CommandSpec{request},
	},
	Picture: sim.PictureSpec{
		Roles: append(append([]sim.RoleSpec{
			{Name: RoleHolder, Style: sim.StyleBar, Tone: sim.Green, Legend: "the service's holder: the lowest entry (on its line, one row per client)"},
		}, mutex.Roles...), fencing.Roles...),
		Topology: fencing.Star,
	},
	New: newProcesses,
	Figures: sim.FigureSpec{
		NewTally: newBeforeTally,
		Metrics:  metrics,
		Panels:   panels,
		Formula:  formula,
	},
}

// The ways the lock is known to break (Spec.Checks.KnownLimits), which the
// replicated lock shares but for what a crash does.
// request is a client's command: want the lock.
var request = fencing.ClientCommand(mutex.CmdRequest, "want the lock: create an entry, hold the lock for cs_time ticks from when it is the lowest, write once with its token, then delete it")

var (
	pausedHolder = sim.KnownLimit{Invariant: mutex.SafetyName, Faults: []string{"pause"}, Why: "a holder paused past its session cannot notice that it ran out: the service hands the lock on, and the client wakes believing it still holds it, which is why the storage checks tokens"}
	staleWrite   = sim.KnownLimit{Invariant: noStaleWriteName, Faults: []string{"pause", "delay", "crash", "cut", "partition"}, Why: "a write checked against the lock and then paused, slowed, or held in its channel (a cut link, a crashed storage) lands after the lock has passed on; fencing refuses it only once a newer token has reached the storage"}
	lostNews     = sim.KnownLimit{Invariant: mutex.DeadlockName, Faults: []string{"crash", "drop", "cut", "partition", "fifo"}, Why: "the recipe assumes a service that stays up (the real one is replicated) and a session that loses nothing and keeps its order (ZooKeeper's is a TCP connection): a lost CREATE or DELETED, or a DELETED that overtakes the CREATED that set its watch, leaves a client waiting for news that will not come"}
)

// Process is one process: the service, the storage or a client; each uses
// its part. Every process embeds Want, for the shared figures: only
// clients enter the section.
type Process struct {
	mutex.Want
	fencing.Part
	Config  *Config
	Service ServiceState
	Store   fencing.Store
	Client  ClientState
	// Raft is a replica's consensus, in a replicated service; its state
	// machine is Service.
	Raft raft.Replica
	// heard is, for a leading replica, when each replica last answered
	// its APPEND in its term: it answers a KEEPALIVE itself only while a
	// majority has (a leader cut off from it may have been replaced).
	heard []sim.Time
}

// Wish is the process's part of the critical section.
func (p *Process) Wish() *mutex.Want { return &p.Want }

// Storage is the storage's state, for the shared figures.
func (p *Process) Storage() *fencing.Store { return &p.Store }

// Writes is a client's writer, for the shared check.
func (p *Process) Writes() *fencing.Writer { return &p.Client.Write }

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := defaults()
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return build(names, p, 1, nil), nil
}

func defaults() Params {
	return Params{Params: mutex.Defaults(), WriteParams: fencing.Defaults(), Session: 20, Keepalive: 5}
}

// check refuses params out of range, naming the field.
func (p *Params) check() error {
	for _, check := range []error{p.Params.Check(), p.WriteParams.Check(), fencing.CheckTicks("params.session", p.Session), fencing.CheckTicks("params.keepalive", p.Keepalive)} {
		if check != nil {
			return check
		}
	}
	if p.Keepalive >= p.Session {
		return strictjson.FieldErrorf("params.keepalive", "want fewer ticks than params.session (%d), so that a session can be kept alive, got %d", p.Session, p.Keepalive)
	}
	if p.Work >= p.CSTime {
		return strictjson.FieldErrorf("params.work", "want fewer ticks than params.cs_time (%d), so that the write goes out while the lock is held, got %d", p.CSTime, p.Work)
	}
	return nil
}

// build makes the processes: the service's replicas (one, or a Raft group
// run by rc), the storage, then the clients.
func build(names []string, p Params, replicas int, rc *raft.Config) []sim.Node {
	cfg := &Config{Session: p.Session, Keepalive: p.Keepalive, Work: p.Work, Herd: p.Herd, Replicas: replicas, Storage: sim.NodeID(replicas)}
	group := make([]sim.NodeID, replicas)
	for i := range group {
		group[i] = sim.NodeID(i)
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		proc := &Process{Want: mutex.Want{CSTime: p.CSTime}, Part: fencing.PartIn(sim.NodeID(i), replicas), Config: cfg}
		switch proc.Part {
		case fencing.PartService:
			proc.Service.Seen = make([]int64, len(names))
			if replicas > 1 {
				proc.Raft = raft.NewReplica(rc, group, len(names))
				proc.heard = make([]sim.Time, replicas)
			}
		case fencing.PartStorage:
			proc.Store = fencing.Store{Fencing: p.Fenced()}
		case fencing.PartClient:
			proc.Client.Write.To, proc.Client.Silent = cfg.Storage, sim.None
		}
		nodes[i] = proc
	}
	return nodes
}

// Step reacts to one event, in the part the process plays.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	service := p.stepService
	if p.Config.Replicas > 1 {
		service = p.stepReplica
	}
	p.Part.Step(env, ev, service, p.stepClient, &p.Store)
}

// send sends one of the lock's messages, counted against the entries.
func (p *Process) send(env *sim.Env, to sim.NodeID, m sim.Message) {
	env.Send(to, m)
	p.Sent++
}

// Inspect shows the part the process plays.
func (p *Process) Inspect() []sim.Field {
	switch p.Part {
	case fencing.PartService:
		if p.Config.Replicas > 1 {
			return append(p.Raft.Fields(), p.Service.fields()...)
		}
		return p.Service.fields()
	case fencing.PartStorage:
		return p.Store.Fields()
	}
	return append(p.Fields(), p.Client.fields()...)
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Service.Entries = slices.Clone(p.Service.Entries)
	c.Service.Sessions = slices.Clone(p.Service.Sessions)
	c.Service.Watches = slices.Clone(p.Service.Watches)
	c.Service.Seen = slices.Clone(p.Service.Seen)
	if p.Config.Replicas > 1 {
		c.Raft = p.Raft.CloneReplica()
		c.heard = slices.Clone(p.heard)
	}
	return &c
}
