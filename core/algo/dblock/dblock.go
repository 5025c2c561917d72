// Package dblock is a lock taken in a database, as production systems
// often take one (seed 003: "database-level locks (SELECT FOR UPDATE)"):
// process 1 is the database, which holds a row, a counter, and the row's
// lock; the others are clients. A client's transaction reads the row with
// SELECT … FOR UPDATE, which locks it (a client that finds it locked
// waits in the database's queue), works params.work ticks, and sends
// UPDATE and COMMIT with the counter one higher. The database ends a
// transaction that has been idle for params.timeout ticks (PostgreSQL's
// idle_in_transaction_session_timeout) and rolls it back, which releases
// the lock for the next.
//
// The lock and the data are in one place: an UPDATE is taken only from
// the transaction that holds the lock, so a client paused past its
// timeout wakes to an aborted transaction, and its late update is
// refused with no fencing token. params.in_database false (a switch)
// keeps the lock in the database but lets the UPDATE run on its own, as
// a store behind a separate lock service takes it: the late update
// overwrites the newer one, and an update is lost.
package dblock

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "database-lock"

// Database is the database's id.
const Database sim.NodeID = 0

// The message kinds.
const (
	KindSelect    = "SELECT-FOR-UPDATE"
	KindRow       = "ROW"
	KindCommit    = "UPDATE+COMMIT"
	KindCommitted = "COMMITTED"
	KindAborted   = "ABORTED"
)

// The commands, roles and timers.
const (
	// CmdTransaction makes a client run one transaction.
	CmdTransaction = "transaction"
	// RoleLock is a transaction holding the row's lock, on the database's
	// line; RoleBelieved a client that believes its transaction holds it.
	RoleLock     = "row lock"
	RoleBelieved = "in transaction"
	// TimerTimeout fires when the lock holder's transaction has been idle
	// too long; TimerWork when a client's work is done.
	TimerTimeout = "idle-timeout"
	TimerWork    = "work"
	maxTicks     = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Work is how long a client works between reading the row and
	// committing (ticks, default 2); Timeout how long the database lets a
	// transaction holding the lock sit idle before it rolls it back
	// (ticks, default 10).
	Work    sim.Time `json:"work"`
	Timeout sim.Time `json:"timeout"`
	// InDatabase says the UPDATE runs in the transaction that holds the
	// lock (default true); false takes it on its own.
	InDatabase *bool `json:"in_database"`
}

