package termination

import (
	"fmt"
	"math/big"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The rules checks hold each step to what the process that took it must
// do, restated from the rules rather than by calling the code they judge
// (the mutation campaign leaves this file alone). They read the process's
// state after its step, the messages it sent and the diagram's marks,
// which tell what it was before: the active interval drawn before the
// step.

// The rules checks' names.
const (
	WorksName  = "a process does its tasks one at a time, each for params.work ticks, and then hands WORK one level down to other processes"
	CountsName = "a process counts the messages it sends, and the root announces termination once, as the diagram draws it"
	// maxQuoted is how many of a queue's depths a check quotes.
	maxQuoted = 3
)

// works holds every process to the computation's rules, which all the
// detectors share. A process is doing a task exactly while the diagram
// draws it active and its work timer is armed, due no later than
// params.work ticks on, and it queues tasks only behind one it is doing.
// At its start the root alone takes a task, of depth 0. A WORK it takes
// makes it do that task now if it was passive, or queues it. When its
// timer ends a task it sends WORK only then, one level deeper than the
// task, to other processes: params.fanout of them for the root's first
// task, at most that many for a later one, none below params.depth; it
// starts its next task, or goes passive and says when. A restart forgets
// every task. No other step starts or ends one.
var works = sim.Invariant{
	Name:  WorksName,
	Help:  "a process is drawn active exactly while it does a task, on a timer of params.work ticks, with more queued only behind it; at its end it sends WORK one level deeper to other processes (params.fanout for the root's first task, at most that for later ones, none at params.depth) and takes the next task or goes passive; a WORK it takes starts a task if it was passive and queues it otherwise; a restart forgets every task",
	Check: check.ProcessRule(checkWorks),
}

func checkWorks(v sim.View, id sim.NodeID, ev sim.Event) string {
	w := work(v, id)
	now := v.Steps() - 1
	was := v.DrawnBefore(id, RoleActive, 0, now)
	due, armed := v.Timer(id, TimerWork)
	switch {
	case len(w.Queue) > 0 && !w.Busy:
		return fmt.Sprintf("has %d task(s) queued and none under way", len(w.Queue))
	case w.Busy != armed || w.Busy && due > v.Now()+w.Work:
		return fmt.Sprintf("is doing a task: %t, with its work timer armed: %t (due at %d)", w.Busy, armed, due)
	case w.Busy != v.Drawn(id, RoleActive, 0):
		return fmt.Sprintf("is doing a task: %t, and drawn active: %t", w.Busy, !w.Busy)
	case w.Busy && (w.Doing < 0 || w.Doing > w.Depth):
		return fmt.Sprintf("is doing a task at depth %d, outside 0 to %d", w.Doing, w.Depth)
	}
	started, finished := false, false
	switch {
	case ev.Kind == sim.Init:
		root := id == Root
		if w.Started != root || w.Busy != root || root && (w.Doing != 0 || len(w.Queue) > 0) {
			return fmt.Sprintf("starts with a task: %t (depth %d, %d queued), begun: %t", w.Busy, w.Doing, len(w.Queue), w.Started)
		}
		started = root
	case ev.Kind == sim.Recover:
		if w.Busy || len(w.Queue) > 0 {
			return fmt.Sprintf("restarts with a task: %t and %d queued", w.Busy, len(w.Queue))
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork:
		depth := int(ev.Msg.Value)
		switch {
		case !w.Started || !w.Busy:
			return fmt.Sprintf("took WORK of depth %d and is doing no task (begun: %t)", depth, w.Started)
		case was && (len(w.Queue) == 0 || w.Queue[len(w.Queue)-1] != depth):
			return fmt.Sprintf("took WORK of depth %d while doing a task, and queues %v", depth, clip(w.Queue))
		case !was && (w.Doing != depth || len(w.Queue) > 0):
			return fmt.Sprintf("took WORK of depth %d while passive, and does a task at depth %d with %d queued", depth, w.Doing, len(w.Queue))
		}
		started = !was
	case ev.Kind == sim.Timer && ev.Tag == TimerWork && was:
		finished = true
		if w.Tasks < 1 {
			return "finished a task and counts none done"
		}
		if w.Busy {
			started = true
		} else if w.PassiveAt != v.Now() {
			return fmt.Sprintf("went passive at %d and says it did at %d", v.Now(), w.PassiveAt)
		}
	case w.Busy != was:
		return fmt.Sprintf("became active: %t, on a %s", w.Busy, ev.Kind)
	}
	if started && due != v.Now()+w.Work {
		return fmt.Sprintf("started a task at depth %d on a timer due at %d, not %s on", w.Doing, due, sim.Ticks(w.Work))
	}
	return checkSpawned(v, id, w, finished)
}

// checkSpawned holds the WORK a process sent at its step to the rules:
// only at the end of a task, one level deeper than the task, to other
// processes, as many as the rules allow, each counted.
func checkSpawned(v sim.View, id sim.NodeID, w *Work, finished bool) string {
	sent := check.SentKind(v, id, KindWork)
	if !finished {
		if len(sent) > 0 {
			return fmt.Sprintf("sent WORK to %s without finishing a task", v.Name(sent[0].To))
		}
		return ""
	}
	// the finished task's depth, where the state still says it: a process
	// that went passive did no task since
	depth := -1
	if !w.Busy {
		depth = w.Doing
	}
	if depth == 0 && w.Depth > 0 && v.N() > 1 && len(sent) == 0 {
		return fmt.Sprintf("finished the first task and sent no WORK, not %d", w.Fanout)
	}
	for _, e := range sent {
		if e.To == id || e.Value < 1 || e.Value > int64(w.Depth) || e.Value != sent[0].Value || depth >= 0 && e.Value != int64(depth+1) {
			return fmt.Sprintf("finished a task (at depth %d, if passive) and sent %s WORK of depth %d, within depth %d", depth, v.Name(e.To), e.Value, w.Depth)
		}
	}
	switch {
	case len(sent) > w.Fanout:
		return fmt.Sprintf("sent %d WORK at the end of a task, more than %d", len(sent), w.Fanout)
	case len(sent) > 0 && sent[0].Value == 1 && len(sent) != w.Fanout:
		return fmt.Sprintf("sent %d WORK at the end of the first task, not %d", len(sent), w.Fanout)
	case w.Spawned < len(sent):
		return fmt.Sprintf("sent %d WORK at this step and counts %d sent in all", len(sent), w.Spawned)
	}
	return ""
}

// clip is a queue as a check quotes it: its first few depths.
func clip(q []int) []int {
	if len(q) > maxQuoted {
		return q[:maxQuoted]
	}
	return q
}

// counts holds what every detector shares: the detector's messages a
// process sends are counted (the figures' control messages), and the root
// alone announces termination, once, drawn at the step it says it did.
var counts = sim.Invariant{
	Name:  CountsName,
	Help:  "every detector message a process sends is in its count, and only the root announces termination, once, at the step it draws the announcement",
	Check: check.ProcessRule(checkCounts),
}

func checkCounts(v sim.View, id sim.NodeID, ev sim.Event) string {
	b := v.Node(id).(detector).base()
	control := 0
	for e := range check.SentThisStep(v, id) {
		if e.Kind != KindWork {
			control++
		}
	}
	if b.Control < control {
		return fmt.Sprintf("sent %d detector message(s) at this step and counts %d in all", control, b.Control)
	}
	first := v.AnnotationStep(id, RoleAnnounce, 0)
	switch marked := check.Marked(v, RoleAnnounce, 0); {
	case marked && (id != Root || !b.Said || b.SaidAt != v.Now() || first != v.Steps()-1):
		return fmt.Sprintf("announced termination (root: %t), remembers it: %t, at %d, first drawn at step %d", id == Root, b.Said, b.SaidAt, first)
	case b.Said && first < 0:
		return "says it announced termination, and the diagram never drew it"
	}
	return ""
}

// TreeName names Dijkstra–Scholten's rules check.
const TreeName = "a process joins the tree under the sender of the WORK that engages it, acknowledges every other WORK at once, and leaves once passive with everything acknowledged"

// tree holds a process to Dijkstra–Scholten's rules: the root is never
// in the tree under a parent; another process is engaged exactly while
// the diagram draws its parent link, under a process other than itself.
// A WORK that reaches a process outside the tree engages it under the
// sender, unacknowledged; every other WORK (to the root, or to a process
// in the tree) is acknowledged at once to its sender. A process leaves
// the tree only passive with nothing unacknowledged, sending one ACK as
// it goes, and sends no ACK at any other step; once a task's end or an
// ACK leaves it passive with nothing unacknowledged, it has left (the
// root: announced termination). (A copied ACK can leave a deficit below
// zero: nothing unacknowledged, all the same.) A restart forgets the
// tree.
var tree = sim.Invariant{
	Name:  TreeName,
	Help:  "WORK to a process outside the tree engages it under the sender, any other WORK is acknowledged at once; a process leaves, with one ACK, only passive with nothing unacknowledged, and has left (the root: announced) once it is; the root has no parent; a restart forgets the tree",
	Check: check.ProcessRule(checkTree),
}

func checkTree(v sim.View, id sim.NodeID, ev sim.Event) string {
	d := v.Node(id).(*DS)
	root := id == Root
	drawn := v.Drawn(id, RoleParent, 0)
	was := !root && v.DrawnBefore(id, RoleParent, 0, v.Steps()-1)
	acks := check.SentKind(v, id, KindAck)
	switch {
	case root && (d.Engaged || d.Parent != sim.None || drawn):
		return fmt.Sprintf("is the root and in the tree (engaged: %t, drawn: %t)", d.Engaged, drawn)
	case d.Engaged != drawn || d.Engaged != (d.Parent != sim.None) || d.Parent == id:
		return fmt.Sprintf("is engaged: %t, under %s, drawn under a parent: %t", d.Engaged, nameOf(v, d.Parent), drawn)
	case ev.Kind == sim.Recover && (d.Engaged || d.Deficit != 0):
		return fmt.Sprintf("restarts engaged: %t, with %d WORK unacknowledged", d.Engaged, d.Deficit)
	}
	switch {
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork && (root || was):
		if len(acks) != 1 || acks[0].To != ev.From || !root && !d.Engaged {
			return fmt.Sprintf("took WORK from %s in the tree, and sent %d ACK(s) (engaged now: %t)", v.Name(ev.From), len(acks), d.Engaged)
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork:
		if len(acks) > 0 || !d.Engaged || d.Parent != ev.From {
			return fmt.Sprintf("took WORK from %s outside the tree, joined under %s, and sent %d ACK(s)", v.Name(ev.From), nameOf(v, d.Parent), len(acks))
		}
	case was && !d.Engaged:
		if d.Active() || d.Deficit > 0 || len(acks) != 1 || acks[0].To == id {
			return fmt.Sprintf("left the tree active: %t, with %d WORK unacknowledged, sending %d ACK(s)", d.Active(), d.Deficit, len(acks))
		}
	case len(acks) > 0:
		return fmt.Sprintf("sent an ACK to %s on a %s, neither taking WORK nor leaving the tree", v.Name(acks[0].To), ev.Kind)
	}
	settled := ev.Kind == sim.Timer && ev.Tag == TimerWork || ev.Kind == sim.Deliver && ev.Msg.Kind == KindAck
	if settled && !d.Active() && d.Deficit <= 0 && (root && !d.Said || !root && d.Engaged) {
		return "is passive with everything acknowledged, and has neither left the tree nor announced termination"
	}
	return ""
}

// nameOf names a process, or says none.
func nameOf(v sim.View, id sim.NodeID) string {
	if id < 0 || int(id) >= v.N() {
		return "none"
	}
	return v.Name(id)
}

// PollName names the naive detector's rules check.
const PollName = "the root, passive, asks every process whether it is idle; each answers truly, and the root decides on the last answer"

// poll holds a process to the naive detector's rules. Any process
// answers a PROBE once, to its sender, with the PROBE's round: IDLE if
// it is passive, BUSY if not, with its counts of WORK sent and received
// when the answers count them; it answers nothing else. The root, once a
// task's end leaves it passive, asks on a timer a tick later; when that
// timer fires and it is passive, it starts the next round with a PROBE
// to every other process and its totals reset to its own counts, and it
// sends PROBEs at no other step. An answer of its round adds to its
// round's count and totals (a BUSY makes the round not all idle); on the
// last one it announces termination if everyone said idle and it is
// passive (and the counts agree, when it counts them), and otherwise
// asks again three ticks later. It announces at no other step.
var poll = sim.Invariant{
	Name:  PollName,
	Help:  "a PROBE gets one true answer (IDLE or BUSY, with the counts when they are counted), in its round; the passive root asks every other process on its timer, counts the answers of its round, and on the last announces (everyone idle, itself passive, the counts agreeing) or asks again; nothing else sends a PROBE, an answer or an announcement",
	Check: check.ProcessRule(checkPoll),
}

func checkPoll(v sim.View, id sim.NodeID, ev sim.Event) string {
	q := v.Node(id).(*Poll)
	if detail := checkAnswer(v, id, ev, q); detail != "" {
		return detail
	}
	if id != Root {
		return ""
	}
	announced := check.Marked(v, RoleAnnounce, 0)
	saidBefore := q.Said && !announced
	due, armed := v.Timer(id, TimerPoll)
	probes := check.SentKind(v, id, KindProbe)
	answer := ev.Kind == sim.Deliver && (ev.Msg.Kind == KindIdle || ev.Msg.Kind == KindBusy) && ev.Msg.Value == q.Round && !saidBefore
	switch {
	case ev.Kind == sim.Timer && ev.Tag == TimerPoll && !q.Active() && !saidBefore:
		if !check.ToEveryOther(probes, id, v.N()) || q.Round < 1 || q.Answers != 0 || !q.AllIdle || q.Sent != q.Spawned || q.Got != q.Received {
			return fmt.Sprintf("started round %d with %d PROBE(s), %d answers, all idle: %t, totals %d/%d of its %d/%d", q.Round, len(probes), q.Answers, q.AllIdle, q.Sent, q.Got, q.Spawned, q.Received)
		}
		for _, e := range probes {
			if e.Value != q.Round {
				return fmt.Sprintf("started round %d with a PROBE of round %d", q.Round, e.Value)
			}
		}
	case len(probes) > 0:
		return fmt.Sprintf("sent a PROBE on a %s, active: %t, announced before: %t", ev.Kind, q.Active(), saidBefore)
	case ev.Kind == sim.Timer && ev.Tag == TimerWork && !q.Active() && !saidBefore && (!armed || due != v.Now()+1):
		return fmt.Sprintf("went passive and asks at %d (armed: %t), not a tick later", due, armed)
	case answer:
		return checkRoundAnswer(v, ev, q, due, armed)
	case announced:
		return fmt.Sprintf("announced termination on a %s, not on an answer of its round", ev.Kind)
	}
	return ""
}

// checkAnswer holds a process to answering each PROBE truly, and
// nothing else.
func checkAnswer(v sim.View, id sim.NodeID, ev sim.Event, q *Poll) string {
	answers := append(check.SentKind(v, id, KindIdle), check.SentKind(v, id, KindBusy)...)
	if ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork && q.Received < 1 {
		return fmt.Sprintf("took WORK and counts %d received", q.Received)
	}
	if ev.Kind != sim.Deliver || ev.Msg.Kind != KindProbe {
		if len(answers) > 0 {
			return fmt.Sprintf("answered %s on a %s, not a PROBE", answers[0].Kind, ev.Kind)
		}
		return ""
	}
	want := KindIdle
	if q.Active() {
		want = KindBusy
	}
	if len(answers) != 1 || answers[0].To != ev.From || answers[0].Kind != want || answers[0].Value != ev.Msg.Value {
		return fmt.Sprintf("answered %s's PROBE of round %d with %d answer(s), active: %t", v.Name(ev.From), ev.Msg.Value, len(answers), q.Active())
	}
	if d := answers[0].Data; q.Count != (len(d) == 2) || q.Count && (d[0] != int64(q.Spawned) || d[1] != int64(q.Received)) {
		return fmt.Sprintf("answered with counts %v, having sent %d WORK and received %d (counting: %t)", d, q.Spawned, q.Received, q.Count)
	}
	return ""
}

// checkRoundAnswer holds the root to counting an answer of its round and
// deciding on the last.
func checkRoundAnswer(v sim.View, ev sim.Event, q *Poll, due sim.Time, armed bool) string {
	if q.Answers < 1 || ev.Msg.Kind == KindBusy && q.AllIdle {
		return fmt.Sprintf("took %s from %s and counts %d answers, all idle: %t", ev.Msg.Kind, v.Name(ev.From), q.Answers, q.AllIdle)
	}
	if d := ev.Msg.Data; q.Count && len(d) == 2 && (int64(q.Sent) < d[0] || int64(q.Got) < d[1]) {
		return fmt.Sprintf("took an answer counting %d/%d and totals %d/%d", d[0], d[1], q.Sent, q.Got)
	}
	last := q.Answers >= v.N()-1
	decide := last && q.AllIdle && !q.Active() && (!q.Count || q.Sent == q.Got)
	switch {
	case q.Said != decide:
		return fmt.Sprintf("announced: %t, with %d of %d answers, all idle: %t, active: %t, totals %d/%d", q.Said, q.Answers, v.N()-1, q.AllIdle, q.Active(), q.Sent, q.Got)
	case last && !decide && (!armed || due != v.Now()+3):
		return fmt.Sprintf("had its last answer, did not announce, and asks again at %d (armed: %t), not three ticks later", due, armed)
	}
	return ""
}

// The credit schemes' rules checks' names.
const (
	CreditName = "a process halves its credit for each WORK it sends, holds one share while active, returns the rest to the root, and the root announces when it has 1 back"
	UnitsName  = "a process gives a unit with each WORK while it has one, returns its units when it goes passive, and the root announces when it has them all back"
)

// credits holds a process to credit recovery's rules. A process holds
// credit exactly while it is active (by seed 003's rule a passive one
// may keep what comes back), keeps shares beyond its own only while it
// holds one, and the root alone starts with credit, all of it. Each WORK it sends carries half of what it held: the shares of one
// step's WORK halve one after the other, and it keeps the last. A WORK
// that reaches a passive process gives it its share, under the sender;
// one that reaches an active process is returned at once, to the root
// (by the root, kept). A process returns its share to the root when it
// goes passive (by seed 003's rule, everything to its parent), and
// returns credit at no other step. The root announces termination once a
// task's end or a share back leaves it passive with exactly 1 back, and
// at no other step. A restart loses the credit held.
var credits = sim.Invariant{
	Name:  CreditName,
	Help:  "an active process holds credit and a passive one none; each WORK carries half what its sender held; WORK to an active process is returned at once, and a process returns its share when it goes passive, at no other step; the root announces once it is passive with exactly 1 back",
	Check: check.ProcessRule(checkCredit),
}

func checkCredit(v sim.View, id sim.NodeID, ev sim.Event) string {
	c := v.Node(id).(*Credit)
	root := id == Root
	was := v.DrawnBefore(id, RoleActive, 0, v.Steps()-1)
	works := check.SentKind(v, id, KindWork)
	back := check.SentKind(v, id, KindCredit)
	switch {
	case c.Active() && !c.Holds || !c.SeedParent && !c.Active() && c.Holds || !c.Holds && len(c.kept) > 0:
		return fmt.Sprintf("is active: %t, holds credit: %t, and keeps %d share(s) more", c.Active(), c.Holds, len(c.kept))
	case ev.Kind == sim.Init && root && (c.Exp != 0 || c.returned == nil || c.returned.num.Sign() != 0):
		return fmt.Sprintf("is the root and starts with credit 2^-%d and some back already", c.Exp)
	case ev.Kind == sim.Recover && (c.Holds || len(c.kept) > 0):
		return "restarts holding credit"
	}
	for i, e := range works {
		if len(e.Data) != 1 || e.Data[0] != works[0].Data[0]+int64(i) || e.Data[0] < 1 || e.Data[len(e.Data)-1] != int64(c.Exp) && i == len(works)-1 {
			return fmt.Sprintf("sent WORK with credit %v, the %d. of %d this step, and keeps 2^-%d", e.Data, i+1, len(works), c.Exp)
		}
	}
	to := Root
	if c.SeedParent {
		to = c.Parent
	}
	passive := ev.Kind == sim.Timer && ev.Tag == TimerWork && was && !c.Active()
	work := ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork
	switch {
	case work && !c.SeedParent && !was:
		if len(ev.Msg.Data) == 0 || c.Exp != int(ev.Msg.Data[0]) || c.Parent != ev.From || len(back) > 0 {
			return fmt.Sprintf("took WORK with credit %v from %s while passive, and holds 2^-%d from %s, returning %d share(s)", ev.Msg.Data, v.Name(ev.From), c.Exp, nameOf(v, c.Parent), len(back))
		}
	case work && !c.SeedParent && !root:
		if len(back) != 1 || back[0].To != Root || len(ev.Msg.Data) == 0 || back[0].Value != ev.Msg.Data[0] {
			return fmt.Sprintf("took WORK with credit %v while active, and returned %d share(s)", ev.Msg.Data, len(back))
		}
	case passive && !root:
		if len(back) < 1 || back[0].To != to || back[0].Value != int64(c.Exp) || !c.SeedParent && len(back) != 1 {
			return fmt.Sprintf("went passive holding 2^-%d and returned %d share(s), the first to %s", c.Exp, len(back), nameOf(v, toOf(back)))
		}
	case len(back) > 0:
		return fmt.Sprintf("returned credit to %s on a %s, neither going passive nor taking WORK while active", v.Name(back[0].To), ev.Kind)
	}
	if !root {
		return ""
	}
	back1 := c.returned != nil && whole(c.returned)
	announced := check.Marked(v, RoleAnnounce, 0)
	settled := passive || ev.Kind == sim.Deliver && ev.Msg.Kind == KindCredit
	switch {
	case announced && (!back1 || c.Active()):
		return fmt.Sprintf("announced termination with %s back, active: %t", c.returned, c.Active())
	case settled && back1 && !c.Active() && !c.Said:
		return "is passive with all its credit back and has not announced termination"
	}
	return ""
}

// toOf is where the first of msgs went, or nowhere.
func toOf(msgs []sim.Envelope) sim.NodeID {
	if len(msgs) == 0 {
		return sim.None
	}
	return msgs[0].To
}

// whole says d is exactly 1: its numerator is 2 to its exponent.
func whole(d *dyadic) bool {
	var one big.Int
	one.Lsh(big.NewInt(1), uint(d.exp))
	return d.num.Cmp(&one) == 0
}

// units holds a process to the whole-unit scheme's rules. The root
// starts with params.credit units and every other process with none; a
// passive process other than the root holds none, and a restart loses
// what was held. Each WORK takes a unit from its sender while it has
// one, and goes without once it has none (which it counts); a WORK taken
// gives its receiver its unit. A process other than the root returns
// everything it holds, in one CREDIT to the root, when it goes passive,
// and at no other step. The root adds what comes back, and announces
// termination once a task's end or a CREDIT leaves it passive with
// every unit back, and at no other step.
var unitsRule = sim.Invariant{
	Name:  UnitsName,
	Help:  "the root starts with params.credit units; each WORK takes a unit from its sender while it has one; a passive process other than the root holds none, returning all it has in one CREDIT when it goes passive and at no other step; the root announces once it is passive with every unit back",
	Check: check.ProcessRule(checkUnits),
}

func checkUnits(v sim.View, id sim.NodeID, ev sim.Event) string {
	c := v.Node(id).(*IntegerCredit)
	root := id == Root
	works := check.SentKind(v, id, KindWork)
	back := check.SentKind(v, id, KindCredit)
	start := int64(0)
	if root {
		start = c.Total
	}
	switch {
	case c.Units < 0 || ev.Kind == sim.Init && c.Units != start || ev.Kind == sim.Recover && c.Units != 0:
		return fmt.Sprintf("holds %d units after its %s", c.Units, ev.Kind)
	case !root && !c.Active() && c.Units != 0:
		return fmt.Sprintf("is passive and holds %d units", c.Units)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork && len(ev.Msg.Data) > 0 && c.Units < ev.Msg.Data[0]:
		return fmt.Sprintf("took WORK with %d unit(s) and holds %d", ev.Msg.Data[0], c.Units)
	}
	without := 0
	for i, e := range works {
		if len(e.Data) != 1 || e.Data[0] < 0 || e.Data[0] > 1 || i > 0 && e.Data[0] > works[i-1].Data[0] {
			return fmt.Sprintf("sent WORK with units %v, the %d. of %d this step", e.Data, i+1, len(works))
		}
		without += int(1 - e.Data[0])
	}
	if without > 0 && (c.Units != 0 || c.Without < without) {
		return fmt.Sprintf("sent %d WORK without a unit, holds %d, and counts %d sent without", without, c.Units, c.Without)
	}
	passive := ev.Kind == sim.Timer && ev.Tag == TimerWork && v.DrawnBefore(id, RoleActive, 0, v.Steps()-1) && !c.Active()
	switch {
	case len(back) > 0 && (!passive || root || len(back) > 1 || back[0].To != Root || back[0].Value < 1):
		return fmt.Sprintf("returned %d unit(s) to %s on a %s (went passive: %t)", back[0].Value, v.Name(back[0].To), ev.Kind, passive)
	case !root:
		return ""
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindCredit && c.Returned < ev.Msg.Value:
		return fmt.Sprintf("took %d unit(s) back and has %d back in all", ev.Msg.Value, c.Returned)
	}
	all := c.Units+c.Returned == c.Total
	settled := passive || ev.Kind == sim.Deliver && ev.Msg.Kind == KindCredit
	switch {
	case check.Marked(v, RoleAnnounce, 0) && (!all || c.Active()):
		return fmt.Sprintf("announced termination with %d of %d units, active: %t", c.Units+c.Returned, c.Total, c.Active())
	case settled && all && !c.Active() && !c.Said:
		return "is passive with every unit back and has not announced termination"
	}
	return ""
}

// SnapsName names the snapshot detector's rules check.
const SnapsName = "a process records its state and every channel into it by the marker rule and reports its part once; the root adds the parts up and announces on a snapshot that records nothing active"

// snaps holds a process to the snapshot detector's rules. A process that
// records snapshot k (the root at its timer, passive, with no snapshot
// under way and none announced; any other at its first marker of k)
// records its state as it is, draws it, and sends a marker of k to every
// other process, at that step only. A marker it takes finds its
// snapshot recorded and drawn, and closes its channel; a WORK it takes
// on a channel of a snapshot recorded and not yet closed is recorded
// there, and drawn so, and on no other. A part is done exactly when it is
// recorded with every channel closed; when a step (recording, or a
// marker not copied) makes it so, a process other than the root reports
// its state and channels to the root, and the root adds its own; no other
// step sends a REPORT. The root's result of a snapshot is the sum of the
// parts in, complete once all are; on completing it the root announces
// if it records every process passive and every channel empty, and
// otherwise, if passive, takes another three ticks later. The root asks
// for a snapshot a tick after a task's end leaves it passive, unless one
// is under way or termination is announced; its timer is armed exactly
// while it says so, and never while a snapshot is under way or after it
// announced.
var snaps = sim.Invariant{
	Name:  SnapsName,
	Help:  "recording snapshot k (the root on its timer, another at its first marker) draws the state and sends a marker of k to every other process; a WORK on a channel still recorded is recorded; a part done (recorded, every channel closed) is reported once; the root sums the parts and announces on a complete snapshot with nothing active and nothing in the channels, or takes another",
	Check: check.ProcessRule(checkSnaps),
}

func checkSnaps(v sim.View, id sim.NodeID, ev sim.Event) string {
	s := v.Node(id).(*Snap)
	recorded, detail := checkRecords(v, id, ev, s)
	if detail != "" {
		return detail
	}
	// the rounds this step touched: the one recorded, the marker's
	marker := 0
	if ev.Kind == sim.Deliver && ev.Msg.Kind == KindMarker && ev.Msg.Value >= 1 {
		marker = int(ev.Msg.Value)
	}
	for _, k := range [...]int{recorded, marker} {
		if k < 1 || k > len(s.Rounds) {
			continue
		}
		if r := &s.Rounds[k-1]; r.Done != snapshot.Done(&r.Part, id) {
			return fmt.Sprintf("has its part of snapshot %d done: %t, recorded: %t, with channels closed %v", k, r.Done, r.Recorded, r.Closed)
		}
	}
	// a marker that is no copy of one taken closes a channel: if the
	// part is done now, this step finished it
	reports := check.SentKind(v, id, KindReport)
	if id != Root && marker >= 1 && marker <= len(s.Rounds) && s.Rounds[marker-1].Done && check.CopyDelivered(v, id, ev.MsgID) < 0 {
		r := &s.Rounds[marker-1]
		if len(reports) != 1 || reports[0].To != Root || reports[0].Value != int64(marker) || len(reports[0].Data) != 2 || reports[0].Data[0] != activeOf(r.Active) || reports[0].Data[1] != int64(r.InChannel) {
			return fmt.Sprintf("finished its part of snapshot %d (active: %t, %d WORK in its channels) and sent %d REPORT(s): %v", marker, r.Active, r.InChannel, len(reports), check.Data(reports))
		}
	} else if len(reports) > 0 {
		return fmt.Sprintf("sent a REPORT of snapshot %d on a %s, not finishing its part", reports[0].Value, ev.Kind)
	}
	if id != Root {
		return ""
	}
	return checkRootSnaps(v, ev, s)
}

// activeOf is a recorded state as a REPORT says it.
func activeOf(active bool) int64 {
	if active {
		return 1
	}
	return 0
}

// checkRecords holds a process to recording by the marker rule, and
// says which snapshot it recorded at this step (0: none).
func checkRecords(v sim.View, id sim.NodeID, ev sim.Event, s *Snap) (int, string) {
	detail := checkRecorded(v, id, ev, s)
	for _, a := range v.LastAnnotations() {
		if a.Role == RoleRecorded {
			return a.Group, detail
		}
	}
	return 0, detail
}

// checkRecorded is checkRecords' judgement.
func checkRecorded(v sim.View, id sim.NodeID, ev sim.Event, s *Snap) string {
	now := v.Steps() - 1
	markers := check.SentKind(v, id, KindMarker)
	recorded := 0
	for _, a := range v.LastAnnotations() {
		if a.Role == RoleRecorded {
			recorded = a.Group
		}
	}
	switch {
	case recorded > 0:
		if recorded > len(s.Rounds) || !s.Rounds[recorded-1].Recorded || s.Rounds[recorded-1].Active != s.Active() || !check.ToEveryOther(markers, id, v.N()) {
			return fmt.Sprintf("drew its state recorded for snapshot %d of %d, and sent %d marker(s)", recorded, len(s.Rounds), len(markers))
		}
		for _, e := range markers {
			if e.Value != int64(recorded) {
				return fmt.Sprintf("recorded snapshot %d and sent a marker of snapshot %d", recorded, e.Value)
			}
		}
		if v.AnnotationStep(id, RoleRecorded, recorded) != now {
			return fmt.Sprintf("recorded snapshot %d a second time", recorded)
		}
	case len(markers) > 0:
		return fmt.Sprintf("sent a marker of snapshot %d without recording it", markers[0].Value)
	}
	switch {
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindMarker && ev.Msg.Value >= 1:
		k := int(ev.Msg.Value)
		first := v.AnnotationStep(id, RoleRecorded, k)
		if k > len(s.Rounds) || !s.Rounds[k-1].Recorded || !s.Rounds[k-1].Closed[ev.From] || first < 0 || recorded > 0 && recorded != k {
			return fmt.Sprintf("took %s's marker of snapshot %d, and has recorded it: %t (drawn at step %d), its channel closed", v.Name(ev.From), k, k <= len(s.Rounds) && s.Rounds[k-1].Recorded, first)
		}
	case recorded > 0 && !(ev.Kind == sim.Timer && ev.Tag == TimerSnapshot && id == Root):
		return fmt.Sprintf("recorded snapshot %d on a %s, neither its first marker nor the root's timer", recorded, ev.Kind)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindWork:
		for k := range s.Rounds {
			r := &s.Rounds[k]
			haloed := false
			for _, a := range v.LastAnnotations() {
				haloed = haloed || a.Role == RoleInChannel && a.Group == k+1 && a.Msg == ev.MsgID
			}
			// recorded before this WORK and the channel still open
			if open := r.Recorded && !r.Closed[ev.From]; haloed != open || open && r.InChannel < 1 {
				return fmt.Sprintf("took WORK from %s while recording that channel for snapshot %d: %t, drew it recorded: %t, and counts %d recorded", v.Name(ev.From), k+1, open, haloed, r.InChannel)
			}
		}
	}
	return ""
}

// checkRootSnaps holds the root to starting snapshots and reading them.
func checkRootSnaps(v sim.View, ev sim.Event, s *Snap) string {
	due, armed := v.Timer(Root, TimerSnapshot)
	if s.Scheduled != armed {
		return fmt.Sprintf("says its snapshot timer is armed: %t, and it is: %t", s.Scheduled, armed)
	}
	saidBefore := s.Said && !check.Marked(v, RoleAnnounce, 0)
	last := len(s.Results) - 1
	underWay := last >= 0 && !s.Results[last].Complete
	if armed && (underWay || s.Said) {
		return fmt.Sprintf("has its snapshot timer armed with snapshot %d under way: %t, termination announced: %t", len(s.Results), underWay, s.Said)
	}
	if len(s.Results) != len(s.Rounds) {
		return fmt.Sprintf("has %d results of %d snapshots recorded", len(s.Results), len(s.Rounds))
	}
	switch {
	case ev.Kind == sim.Timer && ev.Tag == TimerSnapshot:
		// it takes one only passive, not announced, with none under
		// way before, the next by number, with no part in yet
		started := last >= 0 && v.AnnotationStep(Root, RoleRecorded, len(s.Rounds)) == v.Steps()-1
		before := last
		if started {
			before--
		}
		should := !s.Active() && !saidBefore && (before < 0 || s.Results[before].Complete)
		if started != should || started && (s.Results[last].Round != len(s.Rounds) || s.Results[last].Reports != 0) {
			return fmt.Sprintf("took snapshot %d at its timer: %t, active: %t, the one before complete: %t", len(s.Rounds), started, s.Active(), before < 0 || s.Results[before].Complete)
		}
	case ev.Kind == sim.Timer && ev.Tag == TimerWork && !s.Active() && !saidBefore && !underWay && (!armed || due != v.Now()+1):
		return fmt.Sprintf("went passive and takes its next snapshot at %d (armed: %t), not a tick later", due, armed)
	}
	if last < 0 {
		return ""
	}
	r := &s.Results[last]
	active, inChannel, reports := 0, 0, 0
	for p, in := range r.From {
		if in {
			part := &v.Node(sim.NodeID(p)).(*Snap).Rounds[r.Round-1]
			reports++
			active += int(activeOf(part.Active))
			inChannel += part.InChannel
		}
	}
	switch {
	case r.Reports != reports || r.Active != active || r.InChannel != inChannel:
		return fmt.Sprintf("adds up snapshot %d as %d parts, %d active, %d WORK in channels; its parts say %d, %d, %d", r.Round, r.Reports, r.Active, r.InChannel, reports, active, inChannel)
	case r.Complete != (reports == v.N()):
		return fmt.Sprintf("has %d of %d parts of snapshot %d, complete: %t", reports, v.N(), r.Round, r.Complete)
	}
	clear := r.Complete && r.Active == 0 && r.InChannel == 0
	completed := r.Complete && (ev.Kind == sim.Deliver && ev.Msg.Kind == KindReport && ev.Msg.Value == int64(r.Round) && check.CopyDelivered(v, Root, ev.MsgID) < 0 ||
		ev.Kind == sim.Deliver && ev.Msg.Kind == KindMarker && ev.Msg.Value == int64(r.Round) && check.CopyDelivered(v, Root, ev.MsgID) < 0)
	switch {
	case check.Marked(v, RoleAnnounce, 0) && !clear:
		return fmt.Sprintf("announced termination on snapshot %d, complete: %t, %d active, %d WORK in channels", r.Round, r.Complete, r.Active, r.InChannel)
	case completed && clear && !s.Said:
		return fmt.Sprintf("completed snapshot %d with nothing active and nothing in the channels, and did not announce", r.Round)
	case completed && !clear && !s.Active() && !saidBefore && (!armed || due != v.Now()+3):
		return fmt.Sprintf("completed snapshot %d, not terminated, and takes the next at %d (armed: %t), not three ticks later", r.Round, due, armed)
	}
	return ""
}
