package coordlock

import (
	"fmt"
	"strings"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/raft"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// service is the lock's state as the service holds it: its one
// process's, or, replicated, that of the replica that has applied the
// most of the committed log.
func service(v sim.View) *ServiceState {
	best := process(v, Service)
	for id := 1; id < best.Config.Replicas; id++ {
		if p := process(v, sim.NodeID(id)); p.Raft.Applied > best.Raft.Applied {
			best = p
		}
	}
	return &best.Service
}

var deadlock = mutex.Deadlock(blocked)

// blocked says what the waiting clients wait for when nothing is in
// flight, or "" when a timer will still move the lock on: a session whose
// client has stopped its keepalives expires, and a client whose session
// the service has ended hears so at its next keepalive.
func blocked(v sim.View) string {
	if replicas := process(v, Service).Config.Replicas; replicas > 1 {
		down := 0
		for id := range replicas {
			if v.Health(sim.NodeID(id)) == sim.Crashed {
				down++
			}
		}
		if down > replicas/2 {
			return mutex.WhoWaits(v) + fmt.Sprintf(" for the coordination service: %d of its %d replicas have crashed, and the rest are no majority", down, replicas)
		}
		for _, id := range mutex.Waiting(v) {
			if process(v, id).Client.Pending.Kind != "" {
				return "" // it asks the next replica when its retry fires
			}
		}
	} else if v.Health(Service) == sim.Crashed {
		return mutex.WhoWaits(v) + " for the coordination service, which has crashed"
	}
	s := service(v)
	for _, ss := range s.Sessions {
		if v.Health(ss.Client) == sim.Crashed || process(v, ss.Client).State == mutex.Idle {
			return "" // nobody keeps it alive: it expires
		}
	}
	for _, id := range mutex.Waiting(v) {
		c := process(v, id).Client
		switch {
		case c.Session == 0:
			return fmt.Sprintf("%s waits for the answer to its CREATE, which was lost", v.Name(id))
		case s.session(c.Session) < 0:
			return "" // its next keepalive hears that the session expired
		case c.Entry == 0:
			return fmt.Sprintf("%s waits for the answer to its CREATE, which was lost", v.Name(id))
		case len(s.Entries) > 0 && s.Entries[0].Rev == c.Entry:
			return fmt.Sprintf("%s's entry %d is the lowest, but the news was lost: it waits to hear that entry %d is gone", v.Name(id), c.Entry, c.Watching)
		}
	}
	return "" // the waiting clients wait behind a holder still at work
}

const noStaleWriteName = "the storage accepts no write whose lock had passed on"

// noStaleWrite is the invariant fencing is for: a write the storage
// accepts carries the revision of the lowest entry, whose session is open.
var noStaleWrite = fencing.NoStaleWrite(noStaleWriteName, "a write the storage accepts carries the token of the entry that holds the lock, in a session still open",
	func(v sim.View, token int64) string {
		s := service(v)
		if len(s.Entries) == 0 || s.Entries[0].Rev != token {
			now := "no entry holds the lock now"
			if len(s.Entries) > 0 {
				now = fmt.Sprintf("entry %d holds the lock now", s.Entries[0].Rev)
			}
			return fmt.Sprintf("the storage accepted a write with token %d, but %s", token, now)
		}
		return ""
	})

// lockSent counts the lock's messages (the storage's are the
// application's): every entry is charged them.
func lockSent(v sim.View) int {
	_, sent := mutex.Totals(v)
	return sent
}

func metrics(v sim.View) []sim.Metric {
	s := service(v)
	out := append(mutex.MetricsCounting(v, deadlock, lockSent(v)), fencing.StoreOf(v).Metrics()...)
	return append(out,
		sim.Metric{Name: "last_token", Value: s.Revision},
		sim.Metric{Name: "sessions_expired", Value: s.Expired},
		sim.Metric{Name: "wakeups", Value: s.Notified},
	)
}

func panels(v sim.View) []sim.Panel {
	s := service(v)
	holder := "nobody"
	if len(s.Entries) > 0 {
		holder = fmt.Sprintf("entry %d, %s", s.Entries[0].Rev, v.Name(s.Entries[0].Client))
	}
	var entries, sessions []string
	for _, e := range s.Entries {
		entries = append(entries, fmt.Sprintf("%d (%s)", e.Rev, v.Name(e.Client)))
	}
	for _, ss := range s.Sessions {
		sessions = append(sessions, fmt.Sprintf("%d: %s until %d", ss.ID, v.Name(ss.Client), ss.Expiry))
	}
	rows := []sim.Row{
		{Cells: []string{"holds the lock", holder}},
		{Cells: []string{"entries, lowest first", orNone(entries)}},
		{Cells: []string{"open sessions", orNone(sessions)}},
		{Cells: []string{"revision", fmt.Sprint(s.Revision)}},
		{Cells: []string{"wake-ups sent", fmt.Sprint(s.Notified)}},
	}
	svc := sim.Panel{Title: "Coordination service and storage", Columns: []string{"", ""}, Rows: append(rows, fencing.StoreOf(v).Rows()...)}
	clients := sim.Panel{Title: "Clients", Note: "what each client believes, by its own timer", Columns: []string{"client", "state", "session", "good until", "entry", "watches"}}
	for _, id := range fencing.Clients(v) {
		c := process(v, id).Client
		row := mutex.Row(v, id, dash(c.Session), dash(int64(c.ValidUntil)), dash(c.Entry), dash(c.Watching))
		if p := process(v, id); p.State == mutex.InCS && (len(s.Entries) == 0 || s.Entries[0].Rev != c.Entry) {
			row.CellEmphasis = []string{"", "bad"} // the service has handed the lock on
		}
		clients.Rows = append(clients.Rows, row)
	}
	return []sim.Panel{svc, clients}
}

func formula(v sim.View) string {
	return mutex.FormulaCounting(v, lockSent(v), "3 for a free lock (CREATE, CREATED, DELETE), 3 more for each wake-up (DELETED, CHECK, CHECKED), and 2 for every keepalive")
}

func orNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}

