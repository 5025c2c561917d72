package trace

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// sample is a four-step run of two processes: A sends #0 and B gets it; A
// sends #1 (lost at step 3) and #2 (still in flight).
func sample() *Trace {
	return &Trace{
		Names: []string{"A", "B"},
		Records: []Record{
			{Step: 0, Node: 0, Kind: Command, Msg: -1, FirstSent: 0, NumSent: 1, Lamport: 1, Vector: clock.Vector{1, 0}, Caption: "A sends",
				Extra: &Extra{Tag: "send", Args: &faults.Args{Node: 0, Target: 1, Msg: -1}, Arg: 3,
					Annotations: []sim.Annotation{sim.Opens("critical-section", 1, "in")}, Timers: []TimerNote{{Tag: "retry", Due: 9}}}},
			{Step: 1, Node: 0, Kind: Workload, Msg: -1, FirstSent: 1, NumSent: 2, Lamport: 2, Vector: clock.Vector{2, 0}, Caption: "A sends twice"},
			{Step: 2, Node: 1, Kind: Deliver, Msg: 0, FirstSent: 3, Lamport: 2, Vector: clock.Vector{1, 1}, Caption: "B gets\nit"},
			{Step: 3, Node: 1, Kind: Fault, Msg: 1, FirstSent: 3, Lamport: 2, Vector: clock.Vector{1, 1}, Caption: "lost",
				Extra: &Extra{Tag: "drop", Args: &faults.Args{Node: -1, Target: -1, Msg: 1}}},
		},
		Msgs: []Msg{
			{ID: 0, From: 0, To: 1, SendStep: 0, RecvStep: 2, RecvTime: 5, DropStep: -1},
			{ID: 1, From: 0, To: 1, SendStep: 1, RecvStep: -1, DropStep: 3},
			{ID: 2, From: 0, To: 1, SendStep: 1, RecvStep: -1, DropStep: -1},
		},
	}
}

func TestMessageStatusAtEachStep(t *testing.T) {
	tr := sample()
	tests := []struct {
		id                          int
		k                           int
		inFlight, received, dropped bool
	}{
		{0, 0, false, false, false},
		{0, 1, true, false, false},
		{0, 2, true, false, false},
		{0, 3, false, true, false},
		{1, 1, false, false, false},
		{1, 2, true, false, false},
		{1, 3, true, false, false},
		{1, 4, false, false, true},
		{2, 4, true, false, false},
	}
	for _, tt := range tests {
		m := &tr.Msgs[tt.id]
		assert.Equal(t, tt.inFlight, m.InFlightAt(tt.k), "#%d in flight at %d", tt.id, tt.k)
		assert.Equal(t, tt.received, m.ReceivedAt(tt.k), "#%d received at %d", tt.id, tt.k)
		assert.Equal(t, tt.dropped, m.DroppedAt(tt.k), "#%d dropped at %d", tt.id, tt.k)
	}
}

func TestPrefixHidesTheFuture(t *testing.T) {
	tr := sample()
	tests := []struct {
		k             int
		records, msgs int
		recv0, drop1  int
		recvTime0     sim.Time
	}{
		{k: -1},
		{k: 0},
		{k: 1, records: 1, msgs: 1, recv0: -1, drop1: -1},
		{k: 2, records: 2, msgs: 3, recv0: -1, drop1: -1},
		{k: 3, records: 3, msgs: 3, recv0: 2, drop1: -1, recvTime0: 5},
		{k: 4, records: 4, msgs: 3, recv0: 2, drop1: 3, recvTime0: 5},
		{k: 9, records: 4, msgs: 3, recv0: 2, drop1: 3, recvTime0: 5},
	}
	for _, tt := range tests {
		p := tr.Prefix(tt.k)
		require.Len(t, p.Records, tt.records, "k=%d", tt.k)
		require.Len(t, p.Msgs, tt.msgs, "k=%d", tt.k)
		if tt.msgs > 0 {
			assert.Equal(t, tt.recv0, p.Msgs[0].RecvStep, "k=%d", tt.k)
			assert.Equal(t, tt.recvTime0, p.Msgs[0].RecvTime, "k=%d", tt.k)
		}
		if tt.msgs > 1 {
			assert.Equal(t, tt.drop1, p.Msgs[1].DropStep, "k=%d", tt.k)
		}
	}
	// The prefix is a copy: the trace itself is untouched.
	assert.Equal(t, sample(), tr)
	p := tr.Prefix(2)
	p.Names[0] = "Z"
	p.Msgs[0].RecvStep = 99
	assert.Equal(t, sample(), tr)
}

func TestTruncateForgetsTheFuture(t *testing.T) {
	tr := sample()
	tr.Truncate(3)
	assert.Len(t, tr.Records, 3)
	assert.Len(t, tr.Msgs, 3)
	assert.Equal(t, -1, tr.Msgs[1].DropStep)
	assert.Equal(t, 2, tr.Msgs[0].RecvStep)
	tr.Truncate(1)
	assert.Len(t, tr.Records, 1)
	assert.Len(t, tr.Msgs, 1)
	assert.Equal(t, -1, tr.Msgs[0].RecvStep)
	assert.Zero(t, tr.Msgs[0].RecvTime)
	tr.Truncate(5)
	assert.Len(t, tr.Records, 1)
}