// InDatabaseSwitch is the switch between an UPDATE checked against the
// transaction holding the lock and one taken as it comes.
var InDatabaseSwitch = sim.Switch{Param: "in_database", Default: true, Label: "update in the locking transaction",
	Help: "Run the same schedule again with the UPDATE taken only from the transaction that holds the row's lock, as SELECT … FOR UPDATE does, or taken as it comes, as a store behind a separate lock service takes it"}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Database row locks (SELECT … FOR UPDATE)",
	Summary:      "A transaction locks a row with SELECT … FOR UPDATE, updates it and commits; the database rolls back a transaction idle too long. The lock and the data are in one place, so a paused client's late update is refused without a fencing token.",
	MinN:         3,
	MaxN:         16,
	DefaultNames: names,
	Kinds: []sim.KindSpec{
		{Name: KindSelect, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindRow, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphDiamond},
		{Name: KindCommit, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot},
		{Name: KindCommitted, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindAborted, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
	},
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{InDatabaseSwitch},
		Commands: []sim.CommandSpec{{Name: CmdTransaction, Help: "run a transaction: SELECT … FOR UPDATE, work, then UPDATE the counter and COMMIT", Takes: isClient, Who: "the clients"}},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleLock, Style: sim.StyleBar, Tone: sim.Green, Legend: "a transaction holds the row's lock (on the database's line)"},
			{Name: RoleBelieved, Style: sim.StyleOutline, Tone: sim.Purple, Legend: "a client believes its transaction holds the lock"},
		},
		Topology: star,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{noLostUpdate, oneBeliever, database, client, drawn},
		KnownLimits: []sim.KnownLimit{
			{Invariant: oneBelieverName, Always: true, Why: "a client believes in its transaction until it hears otherwise: a pause, a slow message or a crashed database lets the database roll it back first, which is why the database checks the transaction at the UPDATE"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// names are the database, then the clients.
func names(n int) []string {
	out := []string{"db"}
	for i := 1; i < n; i++ {
		out = append(out, "client"+strconv.Itoa(i))
	}
	return out
}

func isClient(_ sim.View, id sim.NodeID) bool { return id != Database }

// star links every client to the database.
func star(v sim.View) *sim.Topology {
	t := &sim.Topology{Kind: sim.Graph}
	for i := 1; i < v.N(); i++ {
		t.Edges = append(t.Edges, [2]sim.NodeID{Database, sim.NodeID(i)})
	}
	return t
}

// Txn names a transaction: its client and the client's count.
type Txn struct {
	Client sim.NodeID
	Seq    int64
}

// Process is the database or a client.
type Process struct {
	// IsDatabase says the process is the database.
	IsDatabase bool
	// Work and Timeout are the durations, InDatabase the switch.
	Work, Timeout sim.Time
	InDatabase    bool
	DB            DBState
	Client        ClientState
}

// DBState is the database's state.
type DBState struct {
	// Counter is the row's value; Commits counts the transactions whose
	// update it took (a copy counted again).
	Counter int64
	Commits int64
	// Holder is the transaction holding the row's lock (Client None if
	// none), and Queue the transactions waiting for it.
	Holder Txn
	Queue  []Txn
	// Aborted counts the transactions rolled back, Refused the updates
	// refused.
	Aborted, Refused int
	// Ended holds, by client, the last transaction that committed or was
	// rolled back: a late or copied statement of one cannot take the
	// lock again.
	Ended []int64
}

// ClientState is a client's state.
type ClientState struct {
	// Seq counts the client's transactions; In says it believes the
	// current one holds the lock, having read Read; Busy that it has one
	// under way.
	Seq  int64
	In   bool
	Busy bool
	Read int64
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Work: 2, Timeout: 10}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := sim.CheckTicks("params.work", p.Work, maxTicks); err != nil {
		return nil, err
	}
	if err := sim.CheckTicks("params.timeout", p.Timeout, maxTicks); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Process{IsDatabase: i == int(Database), Work: p.Work, Timeout: p.Timeout, InDatabase: p.InDatabase == nil || *p.InDatabase, DB: DBState{Holder: Txn{Client: sim.None}}}
		if i == int(Database) {
			nodes[i].(*Process).DB.Ended = make([]int64, len(names))
		}
	}
	return nodes, nil
}

// Step reacts to one event, as the database or a client.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	if p.IsDatabase {
		p.stepDB(env, ev)
		return
	}
	p.stepClient(env, ev)
}

// txnOf reads a message's transaction.
func txnOf(from sim.NodeID, m sim.Message) Txn { return Txn{Client: from, Seq: m.Value} }

func (t Txn) name(env *sim.Env) string {
	return fmt.Sprintf("%s's transaction %d", env.Name(t.Client), t.Seq)
}

