package checkpoint

import (
	"fmt"
	"slices"
	"strconv"

	"spacetime/core/sim"
)

// The invariants' names.
const (
	ConsistentName = "the recovery line is consistent"
	NoLostName     = "a global checkpoint loses no message"
	InTransitName  = "a global checkpoint holds what was in transit at its cut"
	RecoveryName   = "a recovery runs to its end"
	RoundName      = "a global checkpoint under way completes"
	ScheduleName   = "the next checkpoint is always due"
	DroppedName    = "a message is dropped only for a reason"
)

func proc(v sim.View, id sim.NodeID) *Proc { return v.Node(id).(*Proc) }

// consistentLine checks each recovery line against the trace, not against
// the processes' counts. A process's state at its point is what it
// restored at its last restore (checked by that recovery) and what it
// took since, up to its point, with, at a global checkpoint, what it
// recorded in channels. No message taken since the receiver's last
// restore may have been sent after its sender's last restore and after
// its sender's point.
var consistentLine = sim.Invariant{
	Name:  ConsistentName,
	Help:  "when process 1 settles a recovery line, no message on the diagram that a point on it took (since that process last restored) was sent after its sender's point (an orphan)",
	Check: func(v sim.View) sim.Verdict { return checkLine(v, true, false) },
}

// checkLine is consistentLine's check. With window, it visits only the
// messages made since the earliest of the line's last restores and the
// starts of its global checkpoints, which alone can decide: the check
// then costs what happened since, not the whole run. With sentAfter, it
// lists instead every message sent after its sender's last restore and
// point, and (as negative numbers) each channel's marker and when it came,
// which is all the check reads of the messages, for a test to compare.
func checkLine(v sim.View, window, sentAfter bool) sim.Verdict {
	settled := false
	for _, a := range v.LastAnnotations() {
		settled = settled || a.Role == RoleLine
	}
	r := proc(v, Manager).rec
	if !settled || r == nil {
		return sim.Verdict{OK: true}
	}
	since, at, rounds := lineSteps(v, r)
	from := 0
	if window {
		from = v.SentFrom(earliest(v, since, rounds))
	}
	// a point of a global checkpoint also holds what it recorded in
	// channels: what it took after its point, before that channel's marker
	markerAt := map[[2]sim.NodeID]int{}
	var found []int
	for id := from; id < v.NumSent(); id++ {
		m := v.Envelope(id)
		if m.Kind == KindMarker && rounds[m.To] > 0 && int(m.Value) == rounds[m.To] && m.RecvStep >= 0 {
			markerAt[[2]sim.NodeID{m.From, m.To}] = m.RecvStep
		}
	}
	for id := from; id < v.NumSent(); id++ {
		m := v.Envelope(id)
		if m.Kind != KindMsg || m.Original != m.ID || m.SendStep <= since[m.From] || m.SendStep <= at[m.From] {
			continue
		}
		if sentAfter {
			found = append(found, id)
			continue
		}
		if m.RecvStep <= since[m.To] {
			continue
		}
		marker, recorded := markerAt[[2]sim.NodeID{m.From, m.To}]
		taken := m.RecvStep <= at[m.To] || (recorded && m.RecvStep < marker)
		if taken && v.AnnotationSteps(RoleIgnored, id)[m.To] < 0 {
			return sim.Verdict{Msgs: []int{id},
				Detail: fmt.Sprintf("message %s from %s to %s is taken in %s's state on the line and sent after %s's point: an orphan", m.Label, v.Name(m.From), v.Name(m.To), v.Name(m.To), v.Name(m.From))}
		}
	}
	if sentAfter {
		for ch, step := range markerAt {
			found = append(found, -(step*v.N()*v.N()+int(ch[0])*v.N()+int(ch[1]))-1)
		}
		slices.Sort(found)
	}
	return sim.Verdict{OK: true, Msgs: found}
}

// earliest is the first step that can matter to a line: the earliest of
// its processes' last restores (a message sent before its sender's is not
// on the line) and of the starts of its global checkpoints (whose markers
// all follow process 1's checkpoint of the round), or 0 when a start is
// no longer known.
func earliest(v sim.View, since, rounds []int) int {
	step := slices.Min(since)
	for _, round := range rounds {
		if round == 0 {
			continue
		}
		start := -1
		for _, c := range proc(v, Manager).Checkpoints {
			if c.Round == round {
				start = v.AnnotationSteps(RoleSaved, c.ID)[Manager]
			}
		}
		if start < 0 {
			return 0
		}
		step = min(step, start)
	}
	return max(step, 0)
}

