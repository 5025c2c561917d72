package termination

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/snapshot"
	"spacetime/core/sim"
)

// The snapshot detector's message kinds, roles and timer.
const (
	KindMarker = "MARKER"
	KindReport = "REPORT"
	// RoleRecorded marks a process's point of snapshot Group: the points
	// of one snapshot make its cut. RoleInChannel marks a WORK recorded in
	// a channel of snapshot Group.
	RoleRecorded  = "recorded"
	RoleInChannel = "in-channel"
	// TimerSnapshot fires when the root takes its next snapshot.
	TimerSnapshot = "snapshot"
)

// SnapshotSpec registers the snapshot detector.
var SnapshotSpec = spec("snapshot-termination", "Termination detection: snapshots of a stable property",
	"Seed 000's use of a consistent cut: whenever the root is passive, it takes a Chandy–Lamport snapshot of the computation, recording each process's state and the WORK in every channel, and announces termination when a snapshot records every process passive and every channel empty. Termination is stable, so what held at the recorded cut still holds when the snapshot is in. It costs markers on every channel, snapshot after snapshot, and needs FIFO channels.",
	[]sim.KindSpec{
		{Name: KindMarker, Role: sim.RoleMarker},
		{Name: KindReport, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphSquare},
	},
	[]sim.RoleSpec{
		{Name: RoleRecorded, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "state recorded; a snapshot's points make its cut"},
		{Name: RoleInChannel, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "WORK recorded in a channel", Of: RoleRecorded},
	},
	plain(func(p Params) detector { return &Snap{Base: Base{Work: Work{Params: p}}} }),
	[]sim.Invariant{live, snaps}, snapshotPanel,
	[]sim.KnownLimit{
		{Invariant: SafeName, Faults: []string{"fifo", "crash"}, Why: "without FIFO a WORK sent before its sender recorded can arrive after the marker and be recorded nowhere, and a crash forgets the tasks a recorded state had"},
		{Invariant: LiveName, Faults: []string{"crash", "drop", "cut", "partition"}, Why: "a snapshot waits for a marker on every channel and a report from every process: a crashed process or a lost one stops it for good"},
	})

// snapRound is a process's part of one snapshot: the marker rule's part;
// Active, the state it recorded; InChannel, the WORK recorded on its
// channels; Done, that it has reported its part.
type snapRound struct {
	snapshot.Part
	Active    bool
	InChannel int
	Done      bool
}

// SnapResult is what a snapshot recorded, at the root: how many
// processes were active at the cut, the WORK in its channels, and how
// many parts are in (From[i]: process i's); Complete once all are.
type SnapResult struct {
	Round, Active, InChannel, Reports int
	From                              []bool
	Complete                          bool
}

// Snap is a process under the snapshot detector.
type Snap struct {
	Base
	// Rounds are the snapshots this process has recorded, from 1.
	Rounds []snapRound
	// Results are the root's snapshots; the last is under way until every
	// report is in. Scheduled says the root's timer for the next is armed.
	Results   []SnapResult
	Scheduled bool
}

// waiting says the root has a snapshot to take.
func (s *Snap) waiting() bool { return s.Scheduled }

// schedule arms the root's timer for its next snapshot.
func (s *Snap) schedule(env *sim.Env, after sim.Time) {
	s.Scheduled = true
	env.SetTimer(TimerSnapshot, after)
}

// Step reacts to one event.
func (s *Snap) Step(env *sim.Env, ev sim.Event) {
	if ev.Kind == sim.Recover {
		s.Scheduled = false // its timers went with the crash
	}
	stepWithRound(s, env, ev, TimerSnapshot, func() {
		s.Scheduled = false
		s.start(env)
	})
}

