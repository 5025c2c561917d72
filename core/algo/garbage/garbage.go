// Package garbage is seed 000's third stable property: "this object is
// garbage". Process 1 owns an object and collects it; the processes of
// params.holders (default 2) start with a reference to it. A holder can
// copy its reference to another process (a REF message) or drop it, and a
// process that gets a REF holds a reference. The object is garbage once
// no process holds a reference and no REF is on its way: nobody can make
// a reference without holding one, so garbage stays garbage, a stable
// property, and reading it off a consistent cut is right.
//
// The owner checks every params.every ticks (default 6) and frees the
// object when its check finds no reference. With params.snapshot (the
// default, a switch) a check is a Chandy–Lamport snapshot: each process
// records whether it holds a reference, every channel records the REFs
// that cross the cut, and the parts come back to the owner in REPORTs.
// Without it the owner only asks everyone (ASK, ANSWER), the naive check
// that answers given at different times fool: a REF on its way when its
// sender has answered "no" and its receiver too is seen nowhere, and the
// object is freed while a process is about to hold it.
package garbage

import (
	"encoding/json"
	"fmt"
	"strconv"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "garbage-detection"

// Owner is the owner of the object, which collects it.
const Owner sim.NodeID = 0

// The message kinds.
const (
	KindRef    = "REF"
	KindAsk    = "ASK"
	KindAnswer = "ANSWER"
	KindMarker = "MARKER"
	KindReport = "REPORT"
)

// The commands, roles and timers.
const (
	CmdCopy  = "copy"
	CmdDrop  = "drop"
	CmdCheck = "check"
	// RoleHolds is the interval a process holds a reference; RoleFreed
	// marks the owner freeing the object.
	RoleHolds = "holds"
	RoleFreed = "freed"
	// RoleRecorded marks a process's point of snapshot Group, and
	// RoleInChannel a REF recorded on a channel.
	RoleRecorded  = "recorded"
	RoleInChannel = "in-channel"
	// roleChecked marks, for the checks only, the owner's step that
	// ends check Group.
	roleChecked = "checked"
	// TimerCheck fires when the owner checks again.
	TimerCheck = "check"
	maxTicks   = 1_000_000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Holders are the processes (numbers) that start with a reference
	// (default [2]).
	Holders []int `json:"holders"`
	// Every is how long the owner waits between checks (ticks, default 6).
	Every sim.Time `json:"every"`
	// Snapshot makes a check a snapshot (default true); false only asks.
	Snapshot *bool `json:"snapshot"`
}

// SnapshotSwitch is the switch between a check by snapshot and one that
// only asks.
var SnapshotSwitch = sim.Switch{Param: "snapshot", Default: true, Label: "check by snapshot",
	Help: "Run the same schedule again with the owner checking by a Chandy–Lamport snapshot, which records the REFs on their way, or only asking every process whether it holds a reference"}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Garbage detection: a stable property",
	Summary:      "An object is garbage once no process holds a reference and none is on its way: a stable property. A snapshot reads it off a consistent cut, REFs in the channels included; asking every process in turn misses a REF on its way, and frees an object about to be used.",
	MinN:         2,
	MaxN:         16,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindRef, Role: sim.RoleMessage, Tone: sim.Ink, Glyph: sim.GlyphDot},
		{Name: KindAsk, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
		{Name: KindAnswer, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphRing},
		{Name: KindMarker, Role: sim.RoleMarker},
		{Name: KindReport, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphSquare},
	},
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{SnapshotSwitch},
		Commands: []sim.CommandSpec{
			{Name: CmdCopy, Help: "send a copy of this process's reference to another process (REF)", Target: true},
			{Name: CmdDrop, Help: "drop this process's reference"},
			{Name: CmdCheck, Help: "check now whether the object is garbage", Takes: func(_ sim.View, id sim.NodeID) bool { return id == Owner }, Who: "the owner"},
		},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleHolds, Style: sim.StyleBar, Tone: sim.Orange, Legend: "holds a reference to the object"},
			{Name: RoleFreed, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "the owner frees the object"},
			{Name: RoleRecorded, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "state recorded; a snapshot's points make its cut"},
			{Name: RoleInChannel, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "REF recorded in a channel", Of: RoleRecorded},
			{Name: roleChecked, Style: sim.StyleHidden},
		},
		Topology: sim.CompleteTopology,
	},
	New: newProcesses,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{freedOnlyWhenGarbage, verdictOfTheCut, keepsChecking, checksEnd, obeys, rules, drawnHolding, check.RecordedCuts(RoleRecorded), check.RecordedChannels(RoleRecorded, RoleInChannel)},
		KnownLimits: []sim.KnownLimit{
			{Invariant: VerdictName, Faults: []string{"fifo", "drop", "duplicate", "cut", "partition", "crash"}, Why: "a snapshot needs FIFO channels that lose and copy nothing, and processes that keep what they held: a REF overtaken, lost or copied is counted wrong on the cut, and a crash loses a process's references and its part of the snapshot"},
			{Invariant: ChecksEndName, Faults: []string{"drop", "cut", "partition", "crash"}, Why: "a marker, question, answer or report the network loses never comes, and a process that crashes forgets the part of a snapshot it had not reported: the owner then waits for ever"},
			{Invariant: freedName, Faults: []string{"fifo"}, Why: "a snapshot needs FIFO channels: without them a REF sent before its sender recorded can arrive after the marker and be recorded nowhere"},
			{Invariant: check.RecordedCutName, Faults: []string{"fifo", "drop", "cut", "partition", "crash"}, Why: "without FIFO a REF sent after its sender recorded can arrive before the marker, and when the network loses the marker such a REF arrives before its receiver records; a process that crashes forgets its part of a snapshot and records it again when it recovers: a snapshot assumes reliable FIFO channels and processes that stay up"},
			{Invariant: check.RecordedChannelName, Faults: []string{"fifo", "drop", "cut", "partition", "crash"}, Why: "without FIFO a REF sent after its sender recorded can overtake the marker, and when the network loses the marker its channel is recorded for ever; a process that crashes forgets which markers had come, and records those channels again when it recovers: a snapshot assumes reliable FIFO channels and processes that stay up"},
		},
	},
	Figures: sim.FigureSpec{
		NewTally: newHoldings,
		Metrics:  metrics,
		Panels:   panels,
		Formula:  formula,
	},
}

