package barrier

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

// opBench drives Op alone: it delivers what a script of inputs says and
// collects what Op sends Sink.
type opBench struct {
	t     *testing.T
	op    *Operator
	names []string
	env   sim.Env
	msgs  int
	// out is what Op sent Sink, as labels ("a1", "‖2"), and acks the
	// checkpoints it acknowledged to JM.
	out, acks []string
}

func newOpBench(t *testing.T, inputs int, aligned bool) *opBench {
	n := inputs + 3
	nodes, err := newJob(Names(n), []byte(fmt.Sprintf(`{"alignment": %v}`, aligned)))
	require.NoError(t, err)
	b := &opBench{t: t, op: nodes[operator(n)].(*Operator), names: Names(n)}
	b.step(sim.Event{Kind: sim.Init})
	return b
}

func (b *opBench) step(ev sim.Event) {
	b.env.Reset(sim.Context{Self: operator(len(b.names)), Names: b.names})
	b.op.Step(&b.env, ev)
	effects := b.env.Effects()
	require.NotEmpty(b.t, effects.Caption, "every step is explained")
	for _, s := range effects.Sends {
		switch {
		case s.To == sink(len(b.names)):
			b.out = append(b.out, s.Msg.Label)
		case s.To == JM && s.Msg.Kind == KindAck:
			b.acks = append(b.acks, strconv.FormatInt(s.Msg.Value, 10))
		}
	}
}

// feed delivers a script of inputs, each of attempt 1: "a3" is S1's
// record 3, "b|2" S2's barrier 2.
func (b *opBench) feed(script string) {
	for _, tok := range strings.Fields(script) {
		b.deliver(tok, 1)
	}
}

func (b *opBench) deliver(tok string, attempt int) {
	from := sim.NodeID(tok[0]-'a') + 1
	var m sim.Message
	if n, ok := strings.CutPrefix(tok[1:], "|"); ok {
		k, err := strconv.Atoi(n)
		require.NoError(b.t, err, tok)
		m = barrierMessage(k, attempt)
	} else {
		seq, err := strconv.Atoi(tok[1:])
		require.NoError(b.t, err, tok)
		m = record{Source: int(from), Seq: seq, Attempt: attempt}.message()
	}
	b.step(sim.Event{Kind: sim.Deliver, From: from, Msg: m, MsgID: b.msgs})
	b.msgs++
}

// snapshots lists Op's snapshots as "n:count".
func (b *opBench) snapshots() string {
	var out []string
	for _, s := range b.op.Snapshots {
		out = append(out, fmt.Sprintf("%d:%d", s.N, s.Count))
	}
	return strings.Join(out, " ")
}

