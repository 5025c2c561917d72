package checkpoint

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// phase is where a recovery stands.
type phase uint8

const (
	// collecting waits for every process's report.
	collecting phase = iota
	// propagating rolls the line back one orphan at a time.
	propagating
	// restoring waits for every process to have restored its point.
	restoring
	// done has resumed everyone.
	done
)

// Candidate is a checkpoint a process may restart from, as it reported
// it: its id, round, base, work, and counts (Recv with its channel state
// taken again, as a restore would).
type Candidate struct {
	ID, Round  int
	Base       bool
	Work       int
	Sent, Recv []int
}

// recovery is process 1's view of one recovery.
type recovery struct {
	Epoch int
	phase phase
	// Cands are each process's candidates, oldest first, nil until its
	// report comes; Line picks one per process.
	Cands    [][]Candidate
	Line     []int
	Restored []bool
	// Steps counts the rollbacks propagation made.
	Steps int
}

func (r *recovery) clone() *recovery {
	c := *r
	c.Cands = append([][]Candidate(nil), r.Cands...)
	c.Line = append([]int(nil), r.Line...)
	c.Restored = append([]bool(nil), r.Restored...)
	return &c
}

// candidates are the checkpoints the process keeps, for its report. Only
// what is on stable storage is a candidate, so that a crash after the
// report changes nothing the line counts on.
func (p *Proc) candidates() []Candidate {
	cs := make([]Candidate, 0, len(p.Checkpoints))
	for _, c := range p.Checkpoints {
		recv := append([]int(nil), c.Recv...)
		for q, k := range c.Channel {
			recv[q] += k
		}
		cs = append(cs, Candidate{ID: c.ID, Round: c.Round, Base: c.Base, Work: c.Work, Sent: c.Sent, Recv: recv})
	}
	return cs
}

// reportSize is how many numbers one candidate takes in a report.
func reportSize(n int) int { return 4 + 2*n }

// encode writes candidates into a report: their count, then per
// candidate its id, round, base, work, and sent and received counts.
func encode(cs []Candidate, n int) []int64 {
	out := make([]int64, 0, 1+len(cs)*reportSize(n))
	out = append(out, int64(len(cs)))
	for _, c := range cs {
		base := 0
		if c.Base {
			base = 1
		}
		out = append(out, int64(c.ID), int64(c.Round), int64(base), int64(c.Work))
		for _, x := range c.Sent {
			out = append(out, int64(x))
		}
		for _, x := range c.Recv {
			out = append(out, int64(x))
		}
	}
	return out
}

// decode reads a report's candidates; a report that does not add up
// gives none.
func decode(d []int64, n int) []Candidate {
	if len(d) == 0 {
		return nil
	}
	k, size := int(d[0]), reportSize(n)
	if k < 1 || len(d) != 1+k*size {
		return nil
	}
	cs := make([]Candidate, k)
	for i := range cs {
		f := d[1+i*size : 1+(i+1)*size]
		c := Candidate{ID: int(f[0]), Round: int(f[1]), Base: f[2] == 1, Work: int(f[3]), Sent: make([]int, n), Recv: make([]int, n)}
		for q := range n {
			c.Sent[q], c.Recv[q] = int(f[4+q]), int(f[4+n+q])
		}
		cs[i] = c
	}
	return cs
}

// freeze stops the process for recovery. Stopping, it saves its present
// state (uncoordinated), so that the line may keep it and a crash cannot
// take it away; it is saved already if the process was stopped, or has
// just restarted from a checkpoint.
func (p *Proc) freeze(env *sim.Env) string {
	p.rounds, p.Restored = nil, false
	p.unblock(env) // a recovery forgets a round under way
	if p.Frozen {
		return ""
	}
	p.Frozen = true
	env.Annotate(sim.Opens(RoleFrozen, 0, "stopped"))
	if p.params.Coordinated {
		return ""
	}
	c := p.save(env, 0, false)
	return fmt.Sprintf("; stopping, it saves its state as %s", label(env, env.Self(), c.ID))
}

