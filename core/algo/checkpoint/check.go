package checkpoint

import (
	"fmt"
	"slices"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The rules checks hold each step to what the process that took it must
// do, restated from the rules rather than by calling the code they judge
// (the mutation campaign leaves this file alone). They read the process's
// state after its step, the messages it sent and the diagram's marks,
// which tell what it was before: an interval drawn before the step, a
// mark made first at this step.

// The rules checks' names.
const (
	WorkName     = "a process sends one message to another at work or when told, none while stopped or holding its sends, and takes each message once"
	SavesName    = "a process checkpoints when its timer or a command says, and keeps nothing older than its last restore"
	PartsName    = "a process saves its part of a global checkpoint once, in its epoch, keeps it once complete, and holds its sends until DONE"
	RestoresName = "a process restarts from its last checkpoint, stops and reports when a later recovery asks, restores its point once, and resumes only then"
	ManagerName  = "process 1 numbers recoveries one by one, starts the line at the latest checkpoints, rolls back no further than it must, and resumes everyone once all have restored"
)

// toEveryOther says msgs go once to every process but id, with value.
func toEveryOther(v sim.View, id sim.NodeID, msgs []sim.Envelope, value int64) bool {
	return check.ToEveryOther(msgs, id, v.N()) && !slices.ContainsFunc(msgs, func(e sim.Envelope) bool { return e.Value != value })
}

// now is the step just taken.
func now(v sim.View) int { return v.Steps() - 1 }

// stoppedBefore says the process was stopped for recovery before the step
// just taken, as the diagram drew it.
func stoppedBefore(v sim.View, id sim.NodeID) bool {
	return v.DrawnBefore(id, RoleFrozen, 0, now(v))
}

// holds says checkpoint c holds the process's present state.
func holds(p *Proc, c Checkpoint) bool {
	return c.Work == p.Work && slices.Equal(c.Sent, p.Sent) && slices.Equal(c.Recv, p.Recv)
}

// savedNow says the process's last checkpoint was saved at the step just
// taken and holds its present state.
func savedNow(v sim.View, id sim.NodeID, p *Proc) (Checkpoint, bool) {
	if len(p.Checkpoints) == 0 {
		return Checkpoint{}, false
	}
	c := p.Checkpoints[len(p.Checkpoints)-1]
	return c, c.ID == p.NextID-1 && v.AnnotationStep(id, RoleSaved, c.ID) == now(v) && holds(p, c)
}

// epochOf is the epoch a message says it was sent in.
func epochOf(m sim.Message) int {
	if len(m.Data) == 0 {
		return -1
	}
	return int(m.Data[0])
}

// works holds a process to the application's rules: at work, or told to
// send, a process that is neither stopped for recovery nor holding its
// sends sends one message to another process (the one named), numbered
// one past what it had sent it and stamped with its epoch; otherwise, and
// at every other step, it sends none. A message it takes is in its epoch,
// reaches it working or restored, raises what it has taken from the
// sender to its number, and is no copy of one it took already.
var works = sim.Invariant{
	Name:  WorkName,
	Help:  "at work, or told to send, a working process sends one message to another (the one named) with the next number and its epoch, and none while stopped or holding its sends; a message it takes is of its epoch, comes while it works or has restored, and is no copy of one taken",
	Check: check.ProcessRule(checkWork),
}

func checkWork(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := proc(v, id)
	msgs := check.SentKind(v, id, KindMsg)
	told := ev.Kind == sim.Command && ev.Tag == CmdSend
	switch {
	case (ev.Kind == sim.Workload || told) && !p.Frozen && !p.Blocked:
		if len(msgs) != 1 {
			return fmt.Sprintf("sent %d messages at a unit of work", len(msgs))
		}
		m := msgs[0]
		if m.To == id || told && m.To != ev.Target || int(m.Value) != p.Sent[m.To] || epochOf(m.Message) != p.Epoch {
			return fmt.Sprintf("sent message %s to %s in epoch %d, having now sent it %d in epoch %d", m.Label, v.Name(m.To), epochOf(m.Message), p.Sent[m.To], p.Epoch)
		}
	case len(msgs) > 0:
		return fmt.Sprintf("sent message %s to %s on a %s, stopped: %t, holding its sends: %t", msgs[0].Label, v.Name(msgs[0].To), ev.Kind, p.Frozen, p.Blocked)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindMsg && !check.Marked(v, RoleIgnored, ev.MsgID):
		seq := int(ev.Msg.Value)
		if p.Frozen && !p.Restored || epochOf(ev.Msg) != p.Epoch || p.Recv[ev.From] != seq {
			return fmt.Sprintf("took message #%d of epoch %d from %s in epoch %d (stopped: %t, restored: %t), and counts %d taken", seq, epochOf(ev.Msg), v.Name(ev.From), p.Epoch, p.Frozen, p.Restored, p.Recv[ev.From])
		}
		// a copy taken once its original was: compared with the
		// original alone, which costs nothing
		if m := v.Envelope(ev.MsgID); m.Original != m.ID {
			if o := v.Envelope(m.Original); o.To == id && o.RecvStep >= 0 && o.RecvStep < now(v) && v.AnnotationStep(id, RoleIgnored, o.ID) < 0 {
				return fmt.Sprintf("took a copy of message #%d from %s, whose original it took already", seq, v.Name(ev.From))
			}
		}
	}
	return ""
}

// saves holds a process to its checkpoints: at its checkpoint timer or
// told to, a working process saves its present state as a new local
// checkpoint (uncoordinated), or process 1 starts the next global
// checkpoint (coordinated) unless one is under way; stopped, it saves
// nothing. Its oldest checkpoint is its last restore's base, and no
// other is a base.
var saves = sim.Invariant{
	Name:  SavesName,
	Help:  "at its timer or told to, a working process saves its present state (process 1 starts the next global checkpoint, unless one is under way, when they are coordinated), and nothing while stopped; it keeps only its last restore's base and what it saved since",
	Check: check.ProcessRule(checkSaves),
}

func checkSaves(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := proc(v, id)
	for k, c := range p.Checkpoints {
		if c.Base != (k == 0) {
			return fmt.Sprintf("keeps %s as its checkpoint %d of %d, a base: %t (only the oldest, its last restore's, is one)", label(v, id, c.ID), k+1, len(p.Checkpoints), c.Base)
		}
	}
	due := ev.Kind == sim.Timer && ev.Tag == timerCheckpoint || ev.Kind == sim.Command && ev.Tag == CmdCheckpoint
	if !due {
		return ""
	}
	if p.Frozen {
		for _, a := range v.LastAnnotations() {
			if a.Role == RoleSaved || a.Role == RoleRound {
				return "took a checkpoint while stopped for recovery"
			}
		}
		return ""
	}
	if !p.params.Coordinated {
		if c, ok := savedNow(v, id, p); !ok || c.Base || c.Round != 0 {
			return "was due a checkpoint and did not save its present state as a new local one"
		}
		return ""
	}
	if id != Manager {
		return ""
	}
	g := p.NextRound
	if !check.Marked(v, RoleRound, g) {
		if !p.Blocked && len(p.rounds) == 0 {
			return fmt.Sprintf("was due to start a global checkpoint, has none under way, and started none (the last was %d)", g)
		}
		return ""
	}
	if p.params.TwoPhase {
		if v.DrawnBefore(id, RoleBlocked, g-1, now(v)) {
			return fmt.Sprintf("started global checkpoint %d while holding its sends for %d", g, g-1)
		}
		if !p.Blocked || p.blockedRound != g || !toEveryOther(v, id, check.SentKind(v, id, KindCheckpointRequest), int64(g)) || len(check.SentKind(v, id, KindMarker)) > 0 {
			return fmt.Sprintf("started two-phase global checkpoint %d and does not hold its sends for it, or did not send CHECKPOINT %d once to every other process", g, g)
		}
		return ""
	}
	if len(p.rounds) != 1 || p.rounds[0].saved.Round != g || !toEveryOther(v, id, check.SentKind(v, id, KindMarker), int64(g)) {
		return fmt.Sprintf("started global checkpoint %d with %d under way, or did not send its marker once to every other process", g, len(p.rounds))
	}
	return ""
}

// parts holds a process to the global checkpoints' rules: it saves its
// part of each once; a marker, CHECKPOINT, ACK or DONE of another epoch,
// or one that reaches it stopped and not yet restored, changes nothing and sends nothing; after a marker of its epoch, its
// part is kept once every marker is in and not before; it answers ACK
// only with its part kept and its sends held for it; it holds its sends
// until that round's DONE (process 1: until its last ACK), a later
// round's CHECKPOINT (whose DONE it overtook) or a recovery; and process
// 1 sends DONE once, once every other process's ACK is in.
var partsOnce = sim.Invariant{
	Name:  PartsName,
	Help:  "a process saves its part of each global checkpoint once; messages of another epoch, or reaching it stopped, change nothing; its part is kept once every marker is in; it answers ACK with its part kept and its sends held, and holds them until DONE; process 1 sends DONE once, with every ACK in",
	Check: check.ProcessRule(checkParts),
}

// parts counts the process's parts of global checkpoint g, kept or
// under way: a crash forgets one under way, and the process may save it
// again, but it never holds two.
func parts(p *Proc, g int) int {
	k := 0
	for _, c := range p.Checkpoints {
		if c.Round == g {
			k++
		}
	}
	for _, r := range p.rounds {
		if r.saved.Round == g {
			k++
		}
	}
	return k
}

func checkParts(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := proc(v, id)
	for _, a := range v.LastAnnotations() {
		switch {
		case a.Role == RoleRound && parts(p, a.Group) != 1:
			return fmt.Sprintf("saved its part of global checkpoint %d and holds %d parts of it", a.Group, parts(p, a.Group))
		case a.Role == RoleBlocked && a.Phase == sim.End && !mayUnblock(v, id, p, ev, a.Group):
			return fmt.Sprintf("stopped holding its sends for global checkpoint %d on a %s %s, before its DONE", a.Group, ev.Kind, ev.Msg.Kind)
		}
	}
	if p.params.TwoPhase {
		if acks := check.SentKind(v, id, KindAck); len(acks) > 0 {
			g := int(acks[0].Value)
			if len(acks) > 1 || partOf(p, g) == nil || !p.Blocked || p.blockedRound != g {
				return fmt.Sprintf("answered ACK %d without its part kept and its sends held for it", g)
			}
		}
		if done := check.SentKind(v, id, KindDone); id == Manager && len(done) > 0 {
			if detail := doneOnce(v, int(done[0].Value)); detail != "" {
				return detail
			}
		}
	}
	if ev.Kind != sim.Deliver {
		return ""
	}
	if !slices.Contains(roundKinds, ev.Msg.Kind) {
		return ""
	}
	stale := epochOf(ev.Msg) != p.Epoch || p.Frozen && !p.Restored
	g := int(ev.Msg.Value)
	if stale {
		if check.SentAny(v, id) || check.Marked(v, RoleRound, g) || len(v.LastAnnotations()) > 0 {
			return fmt.Sprintf("acted on a %s of global checkpoint %d from %s of epoch %d, in epoch %d (stopped: %t)", ev.Msg.Kind, g, v.Name(ev.From), epochOf(ev.Msg), p.Epoch, p.Frozen)
		}
		return ""
	}
	if ev.Msg.Kind != KindMarker {
		return ""
	}
	for _, r := range p.rounds {
		if r.saved.Round == g {
			if snapshot.Done(&r.Part, id) {
				return fmt.Sprintf("has every marker of global checkpoint %d and has not kept its part", g)
			}
			return ""
		}
	}
	if partOf(p, g) == nil {
		return fmt.Sprintf("took a marker of global checkpoint %d and neither records nor keeps its part of it", g)
	}
	return ""
}

// mayUnblock says a process may stop holding its sends for round b at
// the step just taken: its DONE came, or (process 1) the last ACK, with
// DONE sent; a later round's CHECKPOINT came; or it stopped for recovery.
func mayUnblock(v sim.View, id sim.NodeID, p *Proc, ev sim.Event, b int) bool {
	if p.Frozen {
		return true
	}
	if ev.Kind != sim.Deliver || int(ev.Msg.Value) < b || epochOf(ev.Msg) != p.Epoch {
		return false
	}
	g := int(ev.Msg.Value)
	switch ev.Msg.Kind {
	case KindDone:
		return g == b
	case KindAck:
		return g == b && id == Manager && len(check.SentKind(v, id, KindDone)) > 0
	case KindCheckpointRequest:
		return g > b
	}
	return false
}

// doneOnce checks process 1's DONE of round g: its first, sent once every
// other process's ACK of g has reached it.
func doneOnce(v sim.View, g int) string {
	start := v.AnnotationStep(Manager, RoleRound, g)
	if start < 0 {
		return fmt.Sprintf("sent DONE %d for a global checkpoint it never started", g)
	}
	acked := make([]bool, v.N())
	acked[Manager] = true
	for m := v.SentFrom(start); m < v.NumSent(); m++ {
		e := v.Envelope(m)
		switch {
		case e.To == Manager && e.Kind == KindAck && int(e.Value) == g && e.RecvStep >= 0:
			acked[e.From] = true
		case e.From == Manager && e.Kind == KindDone && int(e.Value) == g && e.SendStep < now(v):
			return fmt.Sprintf("sent DONE %d again", g)
		}
	}
	if i := slices.Index(acked, false); i >= 0 {
		return fmt.Sprintf("sent DONE %d before %s's ACK of it came", g, v.Name(sim.NodeID(i)))
	}
	return ""
}

// restores holds a process to its part of recovery: restarting, it
// takes its last checkpoint's state (a global one's channel state taken
// again), stops, holds no global checkpoint, is restored only if that
// checkpoint is the base of its epoch's restore and it had not resumed
// since, and tells process 1 (or is process 1, and starts a recovery);
// asked by a later recovery, it
// stops (uncoordinated: saving its state if it was working), forgets the
// global checkpoints under way, and reports each checkpoint it keeps; told
// to roll back, it restores its point once per recovery, with every
// message the line's points sent it counted, saves that as its base, and
// says so; and it resumes only on its epoch's RESUME, having restored in
// it and answered no later recovery.
var restores = sim.Invariant{
	Name:  RestoresName,
	Help:  "restarting, a process takes its last checkpoint's state and stops; asked by a later recovery, it stops and reports every checkpoint it keeps; it restores its point on the line once, counting what the line sent it, and saves it as its base; it resumes only after restoring",
	Check: check.ProcessRule(checkRestores),
}

func checkRestores(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := proc(v, id)
	switch {
	case ev.Kind == sim.Recover:
		return checkRestart(v, id, p)
	case ev.Kind != sim.Deliver:
		return ""
	}
	e := int(ev.Msg.Value)
	switch ev.Msg.Kind {
	case KindRequest:
		infos := check.SentKind(v, id, KindInfo)
		if e <= p.Epoch {
			if len(infos) > 0 {
				return fmt.Sprintf("answered the REQUEST of recovery %d in epoch %d", e, p.Epoch)
			}
			return ""
		}
		if !p.Frozen || p.Restored || len(p.rounds) > 0 || p.Blocked {
			return fmt.Sprintf("was asked to stop for recovery %d and is stopped: %t, restored: %t, with %d global checkpoint(s) under way, holding its sends: %t", e, p.Frozen, p.Restored, len(p.rounds), p.Blocked)
		}
		_, saved := savedNow(v, id, p)
		if wantSave := !p.params.Coordinated && !stoppedBefore(v, id); saved != wantSave {
			return fmt.Sprintf("stopping for recovery %d saved its state: %t (uncoordinated, stopping as it worked: %t)", e, saved, wantSave)
		}
		if len(infos) != 1 || infos[0].To != Manager || infos[0].Value != int64(e) || !reports(p, infos[0].Data, v.N()) {
			return fmt.Sprintf("stopped for recovery %d and did not report once to %s the checkpoints it keeps", e, v.Name(Manager))
		}
	case KindRollback:
		if !check.Marked(v, RoleRollback, e) {
			if check.SentAny(v, id) {
				return fmt.Sprintf("sent a message on a ROLLBACK of recovery %d it did not restore", e)
			}
			return ""
		}
		if p.Epoch != e || len(ev.Msg.Data) != 1+v.N() {
			return fmt.Sprintf("restored for recovery %d into epoch %d", e, p.Epoch)
		}
		if detail := restoredAs(v, id, p, e, int(ev.Msg.Data[0]), func(q int) int { return int(ev.Msg.Data[1+q]) }); detail != "" {
			return detail
		}
		if r := check.SentKind(v, id, KindRestored); len(r) != 1 || r[0].To != Manager || r[0].Value != int64(e) {
			return fmt.Sprintf("restored for recovery %d and did not tell %s once", e, v.Name(Manager))
		}
	case KindResume:
		if !stoppedBefore(v, id) || p.Frozen {
			return ""
		}
		if p.Epoch != e || v.AnnotationStep(id, RoleRollback, e) < 0 {
			return fmt.Sprintf("resumed on the RESUME of recovery %d in epoch %d, without restoring in it", e, p.Epoch)
		}
		for later := e + 1; later <= proc(v, Manager).NextEpoch; later++ {
			if check.FirstSent(v, id, KindInfo, int64(later)) >= 0 {
				return fmt.Sprintf("resumed on the RESUME of recovery %d after it stopped and reported for recovery %d", e, later)
			}
		}
	}
	return ""
}

// checkRestart checks a process just restarted after a crash.
func checkRestart(v sim.View, id sim.NodeID, p *Proc) string {
	last := p.Checkpoints[len(p.Checkpoints)-1]
	work, recv := last.Work, slices.Clone(last.Recv)
	for q, k := range last.Channel {
		work += k
		recv[q] += k
	}
	restored := last.Base && last.Epoch > 0 && last.Epoch == p.Epoch && id != Manager && !resumedIn(v, id, p.Epoch)
	switch {
	case p.Work != work || !slices.Equal(p.Sent, last.Sent) || !slices.Equal(p.Recv, recv):
		return fmt.Sprintf("restarted with work %d, sent %v and taken %v, not its last checkpoint %s's work %d, sent %v and taken %v", p.Work, p.Sent, p.Recv, label(v, id, last.ID), work, last.Sent, recv)
	case !p.Frozen || p.Restored != restored || len(p.rounds) > 0 || p.Blocked:
		return fmt.Sprintf("restarted stopped: %t, restored: %t (its last checkpoint the base of its epoch's restore: %t), with %d global checkpoint(s) under way, holding its sends: %t", p.Frozen, p.Restored, restored, len(p.rounds), p.Blocked)
	case id != Manager && (len(check.SentKind(v, id, KindFailed)) != 1 || !slices.ContainsFunc(check.SentKind(v, id, KindFailed), func(e sim.Envelope) bool { return e.To == Manager })):
		return fmt.Sprintf("restarted and did not tell %s once", v.Name(Manager))
	}
	return ""
}

// resumedIn says the process resumed after restoring in epoch e: a
// RESUME of e reached it and ended its stop.
func resumedIn(v sim.View, id sim.NodeID, e int) bool {
	from := v.AnnotationStep(id, RoleRollback, e)
	if from < 0 {
		return false
	}
	for m := v.SentFrom(from); m < v.NumSent(); m++ {
		x := v.Envelope(m)
		if at := x.RecvStep; x.Kind == KindResume && x.To == id && int(x.Value) == e && at >= 0 &&
			v.DrawnBefore(id, RoleFrozen, 0, at) && !v.DrawnBefore(id, RoleFrozen, 0, at+1) {
			return true
		}
	}
	return false
}

// reports says a report holds each checkpoint the process keeps: its id,
// round, base, work, and sent and taken counts (a global checkpoint's
// channel state taken again, as a restore would).
func reports(p *Proc, d []int64, n int) bool {
	size := 4 + 2*n
	if len(d) != 1+len(p.Checkpoints)*size || int(d[0]) != len(p.Checkpoints) {
		return false
	}
	for i, c := range p.Checkpoints {
		f := d[1+i*size : 1+(i+1)*size]
		if int(f[0]) != c.ID || int(f[1]) != c.Round || (f[2] == 1) != c.Base || int(f[3]) != c.Work {
			return false
		}
		for q := range n {
			recv := c.Recv[q]
			if q < len(c.Channel) {
				recv += c.Channel[q]
			}
			if int(f[4+q]) != c.Sent[q] || int(f[4+n+q]) != recv {
				return false
			}
		}
	}
	return true
}

// restoredAs checks a process that restored its point, checkpoint id, on
// the line of recovery e, whose points had sent it sent(q) each: it holds
// that checkpoint's counts as process 1 collected them, with each count of
// what it took raised to what the line sent it, in epoch e, restored, and
// has saved it as its base; and it restored in e only now.
func restoredAs(v sim.View, id sim.NodeID, p *Proc, e, point int, sent func(q int) int) string {
	if first := v.AnnotationStep(id, RoleRollback, e); first != now(v) {
		return fmt.Sprintf("restored its point of recovery %d again (first at step %d)", e, first)
	}
	c, ok := savedNow(v, id, p)
	if !ok || !c.Base || c.Epoch != e || len(p.Checkpoints) != 1 || !p.Restored {
		return fmt.Sprintf("restored for recovery %d and did not save its state as its only checkpoint, a base of epoch %d, restored", e, e)
	}
	r := proc(v, Manager).rec
	if r == nil || r.Epoch != e {
		return "" // process 1 has moved on to a later recovery
	}
	k := slices.IndexFunc(r.Cands[id], func(c Candidate) bool { return c.ID == point })
	if k < 0 {
		return fmt.Sprintf("restored %s, which it never reported for recovery %d", label(v, id, point), e)
	}
	want := r.Cands[id][k]
	recv := slices.Clone(want.Recv)
	for q := range recv {
		recv[q] = max(recv[q], sent(q))
	}
	// (its work, a figure, also counts the channel state taken again,
	// which the candidate does not say apart)
	if !slices.Equal(p.Sent, want.Sent) || !slices.Equal(p.Recv, recv) {
		return fmt.Sprintf("restored %s as sent %v and taken %v; it had sent %v, and with what the line sent it, taken %v", label(v, id, point), p.Sent, p.Recv, want.Sent, recv)
	}
	return ""
}

// manages holds process 1 to running recoveries: it numbers them 1, 2,
// 3…, asking every other process once; told of a failure it starts one
// only when the last has ended, sends a process that failed before
// restoring its point again, and otherwise goes on; a recovery's line
// starts at every process's last checkpoint (uncoordinated) or the last
// global checkpoint every process kept (coordinated; else the last
// restore's), rolls back at most once per checkpoint, and, settled, is
// the latest consistent line (uncoordinated: no point could move to a
// later checkpoint); it restores its own point as the others do, never
// goes back to an earlier phase, and sends RESUME once, once every
// process has restored.
var manages = sim.Invariant{
	Name: ManagerName,
	Help: "process 1 numbers recoveries 1, 2, 3 and starts one only when the last has ended (or it restarts); the line starts at the latest checkpoints (the last global checkpoint every process kept, when coordinated) and rolls back no further than it must; it sends RESUME once, when every process has restored",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		if id != Manager {
			return ""
		}
		return checkManager(v, proc(v, id), ev)
	}),
}