func TestJSONIsThePrefix(t *testing.T) {
	tr := sample()
	data, err := tr.JSON(3)
	require.NoError(t, err)
	var back Trace
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, tr.Prefix(3), &back)
}

// A trace of no steps is written with empty lists, not nulls.
func TestEmptyTraceJSON(t *testing.T) {
	data, err := sample().JSON(0)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"records": []`)
	assert.Contains(t, string(data), `"messages": []`)
}

// The log opens in ShiViz as it is: the parsing expression, a blank line
// (one execution), then two lines an event, the receipt merging the
// clock of the sending and naming the message; the network's loss of a
// message is no host's event; a message still on its way at the end is
// an event of its receiver, and a process down from the start has an
// event that says so, before any later process's first (none here).
func TestShiViz(t *testing.T) {
	tr := sample()
	tr.Names = append(tr.Names, "C")
	tr.Down = []sim.NodeID{2}
	tr.Msgs[0].Kind, tr.Msgs[0].Label = "transfer", "$3"
	tr.Msgs[2].Kind = "marker"
	got := string(tr.ShiViz(4))
	want := ShiVizRegexp + `

A {"A":1}
command: A sends
A {"A":2}
workload: A sends twice
B {"A":1, "B":1}
deliver transfer «$3» from A:1: B gets it
C {"C":1}
down: C is down from the start
B {"A":2, "B":2}
in-flight marker from A:2: A's message, still on its way at the end
`
	assert.Equal(t, want, got)
	r, ok := ShiVizReceipt("deliver transfer «$3» from A:1: B gets it")
	assert.True(t, ok)
	assert.Equal(t, Receipt{Kind: "transfer", Label: "$3", From: "A", Own: 1}, r, "a receipt's message is read back")
	assert.Equal(t, 2, ShiVizCut("command: A records [cut 2]"), "a cut's point is read back")
	assert.Equal(t, 0, ShiVizCut("command: A records [cut x]"))
	assert.Equal(t, 0, ShiVizCut("command: A records"))
	r, ok = ShiVizReceipt("in-flight marker from A:2: A's message")
	assert.True(t, ok)
	assert.Equal(t, Receipt{Kind: "marker", From: "A", Own: 2}, r)
	r, ok = ShiVizReceipt("deliver from A:2: a message of no kind")
	assert.True(t, ok)
	assert.Equal(t, Receipt{From: "A", Own: 2}, r)
	for _, text := range []string{"deliver: B gets it", "deliver transfer: B", "deliver x from A: y", "deliver x from A:0: y", "deliver x «y from A:1: z"} {
		_, ok = ShiVizReceipt(text)
		assert.False(t, ok, "%q names no message", text)
	}
}

// A step of the whole network (FIFO switched, a partition) is no host's
// event: the log leaves it out instead of reading host -1.
func TestShiVizLeavesOutNetworkSteps(t *testing.T) {
	tr := sample()
	network := Record{Step: 3, Node: -1, Kind: Fault, Msg: -1, Caption: "FIFO off", Extra: &Extra{Tag: "fifo"}}
	tr.Records = append(tr.Records[:3:3], network)
	tr.Msgs[1].DropStep = -1 // the step that lost it is the network's now
	assert.Equal(t, string(sample().ShiViz(3)), string(tr.ShiViz(4)))
}

func TestRecordJSONKeepsTheExtraFieldsFlat(t *testing.T) {
	tr := sample()
	data, err := json.Marshal(tr.Records[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), `"tag":"send"`)
	assert.Contains(t, string(data), `"annotations":[{"role":"critical-section","phase":"begin","group":1,"peer":-1,"msg":-1,"text":"in"}]`)
	assert.NotContains(t, string(data), `"Extra"`)
	data, err = json.Marshal(tr.Records[2])
	require.NoError(t, err)
	assert.NotContains(t, string(data), "tag", "a plain delivery has no extra fields")
	var back Record
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Nil(t, back.Extra)
	assert.Equal(t, "drop", tr.Records[3].What(), "a fault is named by its registry name")
	assert.Equal(t, "deliver", tr.Records[2].What())
	assert.Empty(t, tr.Records[2].Tag())
	assert.Nil(t, tr.Records[2].Annotations())
	_, _, ok := tr.Records[2].Args()
	assert.False(t, ok)
	a, arg, ok := tr.Records[0].Args()
	assert.True(t, ok)
	assert.Equal(t, sim.NodeID(1), a.Target)
	assert.Equal(t, int64(3), arg)
}

func TestShiVizKeepsEachEventOnOneLine(t *testing.T) {
	tr := sample()
	tr.Records[0].Caption = "A\u2028sends\u2029now\r"
	got := string(tr.ShiViz(1))
	assert.Equal(t, ShiVizRegexp+"\n\nA {\"A\":1}\ncommand: A sends now \nB {\"A\":1, \"B\":1}\nin-flight from A:1: A's message, still on its way at the end\n", got)
}
