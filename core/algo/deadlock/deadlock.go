// Package deadlock is deadlock detection read off a snapshot (seed 003:
// deadlock is a stable property, safe to evaluate on a consistent cut).
// Processes ask each other for something (REQUEST) and wait for the
// answer (REPLY); a process that waits answers nobody until its own
// answers have come, so processes that wait for each other in a cycle
// wait for ever: a deadlock, and the wait-for graph's cycle shows it.
//
// A detection started at a process (the detect command) takes a
// Chandy–Lamport snapshot: each process records whom it waits for, and
// the REPLYs that arrive on a channel between its recording and the
// channel's marker (answers on their way at the cut); once its part is
// complete it reports both to the initiator, which draws the recorded
// wait-for graph (a wait whose REPLY was in flight is no wait) and
// announces the cycle it finds, or that there is none. Being taken on a
// consistent cut, a recorded cycle was really there, and being stable, it
// still is.
//
// The naive detector (params.naive) asks every process in turn what it
// waits for, now (ASK, STATE), and draws the graph from the answers: they
// come from different moments, and can make a cycle that never was (a
// phantom deadlock).
package deadlock

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "deadlock-detection"

// The message kinds.
const (
	KindRequest = "REQUEST"
	KindReply   = "REPLY"
	KindMarker  = "MARKER"
	KindReport  = "REPORT"
	KindAsk     = "ASK"
	KindState   = "STATE"
)

// The commands.
const (
	CmdRequest = "request"
	CmdDetect  = "detect"
)