func checkManager(v sim.View, p *Proc, ev sim.Event) string {
	if req := check.SentKind(v, Manager, KindRequest); len(req) > 0 {
		e := int(req[0].Value)
		switch {
		case !toEveryOther(v, Manager, req, int64(e)):
			return fmt.Sprintf("started recovery %d and did not ask every other process once", e)
		case e != 1 && check.FirstSent(v, Manager, KindRequest, int64(e-1)) < 0 || check.FirstSent(v, Manager, KindRequest, int64(e)) != now(v):
			return fmt.Sprintf("started recovery %d, which is not the one after the last it started", e)
		case ev.Kind == sim.Deliver && e != 1 && check.FirstSent(v, Manager, KindResume, int64(e-1)) < 0:
			return fmt.Sprintf("started recovery %d on a FAILED while recovery %d is under way", e, e-1)
		}
	}
	r := p.rec
	if ev.Kind == sim.Deliver && ev.Msg.Kind == KindFailed {
		rb := check.SentKind(v, Manager, KindRollback)
		switch {
		case len(rb) > 0 && (len(rb) > 1 || rb[0].To != ev.From || r == nil || r.phase != restoring || r.Restored[ev.From]):
			return fmt.Sprintf("sent a ROLLBACK on %s's FAILED, which had restored its point or is not waited for", v.Name(ev.From))
		case len(rb) == 0 && len(check.SentKind(v, Manager, KindRequest)) == 0 && (r == nil || r.phase == done || r.phase == restoring && !r.Restored[ev.From]):
			return fmt.Sprintf("heard that %s failed and neither started a recovery nor sent it its point again", v.Name(ev.From))
		}
	}
	if res := check.SentKind(v, Manager, KindResume); len(res) > 0 {
		e := res[0].Value
		if !toEveryOther(v, Manager, res, e) || check.FirstSent(v, Manager, KindResume, e) != now(v) {
			return fmt.Sprintf("sent RESUME %d other than once to every other process", e)
		}
		for q := range v.N() {
			if v.AnnotationStep(sim.NodeID(q), RoleRollback, int(e)) < 0 {
				return fmt.Sprintf("sent RESUME %d before %s restored its point", e, v.Name(sim.NodeID(q)))
			}
		}
	}
	if r == nil || r.Line == nil {
		return ""
	}
	switch {
	case r.phase <= propagating && v.AnnotationStep(Manager, RoleLine, r.Epoch) >= 0:
		return fmt.Sprintf("went back to finding the line of recovery %d, which it had settled", r.Epoch)
	case r.phase == propagating && r.Steps == 0:
		if want := startLine(r.Cands, p.params.Coordinated); !slices.Equal(r.Line, want) {
			return fmt.Sprintf("started the line of recovery %d at %v, not at the latest checkpoints, %v", r.Epoch, r.Line, want)
		}
		if ev.Kind == sim.Deliver && ev.Msg.Kind == KindInfo {
			if j := unreported(v, r.Epoch); j != sim.None {
				return fmt.Sprintf("started the line of recovery %d before %s's report for it came", r.Epoch, v.Name(j))
			}
		}
	case r.phase == propagating:
		most := 0
		for _, cs := range r.Cands {
			most += len(cs) - 1
		}
		if r.Steps > most {
			return fmt.Sprintf("has rolled back %d times in recovery %d, with only %d checkpoints to roll back to", r.Steps, r.Epoch, most)
		}
	case check.Marked(v, RoleLine, r.Epoch):
		if !p.params.Coordinated {
			if j, k, ok := laterLine(r.Cands, r.Line); ok {
				return fmt.Sprintf("settled the line of recovery %d with %s at %s, though %s is consistent with the rest of it", r.Epoch, v.Name(sim.NodeID(j)), label(v, sim.NodeID(j), r.Cands[j][r.Line[j]].ID), label(v, sim.NodeID(j), r.Cands[j][k].ID))
			}
		}
		return restoredAs(v, Manager, p, r.Epoch, r.Cands[Manager][r.Line[Manager]].ID, func(q int) int { return r.Cands[q][r.Line[q]].Sent[Manager] })
	}
	return ""
}

