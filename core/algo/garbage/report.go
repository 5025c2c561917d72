package garbage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const freedName = "the object is freed only when it is garbage"

// freedOnlyWhenGarbage is what a collector must never break: once the
// owner has freed the object, no process holds a reference to it and no
// REF is on its way to one (which, garbage being stable, then holds for
// good).
var freedOnlyWhenGarbage = sim.Invariant{
	Name: freedName,
	Help: "after the owner frees the object, no process holds a reference and no REF is on its way",
	Check: func(v sim.View) sim.Verdict {
		if !process(v, Owner).Collector.Freed {
			return sim.Verdict{OK: true}
		}
		var holders []string
		for i := range v.N() {
			if process(v, sim.NodeID(i)).Holds > 0 {
				holders = append(holders, v.Name(sim.NodeID(i)))
			}
		}
		flying := v.InFlightTotal(KindRef).Count
		if len(holders) == 0 && flying == 0 {
			return sim.Verdict{OK: true}
		}
		var parts []string
		if len(holders) > 0 {
			verb := " holds a reference"
			if len(holders) > 1 {
				verb = " hold references"
			}
			parts = append(parts, strings.Join(holders, " and ")+verb)
		}
		if flying > 0 {
			parts = append(parts, fmt.Sprintf("%d REF on its way", flying))
		}
		return sim.Verdict{Detail: fmt.Sprintf("%s freed the object at tick %d, but %s: it was not garbage", v.Name(Owner), process(v, Owner).Collector.FreedAt, strings.Join(parts, ", and "))}
	},
}

// references counts the references held and on their way.
func references(v sim.View) (held, flying int) {
	for i := range v.N() {
		held += process(v, sim.NodeID(i)).Holds
	}
	return held, v.InFlightTotal(KindRef).Count
}

func metrics(v sim.View) []sim.Metric {
	c := process(v, Owner).Collector
	held, flying := references(v)
	control := 0
	for i := range v.N() {
		control += process(v, sim.NodeID(i)).Control
	}
	return []sim.Metric{
		{Name: "freed", Value: c.Freed},
		{Name: "checks", Value: c.Check},
		{Name: "references_held", Value: held},
		{Name: "references_in_flight", Value: flying},
		{Name: "control_messages", Value: control},
	}
}

func panels(v sim.View) []sim.Panel {
	c := process(v, Owner).Collector
	note := "the owner frees the object when a check finds no reference"
	panel := sim.Panel{Title: "References", Note: note, Columns: []string{"process", "health", "references", "check"}}
	for i := range v.N() {
		id := sim.NodeID(i)
		check := ""
		if id == Owner {
			switch {
			case c.Freed:
				check = fmt.Sprintf("freed the object at tick %d", c.FreedAt)
			case c.Pending:
				check = fmt.Sprintf("check %d under way, %d references found so far", c.Check, c.Found)
			default:
				check = strconv.Itoa(c.Check) + " checks done"
			}
		}
		panel.Rows = append(panel.Rows, sim.Row{Cells: []string{v.Name(id), v.Health(id).String(), strconv.Itoa(process(v, id).Holds), check}})
	}
	return []sim.Panel{panel}
}

// formula says where the references are.
func formula(v sim.View) string {
	held, flying := references(v)
	return fmt.Sprintf("references held: %d; REFs on their way: %d. The object is garbage when both are 0, and stays so: nobody can make a reference without holding one.", held, flying)
}

// The checks that hold the collector to its job and the picture to the
// processes.
const (
	VerdictName       = "a check's verdict is what its cut holds"
	KeepsCheckingName = "the owner checks until it frees the object"
	ChecksEndName     = "every check comes to an end"
	DrawnName         = "a process is drawn holding exactly while it holds a reference"
	ObeysName         = "a process does what it is told"
)

