// Package barrier is Flink's checkpointing of a stream job, seed 000's and
// seed 003's practical face of Chandy–Lamport: barriers play the role of
// markers in the data streams of a dataflow graph.
//
// The job is a line of processes by index: 0 is JM, the job manager that
// coordinates checkpoints; 1 .. n-3 are the sources S1, S2, …, each
// emitting a numbered stream of records on a timer (a1, a2, … from S1,
// b1, b2, … from S2); n-2 is Op, one operator with an input from every
// source; n-1 is Sink, which counts the output. JM triggers checkpoint n
// every params.interval ticks: a source snapshots its offset and sends
// BARRIER n downstream behind the records it has emitted; Op waits for
// barrier n from every input, buffering the records of an input whose
// barrier is in (alignment), then snapshots its state and forwards the
// barrier; Sink snapshots its output. Checkpoint n is complete when JM has
// an ACK from every task. When a task fails and restarts, JM starts a new
// attempt: every task restores the last completed checkpoint, and the
// sources replay from its offsets, so that every record is counted exactly
// once. Without alignment (params.alignment false, Flink's at-least-once
// mode) Op's snapshot takes in records that come after a barrier, and a
// restore counts them twice.
//
// The model assumes what Flink does: reliable FIFO channels between tasks
// (a lost, copied or overtaking record breaks exactly-once), and stable
// storage for the snapshots, the attempt and JM's record of completed
// checkpoints. Failure detection is a restarted task's FAILED message;
// while JM is down nobody restores.
package barrier