// unreported finds a process whose report (INFO) for recovery e has not
// reached process 1, or sim.None. It reads back from the last message to
// process 1's REQUESTs of e (not a network's copy, made later), which
// every report follows.
func unreported(v sim.View, e int) sim.NodeID {
	in := make([]bool, v.N())
	in[Manager] = true
	for m := v.NumSent() - 1; m >= 0; m-- {
		x := v.Envelope(m)
		if x.Kind == KindRequest && x.From == Manager && int(x.Value) == e && x.Original == m {
			break
		}
		if x.Kind == KindInfo && x.To == Manager && int(x.Value) == e && x.RecvStep >= 0 {
			in[x.From] = true
		}
	}
	if i := slices.Index(in, false); i >= 0 {
		return sim.NodeID(i)
	}
	return sim.None
}

// startLine is where a recovery's line starts: every process's last
// checkpoint; coordinated, each one's part of the latest global
// checkpoint all of them kept, or their last restore's base.
func startLine(cands [][]Candidate, coordinated bool) []int {
	line := make([]int, len(cands))
	if !coordinated {
		for j, cs := range cands {
			line[j] = len(cs) - 1
		}
		return line
	}
	kept := map[int]int{} // round: how many processes kept it
	for _, cs := range cands {
		for _, c := range cs {
			if c.Round > 0 {
				kept[c.Round]++
			}
		}
	}
	latest := 0
	for g, k := range kept {
		if k == len(cands) {
			latest = max(latest, g)
		}
	}
	if latest == 0 {
		return line
	}
	for j, cs := range cands {
		line[j] = slices.IndexFunc(cs, func(c Candidate) bool { return c.Round == latest })
	}
	return line
}

// consistent says no point on line has taken a message its sender's
// point had not sent.
func consistent(cands [][]Candidate, line []int) bool {
	for j := range cands {
		for i := range cands {
			if i != j && cands[j][line[j]].Recv[i] > cands[i][line[i]].Sent[j] {
				return false
			}
		}
	}
	return true
}

// laterLine finds a process j whose point could move to a later
// checkpoint k with the line still consistent: then the line is not the
// latest, which rolling back only orphans' receivers always finds.
func laterLine(cands [][]Candidate, line []int) (j, k int, ok bool) {
	moved := slices.Clone(line)
	for j := range cands {
		for k := line[j] + 1; k < len(cands[j]); k++ {
			moved[j] = k
			if consistent(cands, moved) {
				return j, k, true
			}
		}
		moved[j] = line[j]
	}
	return 0, 0, false
}