// lineSteps finds, for each process on recovery r's line, the step of its
// last restore (its oldest candidate, a base), the step of its point, and
// its point's global checkpoint (0 for none).
func lineSteps(v sim.View, r *recovery) (since, at, rounds []int) {
	n := v.N()
	since, at, rounds = make([]int, n), make([]int, n), make([]int, n)
	found := map[int][]int{}
	step := func(j, id int) int {
		if _, ok := found[id]; !ok {
			found[id] = v.AnnotationSteps(RoleSaved, id)
		}
		return found[id][j]
	}
	for j, k := range r.Line {
		c := r.Cands[j][k]
		since[j], at[j] = step(j, r.Cands[j][0].ID), step(j, c.ID)
		if !c.Base {
			rounds[j] = c.Round
		}
	}
	return since, at, rounds
}

// linePoints are recovery r's points: the checkpoint of each process on
// the line, where it was saved.
func linePoints(r *recovery) []sim.LinePoint {
	pts := make([]sim.LinePoint, len(r.Line))
	for j, k := range r.Line {
		pts[j] = sim.LinePoint{Node: sim.NodeID(j), Role: RoleSaved, Group: r.Cands[j][k].ID}
	}
	return pts
}

// noLostMessage is coordinated checkpointing's promise: its channel states
// hold every message in transit at the cut, so a restore loses none.
var noLostMessage = sim.Invariant{
	Name: NoLostName,
	Help: "with coordinated checkpoints taken with markers, every message sent before a restored global checkpoint is in it: taken before the cut or recorded as channel state (the two-phase protocol records no channel state, and promises no such thing)",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			p := proc(v, sim.NodeID(i))
			if p.params.Coordinated && !p.params.TwoPhase && p.LostMsgs > 0 {
				return sim.Verdict{Detail: fmt.Sprintf("%s lost %d message(s) when it restored a global checkpoint", v.Name(sim.NodeID(i)), p.LostMsgs)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// inTransitHeld is the marker rule's promise, checked on every global
// checkpoint the moment its last part is kept, crash or not, rather than
// only when a recovery restores it: what each part took from q, before
// its point or recorded as that channel's state, is exactly what q's part
// had sent it. Fewer is a message a restore would lose (a part kept before
// its channel's marker came); more, one it would take twice.
var inTransitHeld = sim.Invariant{
	Name:  InTransitName,
	Help:  "with coordinated checkpoints taken with markers, once every process has kept its part of a global checkpoint, each part holds every message the others' parts had sent it: taken before its point, or recorded as the channel's state, and none twice",
	Check: checkInTransit,
}

func checkInTransit(v sim.View) sim.Verdict {
	if ps := proc(v, Manager).params; !ps.Coordinated || ps.TwoPhase {
		return sim.Verdict{OK: true}
	}
	// the latest global checkpoint every process has kept: the ones
	// before it were checked when they were
	g := 0
	for i := range v.N() {
		last := lastKept(proc(v, sim.NodeID(i)))
		if last == 0 {
			return sim.Verdict{OK: true}
		}
		if g == 0 || last < g {
			g = last
		}
	}
	for j := range v.N() {
		to := partOf(proc(v, sim.NodeID(j)), g)
		if to == nil {
			return sim.Verdict{OK: true} // forgotten by a restore since
		}
		for q := range v.N() {
			from := partOf(proc(v, sim.NodeID(q)), g)
			if q == j || from == nil {
				continue
			}
			sent, held := from.Sent[j], to.Recv[q]+to.Channel[q]
			switch {
			case held < sent:
				return sim.Verdict{Detail: fmt.Sprintf("%s's part of global checkpoint %d holds %d of the %d messages %s's part had sent it: a restore would lose %d", v.Name(sim.NodeID(j)), g, held, sent, v.Name(sim.NodeID(q)), sent-held)}
			case held > sent:
				return sim.Verdict{Detail: fmt.Sprintf("%s's part of global checkpoint %d holds %d messages from %s, whose part had sent it %d: a restore would take %d twice, or one never sent", v.Name(sim.NodeID(j)), g, held, v.Name(sim.NodeID(q)), sent, held-sent)}
			}
		}
	}
	return sim.Verdict{OK: true}
}

// lastKept is the global checkpoint the process kept last, 0 if none
// since its last restore.
func lastKept(p *Proc) int {
	for k := len(p.Checkpoints) - 1; k >= 0; k-- {
		if r := p.Checkpoints[k].Round; r > 0 {
			return r
		}
	}
	return 0
}

// partOf is the process's kept part of global checkpoint g, or nil.
func partOf(p *Proc, g int) *Checkpoint {
	for k := len(p.Checkpoints) - 1; k >= 0; k-- {
		if p.Checkpoints[k].Round == g {
			return &p.Checkpoints[k]
		}
	}
	return nil
}

// recoveryEnds is the recovery's liveness, read off the world rather than
// off process 1's bookkeeping: while a process is stopped for recovery,
// something must be on its way to move the recovery on. A process stopped
// with no recovery message in flight, no process down or paused (whose
// restart or waking brings one), and no rollback of process 1's armed, is
// stopped for good.
var recoveryEnds = sim.Invariant{
	Name:  RecoveryName,
	Help:  "while a process is stopped for recovery, something moves the recovery on: a recovery message on its way (FAILED, REQUEST, INFO, ROLLBACK, RESTORED, RESUME), a process down or paused, or process 1's next rollback armed",
	Check: checkRecoveryEnds,
}

// recoveryKinds are the messages that move a recovery on.
var recoveryKinds = []string{KindFailed, KindRequest, KindInfo, KindRollback, KindRestored, KindResume}

func checkRecoveryEnds(v sim.View) sim.Verdict {
	stopped := sim.NodeID(sim.None)
	for i := range v.N() {
		id := sim.NodeID(i)
		switch {
		case v.Health(id) != sim.Up:
			return sim.Verdict{OK: true}
		case stopped == sim.None && proc(v, id).Frozen:
			stopped = id
		}
	}
	if stopped == sim.None {
		return sim.Verdict{OK: true}
	}
	if inFlight(v, recoveryKinds) {
		return sim.Verdict{OK: true}
	}
	if _, armed := v.Timer(Manager, timerPropagate); armed {
		return sim.Verdict{OK: true}
	}
	return sim.Verdict{Detail: fmt.Sprintf("%s is stopped for recovery, and nothing is on its way to move the recovery on: no recovery message in flight, nobody down, no rollback armed", v.Name(stopped))}
}

// roundEnds is a global checkpoint's liveness, read off the channels: a
// process whose part is under way (markers: not every marker in; two-phase:
// its sends held for DONE) waits for a message of the protocol, so while
// none is on its way, nobody is down or paused and no recovery is under
// way, its part can never end.
var roundEnds = sim.Invariant{
	Name:  RoundName,
	Help:  "while a process's part of a global checkpoint is under way (waiting for markers, or holding its sends for DONE), a message of the protocol is on its way to end it, or a process is down, paused or stopped for recovery",
	Check: checkRoundEnds,
}

// roundKinds are the messages that move a global checkpoint on.
var roundKinds = []string{KindMarker, KindCheckpointRequest, KindAck, KindDone}

func checkRoundEnds(v sim.View) sim.Verdict {
	waiting := sim.NodeID(sim.None)
	for i := range v.N() {
		id := sim.NodeID(i)
		p := proc(v, id)
		switch {
		case v.Health(id) != sim.Up || p.Frozen:
			return sim.Verdict{OK: true}
		case waiting == sim.None && (len(p.rounds) > 0 || p.Blocked):
			waiting = id
		}
	}
	if waiting == sim.None {
		return sim.Verdict{OK: true}
	}
	if inFlight(v, roundKinds) {
		return sim.Verdict{OK: true}
	}
	return sim.Verdict{Detail: fmt.Sprintf("%s's part of a global checkpoint is under way, and no message of the protocol is on its way to end it", v.Name(waiting))}
}

// onSchedule says checkpoints keep being taken, at the interval asked
// for: with params.interval set, every process that is up and working
// (process 1 alone, when they are coordinated) has its next checkpoint's
// timer armed, set when it starts, checkpoints or resumes for every/2+1
// to every/2+every ticks from then (uncoordinated: a random gap whose
// mean is the interval) or every ticks (process 1's period); with it 0,
// none is ever armed. A process stopped for recovery arms it again when
// it resumes.
var onSchedule = sim.Invariant{
	Name:  ScheduleName,
	Help:  "with params.interval set, every process that is up and working has its next checkpoint armed (process 1 its next global checkpoint, when they are coordinated), due a random gap around the interval (process 1: the interval) after it was set; with it 0, none",
	Check: checkSchedule,
}

func checkSchedule(v sim.View) sim.Verdict {
	ps := proc(v, Manager).params
	if id, ev, ok := v.LastStep(); ok {
		if due, armed := v.Timer(id, timerCheckpoint); armed && setNow(v, id, ev) {
			lo, hi := ps.Interval/2+1, ps.Interval/2+ps.Interval
			if ps.Coordinated {
				lo, hi = ps.Interval, ps.Interval
			}
			if gap := due - v.Now(); ps.Interval == 0 || gap < lo || gap > hi {
				return sim.Verdict{Detail: fmt.Sprintf("%s set its next checkpoint %s ahead, with params.interval %d", v.Name(id), sim.Ticks(gap), ps.Interval)}
			}
		}
	}
	if ps.Interval == 0 {
		return sim.Verdict{OK: true}
	}
	for i := range v.N() {
		id := sim.NodeID(i)
		if ps.Coordinated && id != Manager {
			break
		}
		if p := proc(v, id); v.Health(id) == sim.Crashed || p.Frozen || len(p.Checkpoints) == 0 {
			continue // down, stopped, or not yet started (start saves c.0)
		}
		if _, armed := v.Timer(id, timerCheckpoint); !armed {
			return sim.Verdict{Detail: fmt.Sprintf("%s works with no checkpoint armed: it will never take another", v.Name(id))}
		}
	}
	return sim.Verdict{OK: true}
}

// setNow says the step just taken, ev at process id, is one at which the
// process sets its next checkpoint: its start, its checkpoint's timer
// while working, or its resuming after a recovery.
func setNow(v sim.View, id sim.NodeID, ev sim.Event) bool {
	switch {
	case ev.Kind == sim.Init:
		return true
	case ev.Kind == sim.Timer && ev.Tag == timerCheckpoint:
		return !proc(v, id).Frozen
	}
	return v.DrawnBefore(id, RoleFrozen, 0, v.Steps()-1) && !proc(v, id).Frozen
}

// droppedForAReason says a process drops an application message only
// when it should: a network duplicate, one that reaches it while it is
// stopped for recovery, or one its sender sent before restoring into the
// receiver's epoch (undone by the rollback, or lost across the line). It
// is read off the trace, the message's send step against the restores'
// steps, not off the epoch the message says it was sent in.
var droppedForAReason = sim.Invariant{
	Name:  DroppedName,
	Help:  "a process drops an application message only if it is a network duplicate, reaches it while it is stopped for recovery, or was sent before its sender restored into the receiver's epoch",
	Check: checkDropped,
}

func checkDropped(v sim.View) sim.Verdict {
	for _, a := range v.LastAnnotations() {
		if a.Role != RoleIgnored {
			continue
		}
		m := v.Envelope(a.Group)
		p := proc(v, m.To)
		if m.Original != m.ID || p.Frozen && !p.Restored {
			continue
		}
		if p.Epoch > 0 {
			if restored := v.AnnotationSteps(RoleRollback, p.Epoch)[m.From]; restored < 0 || m.SendStep < restored {
				continue // sent in an older epoch
			}
		}
		return sim.Verdict{Msgs: []int{m.ID}, Detail: fmt.Sprintf("%s drops message %s from %s, which is no duplicate, came while it was working, and was sent in its epoch %d", v.Name(m.To), m.Label, v.Name(m.From), p.Epoch)}
	}
	return sim.Verdict{OK: true}
}

// inFlight says a message of one of the kinds is on its way.
func inFlight(v sim.View, kinds []string) bool {
	for _, k := range kinds {
		if v.InFlightTotal(k).Count > 0 {
			return true
		}
	}
	return false
}

// lines draws the recovery under way, or the last one: a dashed
// candidate line while rollback propagation moves it, then the line, with
// the work each rollback undid.
func lines(v sim.View) []sim.Overlay {
	r := proc(v, Manager).rec
	if r == nil || r.Line == nil {
		return nil
	}
	if r.phase == propagating {
		return []sim.Overlay{{Role: RoleCandidateLine, Text: fmt.Sprintf("candidate line, rollback %d", r.Steps), Dashed: true, Points: linePoints(r)}}
	}
	undone := make([]sim.LinePoint, v.N())
	for j := range undone {
		undone[j] = sim.LinePoint{Node: sim.NodeID(j), Role: RoleRollback, Group: r.Epoch}
	}
	return []sim.Overlay{{Role: RoleRecoveryLine, Text: fmt.Sprintf("recovery line, epoch %d", r.Epoch), Points: linePoints(r), Undone: undone}}
}

// totals adds the processes' counts up.
func totals(v sim.View) (t Proc) {
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		t.Work += p.Work
		t.Taken += p.Taken
		t.Markers += p.Markers
		t.Control += p.Control
		t.Recoveries += p.Recoveries
		t.RolledBack += p.RolledBack
		t.LostWork += p.LostWork
		t.LostMsgs += p.LostMsgs
		t.ToInitial += p.ToInitial
		t.Propagated += p.Propagated
		t.Coordination += p.Coordination
		t.BlockedTicks += p.BlockedTicks
	}
	return t
}

func metrics(v sim.View) []sim.Metric {
	t := totals(v)
	return []sim.Metric{
		{Name: "work", Value: t.Work},
		{Name: "checkpoints", Value: t.Taken},
		{Name: "markers", Value: t.Markers},
		{Name: "recovery_messages", Value: t.Control},
		{Name: "recoveries", Value: t.Recoveries},
		{Name: "rolled_back", Value: t.RolledBack},
		{Name: "rolled_back_to_start", Value: t.ToInitial},
		{Name: "propagation_steps", Value: t.Propagated},
		{Name: "lost_work", Value: t.LostWork},
		{Name: "lost_messages", Value: t.LostMsgs},
		{Name: "two_phase_messages", Value: t.Coordination},
		{Name: "blocked_ticks", Value: int64(t.BlockedTicks)},
	}
}

func formula(v sim.View) string {
	t := totals(v)
	n := v.N()
	if proc(v, Manager).params.TwoPhase {
		return fmt.Sprintf("CHECKPOINT, ACK, DONE: %d sent; 3(N−1) = %d per global checkpoint. Sends held back: %d ticks in all. Work lost to rollbacks: %d; messages lost in transit: %d.", t.Coordination, 3*(n-1), t.BlockedTicks, t.LostWork, t.LostMsgs)
	}
	if proc(v, Manager).params.Coordinated {
		return fmt.Sprintf("Markers: %d sent; N(N−1) = %d per global checkpoint. Work lost to rollbacks: %d.", t.Markers, n*(n-1), t.LostWork)
	}
	return fmt.Sprintf("Checkpoints cost no messages. Work lost to rollbacks: %d; messages lost in transit: %d.", t.LostWork, t.LostMsgs)
}

func panels(v sim.View) []sim.Panel {
	ps := sim.Panel{Title: "Checkpoints", Columns: []string{"process", "work", "state", "checkpoints kept", "work lost"}}
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		state := "working"
		switch {
		case v.Health(sim.NodeID(i)) == sim.Crashed:
			state = "crashed"
		case p.Frozen:
			state = "stopped"
		}
		kept := "none"
		if n := len(p.Checkpoints); n > 0 {
			kept = fmt.Sprintf("%d (last %s)", n, label(v, sim.NodeID(i), p.Checkpoints[n-1].ID))
		}
		lost := []string{""}
		if p.LostWork > 0 {
			lost = []string{"bad"}
		}
		ps.Rows = append(ps.Rows, sim.Row{Cells: []string{v.Name(sim.NodeID(i)), strconv.Itoa(p.Work), state, kept, strconv.Itoa(p.LostWork)}, CellEmphasis: append([]string{"", "", "", ""}, lost...)})
	}
	out := []sim.Panel{ps}
	r := proc(v, Manager).rec
	if r == nil || r.Line == nil {
		return out
	}
	line := sim.Panel{Title: fmt.Sprintf("Recovery %d", r.Epoch), Columns: []string{"process", "point on the line", "work there", "candidates"}}
	switch r.phase {
	case propagating:
		line.Note = fmt.Sprintf("Rollback propagation: %d rollback(s) so far.", r.Steps)
	default:
		line.Note = fmt.Sprintf("The line is settled after %d rollback(s).", r.Steps)
	}
	for j, k := range r.Line {
		c := r.Cands[j][k]
		em := ""
		if c.ID == 0 {
			em = "bad" // the domino reached the start
		}
		line.Rows = append(line.Rows, sim.Row{Cells: []string{v.Name(sim.NodeID(j)), label(v, sim.NodeID(j), c.ID), strconv.Itoa(c.Work), strconv.Itoa(len(r.Cands[j]))},
			CellEmphasis: []string{"", em, "", ""}})
	}
	return append(out, line)
}