// Op's alignment rule, input by input: aligned, what an input sends after
// its barrier waits until every input's barrier is in; unaligned, it is
// processed at once and lands in the snapshot.
func TestOperatorAlignment(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inputs   int
		aligned  bool
		script   string
		sink     string // what Op sends Sink, in order
		snaps    string // Op's snapshots, "checkpoint:count"
		buffered int    // records ever buffered
		blocked  string // inputs blocked at the end
	}{
		{name: "aligned: a record after its barrier waits for the other barrier",
			inputs: 2, aligned: true, script: "a1 a|1 a2 b1 b|1 b2",
			sink: "a1 b1 ‖1 a2 b2", snaps: "1:2", buffered: 1},
		{name: "unaligned: the same record is processed at once and is in the snapshot",
			inputs: 2, aligned: false, script: "a1 a|1 a2 b1 b|1 b2",
			sink: "a1 a2 b1 ‖1 b2", snaps: "1:3"},
		{name: "aligned: an input stays blocked until the last barrier",
			inputs: 2, aligned: true, script: "a|1 a2 a3",
			sink: "", snaps: "", buffered: 2, blocked: "S1"},
		{name: "aligned: the other input flows while one is blocked",
			inputs: 3, aligned: true, script: "a|1 b|1 c1 a2 b2 c|1",
			sink: "c1 ‖1 a2 b2", snaps: "1:1", buffered: 2},
		{name: "aligned: a barrier in the buffer starts the next alignment when released",
			inputs: 2, aligned: true, script: "a|1 a2 a|2 a3 b1 b|1 b|2",
			sink: "b1 ‖1 a2 ‖2 a3", snaps: "1:1 2:2", buffered: 2},
		{name: "aligned: a barrier of the next checkpoint gives up one whose barrier was lost",
			inputs: 2, aligned: true, script: "a|1 a2 b|2 b3 a|2",
			sink: "a2 ‖2 b3", snaps: "2:1", buffered: 2},
		{name: "aligned: one barrier gives up every older checkpoint it overtook",
			inputs: 2, aligned: true, script: "a|1 a2 a|2 a3 b|3 b4 a|3",
			sink: "a2 a3 ‖3 b4", snaps: "3:2", buffered: 3},
		{name: "unaligned: checkpoints overlap, each snapshot when its last barrier comes",
			inputs: 2, aligned: false, script: "a|1 a2 a|2 b|1 b|2",
			sink: "a2 ‖1 ‖2", snaps: "1:1 2:1"},
		{name: "unaligned: a completed checkpoint gives up an older one",
			inputs: 2, aligned: false, script: "a|1 a|2 b|2 b|1",
			sink: "‖2", snaps: "2:0"},
		{name: "a copied or late barrier is ignored",
			inputs: 2, aligned: true, script: "a|1 a|1 b|1 a|1 b|1",
			sink: "‖1", snaps: "1:0"},
		{name: "one input: the barrier completes the checkpoint at once",
			inputs: 1, aligned: true, script: "a1 a|1 a2",
			sink: "a1 ‖1 a2", snaps: "1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newOpBench(t, tc.inputs, tc.aligned)
			b.feed(tc.script)
			assert.Equal(t, tc.sink, strings.Join(b.out, " "), "what Op forwards to Sink")
			assert.Equal(t, tc.snaps, b.snapshots())
			assert.Equal(t, tc.buffered, b.op.Buffered, "records buffered")
			var blocked []string
			for i := range tc.inputs {
				if b.op.blocked(i) {
					blocked = append(blocked, b.names[i+1])
				}
			}
			assert.Equal(t, tc.blocked, strings.Join(blocked, " "))
			var snapshotted []string
			for _, s := range b.op.Snapshots {
				snapshotted = append(snapshotted, strconv.Itoa(s.N))
			}
			assert.Equal(t, snapshotted, b.acks, "an ACK to JM for every snapshot")
		})
	}
}

// The attempt's gate: Op holds what a newer attempt sends until its own
// RESTORE, drops what an older one sends, and after a restore forgets its
// alignment and buffer.
func TestOperatorAttempts(t *testing.T) {
	b := newOpBench(t, 2, true)
	b.feed("a1 a|1 a2")
	require.Equal(t, "a1", strings.Join(b.out, " "))
	b.deliver("b1", 2)
	assert.Len(t, b.op.Held, 1, "a record of attempt 2 waits for Op's RESTORE")
	b.step(sim.Event{Kind: sim.Deliver, From: JM, Msg: sim.Message{Kind: KindRestore, Value: 0, Data: []int64{2}}, MsgID: b.msgs})
	assert.Equal(t, 2, b.op.Attempt)
	assert.Empty(t, b.op.Buffer, "attempt 1's buffer is dropped")
	assert.Empty(t, b.op.Pending, "and its alignment")
	assert.Equal(t, "a1 b1", strings.Join(b.out, " "), "the held record is taken once Op runs attempt 2")
	assert.Equal(t, 1, b.op.Count, "counted from the initial state")
	b.deliver("a2", 1)
	assert.Equal(t, 1, b.op.Stale, "attempt 1's record is dropped")
	assert.Equal(t, "a1 b1", strings.Join(b.out, " "))
}