// Process is the owner or another process; each holds references.
type Process struct {
	// Holds counts the references the process holds.
	Holds int
	// Every and Snapshot are the params.
	Every    sim.Time
	Snapshot bool
	// Snap is the process's part of snapshot SnapK, the latest it has
	// seen (0: none). The owner starts a check only once the last is
	// complete, so a process takes part in one snapshot at a time, and a
	// marker of an older one is a late copy.
	Snap  round
	SnapK int
	// Control counts the detector's messages this process sent.
	Control int
	// Collector is the owner's: its checks and whether it freed.
	Collector Collector
}

// round is a process's part of one snapshot: whether it held a reference
// when it recorded, the REFs recorded on its channels, and whether it has
// reported.
type round struct {
	snapshot.Part
	Held, InChannel int
	Reported        bool
}

// Collector is the owner's state: the check under way and its answers,
// the checks done, and whether and when it freed the object.
type Collector struct {
	Check   int
	Pending bool
	// Heard marks the processes whose answer or report is in; Found
	// counts the references they held and recorded on their channels.
	Heard   []bool
	Found   int
	Freed   bool
	FreedAt sim.Time
}

func newProcesses(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Holders: []int{2}, Every: 6}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := sim.CheckTicks("params.every", p.Every, maxTicks); err != nil {
		return nil, err
	}
	n := len(names)
	nodes := make([]*Process, n)
	for i := range nodes {
		nodes[i] = &Process{Every: p.Every, Snapshot: p.Snapshot == nil || *p.Snapshot}
	}
	for k, h := range p.Holders {
		if h < 1 || h > n {
			return nil, strictjson.FieldErrorf(fmt.Sprintf("params.holders[%d]", k), "want a process from 1 to %d, got %d", n, h)
		}
		nodes[h-1].Holds++
	}
	nodes[Owner].Collector.Heard = make([]bool, n)
	out := make([]sim.Node, n)
	for i, p := range nodes {
		out[i] = p
	}
	return out, nil
}