// The annotation roles.
const (
	// RoleWaiting is the interval a process waits for REPLYs.
	RoleWaiting = "waiting"
	// RoleRecorded marks a process's recorded state in detection Group:
	// the points make the snapshot's cut.
	RoleRecorded = "recorded"
	// RoleInFlight marks a REPLY recorded as in flight at the cut.
	RoleInFlight = "in-flight"
	// RoleVerdict marks the detection's announcement at its initiator.
	RoleVerdict = "verdict"
	// RoleWaitsFor is an overlay: the process waits for the other.
	RoleWaitsFor = "waits-for"
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Naive detects by asking each process in turn instead of taking a
	// snapshot.
	Naive bool `json:"naive"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Deadlock detection by snapshot",
	Summary:      "Processes wait for each other's REPLYs; a cycle of waits is a deadlock, a stable property. A Chandy–Lamport snapshot records the wait-for graph on a consistent cut, so the cycle it finds is real; asking the processes one by one can find a phantom.",
	MinN:         2,
	MaxN:         16,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindRequest, Role: sim.RoleMessage, Tone: sim.Blue, Glyph: sim.GlyphTriangle, Application: true},
		{Name: KindReply, Role: sim.RoleMessage, Tone: sim.Green, Glyph: sim.GlyphRing, Application: true},
		{Name: KindMarker, Role: sim.RoleMarker},
		{Name: KindReport, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphSquare},
		{Name: KindAsk, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphOpenTriangle},
		{Name: KindState, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphOpenSquare},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: CmdRequest, Help: "ask another process and wait for its REPLY", Target: true},
			{Name: CmdDetect, Help: "detect a deadlock: take a snapshot of the wait-for graph (or, naive, ask every process in turn)"},
		},
		Switches: []sim.Switch{
			{Param: "naive", Label: "naive detection", Help: "ask every process in turn what it waits for, instead of taking a snapshot: the answers come from different moments"},
		},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleWaiting, Style: sim.StyleOutline, Tone: sim.Orange, Legend: "waits for REPLYs: answers nobody meanwhile"},
			{Name: RoleRecorded, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "recorded its waits for a detection; the points make its cut"},
			{Name: RoleInFlight, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "a REPLY in flight at the cut: that wait is over", Of: RoleRecorded},
			{Name: RoleVerdict, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "a detection's verdict"},
			{Name: RoleWaitsFor, Style: sim.StyleWait, Tone: sim.Red, Legend: "waits for the other's REPLY: a cycle of them is a deadlock"},
		},
		Topology: sim.CompleteTopology,
		Overlays: waitsFor,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{realDeadlock, verdictOfTheCut, foundDeadlock, comesToAVerdict, waitsHeld, obeys, drawnWaiting, check.RecordedCuts(RoleRecorded), check.RecordedChannels(RoleRecorded, RoleInFlight)},
		KnownLimits: []sim.KnownLimit{
			{Invariant: RealName, Faults: []string{"fifo", "drop", "duplicate", "cut", "partition"}, Why: "the snapshot needs FIFO channels that lose and copy nothing: a marker that overtakes a REPLY, or a REPLY lost or copied, records a wait that is over"},
			{Invariant: CutName, Faults: []string{"fifo", "drop", "duplicate", "cut", "partition"}, Why: "the snapshot needs FIFO channels that lose and copy nothing: a marker that overtakes a REPLY, or a REPLY lost or copied, records a wait that is over, or misses one"},
			{Invariant: FoundName, Faults: []string{"duplicate"}, Why: "a network's copy of an old REPLY can end a wait of a deadlock, which then is no longer there to find: a deadlock is stable only while nothing comes from nowhere"},
			{Invariant: VerdictName, Faults: []string{"fifo", "drop", "cut", "partition"}, Why: "a marker lost never closes its channel, and without FIFO a later detection's marker can overtake an earlier one's, which is then taken for a late copy: the snapshot needs reliable FIFO channels"},
			{Invariant: HeldName, Faults: []string{"drop", "duplicate", "cut", "partition"}, Why: "a REQUEST the network loses leaves its sender waiting for a REPLY that can never come, and a network's copy of a REPLY ends a wait that its REQUEST's REPLY was to end: the processes assume reliable channels"},
			{Invariant: check.RecordedCutName, Faults: []string{"fifo", "drop", "cut", "partition"}, Why: "without FIFO a message sent after its sender recorded can arrive before the marker, and when the network loses the marker such a message arrives before its receiver records: a snapshot assumes reliable FIFO channels"},
			{Invariant: check.RecordedChannelName, Faults: []string{"fifo", "drop", "cut", "partition"}, Why: "without FIFO a REPLY sent after its sender recorded can overtake the marker, and when the network loses the marker its channel is recorded for ever: a snapshot assumes reliable FIFO channels"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// Process is one process: whom it waits for, whom it owes a REPLY, and
// its part in the detections.
type Process struct {
	params *Params
	// Waits[q] says the process waits for q's REPLY to its REQUEST, and
	// Owes lists the processes whose REQUEST it has not answered, in the
	// order they came.
	Waits []bool
	Owes  []sim.NodeID
	// Next is the highest detection number this process has started or
	// seen (see nextRound), and Done[q] the latest detection of
	// initiator q this process is done with.
	Next int
	Done []int
	// parts are the detections the process takes part in, by initiator
	// and number.
	parts []*part
	// Verdict is the last detection's verdict at its initiator, and Cycle
	// the cycle it found (empty: none).
	Verdict string
	Cycle   []sim.NodeID
	// Graph is the wait-for graph the last detection drew from its
	// reports or answers (Graph[i][j]: i waited for j), which the
	// process's fields show beside its verdict.
	Graph [][]bool
	// poll is the naive detection under way at its initiator.
	poll *poll
	// Sent counts the messages this process sent, by kind, for the report.
	Requests, Replies, Control int
}

// part is a process's part of one detection: the marker rule's part, what
// it recorded, and, at the initiator, the reports.
type part struct {
	snapshot.Part
	initiator sim.NodeID
	round     int
	waits     []bool
	// replied[q] counts REPLYs from q recorded as in flight at the cut.
	replied []int
	// reports holds, at the initiator, each process's report: whom it
	// waited for, minus the waits a recorded REPLY ended (nil: none yet).
	reports [][]bool
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	var p Params
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Process{params: &p, Waits: make([]bool, len(names)), Done: make([]int, len(names))}
	}
	return nodes, nil
}

// Clone returns a deep copy.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Waits = slices.Clone(p.Waits)
	c.Owes = slices.Clone(p.Owes)
	c.Done = slices.Clone(p.Done)
	c.Cycle = slices.Clone(p.Cycle)
	c.Graph = cloneReports(p.Graph)
	if p.poll != nil {
		q := *p.poll
		q.reports = cloneReports(p.poll.reports)
		c.poll = &q
	}
	c.parts = make([]*part, len(p.parts))
	for i, x := range p.parts {
		y := *x
		y.Part = x.Part.Clone()
		y.waits = slices.Clone(x.waits)
		y.replied = slices.Clone(x.replied)
		y.reports = cloneReports(x.reports)
		c.parts[i] = &y
	}
	return &c
}

// waiting reports whether the process waits for anyone.
func (p *Process) waiting() bool { return slices.Contains(p.Waits, true) }

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s starts, waiting for nobody", me)
	case sim.Recover:
		// a process keeps its books across a crash: it still waits for
		// what it asked, and the diagram, which ended its wait at the
		// crash, draws it waiting again
		if p.waiting() {
			env.Annotate(sim.Opens(RoleWaiting, 0, "waits"))
		}
		env.Explain("%s recovers with its books intact: it waits for %s", me, p.waitList(env))
	case sim.Workload:
		to := sim.NodeID(env.Rand().IntN(env.N() - 1))
		if to >= env.Self() {
			to++
		}
		p.request(env, to)
	case sim.Command:
		switch ev.Tag {
		case CmdRequest:
			p.request(env, ev.Target)
		case CmdDetect:
			p.detect(env)
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindRequest:
			p.onRequest(env, ev.From)
		case KindReply:
			p.onReply(env, ev)
		case KindMarker:
			p.onMarker(env, ev)
		case KindReport:
			p.onReport(env, ev)
		case KindAsk:
			p.onAsk(env, ev)
		case KindState:
			p.onState(env, ev)
		}
	}
}

// request asks process to and waits for its REPLY.
func (p *Process) request(env *sim.Env, to sim.NodeID) {
	me, them := env.Name(env.Self()), env.Name(to)
	if p.Waits[to] {
		env.Explain("%s waits for %s's REPLY already", me, them)
		return
	}
	if !p.waiting() {
		env.Annotate(sim.Opens(RoleWaiting, 0, "waits"))
	}
	p.Waits[to] = true
	env.Send(to, sim.Message{Kind: KindRequest, Label: "REQUEST"})
	p.Requests++
	env.Explain("%s asks %s and waits for its REPLY (waits for %s); until it has its answers it answers nobody", me, them, p.waitList(env))
}

// onRequest answers at once, unless the process waits itself: then the
// REQUEST waits until its own answers have come.
func (p *Process) onRequest(env *sim.Env, from sim.NodeID) {
	me, them := env.Name(env.Self()), env.Name(from)
	if p.waiting() {
		p.Owes = append(p.Owes, from)
		env.Explain("%s waits for %s itself, so %s's REQUEST waits too: %s now waits for %s", me, p.waitList(env), them, them, me)
		return
	}
	p.reply(env, from)
	env.Explain("%s waits for nobody and answers %s's REQUEST", me, them)
}

func (p *Process) reply(env *sim.Env, to sim.NodeID) {
	env.Send(to, sim.Message{Kind: KindReply, Label: "REPLY"})
	p.Replies++
}

// onReply ends a wait; the last answers every REQUEST that waited.
func (p *Process) onReply(env *sim.Env, ev sim.Event) {
	from := ev.From
	me, them := env.Name(env.Self()), env.Name(from)
	for _, x := range p.parts {
		if x.Records(from) {
			x.replied[from]++
			env.Annotate(sim.At(RoleInFlight, x.round, "in flight").About(ev.MsgID))
		}
	}
	if !p.Waits[from] {
		env.Explain("%s takes a REPLY from %s it was not waiting for", me, them)
		return
	}
	p.Waits[from] = false
	if p.waiting() {
		env.Explain("%s has %s's REPLY and still waits for %s", me, them, p.waitList(env))
		return
	}
	env.Annotate(sim.Closes(RoleWaiting, 0))
	owed := p.Owes
	p.Owes = nil
	for _, q := range owed {
		p.reply(env, q)
	}
	if len(owed) == 0 {
		env.Explain("%s has %s's REPLY: it waits for nobody now", me, them)
		return
	}
	env.Explain("%s has %s's REPLY: it waits for nobody now, and answers the %d REQUEST(s) that waited", me, them, len(owed))
}

// waitList names whom the process waits for: "2 and 3".
func (p *Process) waitList(env *sim.Env) string {
	var names []string
	for q, w := range p.Waits {
		if w {
			names = append(names, env.Name(sim.NodeID(q)))
		}
	}
	if len(names) == 0 {
		return "nobody"
	}
	return strings.Join(names, " and ")
}

// Inspect shows whom the process waits for and owes.
func (p *Process) Inspect() []sim.Field {
	waits := make([]string, 0, len(p.Waits))
	for q, w := range p.Waits {
		if w {
			waits = append(waits, fmt.Sprint(q+1))
		}
	}
	owes := make([]string, len(p.Owes))
	for i, q := range p.Owes {
		owes[i] = fmt.Sprint(q.Number())
	}
	f := []sim.Field{{Name: "waits for", Value: listOr(waits, "nobody")}, {Name: "owes a REPLY to", Value: listOr(owes, "nobody")}}
	if p.Verdict != "" {
		var edges []string
		for i, row := range p.Graph {
			for j, w := range row {
				if w {
					edges = append(edges, fmt.Sprintf("%d → %d", i+1, j+1))
				}
			}
		}
		f = append(f, sim.Field{Name: "last verdict", Value: p.Verdict}, sim.Field{Name: "its graph", Value: listOr(edges, "no waits")})
	}
	return f
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}