import (
	"encoding/json"
	"fmt"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "barrier-alignment"

// The message kinds.
const (
	KindRecord  = "RECORD"
	KindBarrier = "BARRIER"
	KindTrigger = "TRIGGER"
	KindAck     = "ACK"
	KindFailed  = "FAILED"
	KindRestore = "RESTORE"
)

// The annotation roles.
const (
	// RoleSnapshot marks a process's point of checkpoint Group (JM's is
	// its trigger): one checkpoint's points make its cut.
	RoleSnapshot = "snapshot"
	// RoleAligning is the interval Op waits for barrier Group from every
	// input.
	RoleAligning = "aligning"
	// RoleComplete marks JM completing checkpoint Group.
	RoleComplete = "checkpoint-complete"
	// RoleRestored marks a task restoring a checkpoint in attempt Group.
	RoleRestored = "restored"
	// RoleStale marks a message of a failed attempt, dropped.
	RoleStale = "stale"
	// RoleTwice marks Sink counting a record it had counted already, and
	// RoleMissing Sink taking a record whose predecessor never came.
	RoleTwice   = "counted-twice"
	RoleMissing = "record-missing"
	// RoleState writes a process's state under it in the dataflow graph
	// ("count 7", "buffering a3 a4"), and RoleHeld draws an input Op
	// holds back (overlays, not annotations).
	RoleState = "state"
	RoleHeld  = "held"
)

// The timers.
const (
	TimerEmit    = "emit"
	TimerTrigger = "trigger"
)

// JM is the job manager's id; the sources follow it.
const JM sim.NodeID = 0

// Bounds on the job's size (JM, one to five sources, Op and Sink) and
// its params.
const (
	minN, maxN = 4, 8
	maxTicks   = 1000
	maxRecords = 1000
)

// Params are the scenario's algorithm parameters.
type Params struct {
	// Rate is how often a source emits a record (ticks, default 2), and
	// Records how many each emits (default 12).
	Rate    sim.Time `json:"rate"`
	Records int      `json:"records"`
	// Interval is how often JM triggers a checkpoint (ticks, default 10),
	// and Timeout how long it waits for one to complete before it gives
	// it up and triggers the next (ticks, default 30).
	Interval sim.Time `json:"interval"`
	Timeout  sim.Time `json:"timeout"`
	// Alignment says Op aligns barriers, buffering the records of an
	// input whose barrier is in (default true: exactly-once).
	Alignment *bool `json:"alignment"`
}

// aligned says whether Op aligns barriers.
func (p Params) aligned() bool { return p.Alignment == nil || *p.Alignment }

// AlignmentSwitch is the switch the page offers.
var AlignmentSwitch = sim.Switch{Param: "alignment", Default: true, Label: "barrier alignment",
	Help: "Run the same schedule again with Op aligning barriers, or without: then Op goes on processing the records of an input whose barrier is in, its snapshot takes in records the source's offset does not, and a restore counts them twice (at-least-once)"}

// Invariant names.
const (
	ExactlyOnceName = "each record is counted exactly once"
	RestoreName     = "a restore brings back a completed checkpoint"
)

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:    ID,
	Title: "Barrier alignment: Flink's stream checkpoints",
	Summary: "Sources stream numbered records through an operator to a sink. The job manager triggers checkpoints: barriers, Chandy–Lamport's markers, flow with the records, and the operator waits for the barrier of every input before it snapshots. " +
		"After a failure every task restores the last completed checkpoint and the sources replay from its offsets: each record is counted exactly once. Without alignment a restore counts some twice.",
	MinN:         minN,
	MaxN:         maxN,
	DefaultNames: Names,
	Kinds: []sim.KindSpec{
		{Name: KindRecord, Role: sim.RoleMessage, Tone: sim.Blue, Glyph: sim.GlyphDot, Application: true},
		{Name: KindBarrier, Role: sim.RoleMarker, Glyph: sim.GlyphBar},
		{Name: KindTrigger, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphTriangle},
		{Name: KindAck, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindFailed, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
		{Name: KindRestore, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphDiamond},
	},
	Learner: sim.LearnerSpec{
		Switches: []sim.Switch{AlignmentSwitch},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleSnapshot, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "state snapshotted for a checkpoint (JM's point is its trigger); a checkpoint's points make its cut"},
			{Name: RoleAligning, Style: sim.StyleOutline, Tone: sim.Orange, Legend: "Op waits for a checkpoint's barrier from every input; aligned, it buffers the records of inputs whose barrier is in"},
			{Name: RoleComplete, Style: sim.StyleGlyph, Glyph: sim.GlyphDiamond, Tone: sim.Green, Legend: "checkpoint complete: JM has an ACK from every task"},
			{Name: RoleRestored, Style: sim.StyleGlyph, Glyph: sim.GlyphRing, Tone: sim.Orange, Legend: "the task restores the last completed checkpoint in a new attempt"},
			{Name: RoleStale, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Grey, Legend: "a message of a failed attempt, dropped"},
			{Name: RoleTwice, Style: sim.StyleGlyph, Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "Sink counts a record a second time"},
			{Name: RoleMissing, Style: sim.StyleGlyph, Glyph: sim.GlyphTriangle, Tone: sim.Red, Legend: "Sink takes a record whose predecessor never came"},
			{Name: RoleState, Style: sim.StyleState},
			{Name: RoleHeld, Style: sim.StyleHeld, Tone: sim.Orange, Legend: "an input Op holds back while it aligns a checkpoint's barriers"},
		},
		Topology: topology,
		Overlays: overlays,
	},
	New: newJob,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{exactlyOnce, restoresCompleted, coordinates, works},
		KnownLimits: []sim.KnownLimit{
			{Invariant: ExactlyOnceName, Faults: []string{"fifo", "duplicate", "drop", "cut", "partition"},
				Why: "barriers cut the streams consistently only on reliable FIFO channels: out of order a record overtakes a barrier (or reaches Sink behind a later one), a copied record is processed twice, and a lost one is never replayed, for no task failed"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
	Done: done,
}

// Names names the job's processes: JM, S1 … S(n-3), Op, Sink.
func Names(n int) []string {
	names := make([]string, n)
	for i := range names {
		switch id := sim.NodeID(i); {
		case id == JM:
			names[i] = "JM"
		case id == operator(n):
			names[i] = "Op"
		case id == sink(n):
			names[i] = "Sink"
		default:
			names[i] = fmt.Sprintf("S%d", i)
		}
	}
	return names
}

// sources is the number of sources of a job of n processes; source s (from
// 1) is process s.
func sources(n int) int { return n - 3 }

// operator and sink are the ids of Op and Sink in a job of n processes.
func operator(n int) sim.NodeID { return sim.NodeID(n - 2) }
func sink(n int) sim.NodeID     { return sim.NodeID(n - 1) }

func newJob(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Rate: 2, Records: 12, Interval: 10, Timeout: 30}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		field   string
		v, most int64
		meaning string
	}{{"params.rate", int64(p.Rate), maxTicks, "ticks"}, {"params.records", int64(p.Records), maxRecords, "records"}, {"params.interval", int64(p.Interval), maxTicks, "ticks"}, {"params.timeout", int64(p.Timeout), maxTicks, "ticks"}} {
		if c.v < 1 || c.v > c.most {
			return nil, strictjson.FieldErrorf(c.field, "want %s from 1 to %d, got %d", c.meaning, c.most, c.v)
		}
	}
	n := len(names)
	if n < minN || n > maxN {
		return nil, strictjson.FieldErrorf("n", "a job has JM, 1 to 5 sources, Op and Sink: 4 to 8 processes, got %d", n)
	}
	k := sources(n)
	nodes := make([]sim.Node, n)
	nodes[JM] = &JobManager{Interval: p.Interval, Timeout: p.Timeout, Sources: k, Tasks: n - 1, Next: 1, Attempt: 1}
	for s := 1; s <= k; s++ {
		nodes[s] = &Source{Task: firstAttempt(), Number: s, Records: p.Records, Rate: p.Rate}
	}
	nodes[operator(n)] = &Operator{Task: firstAttempt(), Aligned: p.aligned(), Count: 0, Last: make([]int, k)}
	nodes[sink(n)] = &Sink{Task: firstAttempt(), Records: p.Records, Count: make([]int, k), Last: make([]int, k)}
	return nodes, nil
}