// receiveWork records the WORK in every snapshot whose state this process
// has recorded and whose marker from the sender has not come.
func (s *Snap) receiveWork(env *sim.Env, ev sim.Event, activated bool) string {
	var in []string
	for k := range s.Rounds {
		r := &s.Rounds[k]
		if r.Records(ev.From) {
			r.InChannel++
			env.Annotate(sim.At(RoleInChannel, k+1, "WORK").About(ev.MsgID))
			in = append(in, strconv.Itoa(k+1))
		}
	}
	if len(in) == 0 {
		return ""
	}
	return fmt.Sprintf("; it recorded its state for snapshot %s before this came, and has no marker from %s yet: the WORK was in the channel at the cut, and is recorded there", strings.Join(in, ", "), env.Name(ev.From))
}

func (s *Snap) passive(env *sim.Env) string {
	if env.Self() != Root || s.Said || s.underWay() {
		return ""
	}
	s.schedule(env, 1)
	return "; the root will take a snapshot"
}

// underWay says whether the root's last snapshot is still collecting.
func (s *Snap) underWay() bool {
	n := len(s.Results)
	return n > 0 && !s.Results[n-1].Complete
}

// start takes the root's next snapshot.
func (s *Snap) start(env *sim.Env) {
	me := env.Name(env.Self())
	if s.Active() || s.Said || s.underWay() {
		env.Explain("%s is busy again, or a snapshot is under way: no snapshot now", me)
		return
	}
	k := len(s.Rounds) + 1
	s.Results = append(s.Results, SnapResult{Round: k, From: make([]bool, env.N())})
	s.record(env, k)
	env.Explain("%s is passive and takes snapshot %d: it records its state, sends a marker on every channel, and records the WORK that comes on each before its marker", me, k)
}

// record records the process's state for snapshot k and sends markers.
func (s *Snap) record(env *sim.Env, k int) {
	r := s.round(env, k)
	r.Recorded, r.Active = true, s.Active()
	state := "passive"
	if r.Active {
		state = "active"
	}
	env.Annotate(sim.At(RoleRecorded, k, state))
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			s.send(env, sim.NodeID(q), sim.Message{Kind: KindMarker, Value: int64(k), Label: fmt.Sprintf("M%d", k)})
		}
	}
	s.finishIfClosed(env, k)
}

// round is the process's part of snapshot k.
func (s *Snap) round(env *sim.Env, k int) *snapRound {
	return snapshot.Round(&s.Rounds, k, func() snapRound { return snapRound{Part: snapshot.NewPart(env.N())} })
}

// finishIfClosed reports the process's part of snapshot k once every
// marker is in.
func (s *Snap) finishIfClosed(env *sim.Env, k int) {
	r := &s.Rounds[k-1]
	if r.Done || !r.Complete(env.Self()) {
		return // a copy of a marker closes nothing new
	}
	r.Done = true
	active := 0
	if r.Active {
		active = 1
	}
	if env.Self() == Root {
		s.tally(env.Self(), k, active, r.InChannel)
		return
	}
	s.send(env, Root, sim.Message{Kind: KindReport, Value: int64(k), Label: fmt.Sprintf("REPORT %d", k), Data: []int64{int64(active), int64(r.InChannel)}})
}

func (s *Snap) control(env *sim.Env, ev sim.Event) {
	me, them := env.Name(env.Self()), env.Name(ev.From)
	k := int(ev.Msg.Value)
	switch ev.Msg.Kind {
	case KindMarker:
		if k < 1 {
			return
		}
		r := s.round(env, k)
		first, _ := r.Marker(env.Self(), ev.From, func() { s.record(env, k) })
		text := fmt.Sprintf("%s gets %s's marker of snapshot %d and stops recording %s→%s", me, them, k, them, me)
		if first {
			text = fmt.Sprintf("%s gets its first marker of snapshot %d, from %s: it records its state (%s), sends its markers, and records the WORK that comes on its other channels", me, k, them, map[bool]string{true: "active", false: "passive"}[r.Active])
		}
		s.finishIfClosed(env, k)
		if r.Done && env.Self() != Root {
			text += fmt.Sprintf("; its part is done: it reports %s and %d WORK in its channels to the root", map[bool]string{true: "active", false: "passive"}[r.Active], r.InChannel)
		}
		if env.Self() == Root && r.Done {
			text += ". " + s.verdict(env, k)
		}
		env.Explain("%s", text)
	case KindReport:
		d := ev.Msg.Data
		if env.Self() != Root || len(d) != 2 {
			return
		}
		s.tally(ev.From, k, int(d[0]), int(d[1]))
		env.Explain("%s has %s's report of snapshot %d: %s, %d WORK in its channels. %s", me, them, k, map[bool]string{true: "active", false: "passive"}[d[0] == 1], d[1], s.verdict(env, k))
	}
}