func (p *Process) stepDB(env *sim.Env, ev sim.Event) {
	db, me := &p.DB, env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.InDatabase {
			env.Explain("%s is the database: it holds the row (counter %d) and its lock, and takes an UPDATE only from the transaction that holds the lock", me, db.Counter)
			return
		}
		env.Explain("%s is the database: it holds the row (counter %d) and its lock, and takes every UPDATE as it comes (the switch is off)", me, db.Counter)
	case sim.Recover:
		// the row is on disk; the locks and transactions were in memory
		if db.Holder.Client != sim.None {
			env.Annotate(sim.Closes(RoleLock, 0))
			db.end(db.Holder)
		}
		for _, t := range db.Queue {
			db.end(t)
		}
		db.Holder, db.Queue = Txn{Client: sim.None}, nil
		env.Explain("%s recovers with the row (counter %d) from disk; every transaction under way was rolled back with its lock", me, db.Counter)
	case sim.Timer:
		if ev.Tag != TimerTimeout || db.Holder.Client == sim.None {
			return
		}
		t := db.Holder
		db.Aborted++
		db.end(t)
		env.Annotate(sim.Closes(RoleLock, 0))
		db.Holder = Txn{Client: sim.None}
		env.Explain("%s: %s has been idle for %s: it is rolled back and its lock released%s", me, t.name(env), sim.Ticks(p.Timeout), p.grantNext(env))
	case sim.Deliver:
		t := txnOf(ev.From, ev.Msg)
		switch ev.Msg.Kind {
		case KindSelect:
			switch {
			case db.ended(t):
				env.Send(t.Client, sim.Message{Kind: KindAborted, Value: t.Seq, Label: KindAborted})
				env.Explain("%s: %s has ended; a late SELECT of it cannot lock the row again", me, t.name(env))
			case db.Holder == t || slices.Contains(db.Queue, t):
				env.Explain("%s: %s already holds or waits for the lock", me, t.name(env))
			case db.Holder.Client != sim.None:
				db.Queue = append(db.Queue, t)
				env.Explain("%s: the row is locked by %s; %s waits", me, db.Holder.name(env), t.name(env))
			default:
				env.Explain("%s %s", me, p.grant(env, t))
			}
		case KindCommit:
			p.commit(env, t, ev.Msg)
		}
	}
}

// end records that t has committed or been rolled back.
func (db *DBState) end(t Txn) {
	if int(t.Client) < len(db.Ended) {
		db.Ended[t.Client] = max(db.Ended[t.Client], t.Seq)
	}
}

// ended says t has committed or been rolled back.
func (db *DBState) ended(t Txn) bool {
	return int(t.Client) < len(db.Ended) && t.Seq <= db.Ended[t.Client]
}

// grant locks the row for t and sends it the row.
func (p *Process) grant(env *sim.Env, t Txn) string {
	db := &p.DB
	db.Holder = t
	env.SetTimer(TimerTimeout, p.Timeout)
	env.Send(t.Client, sim.Message{Kind: KindRow, Value: t.Seq, Data: []int64{db.Counter}, Label: fmt.Sprintf("ROW %d", db.Counter)})
	env.Annotate(sim.Opens(RoleLock, 0, fmt.Sprintf("%s, transaction %d", env.Name(t.Client), t.Seq)).To(t.Client))
	return fmt.Sprintf("locks the row for %s and sends it the row (counter %d); it rolls the transaction back if it sits idle for %s", t.name(env), db.Counter, sim.Ticks(p.Timeout))
}

// grantNext locks the row for the first transaction waiting, if any.
func (p *Process) grantNext(env *sim.Env) string {
	db := &p.DB
	if len(db.Queue) == 0 {
		return "; nobody waits"
	}
	next := db.Queue[0]
	db.Queue = db.Queue[1:]
	return "; it " + p.grant(env, next)
}

// commit is the rule for a transaction's UPDATE and COMMIT.
func (p *Process) commit(env *sim.Env, t Txn, m sim.Message) {
	db, me := &p.DB, env.Name(env.Self())
	if len(m.Data) != 1 {
		env.Explain("%s ignores an UPDATE it cannot read", me)
		return
	}
	value := m.Data[0]
	holds := db.Holder == t
	if !holds && p.InDatabase {
		db.Refused++
		env.Send(t.Client, sim.Message{Kind: KindAborted, Value: t.Seq, Label: KindAborted})
		env.Explain("%s refuses the UPDATE of %s (counter := %d): that transaction no longer holds the lock, it was rolled back; the counter stays %d", me, t.name(env), value, db.Counter)
		return
	}
	old := db.Counter
	db.Counter = value
	db.Commits++
	env.Send(t.Client, sim.Message{Kind: KindCommitted, Value: t.Seq, Label: KindCommitted})
	if !holds {
		env.Explain("%s takes the UPDATE of %s as it comes: counter %d := %d, though that transaction holds no lock", me, t.name(env), old, value)
		return
	}
	env.CancelTimer(TimerTimeout)
	env.Annotate(sim.Closes(RoleLock, 0))
	db.end(t)
	db.Holder = Txn{Client: sim.None}
	env.Explain("%s commits %s: counter %d := %d, and releases the lock%s", me, t.name(env), old, value, p.grantNext(env))
}