// Step reacts to one event.
func (p *Process) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		if p.Holds > 0 {
			env.Annotate(sim.Opens(RoleHolds, 0, "holds"))
		}
		if env.Self() == Owner {
			env.SetTimer(TimerCheck, p.Every)
			env.Explain("%s owns the object%s and checks every %s whether it is garbage, by %s", me, holding(p.Holds), sim.Ticks(p.Every), p.how())
			return
		}
		env.Explain("%s starts%s", me, holding(p.Holds))
	case sim.Recover:
		if p.Holds > 0 {
			env.Annotate(sim.Closes(RoleHolds, 0))
		}
		p.Holds, p.Snap, p.SnapK = 0, round{}, 0
		if env.Self() == Owner {
			p.Collector.Pending = false
			if !p.Collector.Freed {
				env.SetTimer(TimerCheck, p.Every)
			}
		}
		env.Explain("%s recovers without the references it held, and what its snapshots knew", me)
	case sim.Command, sim.Workload:
		p.mutate(env, ev)
	case sim.Timer:
		if ev.Tag == TimerCheck && env.Self() == Owner {
			p.startCheck(env)
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindRef:
			p.take(env, ev)
		case KindAsk:
			p.answer(env, ev)
		case KindMarker:
			p.marker(env, ev.From, int(ev.Msg.Value))
		case KindAnswer, KindReport:
			p.heard(env, ev)
		}
	}
}

func holding(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return ", holding a reference"
	}
	return fmt.Sprintf(", holding %d references", n)
}

func (p *Process) how() string {
	if p.Snapshot {
		return "a snapshot"
	}
	return "asking every process"
}

// mutate is a command or the workload: copy the reference, drop it, or
// (the owner) check now.
func (p *Process) mutate(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	tag, to := ev.Tag, ev.Target
	if ev.Kind == sim.Workload {
		if p.Holds == 0 || env.N() < 2 {
			env.Explain("%s holds no reference: nothing to do", me)
			return
		}
		tag = CmdDrop
		if env.Rand().IntN(3) > 0 {
			tag = CmdCopy
			to = sim.NodeID(env.Rand().IntN(env.N() - 1))
			if to >= env.Self() {
				to++
			}
		}
	}
	switch tag {
	case CmdCheck:
		if env.Self() == Owner {
			p.startCheck(env)
		}
	case CmdCopy:
		if p.Holds == 0 {
			env.Explain("%s holds no reference to copy", me)
			return
		}
		env.Send(to, sim.Message{Kind: KindRef, Label: "REF"})
		env.Explain("%s sends a copy of its reference to %s", me, env.Name(to))
	case CmdDrop:
		if p.Holds == 0 {
			env.Explain("%s holds no reference to drop", me)
			return
		}
		p.Holds--
		if p.Holds == 0 {
			env.Annotate(sim.Closes(RoleHolds, 0))
		}
		env.Explain("%s drops its reference%s", me, still(p.Holds))
	}
}

func still(n int) string {
	if n == 0 {
		return ": it holds none now"
	}
	return fmt.Sprintf(": it still holds %d", n)
}

