// Package checkpoint is seed 003's checkpointing and recovery. Processes
// do work and exchange messages, and save checkpoints to stable storage;
// after a crash they roll back to a recovery line, a consistent set of
// checkpoints, and carry on from there.
//
// Uncoordinated (the default), every process checkpoints on its own,
// at random times. After a crash, process 1 collects every process's
// checkpoints and finds the recovery line by rollback propagation: it
// starts from the crashed process's last checkpoint and everyone else's
// present state, and while one process has received a message that
// another has not yet sent at its point on the line (an orphan), rolls
// the receiver back. Each rollback can orphan more messages: the domino
// effect, which can carry the line back to the initial state.
//
// Coordinated (params.coordinated), process 1 starts a global checkpoint
// with Chandy–Lamport markers every interval; a process saves its state
// at its first marker, and records the messages that arrive on each
// channel before that channel's marker. Recovery restores the last global
// checkpoint that every process completed, and replays the recorded
// messages: no domino, and no message lost, for the markers' price.
//
// Recovery has five phases, run by process 1: REQUEST (everyone stops
// and reports its checkpoints), the line, ROLLBACK (everyone restores its
// point on the line), RESTORED, and RESUME. Every message carries the
// epoch of the recovery its sender last restored in, and a message from
// an older epoch is dropped: it was undone, or lost in transit.
package checkpoint