// restart brings a crashed process back from its last checkpoint, stopped
// until a recovery has found the line.
func (p *Proc) restart(env *sim.Env) {
	me := env.Name(env.Self())
	last := p.Checkpoints[len(p.Checkpoints)-1]
	before := p.Work
	p.Work, p.Sent, p.Recv = last.Work, append([]int(nil), last.Sent...), append([]int(nil), last.Recv...)
	for q, k := range last.Channel { // a global checkpoint's channel state is taken again
		p.Work += k
		p.Recv[q] += k
	}
	lost := max(before-p.Work, 0)
	p.LostWork += lost
	// A process that restored its point on the line and crashed before
	// RESUME restarts from that very point, the base it saved: it is still
	// restored, and takes what the processes that resumed first send it.
	// One that had resumed is not: what it did since is lost.
	p.Restored = last.Base && last.Epoch == p.Epoch && p.Epoch > 0 && p.Resumed != p.Epoch && env.Self() != Manager
	p.rec, p.rounds = nil, nil
	p.Blocked = false // it forgot the round under way; its part is on stable storage
	// stopped again, or still: the crash ended the interval drawn
	p.Frozen = true
	env.Annotate(sim.Opens(RoleFrozen, 0, "stopped"))
	text := fmt.Sprintf("%s restarts from its last checkpoint %s on stable storage: the %d unit(s) of work since are lost with its memory, and it stays stopped until a recovery line is found", me, label(env, env.Self(), last.ID), lost)
	if env.Self() == Manager {
		env.Explain("%s. %s", text, p.startRecovery(env))
		return
	}
	env.Send(Manager, sim.Message{Kind: KindFailed, Label: "FAILED"})
	p.Control++
	env.Explain("%s; it tells %s, which runs recovery", text, env.Name(Manager))
}

// startRecovery starts a recovery at process 1, stopping everyone and
// asking for their checkpoints; it returns the caption's words.
func (p *Proc) startRecovery(env *sim.Env) string {
	p.NextEpoch = max(p.NextEpoch, p.Epoch) + 1
	e := p.NextEpoch
	n := env.N()
	p.rec = &recovery{Epoch: e, Cands: make([][]Candidate, n), Restored: make([]bool, n)}
	saved := p.freeze(env)
	p.rec.Cands[env.Self()] = p.candidates()
	for q := range n {
		if sim.NodeID(q) != env.Self() {
			env.Send(sim.NodeID(q), sim.Message{Kind: KindRequest, Value: int64(e), Label: fmt.Sprintf("REQUEST e%d", e)})
			p.Control++
		}
	}
	return fmt.Sprintf("%s starts recovery to epoch %d: it stops%s, and asks everyone to stop and report the checkpoints they keep", env.Name(env.Self()), e, saved)
}

// request answers process 1's REQUEST: stop, and report.
func (p *Proc) request(env *sim.Env, ev sim.Event) {
	me, e := env.Name(env.Self()), int(ev.Msg.Value)
	if e <= p.Epoch {
		env.Explain("%s drops a REQUEST of a recovery that has been overtaken", me)
		return
	}
	saved := p.freeze(env)
	cs := p.candidates()
	env.Send(Manager, sim.Message{Kind: KindInfo, Value: int64(e), Label: fmt.Sprintf("INFO e%d", e), Data: encode(cs, env.N())})
	p.Control++
	env.Explain("%s stops for recovery %d%s, and reports its %d checkpoint(s): what each had sent and taken", me, e, saved, len(cs))
}

