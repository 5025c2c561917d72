package coordlock

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/raft"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ReplicatedID is the replicated lock's id in scenario files and on the
// command line.
const ReplicatedID = "replicated-lock"

// KindNotLeader is a replica's answer to a client's request when it does
// not lead: it names the leader it knows, if any.
const KindNotLeader = "NOT-LEADER"

// TimerRetry fires when a client's request to the service has had no
// answer for retryAfter ticks: it asks the next replica.
const (
	TimerRetry = "retry"
	retryAfter = 16 // four messages' longest delay, and some: a request's round through the log
)

// The operations a replicated service's log holds, in a command's first
// number: a client's request (its id, value and data follow), or the
// expiry of a session (its id follows).
const (
	opNoop int64 = iota
	opCreate
	opCheck
	opDelete
	opExpire
)

// opKinds are the requests a leader logs, by their operation, and opOf
// finds a request's operation (opNoop for one that is not logged).
var opKinds = [...]string{opCreate: KindCreate, opCheck: KindCheck, opDelete: KindDelete}

func opOf(kind string) int64 {
	for op, k := range opKinds {
		if k == kind && k != "" {
			return int64(op)
		}
	}
	return opNoop
}

// ReplicatedParams are the replicated lock's params: the lock's, the
// size of the service's Raft group and its timing.
type ReplicatedParams struct {
	Params
	// Replicas is the number of the service's processes, odd, from 3 to 7
	// (default 3): the first processes, before the storage.
	Replicas int `json:"replicas"`
	// Election is the range of the replicas' election timeouts and
	// Heartbeat their leader's period (ticks, default [10, 20] and 3).
	Election  []sim.Time `json:"election"`
	Heartbeat sim.Time   `json:"heartbeat"`
}

// ReplicatedSpec registers the lock whose coordination service is a Raft
// group: the same recipe, sessions and fencing, with every change to the
// entries and sessions logged and committed by a majority of the
// replicas before the leader answers, so that the lock outlives the
// crash of any minority of them, its leader included.
var ReplicatedSpec = &sim.Spec{
	ID:      ReplicatedID,
	Title:   "Lock from a coordination service replicated by Raft",
	Summary: "The coordination service's lock recipe on a Raft group of 3 or 5: the leader logs each request and answers once a majority holds it; when it crashes, another is elected and the lock goes on.",
	MinN:    5,
	MaxN:    32,
	Checks: sim.CheckSpec{
		MaxDelay:   3,
		Invariants: append(append(slices.Clip(Spec.Checks.Invariants), raft.Guarantees...), raft.Timers, raft.Appends, raft.Replies, raft.Counts, raft.Terms, raft.Elected, raft.Sends, replicas),
		KnownLimits: []sim.KnownLimit{
			pausedHolder, staleWrite, fencing.WritesLost,
			{Invariant: lostNews.Invariant, Faults: []string{"crash", "drop", "cut", "partition", "fifo"}, Why: "the service stops when a majority of its replicas is down or cut off, and a lost or overtaken DELETED leaves a watcher waiting for news that will not come; the crash of a minority, its leader included, stops nothing (a test holds it)"},
		},
	},
	DefaultNames: replicatedNames,
	Kinds:        append(append(slices.Clone(Spec.Kinds), dashed(raft.Kinds)...), sim.KindSpec{Name: KindNotLeader, Role: sim.RoleControl, Tone: sim.Grey, Glyph: sim.GlyphBar, Dashed: true}),
	Learner: sim.LearnerSpec{
		Switches: Spec.Learner.Switches,
		Commands: append(slices.Clone(Spec.Learner.Commands), sim.CommandSpec{Name: raft.CmdTimeout, Help: "make the replica's election timer run out now: it stands for the next term", Takes: isFollowingReplica, Who: "the service's replicas that do not lead"}),
	},
	Picture: sim.PictureSpec{
		Roles:    append(slices.Clone(Spec.Picture.Roles[1:]), raft.Roles...), // the holder is in every replica's state, not on a line
		Topology: fencing.Star,
		Overlays: replicaOverlays,
	},
	New: newReplicated,
	Figures: sim.FigureSpec{
		NewTally: newBeforeTally,
		Metrics:  metrics,
		Panels:   replicatedPanels,
		Formula:  formula,
	},
}

// dashed are kinds drawn dashed: the replicas' consensus, beside the
// clients' requests.
func dashed(kinds []sim.KindSpec) []sim.KindSpec {
	out := slices.Clone(kinds)
	for i := range out {
		out[i].Dashed = true
	}
	return out
}

// replicatedNames are the default names with three replicas.
func replicatedNames(n int) []string {
	out := []string{"lock1", "lock2", "lock3", "storage"}
	for i := 1; i <= n-4; i++ {
		out = append(out, "client"+strconv.Itoa(i))
	}
	return out[:n]
}