// record is one element of a stream: the source that emitted it (from 1),
// its number in that source's stream, and the attempt of the task that
// sent it.
type record struct {
	Source, Seq, Attempt int
}

// label names a record as the diagram does: "a3" is S1's third.
func (r record) label() string { return recordLabel(r.Source, r.Seq) }

func recordLabel(source, seq int) string { return fmt.Sprintf("%c%d", 'a'+source-1, seq) }

func (r record) message() sim.Message {
	return sim.Message{Kind: KindRecord, Value: int64(r.Seq), Label: r.label(), Data: []int64{int64(r.Source), int64(r.Seq), int64(r.Attempt)}}
}

func readRecord(m sim.Message) record {
	return record{Source: datum(m, 0), Seq: datum(m, 1), Attempt: datum(m, 2)}
}

// barrierMessage is BARRIER n of an attempt.
func barrierMessage(n, attempt int) sim.Message {
	return sim.Message{Kind: KindBarrier, Value: int64(n), Label: fmt.Sprintf("‖%d", n), Data: []int64{int64(attempt)}}
}

// datum is the i-th number of a message's data, or 0 when it has none
// there (so that a malformed message reads as one of no attempt: stale).
func datum(m sim.Message, i int) int {
	if i < len(m.Data) {
		return int(m.Data[i])
	}
	return 0
}

// attemptOf is the attempt a data message (RECORD, BARRIER, TRIGGER)
// belongs to.
func attemptOf(m sim.Message) int {
	if m.Kind == KindRecord {
		return datum(m, 2)
	}
	return datum(m, 0)
}

// checkpointWords names what a restore brings back.
func checkpointWords(c int) string {
	if c == 0 {
		return "the initial state"
	}
	return fmt.Sprintf("checkpoint %d", c)
}