// manage is process 1's part: failures, reports, confirmations.
func (p *Proc) manage(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	if env.Self() != Manager {
		return
	}
	r, e := p.rec, int(ev.Msg.Value)
	switch ev.Msg.Kind {
	case KindFailed:
		text := fmt.Sprintf("%s hears that %s restarted from a checkpoint", me, them)
		switch {
		case r == nil || r.phase == done:
			env.Explain("%s. %s", text, p.startRecovery(env))
		case r.phase == restoring && !r.Restored[ev.From]:
			p.sendRollback(env, int(ev.From))
			env.Explain("%s before it restored its point on the line: the line holds, as it counts only on saved checkpoints, so %s sends it its point again", text, me)
		default:
			env.Explain("%s during recovery %d: the recovery counts only on saved checkpoints, which a crash does not take away, so it goes on", text, r.Epoch)
		}
	case KindInfo:
		cs := decode(ev.Msg.Data, env.N())
		if r == nil || r.Epoch != e || r.phase != collecting || cs == nil {
			env.Explain("%s drops %s's report for recovery %d: it is not the recovery under way", me, them, e)
			return
		}
		r.Cands[ev.From] = cs
		missing := 0
		for _, c := range r.Cands {
			if c == nil {
				missing++
			}
		}
		if missing > 0 {
			env.Explain("%s has %s's report (%d candidate(s)); %d more to come", me, them, len(cs), missing)
			return
		}
		env.Explain("%s has every report. %s", me, p.settle(env))
	case KindRestored:
		if r == nil || r.Epoch != e || r.phase != restoring {
			env.Explain("%s drops %s's confirmation for recovery %d: it is not the recovery under way", me, them, e)
			return
		}
		r.Restored[ev.From] = true
		for _, ok := range r.Restored {
			if !ok {
				env.Explain("%s: %s has restored its point on the line", me, them)
				return
			}
		}
		r.phase = done
		p.Recoveries++
		for q := range env.N() {
			if sim.NodeID(q) != env.Self() {
				env.Send(sim.NodeID(q), sim.Message{Kind: KindResume, Value: int64(e), Label: fmt.Sprintf("RESUME e%d", e)})
				p.Control++
			}
		}
		p.unfreeze(env)
		env.Explain("%s: everyone has restored its point on the line, so %s resumes and tells everyone to resume in epoch %d", me, me, e)
	}
}

// settle starts the line at everyone's last checkpoint (coordinated: the
// last global checkpoint every process completed, or else the last
// restore's), and
// starts rollback propagation, which rolls it back one orphan per tick
// until it is consistent.
func (p *Proc) settle(env *sim.Env) string {
	r := p.rec
	r.Line = make([]int, env.N())
	for j, cs := range r.Cands {
		r.Line[j] = len(cs) - 1
	}
	what := ""
	if p.params.Coordinated {
		if g := lastCommonRound(r.Cands); g > 0 {
			for j, cs := range r.Cands {
				r.Line[j] = pick(cs, g)
			}
			what = fmt.Sprintf("The last global checkpoint every process completed is %d: the line starts there. ", g)
		} else {
			for j := range r.Line {
				r.Line[j] = 0 // the last restore's, every process's oldest kept
			}
			what = "No global checkpoint is complete everywhere since the last restore: the line starts at that restore's. "
		}
	}
	r.phase = propagating
	env.SetTimer(timerPropagate, 1)
	return what + fmt.Sprintf("The line starts at %s; now it looks for orphans, messages taken on the line's receiving side but not yet sent on its sending side", p.lineWords(env))
}

// lastCommonRound is the latest global checkpoint in every process's
// candidates, or 0.
func lastCommonRound(cands [][]Candidate) int {
	best := 0
	for _, c := range cands[0] {
		if c.Round <= best {
			continue
		}
		everywhere := true
		for _, cs := range cands[1:] {
			everywhere = everywhere && pick(cs, c.Round) >= 0
		}
		if everywhere {
			best = c.Round
		}
	}
	return best
}

// pick finds round g among the candidates, or −1.
func pick(cs []Candidate, g int) int {
	for i, c := range cs {
		if c.Round == g {
			return i
		}
	}
	return -1
}

// lineWords names the line's points: "c1.2, c2.0 and 3 as it is now".
func (p *Proc) lineWords(env *sim.Env) string {
	r := p.rec
	parts := make([]string, len(r.Line))
	for j, k := range r.Line {
		parts[j] = label(env, sim.NodeID(j), r.Cands[j][k].ID)
	}
	return strings.Join(parts, ", ")
}