func isFollowingReplica(v sim.View, id sim.NodeID) bool {
	p := process(v, id)
	return p.Part == fencing.PartService && p.Raft.Role != raft.Leader
}

func newReplicated(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := ReplicatedParams{Params: defaults(), Replicas: 3, Election: []sim.Time{10, 20}, Heartbeat: 3}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	switch {
	case p.Replicas < 3 || p.Replicas > 7 || p.Replicas%2 == 0:
		return nil, strictjson.FieldErrorf("params.replicas", "want an odd number of replicas from 3 to 7, got %d", p.Replicas)
	case len(names) < p.Replicas+2:
		return nil, strictjson.FieldErrorf("params.replicas", "want %d replicas, the storage and a client at least, %d processes; the scenario has %d", p.Replicas, p.Replicas+2, len(names))
	case len(p.Election) != 2 || p.Election[0] < 1 || p.Election[1] < p.Election[0] || p.Election[1] > fencing.MaxTicks:
		return nil, strictjson.FieldErrorf("params.election", "want [least, most] ticks, from 1 to %d, got %v", fencing.MaxTicks, p.Election)
	}
	if err := fencing.CheckTicks("params.heartbeat", p.Heartbeat); err != nil {
		return nil, err
	}
	rc := &raft.Config{ElectionMin: p.Election[0], ElectionMax: p.Election[1], Heartbeat: p.Heartbeat, Randomized: true, NoOp: true, Batch: 4}
	return build(names, p.Params, p.Replicas, rc), nil
}

// stepReplica is a replica's step: Raft's messages and timers, the
// clients' requests, which the leader logs, and its sessions' timers.
func (p *Process) stepReplica(env *sim.Env, ev sim.Event) {
	r := &p.Raft
	me := env.Name(env.Self())
	was := r.Role
	switch ev.Kind {
	case sim.Init:
		r.Start(env)
		env.Explain("%s is one of the %d replicas of the coordination service: they elect a leader, which logs every request and answers once a majority holds it", me, p.Config.Replicas)
	case sim.Recover:
		r.Restart(env)
		p.Service = ServiceState{Seen: make([]int64, len(p.Service.Seen))}
		env.Explain("%s recovers as a follower: it kept its term, vote and log, and rebuilds the lock's state as it learns what is committed", me)
	case sim.Command:
		env.Explain("%s", r.TimeOut(env))
	case sim.Workload:
		env.Explain("%s serves the lock; it does no work of its own", me)
	case sim.Timer:
		if what, ok := r.Timer(env, ev.Tag); ok {
			env.Explain("%s", what)
		} else if strings.HasPrefix(ev.Tag, timerExpire) {
			p.sessionTimer(env, ev.Tag)
		}
	case sim.Deliver:
		if raft.Handles(ev.Msg.Kind) {
			env.Explain("%s", r.Receive(env, ev, p))
			if r.Role == raft.Leader && ev.Msg.Value == r.Term && (ev.Msg.Kind == raft.KindAck || ev.Msg.Kind == raft.KindNack) {
				p.heard[ev.From] = env.Now()
			}
		} else {
			p.request(env, ev.From, ev.Msg)
		}
	}
	if r.Role == raft.Leader && was != raft.Leader {
		clear(p.heard) // what it heard in another term says nothing of this one
		// sessions are timed by the leader: a new one gives each its full
		// time, as ZooKeeper's does after an election
		var o outcome
		for i := range p.Service.Sessions {
			p.renew(env, &o, i)
		}
		p.reply(env, &o)
		if n := len(p.Service.Sessions); n > 0 {
			env.ExplainMore("it gives the %d open sessions it knows %s afresh", n, sim.Ticks(p.Config.Session))
		}
	}
}

// request is a client's request at a replica: a follower names the
// leader; the leader answers a KEEPALIVE itself, once it has committed an
// entry of its term (and so knows every session), and logs the others.
func (p *Process) request(env *sim.Env, from sim.NodeID, m sim.Message) {
	r := &p.Raft
	me, who := env.Name(env.Self()), env.Name(from)
	if r.Role != raft.Leader {
		hint, named := int64(0), "it knows no leader"
		if r.Leader != sim.None {
			hint, named = int64(r.Leader)+1, "the leader is "+env.Name(r.Leader)
		}
		p.send(env, from, sim.Message{Kind: KindNotLeader, Value: hint, Label: KindNotLeader})
		env.Explain("%s does not lead: it tells %s so (%s)", me, who, named)
		return
	}
	if m.Kind == KindKeepalive {
		switch {
		case r.Log.Term(r.Commit) != r.Term:
			env.Explain("%s has not committed an entry of its term yet, so it may not know %s's session: it does not answer the KEEPALIVE", me, who)
		case !p.quorum(env):
			env.Explain("%s has not heard from a majority of the replicas for %s: another may lead now, so it does not answer the KEEPALIVE", me, sim.Ticks(p.Raft.Config().ElectionMin))
		default:
			var o outcome
			p.serve(env, &o, from, m)
			p.carry(env, &o)
		}
		return
	}
	op := opOf(m.Kind)
	if op == opNoop {
		env.Explain("%s has no use for %s's %s", me, who, m.Kind)
		return
	}
	if i := p.Service.session(at(m.Data, 0)); i >= 0 && p.Service.Sessions[i].Client == from {
		var o outcome
		p.renew(env, &o, i) // a request keeps its session alive
		p.reply(env, &o)
	}
	cmd := raft.Command{op, int64(from), m.Value, at(m.Data, 0), at(m.Data, 1), at(m.Data, 2)}
	index, sent := r.Propose(env, cmd)
	env.Explain("%s, the leader, logs %s's %s as entry %d of term %d and sends it to %d replicas: it answers once a majority holds it", me, who, m.Kind, index, r.Term, sent)
}

