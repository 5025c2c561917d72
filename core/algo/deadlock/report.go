package deadlock

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// RealName is the invariant's name.
const RealName = "a deadlock detected is real"

func proc(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

// waitsNow reports whether i waits for j now: it waits for j's REPLY and
// none is on its way.
func waitsNow(v sim.View, i, j sim.NodeID) bool {
	if !proc(v, i).Waits[j] {
		return false
	}
	return !check.Carries(v, j, i, KindReply)
}

// realDeadlock holds every detection's verdict to the run: a cycle it
// announced is in the wait-for graph now (a deadlock, once there, stays).
var realDeadlock = sim.Invariant{
	Name: RealName,
	Help: "every cycle a detection announced is in the wait-for graph as it is now: each process in it waits for the next, and no REPLY is on its way",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			cycle := proc(v, sim.NodeID(i)).Cycle
			for k, a := range cycle {
				b := cycle[(k+1)%len(cycle)]
				if !waitsNow(v, a, b) {
					return sim.Verdict{Detail: fmt.Sprintf("%s announced the deadlock %s, but %s does not wait for %s: the cycle was drawn from answers of different moments, and never was (a phantom deadlock)",
						v.Name(sim.NodeID(i)), cycleText(v, cycle), v.Name(a), v.Name(b))}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// waitsFor draws who waits for whom now.
func waitsFor(v sim.View) []sim.Overlay {
	var out []sim.Overlay
	for i := range v.N() {
		for j := range v.N() {
			if i != j && waitsNow(v, sim.NodeID(i), sim.NodeID(j)) {
				out = append(out, sim.Overlay{Role: RoleWaitsFor, Node: sim.NodeID(i), Peer: sim.NodeID(j)})
			}
		}
	}
	return out
}

func metrics(v sim.View) []sim.Metric {
	var requests, replies, control, waiting, deadlocks int
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		requests += p.Requests
		replies += p.Replies
		control += p.Control
		if p.waiting() {
			waiting++
		}
		if len(p.Cycle) > 0 {
			deadlocks++
		}
	}
	return []sim.Metric{
		{Name: "requests", Value: requests},
		{Name: "replies", Value: replies},
		{Name: "detection_messages", Value: control},
		{Name: "waiting", Value: waiting},
		{Name: "deadlocks_announced", Value: deadlocks},
	}
}

func formula(v sim.View) string {
	n := v.N()
	if proc(v, 0).params.Naive {
		return fmt.Sprintf("Naive detection: ASK and STATE to each other process, 2(N−1) = %d messages, one after another.", 2*(n-1))
	}
	return fmt.Sprintf("Snapshot detection: N(N−1) = %d markers and N−1 = %d reports per detection.", n*(n-1), n-1)
}

func panels(v sim.View) []sim.Panel {
	pn := sim.Panel{Title: "Wait-for graph", Columns: []string{"process", "waits for", "owes a REPLY to", "last verdict"}}
	for i := range v.N() {
		p := proc(v, sim.NodeID(i))
		var waits, owes []string
		for q, w := range p.Waits {
			if w {
				waits = append(waits, v.Name(sim.NodeID(q)))
			}
		}
		for _, q := range p.Owes {
			owes = append(owes, v.Name(q))
		}
		verdict := "—"
		if p.Verdict != "" {
			verdict = p.Verdict
		}
		pn.Rows = append(pn.Rows, sim.Row{Cells: []string{v.Name(sim.NodeID(i)), listOr(waits, "nobody"), listOr(owes, "nobody"), verdict}})
	}
	return []sim.Panel{pn}
}

// FoundName and VerdictName name the invariants that hold detections to
// their job: finding a deadlock that is there, and coming to an end.
const (
	FoundName   = "a deadlock there when a detection starts is found"
	VerdictName = "every detection comes to a verdict"
)

// foundDeadlock holds a verdict of no deadlock to the wait-for graph at
// the detection's start: a deadlock is stable, so a cycle there then is
// there at every later moment, the cut or the answers included.
var foundDeadlock = sim.Invariant{
	Name: FoundName,
	Help: "a detection that announces no deadlock started when the wait-for graph had no cycle: a deadlock stays, so one there at the start is on the detection's cut",
	Check: eachVerdict(func(v sim.View, initiator sim.NodeID, round int) string {
		if len(proc(v, initiator).Cycle) > 0 {
			return ""
		}
		start := detectionStart(v, initiator, round)
		if start < 0 {
			return ""
		}
		if cycle := cycleIn(waitsAtCut(v, check.StraightCut(v.N(), start))); len(cycle) > 0 {
			return fmt.Sprintf("%s announced no deadlock in detection %d, but %s was a deadlock when the detection started (step %d), and a deadlock stays",
				v.Name(initiator), round, cycleText(v, cycle), start+1)
		}
		return ""
	}),
}

// eachVerdict is a check of the verdicts announced at the step just
// taken: wrong says what is wrong with the verdict of detection round,
// which initiator announced ("" for nothing), and the check fails at the
// first.
func eachVerdict(wrong func(v sim.View, initiator sim.NodeID, round int) string) func(sim.View) sim.Verdict {
	return func(v sim.View) sim.Verdict {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleVerdict {
				continue
			}
			if initiator := announcer(v, a.Group); initiator >= 0 {
				if detail := wrong(v, initiator, a.Group); detail != "" {
					return sim.Verdict{Detail: detail}
				}
			}
		}
		return sim.Verdict{OK: true}
	}
}

// announcer is the process that announced detection round's verdict at
// the step just taken, or None.
func announcer(v sim.View, round int) sim.NodeID {
	for i := range v.N() {
		if v.AnnotationStep(sim.NodeID(i), RoleVerdict, round) == v.Steps()-1 {
			return sim.NodeID(i)
		}
	}
	return sim.None
}

// detectionStart is the step at which initiator started detection round:
// its recording point, or (a naive detection, which records nothing) the
// step that sent its first question; -1 if neither.
func detectionStart(v sim.View, initiator sim.NodeID, round int) int {
	if at := v.AnnotationStep(initiator, RoleRecorded, round); at >= 0 {
		return at
	}
	return check.FirstSent(v, initiator, KindAsk, int64(round))
}

// cycleIn finds a cycle in the graph whose edges are waits[i][j], or nil.
// It is the checks' own, found another way than the detector's search
// (findCycle), so that a fault in one is not hidden by the same fault in
// the other: it peels off every process that waits for nobody left, and
// what remains, if anything, each waits for another that remains; a walk
// from the first of them along its first wait comes back round.
func cycleIn(waits [][]bool) []sim.NodeID {
	n := len(waits)
	left := make([]bool, n)
	for i := range left {
		left[i] = true
	}
	waitsForOneLeft := func(i int) int {
		for j := range n {
			if waits[i][j] && left[j] {
				return j
			}
		}
		return -1
	}
	for peeled := true; peeled; {
		peeled = false
		for i := range n {
			if left[i] && waitsForOneLeft(i) < 0 {
				left[i], peeled = false, true
			}
		}
	}
	start := slices.Index(left, true)
	if start < 0 {
		return nil
	}
	var walk []sim.NodeID
	for i := start; !slices.Contains(walk, sim.NodeID(i)); i = waitsForOneLeft(i) {
		walk = append(walk, sim.NodeID(i))
	}
	i := waitsForOneLeft(int(walk[len(walk)-1]))
	return walk[slices.Index(walk, sim.NodeID(i)):]
}

// comesToAVerdict holds detections to their end: once nothing is on its
// way to a process that is up, no process is still in a detection, and
// each detection's initiator (the first to record its state) has
// announced its verdict.
var comesToAVerdict = sim.Invariant{
	Name: VerdictName,
	Help: "once nothing is on its way to a live process, every detection started has its verdict and no process waits for a detection's marker, report or answer; and no process keeps its part of a detection it has finished",
	Check: func(v sim.View) sim.Verdict {
		// A process's parts change only with its own steps; and a step
		// that took nothing off the channels (no delivery, no fault) left
		// them as quiet as before, when every process was checked: then
		// only the process that stepped is read again.
		stepped, ev, ok := v.LastStep()
		only := ok && ev.Kind != sim.Deliver && ev.Kind != sim.Recover && ev.Kind != sim.Init
		for i := range v.N() {
			if ok && sim.NodeID(i) != stepped {
				continue
			}
			if why := proc(v, sim.NodeID(i)).keepsFinished(v, sim.NodeID(i)); why != "" {
				return sim.Verdict{Detail: why}
			}
		}
		if check.InFlightToLive(v) {
			return sim.Verdict{OK: true}
		}
		rounds, stuck := 0, ""
		for i := range v.N() {
			rounds = max(rounds, proc(v, sim.NodeID(i)).Next)
		}
		for i := range v.N() {
			id := sim.NodeID(i)
			p := proc(v, id)
			if v.Health(id) == sim.Crashed || only && id != stepped {
				continue
			}
			// a missing marker is named before the report it holds up
			if why, marker := p.underWay(v, id); why != "" && (stuck == "" || marker) {
				stuck = why
				if marker {
					break
				}
			}
		}
		if stuck != "" {
			return sim.Verdict{Detail: "nothing is on its way to a live process, but " + stuck}
		}
		// each process's latest detection of its own (its numbers are its
		// residue: see nextRound) has its verdict, if it started one
		n := v.N()
		for i := range n {
			id := sim.NodeID(i)
			r := latestRound(rounds, id, n)
			if r < 1 || v.Health(id) == sim.Crashed || only && id != stepped || proc(v, id).inDetection(r) {
				continue // none yet, or under way (held up by a process that is down)
			}
			if started := v.AnnotationStep(id, RoleRecorded, r); started >= 0 && v.AnnotationStep(id, RoleVerdict, r) < 0 {
				return sim.Verdict{Detail: fmt.Sprintf("nothing is on its way to a live process, but %s started detection %d at step %d and has announced no verdict", v.Name(id), r, started+1)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// keepsFinished names a part of a detection the process has finished and
// still keeps (its part reported, or, at the initiator, every report in),
// or "": a process forgets a detection it is done with, or its parts pile
// up for as long as it runs.
func (p *Process) keepsFinished(v sim.View, self sim.NodeID) string {
	for _, x := range p.parts {
		if !x.Complete(self) {
			continue
		}
		if x.initiator != self || !slices.ContainsFunc(x.reports, func(r []bool) bool { return r == nil }) {
			return fmt.Sprintf("%s keeps its part of detection %d, which it has finished", v.Name(self), x.round)
		}
	}
	return ""
}

// inDetection reports whether the process still takes part in its own
// detection round.
func (p *Process) inDetection(round int) bool {
	return slices.ContainsFunc(p.parts, func(x *part) bool { return x.round == round })
}

// underWay says what the process still waits for in a detection, or "",
// and whether that is a marker.
func (p *Process) underWay(v sim.View, self sim.NodeID) (why string, marker bool) {
	me := v.Name(self)
	if p.poll != nil {
		return fmt.Sprintf("%s still waits for answers to detection %d", me, p.poll.round), false
	}
	for _, x := range p.parts {
		var from []string
		// a process that is down holds up a detection until it recovers
		// (and keeps its part): it is waited for, not lost
		waitsOnDown := false
		for q, closed := range x.Closed {
			if closed || sim.NodeID(q) == self {
				continue
			}
			if v.Health(sim.NodeID(q)) == sim.Crashed {
				waitsOnDown = true
				continue
			}
			from = append(from, v.Name(sim.NodeID(q)))
		}
		if len(from) > 0 || !x.Recorded {
			return fmt.Sprintf("%s still waits for the markers of detection %d from %s", me, x.round, listOr(from, "nobody")), true
		}
		if waitsOnDown {
			continue
		}
		for q, r := range x.reports {
			if r == nil && v.Health(sim.NodeID(q)) != sim.Crashed {
				from = append(from, v.Name(sim.NodeID(q)))
			}
		}
		if len(from) == 0 {
			continue
		}
		return fmt.Sprintf("%s still waits for the reports of detection %d from %s", me, x.round, listOr(from, "nobody")), false
	}
	return "", false
}

// HeldName and DrawnName name the invariants that hold the processes'
// books to their messages and to the picture.
const (
	HeldName  = "every wait is held by a process that waits, or is on its way"
	DrawnName = "a process is drawn waiting exactly while it waits"
)

// waitsHeld is the protocol's own bookkeeping: a process waits for a
// REPLY only while its REQUEST is on its way or owed by a process that
// waits itself (one that waits for nobody answers at once), and a process
// owes a REPLY only to a process that waits for it.
var waitsHeld = sim.Invariant{
	Name: HeldName,
	Help: "a process that waits for another's REPLY has its REQUEST on its way, or owed by that process, which waits itself; a process owes only processes that wait for it",
	Check: func(v sim.View) sim.Verdict {
		// A pair's books change only with a step of one of the two that
		// is about the other (a message from or to it, a command naming
		// it), or with a fault: after such a step only those pairs are
		// read again, so that the check costs a few pairs a step.
		stepped, ev, ok := v.LastStep()
		if !ok || ev.Kind == sim.Init || ev.Kind == sim.Recover {
			for i := range v.N() {
				for j := range v.N() {
					if ok && i != int(stepped) && j != int(stepped) {
						continue
					}
					if why := unheld(v, sim.NodeID(i), sim.NodeID(j)); why != "" {
						return sim.Verdict{Detail: why}
					}
				}
			}
			return sim.Verdict{OK: true}
		}
		pair := func(other sim.NodeID) string {
			if why := unheld(v, stepped, other); why != "" {
				return why
			}
			return unheld(v, other, stepped)
		}
		why := pair(stepped)
		if why == "" && ev.Kind == sim.Deliver {
			why = pair(ev.From)
		}
		if why == "" && ev.Kind == sim.Command && ev.Target != sim.None {
			why = pair(ev.Target)
		}
		for id := v.SentFrom(v.Steps() - 1); why == "" && id < v.NumSent(); id++ {
			why = pair(v.Envelope(id).To)
		}
		if why != "" {
			return sim.Verdict{Detail: why}
		}
		return sim.Verdict{OK: true}
	},
}

// unheld says what is wrong with the books of i and j, i's wait for j and
// its debt to j, or "".
func unheld(v sim.View, i, j sim.NodeID) string {
	p, q := proc(v, i), proc(v, j)
	if i == j {
		if p.Waits[i] {
			return fmt.Sprintf("%s waits for itself: a process asks only another", v.Name(i))
		}
		return ""
	}
	if slices.Contains(p.Owes, j) {
		if !p.waiting() {
			return fmt.Sprintf("%s waits for nobody but still owes %s a REPLY", v.Name(i), v.Name(j))
		}
		if !q.Waits[i] {
			return fmt.Sprintf("%s owes %s a REPLY, but %s does not wait for it", v.Name(i), v.Name(j), v.Name(j))
		}
	}
	if waitsNow(v, i, j) && !check.Carries(v, i, j, KindRequest) && (!q.waiting() || !slices.Contains(q.Owes, i)) {
		return fmt.Sprintf("%s waits for %s's REPLY, but no REQUEST of its is on its way and %s does not hold one: the wait can never end", v.Name(i), v.Name(j), v.Name(j))
	}
	return ""
}

// drawnWaiting holds the picture to the processes: a process's waiting
// interval is open exactly while it waits for a REPLY.
var drawnWaiting = sim.Invariant{
	Name: DrawnName,
	Help: "the diagram draws a process that is not down waiting exactly while it waits for a REPLY",
	Check: func(v sim.View) sim.Verdict {
		switch id, drawn := check.Misdrawn(v, RoleWaiting, 0, func(id sim.NodeID) bool { return proc(v, id).waiting() }); {
		case id == sim.None:
			return sim.Verdict{OK: true}
		case drawn:
			return sim.Verdict{Detail: fmt.Sprintf("%s is drawn waiting, but waits for nobody", v.Name(id))}
		default:
			return sim.Verdict{Detail: fmt.Sprintf("%s waits for a REPLY, but is not drawn waiting", v.Name(id))}
		}
	},
}

// ObeysName and CutName name the checks that hold a process to what it
// is told and a detection's verdict to its cut.
const (
	ObeysName = "a process does what it is told"
	CutName   = "a detection announces a cycle exactly when its cut holds one"
)

// obeys holds a process to the command or work it was given: after a
// request it waits for the process it asked (it may have waited already),
// and after detect it has a detection under way, numbered as its latest.
var obeys = sim.Invariant{
	Name: ObeysName,
	Help: "after a request, of the learner's or of its work, a process waits for the process asked; after detect, it runs a detection",
	Check: func(v sim.View) sim.Verdict {
		id, ev, ok := v.LastStep()
		if !ok {
			return sim.Verdict{OK: true}
		}
		p := proc(v, id)
		switch {
		case ev.Kind == sim.Command && ev.Tag == CmdRequest && !p.Waits[ev.Target]:
			return sim.Verdict{Detail: fmt.Sprintf("%s was told to ask %s, but does not wait for its REPLY", v.Name(id), v.Name(ev.Target))}
		case ev.Kind == sim.Workload && !p.waiting():
			return sim.Verdict{Detail: fmt.Sprintf("%s asked another process at work, but waits for nobody", v.Name(id))}
		case ev.Kind == sim.Command && ev.Tag == CmdDetect && !p.detecting(id):
			return sim.Verdict{Detail: fmt.Sprintf("%s was told to detect a deadlock, but runs no detection", v.Name(id))}
		}
		return sim.Verdict{OK: true}
	},
}

// detecting reports whether the process runs its latest detection.
func (p *Process) detecting(self sim.NodeID) bool {
	if p.poll != nil {
		return p.poll.round == p.Next
	}
	return slices.ContainsFunc(p.parts, func(x *part) bool { return x.initiator == self && x.round == p.Next })
}

// verdictOfTheCut holds a snapshot detection's verdict to the wait-for
// graph on its cut, read off the messages: i waited for j there when it
// had asked j before its recording point more often than j had answered
// before its own (an answer on its way at the cut ends the wait).
var verdictOfTheCut = sim.Invariant{
	Name: CutName,
	Help: "a snapshot detection draws the wait-for graph on its cut, read off the REQUESTs and REPLYs on either side of it, and announces a deadlock exactly when that graph has a cycle, the cycle it announces in it",
	Check: eachVerdict(func(v sim.View, initiator sim.NodeID, round int) string {
		p := proc(v, initiator)
		if !strings.HasPrefix(p.Verdict, fmt.Sprintf("detection %d: ", round)) {
			return fmt.Sprintf("%s announced detection %d's verdict, but its field says %q", v.Name(initiator), round, p.Verdict)
		}
		if p.params.Naive {
			return ""
		}
		cut := v.AnnotationSteps(RoleRecorded, round)
		if i := slices.Index(cut, -1); i >= 0 {
			return fmt.Sprintf("%s announced detection %d's verdict, but %s is not drawn on its cut", v.Name(initiator), round, v.Name(sim.NodeID(i)))
		}
		waits := waitsAtCut(v, cut)
		for i := range min(len(waits), len(p.Graph)) {
			for j := range min(len(waits[i]), len(p.Graph[i])) {
				if p.Graph[i][j] != waits[i][j] {
					return fmt.Sprintf("%s drew detection %d's graph with %s %s for %s, but on its cut %s", v.Name(initiator), round, v.Name(sim.NodeID(i)), map[bool]string{true: "waiting", false: "not waiting"}[p.Graph[i][j]], v.Name(sim.NodeID(j)), map[bool]string{true: "it waited", false: "it did not wait"}[waits[i][j]])
				}
			}
		}
		if there := cycleIn(waits); len(p.Cycle) == 0 && len(there) > 0 {
			return fmt.Sprintf("%s announced no deadlock in detection %d, but its cut holds the cycle %s", v.Name(initiator), round, cycleText(v, there))
		}
		for k, from := range p.Cycle {
			if to := p.Cycle[(k+1)%len(p.Cycle)]; !waits[from][to] {
				return fmt.Sprintf("%s announced the deadlock %s in detection %d, but on its cut %s did not wait for %s", v.Name(initiator), cycleText(v, p.Cycle), round, v.Name(from), v.Name(to))
			}
		}
		return ""
	}),
}

// waitsAtCut is the wait-for graph on a cut (each process's recording
// step, outside it): i waits for j when it sent j more REQUESTs inside
// the cut than j sent it REPLYs inside the cut.
func waitsAtCut(v sim.View, cut []int) [][]bool {
	n := v.N()
	asked, answered := make([]int, n*n), make([]int, n*n)
	for e := range check.SentInside(v, cut) {
		switch e.Kind {
		case KindRequest:
			asked[int(e.From)*n+int(e.To)]++
		case KindReply:
			answered[int(e.To)*n+int(e.From)]++
		}
	}
	waits := make([][]bool, n)
	for i := range waits {
		waits[i] = make([]bool, n)
		for j := range waits[i] {
			waits[i][j] = asked[i*n+j] > answered[i*n+j]
		}
	}
	return waits
}