// take is the rule for a REF: the process holds one more reference, and
// a snapshot recording the channel counts it.
func (p *Process) take(env *sim.Env, ev sim.Event) {
	me, from := env.Name(env.Self()), env.Name(ev.From)
	if p.Holds == 0 {
		env.Annotate(sim.Opens(RoleHolds, 0, "holds"))
	}
	p.Holds++
	if r := &p.Snap; p.SnapK > 0 && r.Records(ev.From) {
		r.InChannel++
		env.Annotate(sim.At(RoleInChannel, p.SnapK, "REF").About(ev.MsgID))
		env.Explain("%s gets a reference from %s; it had recorded its state and no marker from %s had come, so the REF is recorded on that channel (snapshot %d)", me, from, from, p.SnapK)
		return
	}
	env.Explain("%s gets a reference from %s and holds it", me, from)
}

// startCheck starts the owner's next check, unless one is under way or
// the object is gone.
func (p *Process) startCheck(env *sim.Env) {
	c, me := &p.Collector, env.Name(env.Self())
	if c.Freed || c.Pending {
		return
	}
	c.Check++
	c.Pending = true
	clear(c.Heard)
	c.Found = 0
	if !p.Snapshot {
		c.Heard[Owner], c.Found = true, p.Holds
		for q := range env.N() {
			if sim.NodeID(q) != Owner {
				p.send(env, sim.NodeID(q), sim.Message{Kind: KindAsk, Value: int64(c.Check), Label: "ASK"})
			}
		}
		env.Explain("%s checks whether the object is garbage (check %d): it asks every process whether it holds a reference%s", me, c.Check, ownHolding(p.Holds))
		return
	}
	p.record(env, c.Check)
	env.Explain("%s checks whether the object is garbage (check %d): it starts a snapshot, records that it holds %s, sends a marker on every channel, and records every channel into it", me, c.Check, refs(p.Holds))
	p.reportIfComplete(env, c.Check)
}

// refs says a number of references: "no reference", "1 reference",
// "2 references".
func refs(n int) string {
	switch n {
	case 0:
		return "no reference"
	case 1:
		return "1 reference"
	}
	return strconv.Itoa(n) + " references"
}

func ownHolding(n int) string {
	if n == 0 {
		return "; it holds none itself"
	}
	return fmt.Sprintf("; it holds %d itself", n)
}

func (p *Process) send(env *sim.Env, to sim.NodeID, m sim.Message) {
	env.Send(to, m)
	p.Control++
}

// answer is the rule for the owner's question: say at once whether it
// holds a reference.
func (p *Process) answer(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	p.send(env, ev.From, sim.Message{Kind: KindAnswer, Value: ev.Msg.Value, Data: []int64{int64(p.Holds), 0}, Label: yesNo(p.Holds)})
	env.Explain("%s answers check %d: it holds %s now", me, ev.Msg.Value, refs(p.Holds))
}

func yesNo(n int) string {
	if n > 0 {
		return "ANSWER yes"
	}
	return "ANSWER no"
}

// record records the process's state for snapshot k and sends its
// markers.
func (p *Process) record(env *sim.Env, k int) {
	r := p.round(env, k)
	r.Recorded, r.Held = true, p.Holds
	env.Annotate(sim.At(RoleRecorded, k, fmt.Sprintf("holds %d", p.Holds)))
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			p.send(env, sim.NodeID(q), sim.Message{Kind: KindMarker, Value: int64(k), Label: "M" + strconv.Itoa(k)})
		}
	}
}

// round is the process's part of snapshot k, new if k is later than any
// it has seen; nil for an older one.
func (p *Process) round(env *sim.Env, k int) *round {
	switch {
	case k < p.SnapK:
		return nil
	case k > p.SnapK:
		p.Snap, p.SnapK = round{Part: snapshot.NewPart(env.N())}, k
	}
	return &p.Snap
}