// verdictOfTheCut holds each check's verdict to the references there were
// at its cut, read off the picture (who was drawn holding at their
// recording point) and the messages (a REF sent inside the cut and not
// received inside it crosses it), not off the processes' own counts. A
// check that only asks is held to its start, as a straight cut, and only
// in one direction: the garbage there was then it must find (the
// references it thinks it sees are its erratum, which the first check
// shows).
var verdictOfTheCut = sim.Invariant{
	Name: VerdictName,
	Help: "a check by snapshot frees the object exactly when nobody held a reference at its cut and no REF crossed it, every process drawn on the cut; a check that only asks frees an object that was garbage when it started; a check's end is marked, and a freeing drawn",
	Check: func(v sim.View) sim.Verdict {
		owner := process(v, Owner)
		// only the owner's own steps (or a fault) end a check or draw it
		stepped, _, ok := v.LastStep()
		if c := owner.Collector; (!ok || stepped == Owner) && v.Health(Owner) != sim.Crashed && !c.Pending && c.Check > 0 {
			// the check's end is marked where it happened, and a freeing drawn
			if v.AnnotationStep(Owner, roleChecked, c.Check) < 0 {
				return sim.Verdict{Detail: fmt.Sprintf("%s has ended check %d, but the step that ended it is not marked", v.Name(Owner), c.Check)}
			}
			if c.Freed && v.AnnotationStep(Owner, RoleFreed, 0) < 0 {
				return sim.Verdict{Detail: fmt.Sprintf("%s has freed the object, but is not drawn freeing it", v.Name(Owner))}
			}
		}
		for _, a := range v.LastAnnotations() {
			if a.Role != roleChecked {
				continue
			}
			cut, byAsking := checkCut(v, a.Group, owner.Snapshot)
			if cut == nil {
				continue
			}
			if i := slices.Index(cut, -1); i >= 0 {
				return sim.Verdict{Detail: fmt.Sprintf("check %d has ended, but %s is not drawn on its cut", a.Group, v.Name(sim.NodeID(i)))}
			}
			where := fmt.Sprintf("at the cut of check %d", a.Group)
			if byAsking {
				where = fmt.Sprintf("when check %d started (step %d)", a.Group, cut[0]+1)
			}
			why := referenceAt(v, cut)
			switch {
			case owner.Collector.Freed && why != "" && !byAsking:
				return sim.Verdict{Detail: fmt.Sprintf("%s freed the object, but %s %s: it was not garbage there", v.Name(Owner), why, where)}
			case !owner.Collector.Freed && why == "":
				return sim.Verdict{Detail: fmt.Sprintf("check %d found references, but %s nobody held one and no REF was on its way: the object was garbage, and stays so", a.Group, where)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// checkCut is check k's cut: each process's recording point (-1 for one
// not drawn recording), or, for a check that only asks, the step that
// asked, for every process; nil when it cannot be read.
func checkCut(v sim.View, k int, bySnapshot bool) (cut []int, byAsking bool) {
	if bySnapshot {
		return v.AnnotationSteps(RoleRecorded, k), false
	}
	if asked := check.FirstSent(v, Owner, KindAsk, int64(k)); asked >= 0 {
		return check.StraightCut(v.N(), asked), true
	}
	return nil, true
}

// referenceAt names a reference there was at a cut (each process's step,
// the step itself outside): a process drawn holding one, or a REF that
// crossed it; "" when there was none.
func referenceAt(v sim.View, cut []int) string {
	for i := range v.N() {
		if v.DrawnBefore(sim.NodeID(i), RoleHolds, 0, cut[i]) {
			return v.Name(sim.NodeID(i)) + " held a reference"
		}
	}
	for e := range check.SentInside(v, cut) {
		if e.Kind != KindRef || e.DropStep >= 0 {
			continue
		}
		if e.RecvStep < 0 || !check.Inside(cut, e.To, e.RecvStep) {
			return fmt.Sprintf("a REF from %s to %s was on its way", v.Name(e.From), v.Name(e.To))
		}
	}
	return ""
}

// keepsChecking is the collector's progress: until it has freed the
// object, the owner has a check under way or its next one due.
var keepsChecking = sim.Invariant{
	Name: KeepsCheckingName,
	Help: "until the owner frees the object, it has a check under way or its timer set for the next",
	Check: func(v sim.View) sim.Verdict {
		c := process(v, Owner).Collector
		if c.Freed || c.Pending || v.Health(Owner) == sim.Crashed {
			return sim.Verdict{OK: true}
		}
		if _, armed := v.Timer(Owner, TimerCheck); armed {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("%s has not freed the object, has no check under way and none due: garbage would never be collected", v.Name(Owner))}
	},
}

// checksEnd is a check's progress: once nothing is on its way to a
// process that is up, the owner waits for no answer or report, unless
// from a process that is down (which keeps its part).
var checksEnd = sim.Invariant{
	Name: ChecksEndName,
	Help: "the owner ends a check once it has every process's word, and once nothing is on its way to a live process, it waits for no answer or report of a check, but from a process that is down",
	Check: func(v sim.View) sim.Verdict {
		c := process(v, Owner).Collector
		if !c.Pending || v.Health(Owner) == sim.Crashed {
			return sim.Verdict{OK: true}
		}
		if !slices.Contains(c.Heard, false) {
			return sim.Verdict{Detail: fmt.Sprintf("%s has every word of check %d but has not ended it", v.Name(Owner), c.Check)}
		}
		if check.InFlightToLive(v) {
			return sim.Verdict{OK: true}
		}
		var missing []string
		for q, heard := range c.Heard {
			if !heard {
				if v.Health(sim.NodeID(q)) == sim.Crashed {
					return sim.Verdict{OK: true}
				}
				missing = append(missing, v.Name(sim.NodeID(q)))
			}
		}
		if len(missing) == 0 {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("nothing is on its way to a live process, but %s still waits for check %d's word from %s", v.Name(Owner), c.Check, strings.Join(missing, " and "))}
	},
}

// drawnHolding holds the picture to the processes: a process's holding
// bar is drawn exactly while it holds a reference.
var drawnHolding = sim.Invariant{
	Name: DrawnName,
	Help: "the diagram draws a process that is not down holding exactly while it holds a reference",
	Check: func(v sim.View) sim.Verdict {
		id, drawn := check.Misdrawn(v, RoleHolds, 0, func(id sim.NodeID) bool { return process(v, id).Holds > 0 })
		if id == sim.None {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("%s holds %s, but is drawn %s", v.Name(id), refs(process(v, id).Holds), map[bool]string{true: "holding", false: "holding none"}[drawn])}
	},
}

// obeys holds a process to the command it was given: the owner told to
// check has a check under way (or has freed the object), and a process
// told to copy the reference it holds sends a REF to the process named.
var obeys = sim.Invariant{
	Name: ObeysName,
	Help: "after check the owner has a check under way, unless the object is freed; after copy a process that holds a reference has sent a REF to the process named",
	Check: func(v sim.View) sim.Verdict {
		id, ev, ok := v.LastStep()
		if !ok || ev.Kind != sim.Command {
			return sim.Verdict{OK: true}
		}
		p := process(v, id)
		switch ev.Tag {
		case CmdCheck:
			if c := p.Collector; !c.Pending && !c.Freed {
				return sim.Verdict{Detail: fmt.Sprintf("%s was told to check, but has no check under way", v.Name(id))}
			}
		case CmdCopy:
			if p.Holds == 0 {
				break
			}
			if check.SentNow(v, id, ev.Target, KindRef) {
				return sim.Verdict{OK: true}
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s was told to copy its reference to %s, but sent no REF", v.Name(id), v.Name(ev.Target))}
		}
		return sim.Verdict{OK: true}
	},
}

// RulesName names the rules check.
const RulesName = "a process holds one more reference for each REF it takes and one fewer for each it drops, copies only one it holds, answers what it holds, reports its part once complete, and holds none after a crash"

// holdings follows how many references each process held before and
// after its last step, as an observer would count them: what the rules
// check reads of the state before a step, which a view does not keep.
type holdings struct {
	before, after []int
}

func newHoldings(n int) sim.Tally {
	return &holdings{before: make([]int, n), after: make([]int, n)}
}

// Note, Joined and Left: the count follows the processes alone.
func (h *holdings) Note(sim.Time, sim.NodeID, []sim.Annotation) {}
func (h *holdings) Joined(sim.Message)                          {}
func (h *holdings) Left(sim.Message)                            {}

// Stepped keeps the references the process held before and after the
// step it just took.
func (h *holdings) Stepped(id sim.NodeID, n sim.Node) {
	h.before[id], h.after[id] = h.after[id], n.(*Process).Holds
}

// Clone copies the counts.
func (h *holdings) Clone() sim.Tally {
	return &holdings{before: slices.Clone(h.before), after: slices.Clone(h.after)}
}

// rules holds each process to the algorithm's rules for the step it
// just took, read off the references it held before and after it and the
// messages it sent: a REF taken adds one, a drop takes one away, and
// nothing else changes the count but a crash, which leaves none; a copy
// is one REF to another process from a holder, at work (which copies or
// drops) or when told; an ASK is answered at once with what it holds; a
// part of a snapshot, once complete, is reported to the owner with what
// it recorded. It restates the rules rather than call the code it
// judges.
var rules = sim.Invariant{
	Name: RulesName,
	Help: "a REF taken adds a reference (haloed if its channel is being recorded) and a drop takes one away; a copy is one REF to another process, sent only by a holder; an ASK gets one ANSWER with the references held; a complete part of a snapshot is reported to the owner with what it recorded; a recovered process holds none and remembers no snapshot, and the owner no check under way",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		h, ok := v.Tally().(*holdings)
		if !ok || ev.Kind == sim.Init {
			return ""
		}
		p, before := process(v, id), h.before[id]
		var refs, others []sim.Envelope
		for e := range check.SentThisStep(v, id) {
			if e.Kind == KindRef {
				refs = append(refs, e)
			} else {
				others = append(others, e)
			}
		}
		for _, e := range refs {
			if e.To == id {
				return "sent a REF to itself"
			}
		}
		copies := len(refs) == 1 && p.Holds == before && before > 0
		switch {
		case ev.Kind == sim.Recover:
			if p.Holds != 0 || p.SnapK != 0 || p.Collector.Pending {
				return fmt.Sprintf("recovered holding %d references, remembering snapshot %d and with a check under way: %t", p.Holds, p.SnapK, p.Collector.Pending)
			}
			return ""
		case ev.Kind == sim.Workload && before == 0 || ev.Kind == sim.Command && ev.Tag == CmdCopy:
			if len(refs) > 0 && !copies || p.Holds != before {
				return fmt.Sprintf("held %d references, was asked to copy one, and sent %d REFs and holds %d", before, len(refs), p.Holds)
			}
		case ev.Kind == sim.Workload:
			if !copies && (len(refs) > 0 || p.Holds != before-1) {
				return fmt.Sprintf("held %d references and, at work, neither copied one nor dropped one: it sent %d REFs and holds %d", before, len(refs), p.Holds)
			}
		case ev.Kind == sim.Command && ev.Tag == CmdDrop:
			if len(refs) > 0 || p.Holds != max(before-1, 0) {
				return fmt.Sprintf("held %d references, was told to drop one, and holds %d", before, p.Holds)
			}
		case ev.Kind == sim.Deliver && ev.Msg.Kind == KindRef:
			if len(refs) > 0 || p.Holds != before+1 {
				return fmt.Sprintf("held %d references, took a REF, and holds %d", before, p.Holds)
			}
			// a REF taken on a channel its snapshot records is drawn so
			recording := p.SnapK > 0 && p.Snap.Recorded && !p.Snap.Closed[ev.From]
			haloed := false
			for _, a := range v.LastAnnotations() {
				haloed = haloed || a.Role == RoleInChannel && a.Group == p.SnapK && a.Msg == ev.MsgID
			}
			if haloed != recording {
				return fmt.Sprintf("took a REF from %s, recording that channel for snapshot %d: %t, and drew it recorded: %t", v.Name(ev.From), p.SnapK, recording, haloed)
			}
		case len(refs) > 0 || p.Holds != before:
			return fmt.Sprintf("held %d references and, on a %s, sent %d REFs and holds %d", before, ev.Kind, len(refs), p.Holds)
		}
		if ev.Kind == sim.Deliver && ev.Msg.Kind == KindAsk {
			if len(others) != 1 || others[0].Kind != KindAnswer || others[0].To != ev.From || others[0].Value != ev.Msg.Value || !slices.Equal(others[0].Data, []int64{int64(p.Holds), 0}) {
				return fmt.Sprintf("holds %d references, was asked by %s in check %d, and did not answer so at once", p.Holds, v.Name(ev.From), ev.Msg.Value)
			}
		}
		return reported(v, id, p, others)
	}),
}

// reported holds a process other than the owner to reporting its part
// of its latest snapshot once complete (recorded, and every channel's
// marker in), and a REPORT to what the part recorded.
func reported(v sim.View, id sim.NodeID, p *Process, sent []sim.Envelope) string {
	if id == Owner {
		return ""
	}
	r := p.Snap
	complete := snapshot.Done(&r.Part, id)
	for _, e := range sent {
		if e.Kind != KindReport {
			continue
		}
		if !complete || e.To != Owner || e.Value != int64(p.SnapK) || !slices.Equal(e.Data, []int64{int64(r.Held), int64(r.InChannel)}) {
			return fmt.Sprintf("reported snapshot %d, whose part it recorded as %d held and %d on its channels, as %v of snapshot %d to %s", p.SnapK, r.Held, r.InChannel, e.Data, e.Value, v.Name(e.To))
		}
	}
	if complete && !r.Reported {
		return fmt.Sprintf("has done its part of snapshot %d and has not reported it", p.SnapK)
	}
	return ""
}