// quorum says a majority of the replicas, the leader included, answered
// its APPENDs within the least election timeout: no other replica can
// have been elected since without one of them.
func (p *Process) quorum(env *sim.Env) bool {
	within := p.Raft.Config().ElectionMin
	n := 1
	for id, at := range p.heard {
		if sim.NodeID(id) != env.Self() && at > 0 && env.Now()-at <= within {
			n++
		}
	}
	return n > p.Config.Replicas/2
}

// sessionTimer is a session's time running out at a replica: the leader
// logs its expiry, which every replica applies.
func (p *Process) sessionTimer(env *sim.Env, tag string) {
	r := &p.Raft
	id, err := strconv.ParseInt(strings.TrimPrefix(tag, timerExpire), 10, 64)
	i := p.Service.session(id)
	if err != nil || i < 0 || r.Role != raft.Leader || env.Now() < p.Service.Sessions[i].Expiry {
		return
	}
	index, _ := r.Propose(env, raft.Command{opExpire, 0, id})
	env.Explain("%s: %s's session %d has had no request for %s; it logs its expiry as entry %d", env.Name(env.Self()), env.Name(p.Service.Sessions[i].Client), id, sim.Ticks(p.Config.Session), index)
}

// Apply applies committed entries to the lock's state, in every replica
// alike, and says what each did; only the leader carries out what they
// ask (answers the clients, times the sessions).
func (p *Process) Apply(env *sim.Env, from, to int) string {
	leads := p.Raft.Role == raft.Leader
	var did []string
	for i := from; i <= to; i++ {
		cmd := p.Raft.Log.At(i).Cmd
		var o outcome
		switch cmd[0] {
		case opNoop:
			continue
		case opExpire:
			if j := p.Service.session(cmd[2]); j >= 0 {
				p.expire(env, &o, j)
			}
		case opCreate, opCheck, opDelete:
			p.serve(env, &o, sim.NodeID(cmd[1]), sim.Message{Kind: opKinds[cmd[0]], Value: cmd[2], Data: cmd[3:]})
		}
		if leads {
			p.reply(env, &o)
		}
		if o.said != "" {
			did = append(did, fmt.Sprintf("entry %d: %s", i, o.said))
		}
	}
	applied := fmt.Sprintf(" and applies entries %d to %d", from, to)
	if from == to {
		applied = fmt.Sprintf(" and applies entry %d", from)
	}
	if len(did) > 0 {
		applied += " (" + strings.Join(did, "; ") + ")"
	}
	return applied
}

// createdAgain answers a CREATE the service has already applied (a client
// that heard nothing asks the next replica again): with its entry, if it
// is still there.
func (p *Process) createdAgain(w world, o *outcome, from sim.NodeID, asked, sentAt int64) {
	s := &p.Service
	me, who := w.Name(w.Self()), w.Name(from)
	i := slices.IndexFunc(s.Entries, func(e Entry) bool { return e.Client == from && e.Asked == asked })
	if i < 0 {
		o.say(w, "%s has applied %s's CREATE #%d before, and its entry is gone: it ignores it", me, who, asked)
		return
	}
	e := s.Entries[i]
	watch := p.watchFor(e)
	p.created(o, e, sentAt, watch)
	o.say(w, "%s has applied %s's CREATE #%d before: it answers again with entry %d: %s", me, who, asked, e.Rev, p.standing(w, e, watch))
}

// replicatedPanels are the lock's panels and the replicas' logs.
func replicatedPanels(v sim.View) []sim.Panel {
	return append(panels(v), raft.Panel(v, fencing.Services(v), func(id sim.NodeID) *raft.Replica { return &process(v, id).Raft }, nil))
}

// replicaOverlays are each replica's role, term and log.
func replicaOverlays(v sim.View) []sim.Overlay {
	return raft.Overlays(v, fencing.Services(v), func(id sim.NodeID) *raft.Replica { return &process(v, id).Raft })
}