func (p *Process) stepClient(env *sim.Env, ev sim.Event) {
	c, me, db := &p.Client, env.Name(env.Self()), env.Name(Database)
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s is a client: its transactions add 1 to the counter in %s", me, db)
	case sim.Recover:
		if c.In {
			env.Annotate(sim.Closes(RoleBelieved, 0))
		}
		c.In, c.Busy = false, false
		env.Explain("%s recovers: its connection, and the transaction on it, are gone", me)
	case sim.Command, sim.Workload:
		if c.Busy {
			env.Explain("%s already has a transaction under way", me)
			return
		}
		c.Seq++
		c.Busy = true
		env.Send(Database, sim.Message{Kind: KindSelect, Value: c.Seq, Label: "SELECT … FOR UPDATE"})
		env.Explain("%s begins transaction %d: SELECT counter … FOR UPDATE", me, c.Seq)
	case sim.Timer:
		if ev.Tag != TimerWork || !c.In {
			return
		}
		env.Send(Database, sim.Message{Kind: KindCommit, Value: c.Seq, Data: []int64{c.Read + 1}, Label: fmt.Sprintf("counter := %d", c.Read+1)})
		env.Explain("%s has worked and sends UPDATE counter := %d and COMMIT (it read %d and believes its transaction still holds the lock)", me, c.Read+1, c.Read)
	case sim.Deliver:
		if ev.Msg.Value != c.Seq || !c.Busy {
			env.Explain("%s ignores a %s about an old transaction", me, ev.Msg.Kind)
			return
		}
		switch ev.Msg.Kind {
		case KindRow:
			if c.In || len(ev.Msg.Data) != 1 {
				env.Explain("%s ignores a second ROW for transaction %d", me, c.Seq)
				return
			}
			c.In, c.Read = true, ev.Msg.Data[0]
			env.SetTimer(TimerWork, p.Work)
			env.Annotate(sim.Opens(RoleBelieved, 0, fmt.Sprintf("transaction %d", c.Seq)))
			env.Explain("%s holds the row's lock and reads counter %d; it works for %s before it updates", me, c.Read, sim.Ticks(p.Work))
		case KindCommitted, KindAborted:
			if c.In {
				env.Annotate(sim.Closes(RoleBelieved, 0))
			}
			c.In, c.Busy = false, false
			if ev.Msg.Kind == KindCommitted {
				env.Explain("%s's transaction %d is committed", me, c.Seq)
				return
			}
			env.Explain("%s learns that its transaction %d was rolled back: its update never happened, and it may try again", me, c.Seq)
		}
	}
}

// Inspect shows the database's row and lock, or a client's transaction.
func (p *Process) Inspect() []sim.Field {
	if p.IsDatabase {
		holder := "nobody"
		if h := p.DB.Holder; h.Client != sim.None {
			holder = fmt.Sprintf("%d (transaction %d)", h.Client.Number(), h.Seq)
		}
		return []sim.Field{{Name: "counter", Value: strconv.FormatInt(p.DB.Counter, 10)}, {Name: "lock held by", Value: holder}, {Name: "waiting", Value: strconv.Itoa(len(p.DB.Queue))}}
	}
	return []sim.Field{{Name: "transaction", Value: strconv.FormatInt(p.Client.Seq, 10)}, {Name: "believes it holds the lock", Value: strconv.FormatBool(p.Client.In)}}
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.DB.Queue = append([]Txn(nil), p.DB.Queue...)
	c.DB.Ended = append([]int64(nil), p.DB.Ended...)
	return &c
}
