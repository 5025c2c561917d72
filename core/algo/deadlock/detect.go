package deadlock

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/snapshot"
	"spacetime/core/sim"
)

// detect starts a detection at this process: a snapshot, or the naive
// poll.
func (p *Process) detect(env *sim.Env) {
	me := env.Name(env.Self())
	p.Next = nextRound(p.Next, env.Self(), env.N())
	if p.params.Naive {
		p.startPoll(env)
		return
	}
	x := &part{Part: snapshot.NewPart(env.N()), initiator: env.Self(), round: p.Next, replied: make([]int, env.N()), reports: make([][]bool, env.N())}
	p.parts = append(p.parts, x)
	p.record(env, x)
	x.Recorded = true
	env.Explain("%s starts detection %d with a snapshot: it records whom it waits for (%s), sends a marker on every channel, and records the REPLYs that arrive on each until that channel's marker comes", me, p.Next, p.waitList(env))
}

// nextRound is the number of a detection process self starts, among n,
// when the highest it has seen is seen: the first above it that is self's
// own (1, n+1, 2n+1… for the first process, 2, n+2… for the second), as
// Paxos numbers its ballots. Two detections started at once by different
// processes never share a number, and so never a cut: a detection's
// annotations are grouped by its number.
func nextRound(seen int, self sim.NodeID, n int) int {
	r := seen + 1
	return r + (int(self)-(r-1)%n+n)%n
}

// latestRound is the highest detection number up to highest that is
// self's own (see nextRound), or one below 1 when none is.
func latestRound(highest int, self sim.NodeID, n int) int {
	return highest - (highest-1-int(self)+n)%n
}

// record records the process's waits for detection x and sends its
// markers. The annotations that make the detection's cut are grouped by
// its number (see nextRound).
func (p *Process) record(env *sim.Env, x *part) {
	x.waits = slices.Clone(p.Waits)
	env.Annotate(sim.At(RoleRecorded, x.round, "waits for "+p.waitList(env)))
	env.SendToOthers(sim.Message{Kind: KindMarker, Value: int64(x.round), Label: fmt.Sprintf("M%d", x.round), Data: []int64{int64(x.initiator)}})
	p.Control += env.N() - 1
}

// onMarker applies the marker rule; a complete part is reported.
func (p *Process) onMarker(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	if len(ev.Msg.Data) != 1 || ev.Msg.Data[0] < 0 || int(ev.Msg.Data[0]) >= env.N() {
		env.Explain("%s drops a marker that names no initiator", me)
		return
	}
	initiator, round := sim.NodeID(ev.Msg.Data[0]), int(ev.Msg.Value)
	p.Next = max(p.Next, round)
	var x *part
	for _, y := range p.parts {
		if y.initiator == initiator && y.round == round {
			x = y
		}
	}
	if x == nil {
		if initiator == env.Self() || round <= p.Done[initiator] {
			// a copy of a marker whose detection this process is done with
			env.Explain("%s drops %s's marker of detection %d of %s: its part of that one is done", me, them, round, env.Name(initiator))
			return
		}
		x = &part{Part: snapshot.NewPart(env.N()), initiator: initiator, round: round, replied: make([]int, env.N())}
		p.parts = append(p.parts, x)
	}
	if x.Closed[ev.From] {
		env.Explain("%s drops a second marker from %s of detection %d", me, them, round)
		return
	}
	first, complete := x.Marker(env.Self(), ev.From, func() { p.record(env, x) })
	text := fmt.Sprintf("%s gets %s's marker of detection %d and stops recording %s→%s", me, them, round, them, me)
	if first {
		text = fmt.Sprintf("%s gets its first marker of detection %d, from %s: it records whom it waits for (%s), sends its own markers and records the REPLYs that arrive on its other channels", me, round, them, p.waitList(env))
	}
	if !complete {
		env.Explain("%s", text)
		return
	}
	report := x.report()
	if initiator == env.Self() {
		x.reports[env.Self()] = report
		env.Explain("%s. Its part is complete; %s", text, p.evaluate(env, x.reports, round, "reports"))
		if x.allIn() {
			p.dropPart(x)
		}
		return
	}
	env.Send(initiator, sim.Message{Kind: KindReport, Value: int64(round), Label: fmt.Sprintf("REPORT %d", round), Data: bits(report)})
	p.Control++
	p.dropPart(x)
	env.Explain("%s. Its part is complete: it reports to %s that it waited for %s at the cut", text, env.Name(initiator), names(env, report))
}

// report is what the part recorded: whom the process waited for, less
// those whose REPLY was in flight at the cut.
func (x *part) report() []bool {
	r := slices.Clone(x.waits)
	for q, n := range x.replied {
		if n > 0 {
			r[q] = false
		}
	}
	return r
}

func (x *part) allIn() bool {
	for _, r := range x.reports {
		if r == nil {
			return false
		}
	}
	return true
}

func (p *Process) dropPart(x *part) {
	p.Done[x.initiator] = max(p.Done[x.initiator], x.round)
	p.parts = slices.DeleteFunc(p.parts, func(y *part) bool { return y == x })
}

// onReport keeps a process's report at the initiator.
func (p *Process) onReport(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	round := int(ev.Msg.Value)
	for _, x := range p.parts {
		if x.initiator == env.Self() && x.round == round && len(ev.Msg.Data) == env.N() {
			x.reports[ev.From] = unbits(ev.Msg.Data)
			env.Explain("%s has %s's report: it waited for %s at the cut; %s", me, them, names(env, x.reports[ev.From]), p.evaluate(env, x.reports, round, "reports"))
			if x.allIn() {
				p.dropPart(x)
			}
			return
		}
	}
	env.Explain("%s drops a report of a detection it is not running", me)
}