// tally adds one process's part of snapshot k to the root's result, once
// (the network may copy a report).
func (s *Snap) tally(from sim.NodeID, k, active, inChannel int) {
	if k < 1 || k > len(s.Results) || s.Results[k-1].From[from] {
		return
	}
	r := &s.Results[k-1]
	r.From[from] = true
	r.Active += active
	r.InChannel += inChannel
	r.Reports++
}

// verdict is the root's reading of snapshot k once every part is in: the
// stable property evaluated on a consistent cut.
func (s *Snap) verdict(env *sim.Env, k int) string {
	r := &s.Results[k-1]
	if r.Reports < env.N() || r.Complete {
		return fmt.Sprintf("%d of %d parts of snapshot %d are in", r.Reports, env.N(), k)
	}
	r.Complete = true
	if r.Active == 0 && r.InChannel == 0 {
		s.announce(env)
		return fmt.Sprintf("Snapshot %d records every process passive and every channel empty: at that consistent cut the computation had terminated, and since termination is stable it still has, so the root announces it", k)
	}
	text := fmt.Sprintf("Snapshot %d records %d process(es) active and %d WORK in channels: at that cut the computation had not terminated", k, r.Active, r.InChannel)
	if r.Active == 0 {
		text = fmt.Sprintf("Snapshot %d records every process passive, but %d WORK in channels: at that cut the computation had not terminated", k, r.InChannel)
	}
	if !s.Active() {
		s.schedule(env, 3)
		return text + "; the root will take another"
	}
	return text + "; the root takes another once it is passive"
}

// Inspect shows the process's state.
func (s *Snap) Inspect() []sim.Field {
	f := []sim.Field{{Name: "active", Value: strconv.FormatBool(s.Active())}}
	if n := len(s.Rounds); n > 0 {
		state := "recording"
		if s.Rounds[n-1].Done {
			state = "done"
		}
		f = append(f, sim.Field{Name: fmt.Sprintf("snapshot %d", n), Value: state})
	}
	return f
}

// Clone copies the process.
func (s *Snap) Clone() sim.Node {
	c := *s
	c.Work = s.Work.clone()
	c.Rounds = make([]snapRound, len(s.Rounds))
	for i, r := range s.Rounds {
		r.Part = r.Part.Clone()
		c.Rounds[i] = r
	}
	c.Results = make([]SnapResult, len(s.Results))
	for i, r := range s.Results {
		r.From = append([]bool(nil), r.From...)
		c.Results[i] = r
	}
	return &c
}

func snapshotPanel(v sim.View) sim.Panel {
	root := v.Node(Root).(*Snap)
	p := sim.Panel{Title: "Snapshots", Note: "terminated, evaluated on each recorded cut: every process passive and every channel empty", Columns: []string{"snapshot", "active at the cut", "WORK in channels", "terminated at the cut"}}
	for _, r := range root.Results {
		verdict, em := "…", ""
		switch {
		case !r.Complete:
			verdict = fmt.Sprintf("%d of %d parts in", r.Reports, v.N())
		case r.Active == 0 && r.InChannel == 0:
			verdict, em = "yes", "good"
		default:
			verdict = "no"
		}
		p.Rows = append(p.Rows, sim.Row{Cells: []string{strconv.Itoa(r.Round), strconv.Itoa(r.Active), strconv.Itoa(r.InChannel), verdict}, CellEmphasis: []string{"", "", "", em}})
	}
	return p
}