import (
	"encoding/json"
	"strconv"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "checkpoint"

// Message kinds.
const (
	KindMsg      = "MSG"
	KindMarker   = "MARKER"
	KindFailed   = "FAILED"
	KindRequest  = "REQUEST"
	KindInfo     = "INFO"
	KindRollback = "ROLLBACK"
	KindRestored = "RESTORED"
	KindResume   = "RESUME"
	// Two-phase global checkpoints' messages.
	KindCheckpointRequest = "CHECKPOINT"
	KindAck               = "ACK"
	KindDone              = "DONE"
)

// Annotation roles.
const (
	// RoleCheckpoint marks a local checkpoint on the diagram.
	RoleCheckpoint = "checkpoint"
	// RoleRound marks a process's part of global checkpoint Group: its
	// points make the global checkpoint's cut.
	RoleRound = "global-checkpoint"
	// RoleChannel marks a message recorded as channel state of a round.
	RoleChannel = "channel-state"
	// RoleSaved marks the step whose state checkpoint Group saved (every
	// kind: local, global, a base after a restore), for the lines.
	RoleSaved = "saved"
	// RoleFrozen is the interval a process is stopped for recovery.
	RoleFrozen = "frozen"
	// RoleBlocked is the interval a process holds its sends, between its
	// tentative checkpoint and the commit (two-phase).
	RoleBlocked = "blocked"
	// RoleRollback marks a restore, with the work it undid.
	RoleRollback = "rollback"
	// RoleLine marks, at process 1, the step recovery Group settled its
	// line (the invariant checks the line then).
	RoleLine = "line"
	// RoleIgnored marks a delivered message that was not taken (it was
	// from an older epoch, arrived while frozen, or a network duplicate);
	// its Group is the message's id.
	RoleIgnored = "ignored"
	// RoleCandidateLine and RoleRecoveryLine are the lines a recovery
	// draws through the checkpoints it restores: still moving back, and
	// settled (overlays, not annotations).
	RoleCandidateLine = "candidate-line"
	RoleRecoveryLine  = "recovery-line"
)

// Commands a learner or script may give a process.
const (
	CmdCheckpoint = "checkpoint"
	CmdSend       = "send"
)

// Timers.
const (
	timerCheckpoint = "checkpoint"
	timerPropagate  = "propagate"
)

// Manager is process 1, which starts global checkpoints and runs recovery.
const Manager sim.NodeID = 0

// maxInterval bounds params.interval.
const maxInterval = 100_000

// Params are the scenario's algorithm parameters.
type Params struct {
	// Coordinated takes global checkpoints with markers instead of local
	// ones at random.
	Coordinated bool `json:"coordinated"`
	// TwoPhase takes the global checkpoints with the blocking two-phase
	// protocol (CHECKPOINT, ACK, DONE) instead of markers; it implies
	// Coordinated.
	TwoPhase bool `json:"two_phase"`
	// Interval is how often checkpoints are taken, in ticks: each
	// process's mean gap (uncoordinated), or process 1's period between
	// global checkpoints (coordinated); 0 means only when commanded.
	Interval sim.Time `json:"interval"`
}

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:           ID,
	Title:        "Checkpointing and recovery",
	Summary:      "Processes save checkpoints and roll back to a consistent recovery line after a crash. Uncoordinated checkpoints cost no messages but can domino back to the start; coordinated ones cost markers and restore the last global checkpoint.",
	MinN:         2,
	MaxN:         12,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: KindMsg, Role: sim.RoleMessage, Application: true},
		{Name: KindMarker, Role: sim.RoleMarker},
		{Name: KindFailed, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphCross},
		{Name: KindRequest, Role: sim.RoleControl, Tone: sim.Orange, Glyph: sim.GlyphTriangle},
		{Name: KindInfo, Role: sim.RoleControl, Tone: sim.Teal, Glyph: sim.GlyphSquare},
		{Name: KindRollback, Role: sim.RoleControl, Tone: sim.Red, Glyph: sim.GlyphDiamond},
		{Name: KindRestored, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
		{Name: KindResume, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphBar},
		{Name: KindCheckpointRequest, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphOpenSquare},
		{Name: KindAck, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphOpenTriangle},
		{Name: KindDone, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphPlus},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: CmdCheckpoint, Help: "take a checkpoint now (coordinated: start a global one; process 1 only)", Takes: takesCheckpoint, Who: "the processes that start global checkpoints (process 1, when they are coordinated)"},
			{Name: CmdSend, Help: "send a message to another process", Target: true},
		},
		Switches: []sim.Switch{
			{Param: "coordinated", Variant: true, Label: "coordinated checkpoints", Help: "process 1 takes global checkpoints with Chandy–Lamport markers instead of every process checkpointing on its own; recovery restores the last global one"},
			{Param: "two_phase", Variant: true, Label: "two-phase checkpoints", Help: "process 1 takes global checkpoints with the blocking two-phase protocol (TENTATIVE, ACK, COMMIT) instead of markers: no process sends between its checkpoint and DONE, and nothing in transit is recorded"},
		},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleCheckpoint, Style: sim.StyleGlyph, Glyph: sim.GlyphSquare, Tone: sim.Blue, Legend: "checkpoint saved to stable storage"},
			{Name: RoleRound, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "part of a global checkpoint; its points make a cut"},
			{Name: RoleChannel, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "recorded in channels", Of: RoleRound},
			{Name: RoleFrozen, Style: sim.StyleOutline, Tone: sim.Grey, Legend: "stopped for recovery"},
			{Name: RoleBlocked, Style: sim.StyleOutline, Tone: sim.Purple, Legend: "holds its sends: its part of a two-phase global checkpoint is saved, and it waits for DONE"},
			{Name: RoleRollback, Style: sim.StyleGlyph, Glyph: sim.GlyphTriangle, Tone: sim.Red, Legend: "rolled back: the shaded stretch since its point on the line is undone"},
			{Name: RoleSaved, Style: sim.StyleHidden},
			{Name: RoleLine, Style: sim.StyleHidden},
			{Name: RoleIgnored, Style: sim.StyleHidden},
			{Name: RoleCandidateLine, Style: sim.StyleLine, Tone: sim.Orange, Legend: "candidate line: the rollback is still moving it back"},
			{Name: RoleRecoveryLine, Style: sim.StyleLine, Tone: sim.Red, Legend: "recovery line: every process restores its point on it"},
		},
		Topology: sim.CompleteTopology,
		Overlays: lines,
	},
	New: newProcs,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{consistentLine, noLostMessage, inTransitHeld, roundEnds, recoveryEnds, onSchedule, droppedForAReason, works, saves, partsOnce, restores, manages},
		KnownLimits: []sim.KnownLimit{
			{Invariant: ConsistentName, Faults: []string{"fifo"}, Why: "without FIFO a message sent after its sender's marker can arrive before the receiver's, and a global checkpoint then records a receipt without its send"},
			{Invariant: NoLostName, Faults: []string{"fifo", "drop", "cut", "partition"}, Why: "a global checkpoint records only what arrives before the markers: a message the network loses, or one that overtakes a marker, is not in it"},
			{Invariant: DroppedName, Faults: []string{"fifo"}, Why: "a process keeps the highest message number it took from each sender, as the line's counts do: a message that another overtook looks taken already, and is dropped"},
			{Invariant: RoundName, Faults: []string{"drop", "cut", "partition"}, Why: "a marker, CHECKPOINT, ACK or DONE is sent once: one the network loses leaves its global checkpoint under way for good"},
			{Invariant: RecoveryName, Faults: []string{"drop", "cut", "partition"}, Why: "recovery messages are sent once: a FAILED, REQUEST, INFO, ROLLBACK, RESTORED or RESUME that the network loses leaves the processes stopped for good"},
			{Invariant: InTransitName, Faults: []string{"fifo", "drop", "cut", "partition"}, Why: "a message the network loses never reaches its part, and one that overtakes its sender's marker is recorded though sent after the sender's point"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
	},
}

// takesCheckpoint says who takes the checkpoint command: anyone, unless
// checkpoints are coordinated, when process 1 starts them.
func takesCheckpoint(v sim.View, id sim.NodeID) bool {
	return id == Manager || !v.Node(id).(*Proc).params.Coordinated
}

func newProcs(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{Interval: 12}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.TwoPhase {
		p.Coordinated = true
	}
	if p.Interval < 0 || p.Interval > maxInterval {
		return nil, strictjson.FieldErrorf("params.interval", "want ticks from 0 (only when commanded) to %d, got %d", maxInterval, p.Interval)
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &Proc{params: &p}
	}
	return nodes, nil
}

// label names checkpoint id of a process: "c2.1".
func label(env sim.Namer, id sim.NodeID, k int) string {
	return string(appendLabel(nil, env.Name(id), k))
}

// appendLabel appends the label of checkpoint k of the process named name.
func appendLabel(b []byte, name string, k int) []byte {
	return strconv.AppendInt(append(append(append(b, 'c'), name...), '.'), int64(k), 10)
}