// poll is a naive detection: the processes asked in turn.
type poll struct {
	round   int
	next    int
	reports [][]bool
}

// startPoll starts a naive detection: the initiator reads its own waits
// now, and asks the others one by one.
func (p *Process) startPoll(env *sim.Env) {
	q := &poll{round: p.Next, reports: make([][]bool, env.N())}
	q.reports[env.Self()] = slices.Clone(p.Waits)
	p.poll = q
	env.Explain("%s starts detection %d by asking every process in turn whom it waits for; it waits for %s itself", env.Name(env.Self()), q.round, p.waitList(env))
	p.askNext(env)
}

// askNext asks the next process not yet asked.
func (p *Process) askNext(env *sim.Env) {
	q := p.poll
	for q.next < env.N() && q.reports[q.next] != nil {
		q.next++
	}
	if q.next >= env.N() {
		return
	}
	env.Send(sim.NodeID(q.next), sim.Message{Kind: KindAsk, Value: int64(q.round), Label: fmt.Sprintf("ASK %d", q.round)})
	p.Control++
}

// onAsk answers an ASK with whom the process waits for now.
func (p *Process) onAsk(env *sim.Env, ev sim.Event) {
	env.Send(ev.From, sim.Message{Kind: KindState, Value: ev.Msg.Value, Label: "STATE", Data: bits(p.Waits)})
	p.Control++
	env.Explain("%s answers %s: it waits for %s now", env.Name(env.Self()), env.Name(ev.From), p.waitList(env))
}

// onState keeps an answer, and asks the next process.
func (p *Process) onState(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	q := p.poll
	if q == nil || q.round != int(ev.Msg.Value) || len(ev.Msg.Data) != env.N() {
		env.Explain("%s drops an answer to a detection it is not running", me)
		return
	}
	q.reports[ev.From] = unbits(ev.Msg.Data)
	text := p.evaluate(env, q.reports, q.round, "answers")
	env.Explain("%s hears that %s waits for %s; %s", me, them, names(env, q.reports[ev.From]), text)
	if p.poll != nil {
		p.askNext(env)
	}
}

// evaluate draws the graph from the reports once all are in, announces
// the verdict and says it; before, it says how many are still to come.
func (p *Process) evaluate(env *sim.Env, reports [][]bool, round int, from string) string {
	missing := 0
	for _, r := range reports {
		if r == nil {
			missing++
		}
	}
	if missing > 0 {
		return fmt.Sprintf("%d more to come", missing)
	}
	p.poll = nil
	cycle := findCycle(reports)
	p.Cycle, p.Graph = cycle, cloneReports(reports)
	if len(cycle) == 0 {
		p.Verdict = fmt.Sprintf("detection %d: no deadlock", round)
		env.Annotate(sim.At(RoleVerdict, round, "no deadlock"))
		return fmt.Sprintf("with every %s in, the wait-for graph has no cycle: no deadlock", strings.TrimSuffix(from, "s"))
	}
	p.Verdict = fmt.Sprintf("detection %d: deadlock %s", round, cycleText(env, cycle))
	env.Annotate(sim.At(RoleVerdict, round, "deadlock "+cycleText(env, cycle)))
	return fmt.Sprintf("with every %s in, the wait-for graph has the cycle %s: it announces a deadlock", strings.TrimSuffix(from, "s"), cycleText(env, cycle))
}

// findCycle finds a cycle in the graph whose edges are waits[i][j], the
// one through the lowest process it can (nil: none).
func findCycle(waits [][]bool) []sim.NodeID {
	n := len(waits)
	state := make([]int, n) // 0 unvisited, 1 on the path, 2 done
	var path []sim.NodeID
	var found []sim.NodeID
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		path = append(path, sim.NodeID(i))
		for j := range n {
			if !waits[i][j] {
				continue
			}
			if state[j] == 1 {
				k := slices.Index(path, sim.NodeID(j))
				found = slices.Clone(path[k:])
				return true
			}
			if state[j] == 0 && visit(j) {
				return true
			}
		}
		path = path[:len(path)-1]
		state[i] = 2
		return false
	}
	for i := range n {
		if state[i] == 0 && visit(i) {
			return found
		}
	}
	return nil
}

// cycleText writes a cycle as "1 → 2 → 3 → 1".
func cycleText(env sim.Namer, cycle []sim.NodeID) string {
	parts := make([]string, 0, len(cycle)+1)
	for _, id := range cycle {
		parts = append(parts, env.Name(id))
	}
	parts = append(parts, env.Name(cycle[0]))
	return strings.Join(parts, " → ")
}

// names writes the processes a report marks: "2 and 3", or "nobody".
func names(env *sim.Env, r []bool) string {
	var out []string
	for q, w := range r {
		if w {
			out = append(out, env.Name(sim.NodeID(q)))
		}
	}
	return listOr(out, "nobody")
}

func bits(r []bool) []int64 {
	out := make([]int64, len(r))
	for i, b := range r {
		if b {
			out[i] = 1
		}
	}
	return out
}

func unbits(d []int64) []bool {
	out := make([]bool, len(d))
	for i, x := range d {
		out[i] = x != 0
	}
	return out
}

func cloneReports(rs [][]bool) [][]bool {
	out := make([][]bool, len(rs))
	for i, r := range rs {
		out[i] = slices.Clone(r)
	}
	return out
}