// marker is the marker rule for snapshot k.
func (p *Process) marker(env *sim.Env, from sim.NodeID, k int) {
	me := env.Name(env.Self())
	if k < 1 || k > maxTicks {
		env.Explain("%s ignores a marker of no snapshot (%d)", me, k)
		return
	}
	r := p.round(env, k)
	if r == nil {
		env.Explain("%s ignores a late marker of snapshot %d: it has moved on to snapshot %d", me, k, p.SnapK)
		return
	}
	first, _ := r.Marker(env.Self(), from, func() { p.record(env, k) })
	if first {
		env.Explain("%s gets its first marker of snapshot %d, from %s: it records that it holds %s, records that channel as empty, sends its markers, and records its other channels", me, k, env.Name(from), refs(p.Holds))
	} else {
		env.Explain("%s gets the marker of snapshot %d from %s and stops recording that channel: %s recorded on its channels so far", me, k, env.Name(from), refs(r.InChannel))
	}
	p.reportIfComplete(env, k)
}

// reportIfComplete reports a complete part of snapshot k to the owner
// (the owner counts its own).
func (p *Process) reportIfComplete(env *sim.Env, k int) {
	r := p.round(env, k)
	if r == nil || r.Reported || !r.Complete(env.Self()) {
		return
	}
	r.Reported = true
	if env.Self() == Owner {
		p.count(env, Owner, k, r.Held, r.InChannel)
		return
	}
	p.send(env, Owner, sim.Message{Kind: KindReport, Value: int64(k), Data: []int64{int64(r.Held), int64(r.InChannel)}, Label: fmt.Sprintf("REPORT %d+%d", r.Held, r.InChannel)})
}

// heard is the rule for an ANSWER or a REPORT at the owner.
func (p *Process) heard(env *sim.Env, ev sim.Event) {
	if len(ev.Msg.Data) != 2 || ev.Msg.Data[0] < 0 || ev.Msg.Data[1] < 0 {
		env.Explain("%s ignores a %s it cannot read", env.Name(env.Self()), ev.Msg.Kind)
		return
	}
	p.count(env, ev.From, int(ev.Msg.Value), int(ev.Msg.Data[0]), int(ev.Msg.Data[1]))
}

// count takes one process's answer or part of the owner's check k, and
// decides once all are in.
func (p *Process) count(env *sim.Env, from sim.NodeID, k, held, inChannel int) {
	c, me := &p.Collector, env.Name(env.Self())
	if env.Self() != Owner || k != c.Check || !c.Pending || c.Heard[from] {
		env.Explain("%s ignores an answer to no check under way", me)
		return
	}
	c.Heard[from] = true
	c.Found += held + inChannel
	waiting := 0
	for _, h := range c.Heard {
		if !h {
			waiting++
		}
	}
	what := fmt.Sprintf("%s holds %s", env.Name(from), refs(held))
	if p.Snapshot {
		what = fmt.Sprintf("%s recorded %s held and %s on its channels", env.Name(from), refs(held), refs(inChannel))
	}
	if waiting > 0 {
		env.Explain("%s: %s (check %d; %d more to come)", me, what, k, waiting)
		return
	}
	c.Pending = false
	env.Annotate(sim.At(roleChecked, k, ""))
	if c.Found > 0 {
		env.SetTimer(TimerCheck, p.Every)
		env.Explain("%s: %s. Check %d found %s: the object is in use; it checks again in %s", me, what, k, refs(c.Found), sim.Ticks(p.Every))
		return
	}
	c.Freed, c.FreedAt = true, env.Now()
	env.Annotate(sim.At(RoleFreed, 0, "freed"))
	env.Explain("%s: %s. Check %d found no reference anywhere: the object is garbage, and %s frees it", me, what, k, me)
}

// Inspect shows the references held, and the owner's checks.
func (p *Process) Inspect() []sim.Field {
	f := []sim.Field{{Name: "references", Value: strconv.Itoa(p.Holds)}}
	if p.Collector.Heard != nil {
		f = append(f, sim.Field{Name: "checks", Value: strconv.Itoa(p.Collector.Check)}, sim.Field{Name: "freed", Value: strconv.FormatBool(p.Collector.Freed)})
	}
	return f
}

// Clone copies the process.
func (p *Process) Clone() sim.Node {
	c := *p
	c.Snap.Part = p.Snap.Part.Clone()
	c.Collector.Heard = append([]bool(nil), p.Collector.Heard...)
	return &c
}
