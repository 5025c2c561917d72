// Package election is what the leader-election algorithms share: each
// process's belief about who leads (embedded in every node), the
// start-election command a learner uses to make a process notice that the
// leader is gone, the intervals a leader and an election are drawn as,
// the agreement invariant and the report's figures.
package election

import (
	"fmt"
	"strings"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// The command and roles every election algorithm uses.
const (
	// CmdStart makes a process notice that the leader is gone and start an
	// election.
	CmdStart = "start-election"
	// RoleLeader is the interval a process acts as leader.
	RoleLeader = "leader"
	// RoleElecting is the interval a process runs an election.
	RoleElecting = "electing"
)

// Start is the start-election command's spec, taken by every process.
var Start = sim.CommandSpec{Name: CmdStart, Help: "notice that the leader is gone and start an election"}

// Roles are the intervals every election algorithm draws.
var Roles = []sim.RoleSpec{
	{Name: RoleLeader, Style: sim.StyleBar, Tone: sim.Purple, Legend: "acts as leader"},
	{Name: RoleElecting, Style: sim.StyleOutline, Tone: sim.Blue, Legend: "running an election"},
}

// Belief is a process's part of an election, embedded in every election
// algorithm's node: whom it believes leads, whether it is running an
// election, and its figures.
type Belief struct {
	// Leader is whom the process believes leads (None if nobody).
	Leader sim.NodeID
	// Electing says the process runs an election (it waits for answers).
	Electing bool
	// Leading says the process acts as leader, since LeadSince.
	Leading   bool
	LeadSince sim.Time
	// Elections counts the elections this process started.
	Elections int
}

// Believer is a node with a Belief, for the shared invariant and metrics.
type Believer interface {
	Election() *Belief
}

func belief(v sim.View, id sim.NodeID) *Belief { return v.Node(id).(Believer).Election() }

// Begin starts an election at this process: it counts it and opens the
// electing interval (an election already running goes on).
func (b *Belief) Begin(env *sim.Env) {
	b.stayElecting(env)
	b.Elections++
}

// stayElecting keeps the process in the election it runs, drawn so.
func (b *Belief) stayElecting(env *sim.Env) {
	if !b.Electing {
		env.Annotate(sim.Opens(RoleElecting, 0, "election"))
	}
	b.Electing = true
}

// Settle ends this process's election, if it runs one.
func (b *Belief) Settle(env *sim.Env) {
	if b.Electing {
		env.Annotate(sim.Closes(RoleElecting, 0))
	}
	b.Electing = false
}

// Lead makes this process the leader it believes in, its election over.
func (b *Belief) Lead(env *sim.Env) {
	b.Settle(env)
	b.lead(env)
}

// Follow makes another process the leader this one believes in, its
// election over.
func (b *Belief) Follow(env *sim.Env, leader sim.NodeID) {
	b.Settle(env)
	b.follow(env, leader)
}

// Announce makes leader the one this process believes in while it stays
// in the election it runs, until its announcement of the result comes
// back (the ring's): it leads or follows, and is still drawn electing.
func (b *Belief) Announce(env *sim.Env, leader sim.NodeID) {
	b.stayElecting(env)
	if leader == env.Self() {
		b.lead(env)
		return
	}
	b.follow(env, leader)
}

func (b *Belief) lead(env *sim.Env) {
	b.Leader = env.Self()
	if !b.Leading {
		env.Annotate(sim.Opens(RoleLeader, 0, "leader"))
		b.LeadSince = env.Now()
	}
	b.Leading = true
}

func (b *Belief) follow(env *sim.Env, leader sim.NodeID) {
	b.Leader = leader
	if b.Leading && leader != env.Self() {
		env.Annotate(sim.Closes(RoleLeader, 0))
		b.Leading = false
	}
}

// Forget drops what a crash loses: the election running and leading.
func (b *Belief) Forget(env *sim.Env) {
	b.Settle(env)
	if b.Leading {
		env.Annotate(sim.Closes(RoleLeader, 0))
	}
	b.Leading = false
}

// DrawnName names the Drawn invariant.
const DrawnName = "a process is drawn leading and electing exactly while it does"

// Drawn is the invariant that the diagram tells the truth about the
// election: a live process is drawn as leader exactly while its belief
// says it leads, and as running an election exactly while it runs one. A
// crash ends both intervals, and a crashed process's belief is what it
// forgets on recovery, so it is not read.
var Drawn = sim.Invariant{
	Name: DrawnName,
	Help: "a live process's bar \"acts as leader\" and outline \"running an election\" are drawn exactly while it leads and while it runs an election",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) == sim.Crashed {
				continue
			}
			b := belief(v, id)
			if drawn := v.Drawn(id, RoleLeader, 0); drawn != b.Leading {
				return sim.Verdict{Detail: misdrawn(v.Name(id), drawn, "as leader", "leads")}
			}
			if drawn := v.Drawn(id, RoleElecting, 0); drawn != b.Electing {
				return sim.Verdict{Detail: misdrawn(v.Name(id), drawn, "running an election", "runs one")}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// misdrawn says how a process's picture and its state differ.
func misdrawn(name string, drawn bool, as, does string) string {
	if drawn {
		return name + " is drawn " + as + ", but no longer " + does
	}
	return name + " " + does + ", but is not drawn " + as
}

// OneLeaderName names the OneLeader invariant.
const OneLeaderName = "no process takes the lead from a leader that still leads"

// OneLeader is the invariant that two processes never act as leader with
// the lower one elected after the higher one began to lead: the lower was
// elected beside a leader that was alive all along, only paused, slow or
// cut off, and the two lead at once (split brain). A higher process that
// takes the lead from a lower one, as a recovered bully does, leads
// beside it only until its COORDINATOR arrives, and passes.
var OneLeader = sim.Invariant{
	Name: OneLeaderName,
	Help: "no process acts as leader that was elected after a higher process, which still acts as leader, began to",
	Check: func(v sim.View) sim.Verdict {
		for j := v.N() - 1; j > 0; j-- {
			hi := sim.NodeID(j)
			bh := belief(v, hi)
			if !bh.Leading || v.Health(hi) == sim.Crashed {
				continue
			}
			for i := range j {
				lo := sim.NodeID(i)
				bl := belief(v, lo)
				if bl.Leading && v.Health(lo) != sim.Crashed && bl.LeadSince > bh.LeadSince {
					return sim.Verdict{Detail: fmt.Sprintf("%s and %s both act as leader: %s was elected at tick %d while %s, leader since tick %d, was only unresponsive and still leads (two leaders: split brain)",
						v.Name(lo), v.Name(hi), v.Name(lo), bl.LeadSince, v.Name(hi), bh.LeadSince)}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// AgreementName names the Agreement invariant.
const AgreementName = "the live processes agree on the highest live id"

// Agreement is the invariant that, once no process is electing and no
// message is on its way to a process that is up, every live process
// believes the same leader, that leader is the highest live id, and it
// acts as leader once it has started. A leader that crashed since the
// last election passes: nobody has noticed yet, and noticing is the
// learner's start-election (or the algorithm's timeouts).
var Agreement = sim.Invariant{
	Name: AgreementName,
	Help: "when the elections are over, every live process follows the highest live id, which acts as leader",
	Check: func(v sim.View) sim.Verdict {
		highest := sim.NodeID(sim.None)
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) == sim.Crashed {
				continue
			}
			if belief(v, id).Electing {
				return sim.Verdict{OK: true}
			}
			highest = id
		}
		if highest == sim.None || check.InFlightToLive(v) {
			return sim.Verdict{OK: true}
		}
		leaders := map[sim.NodeID][]string{}
		var order []sim.NodeID
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) == sim.Crashed {
				continue
			}
			l := belief(v, id).Leader
			if _, ok := leaders[l]; !ok {
				order = append(order, l)
			}
			leaders[l] = append(leaders[l], v.Name(id))
		}
		if len(order) > 1 {
			parts := make([]string, len(order))
			for i, l := range order {
				parts[i] = strings.Join(leaders[l], ", ") + " follow " + sim.NameOrNobody(v, l)
			}
			return sim.Verdict{Detail: "the elections are over but the live processes disagree: " + strings.Join(parts, "; ")}
		}
		switch l := order[0]; {
		case l == highest && !belief(v, l).Leading && check.Steps(v, l) > 0:
			return sim.Verdict{Detail: "every live process follows " + sim.NameOrNobody(v, l) + ", the highest live id, but it does not act as leader"}
		case l == highest:
			return sim.Verdict{OK: true}
		case l != sim.None && v.Health(l) == sim.Crashed:
			return sim.Verdict{OK: true} // a crash nobody has noticed yet
		default:
			return sim.Verdict{Detail: "every live process follows " + sim.NameOrNobody(v, l) + ", but " + v.Name(highest) + " is the highest live id"}
		}
	},
}

// Metrics are the figures every election algorithm reports: the leader
// the live processes agree on (null while they disagree), what each live
// process believes, and the elections started.
func Metrics(v sim.View) []sim.Metric {
	beliefs := map[string]string{}
	var leader any
	agreed, first := true, true
	elections := 0
	for i := range v.N() {
		id := sim.NodeID(i)
		b := belief(v, id)
		elections += b.Elections
		if v.Health(id) == sim.Crashed {
			continue
		}
		beliefs[v.Name(id)] = sim.NameOrNobody(v, b.Leader)
		switch {
		case first:
			leader, first = sim.NameOrNobody(v, b.Leader), false
		case leader != sim.NameOrNobody(v, b.Leader):
			agreed = false
		}
	}
	if !agreed {
		leader = nil
	}
	return []sim.Metric{
		{Name: "leader", Value: leader},
		{Name: "beliefs", Value: beliefs},
		{Name: "elections", Value: elections},
	}
}

// Row is a process's row of an algorithm's panel: its name, health, whom
// it follows, then the algorithm's cells; a leader's row is marked.
func Row(v sim.View, id sim.NodeID, cells ...string) sim.Row {
	b := belief(v, id)
	follows := sim.NameOrNobody(v, b.Leader)
	switch {
	case b.Leading:
		follows = "itself (leads)"
	case b.Electing:
		follows += " (electing)"
	}
	row := sim.Row{Cells: append([]string{v.Name(id), v.Health(id).String(), follows}, cells...)}
	if b.Leading {
		row.CellEmphasis = []string{"", "", "good"}
	}
	return row
}