func dash(n int64) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprint(n)
}

const writesName = "a client that takes the lock writes with it"

// writesWithTheLock holds a client to the recipe: as it takes the lock
// it starts its one write, with its entry's number as the token.
var writesWithTheLock = sim.Invariant{
	Name: writesName,
	Help: "a client that enters the critical section starts its write, with its entry's number as the token, in the same step",
	Check: func(v sim.View) sim.Verdict {
		id, _, ok := v.LastStep()
		if !ok {
			return sim.Verdict{OK: true}
		}
		for _, a := range v.LastAnnotations() {
			if a.Role != mutex.RoleCS || a.Phase != sim.Begin {
				continue
			}
			c := process(v, id).Client
			if !c.Write.Writing || c.Write.Token != c.Entry {
				return sim.Verdict{Detail: fmt.Sprintf("%s took the lock with entry %d, but started no write with it as the token", v.Name(id), c.Entry)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// Replicas is a replica's Raft state, for Raft's checks, or nil for a
// process that is not one of the service's replicas.
func (p *Process) Replicas() *raft.Replica {
	if p.Part == fencing.PartService && p.Config.Replicas > 1 {
		return &p.Raft
	}
	return nil
}

// Asked restates, for raft.Appends, the command a client's request asks
// the service's leader to log: a CREATE, CHECK or DELETE, with its
// sender, its value and its first three numbers. A KEEPALIVE is answered
// without the log.
func (p *Process) Asked(ev sim.Event) (cmd raft.Command, exact, ok bool) {
	if ev.Kind != sim.Deliver || p.Replicas() == nil {
		return cmd, false, false
	}
	var op int64
	switch ev.Msg.Kind {
	case KindCreate:
		op = opCreate
	case KindCheck:
		op = opCheck
	case KindDelete:
		op = opDelete
	default:
		return cmd, false, false
	}
	cmd = raft.Command{op, int64(ev.From), ev.Msg.Value}
	copy(cmd[3:], ev.Msg.Data)
	return cmd, true, true
}

// beforeTally is the lock's tally: the section's, Raft's for the
// replicated lock's replicas (its guarantees and checks read it), and
// what each process was before its latest step and after it, so that the
// checks hold a step to the state it began from (a replica's service
// state and how far it had applied the log, a client's requests).
type beforeTally struct {
	*mutex.Tally
	*raftGroup
	before, after []stood
}

// raftGroup is Raft's tally, under a name of its own beside the section's.
type raftGroup = raft.Tally

// stood is what a process was after one of its steps, as the checks read
// it: its lock service's state, its client's and its part of the
// section, and its Raft role, term and last entry applied.
type stood struct {
	Service ServiceState
	Client  ClientState
	State   mutex.State
	Role    raft.Role
	Term    int64
	Applied int
}

func newBeforeTally(n int) sim.Tally {
	return &beforeTally{Tally: mutex.NewTally(n).(*mutex.Tally), raftGroup: raft.NewTally(n), before: make([]stood, n), after: make([]stood, n)}
}

// Clone copies the tally, each process's states with their own slices.
func (t *beforeTally) Clone() sim.Tally {
	c := &beforeTally{Tally: t.Copy(), raftGroup: t.raftGroup.Clone().(*raft.Tally), before: make([]stood, len(t.before)), after: make([]stood, len(t.after))}
	for i := range t.before {
		c.before[i].copyFrom(&t.before[i])
		c.after[i].copyFrom(&t.after[i])
	}
	return c
}

// Stepped keeps what the process was after its step, and what it was
// before it: the state after its previous step. Its buffers are reused,
// so that a step makes no allocation once they have grown.
func (t *beforeTally) Stepped(id sim.NodeID, n sim.Node) {
	t.raftGroup.Stepped(id, n)
	t.before[id], t.after[id] = t.after[id], t.before[id]
	p := n.(*Process)
	t.after[id].copyFrom(&stood{Service: p.Service, Client: p.Client, State: p.State, Role: p.Raft.Role, Term: p.Raft.Term, Applied: p.Raft.Applied})
}

// Note takes a step's annotations: the section's and Raft's.
func (t *beforeTally) Note(at sim.Time, node sim.NodeID, as []sim.Annotation) {
	t.Tally.Note(at, node, as)
	t.raftGroup.Note(at, node, as)
}

// Joined and Left make it a ledger, for Stepped: messages are not
// followed.
func (t *beforeTally) Joined(sim.Message) {}
func (t *beforeTally) Left(sim.Message)   {}

// copyFrom makes s a copy of o, in s's own slices.
func (s *stood) copyFrom(o *stood) {
	service := s.Service
	*s = *o
	s.Service.Entries = append(service.Entries[:0], o.Service.Entries...)
	s.Service.Sessions = append(service.Sessions[:0], o.Service.Sessions...)
	s.Service.Watches = append(service.Watches[:0], o.Service.Watches...)
	s.Service.Seen = append(service.Seen[:0], o.Service.Seen...)
}

// before is what a process was before the step just taken, or nil
// without the replicated lock's tally.
func before(v sim.View, id sim.NodeID) *stood {
	if t, ok := v.Tally().(*beforeTally); ok {
		return &t.before[id]
	}
	return nil
}