// Orphan finds a message taken at one point of the line that its sender
// had not yet sent at its own: to took message Recv from from, and from
// had sent only Sent. It reports false if the line is consistent.
func Orphan(cands [][]Candidate, line []int) (from, to int, ok bool) {
	for j := range cands {
		for i := range cands {
			if i != j && cands[j][line[j]].Recv[i] > cands[i][line[i]].Sent[j] {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// RollBack moves the receiver of an orphan back to its latest candidate
// that took no more from the sender than the sender's point had sent; it
// reports false if there is none.
func RollBack(cands [][]Candidate, line []int, from, to int) bool {
	sent := cands[from][line[from]].Sent[to]
	for k := line[to] - 1; k >= 0; k-- {
		if cands[to][k].Recv[from] <= sent {
			line[to] = k
			return true
		}
	}
	return false
}

// propagate takes one step of rollback propagation: it rolls back the
// receiver of one orphan, or settles the line if there is none.
func (p *Proc) propagate(env *sim.Env) {
	r := p.rec
	if r == nil || r.phase != propagating {
		return
	}
	from, to, ok := Orphan(r.Cands, r.Line)
	if !ok {
		env.Explain("%s finds no orphan: the line %s is consistent. %s", env.Name(env.Self()), p.lineWords(env), p.finish(env))
		return
	}
	at := r.Cands[to][r.Line[to]]
	sent := r.Cands[from][r.Line[from]].Sent[to]
	if !RollBack(r.Cands, r.Line, from, to) {
		// cannot happen while every base starts a consistent line; say so
		// rather than loop
		r.phase = done
		env.Explain("%s finds no consistent line among the checkpoints kept: %s took #%d from %s at its earliest, and %s had sent only %d", env.Name(env.Self()), env.Name(sim.NodeID(to)), at.Recv[from], env.Name(sim.NodeID(from)), env.Name(sim.NodeID(from)), sent)
		return
	}
	r.Steps++
	back := r.Cands[to][r.Line[to]]
	env.SetTimer(timerPropagate, 1)
	env.Explain("Orphan: at %s, %s has taken message #%d from %s, but at %s, %s had sent only %d. A state that took a message never sent never existed: the line moves %s back to %s (rollback %d)",
		label(env, sim.NodeID(to), at.ID), env.Name(sim.NodeID(to)), at.Recv[from], env.Name(sim.NodeID(from)), label(env, sim.NodeID(from), r.Cands[from][r.Line[from]].ID), env.Name(sim.NodeID(from)), sent,
		env.Name(sim.NodeID(to)), label(env, sim.NodeID(to), back.ID), r.Steps)
}

// finish settles the line and sends everyone its point on it; it returns
// the caption's words.
func (p *Proc) finish(env *sim.Env) string {
	r := p.rec
	r.phase = restoring
	p.Propagated += r.Steps
	env.Annotate(sim.At(RoleLine, r.Epoch, ""))
	me := env.Self()
	for j := range env.N() {
		if sim.NodeID(j) != me {
			p.sendRollback(env, j)
		}
	}
	text := p.restore(env, r.Cands[me][r.Line[me]].ID, p.sentTo(int(me)), r.Epoch)
	r.Restored[me] = true
	return fmt.Sprintf("It sends everyone its point on the line; %s", text)
}

// sendRollback sends process j its point on the line, and what every
// other point had sent it.
func (p *Proc) sendRollback(env *sim.Env, j int) {
	r := p.rec
	data := []int64{int64(r.Cands[j][r.Line[j]].ID)}
	for _, x := range p.sentTo(j) {
		data = append(data, int64(x))
	}
	env.Send(sim.NodeID(j), sim.Message{Kind: KindRollback, Value: int64(r.Epoch), Label: "ROLLBACK to " + label(env, sim.NodeID(j), r.Cands[j][r.Line[j]].ID), Data: data})
	p.Control++
}

// sentTo is what every point on the line had sent to process j.
func (p *Proc) sentTo(j int) []int {
	r := p.rec
	sent := make([]int, len(r.Line))
	for i := range sent {
		sent[i] = r.Cands[i][r.Line[i]].Sent[j]
	}
	return sent
}

// rollback restores the point process 1 sent, once.
func (p *Proc) rollback(env *sim.Env, ev sim.Event) {
	me, e := env.Name(env.Self()), int(ev.Msg.Value)
	d := ev.Msg.Data
	switch {
	case e <= p.Epoch:
		env.Explain("%s drops a ROLLBACK of recovery %d: it has restored that line already", me, e)
		return
	case len(d) != 1+env.N() || p.find(int(d[0])) < 0:
		env.Explain("%s drops a ROLLBACK of recovery %d: it names no checkpoint %s keeps", me, e, me)
		return
	}
	sent := make([]int, env.N())
	for i := range sent {
		sent[i] = int(d[1+i])
	}
	text := p.restore(env, int(d[0]), sent, e)
	env.Send(Manager, sim.Message{Kind: KindRestored, Value: int64(e), Label: fmt.Sprintf("RESTORED e%d", e)})
	p.Control++
	env.Explain("%s", strings.ToUpper(text[:1])+text[1:])
}

// find is the index of checkpoint id among those kept, or −1.
func (p *Proc) find(id int) int {
	for i, c := range p.Checkpoints {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// restore rolls the process back to checkpoint id, replays a global
// checkpoint's channel state, counts as lost the messages its senders'
// points had sent that it never took, and saves the result as a base; it
// returns the caption's words.
func (p *Proc) restore(env *sim.Env, id int, sent []int, e int) string {
	me := env.Name(env.Self())
	c := p.Checkpoints[max(p.find(id), 0)]
	before := p.Work
	p.Work, p.Sent, p.Recv = c.Work, append([]int(nil), c.Sent...), append([]int(nil), c.Recv...)
	replayed := 0
	for q, m := range c.Channel {
		p.Work += m
		p.Recv[q] += m
		replayed += m
	}
	lost := 0
	for q := range sent {
		if sent[q] > p.Recv[q] {
			lost += sent[q] - p.Recv[q]
			p.Recv[q] = sent[q]
		}
	}
	undone := max(before-p.Work, 0)
	p.LostWork += undone
	p.LostMsgs += lost
	p.RolledBack++
	if c.ID == 0 {
		p.ToInitial++
	}
	p.Epoch, p.Restored = e, true
	p.save(env, 0, true)
	text := fmt.Sprintf("%s rolls back to %s: %d unit(s) of work undone", me, label(env, env.Self(), c.ID), undone)
	if undone == 0 {
		text = fmt.Sprintf("%s restores %s, which is where it stopped: nothing is undone", me, label(env, env.Self(), c.ID))
	}
	env.Annotate(sim.At(RoleRollback, e, fmt.Sprintf("back to %s, %d undone", label(env, env.Self(), c.ID), undone)))
	if replayed > 0 {
		text += fmt.Sprintf(", %d message(s) of its channel state taken again", replayed)
	}
	if lost > 0 {
		text += fmt.Sprintf(", %d message(s) lost: sent before the line, not taken before it, and logged nowhere", lost)
	}
	return text + fmt.Sprintf("; it saves this as its new starting point and waits, in epoch %d, for RESUME", e)
}

// resume lets the process work again once everyone has restored.
func (p *Proc) resume(env *sim.Env, ev sim.Event) {
	me, e := env.Name(env.Self()), int(ev.Msg.Value)
	if !p.Frozen || !p.Restored || p.Epoch != e {
		// not restored: stopped again for a later recovery, which this
		// RESUME, a copy or overtaken, does not end
		env.Explain("%s drops a RESUME of recovery %d: it has not restored that recovery's line", me, e)
		return
	}
	p.unfreeze(env)
	env.Explain("%s resumes work in epoch %d", me, e)
}

func (p *Proc) unfreeze(env *sim.Env) {
	p.Frozen, p.Restored, p.Resumed = false, false, p.Epoch
	env.Annotate(sim.Closes(RoleFrozen, 0))
	p.armCheckpoint(env)
}
