package trace_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/clock"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/fulldisk"
	"spacetime/internal/scenariotest"
)

// lessonTraces are the traces of a few lessons that between them have
// faults, duplicates, losses, annotations, timers and changes.
func lessonTraces(t *testing.T) map[string]*trace.Trace {
	t.Helper()
	if lessons != nil {
		return lessons
	}
	out := map[string]*trace.Trace{}
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		r, err := scenariotest.Plan(t, s).Run()
		require.NoError(t, err, id)
		out[id] = r.Trace()
	}
	lessons = out
	return out
}

// lessons are the lessons' traces, made once for the tests that read them.
var lessons map[string]*trace.Trace

// The streamed JSON is byte for byte the trace's prefix marshalled whole,
// at every length (the messages' later receipts and losses hidden), and
// a trace of no steps has empty lists.
func TestWriteJSONIsMarshalIndent(t *testing.T) {
	for id, tr := range lessonTraces(t) {
		ks := []int{0, 1, tr.Len() / 2, tr.Len()}
		if tr.Len() > 10_000 {
			ks = []int{10_000} // long enough to be written in many pieces
		}
		for _, k := range ks {
			want, err := json.MarshalIndent(tr.Prefix(k), "", "  ")
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, tr.WriteJSON(&got, k), "%s at %d", id, k)
			require.Equal(t, string(want), got.String(), "%s at %d", id, k)
		}
	}
}

// The streamed log is the log the encoder made when it built the whole
// log in memory, keeping every step's clock.
func TestWriteShiVizIsTheWholeLog(t *testing.T) {
	for id, tr := range lessonTraces(t) {
		for _, k := range []int{0, tr.Len() / 2, tr.Len()} {
			var got bytes.Buffer
			require.NoError(t, tr.WriteShiViz(&got, k))
			require.Equal(t, wholeShiViz(tr, k), got.String(), "%s at %d", id, k)
		}
	}
}

// A writer that fails stops the encoders, which say why; they write what
// they make in pieces, not all at once at the end.
func TestStreamsReportWriteErrors(t *testing.T) {
	tr := lessonTraces(t)["snapshot-long"]
	require.Greater(t, tr.Len(), 10_000)
	for name, write := range map[string]func(w io.Writer) error{
		"json":   func(w io.Writer) error { return tr.WriteJSON(w, tr.Len()) },
		"shiviz": func(w io.Writer) error { return tr.WriteShiViz(w, tr.Len()) },
	} {
		assert.ErrorIs(t, write(&fulldisk.Writer{Room: 0}), fulldisk.ErrNoSpace, name)
		assert.ErrorIs(t, write(&fulldisk.Writer{Room: 100_000}), fulldisk.ErrNoSpace, name)
		var count counting
		require.NoError(t, write(&count))
		assert.Greater(t, count.writes, 10, "%s: written in pieces", name)
		assert.Less(t, count.largest, 256<<10, "%s: no piece is the whole", name)
	}
}

// counting counts the writes and the largest.
type counting struct{ writes, largest int }

func (c *counting) Write(p []byte) (int, error) {
	c.writes++
	c.largest = max(c.largest, len(p))
	return len(p), nil
}

// wholeShiViz is the log as the encoder made it before it streamed: every
// step's clock kept, the log built in one buffer.
func wholeShiViz(t *trace.Trace, k int) string {
	k = min(max(k, 0), len(t.Records))
	n := len(t.Names)
	var b strings.Builder
	b.WriteString(trace.ShiVizRegexp + "\n\n")
	at := make([][]int32, k)
	now := make([][]int32, n)
	for i := range now {
		now[i] = make([]int32, n)
	}
	host := func(r *trace.Record) bool {
		if r.Node < 0 || int(r.Node) >= n {
			return false
		}
		return !(r.Kind == trace.Fault && r.Extra != nil && r.Extra.Args != nil && r.Extra.Args.Msg >= 0)
	}
	sentClock := func(id int) []int32 {
		for range 2 {
			if id < 0 || id >= len(t.Msgs) {
				return nil
			}
			m := &t.Msgs[id]
			if m.SendStep >= 0 && m.SendStep < len(at) && at[m.SendStep] != nil {
				return at[m.SendStep]
			}
			if m.Original == m.ID {
				return nil
			}
			id = m.Original
		}
		return nil
	}
	oneLine := strings.NewReplacer("\n", " ", "\r", " ", "\u2028", " ", "\u2029", " ", "\v", " ", "\f", " ", "\u0085", " ")
	// a receipt names the message: "deliver KIND «LABEL»"
	receipt := func(what string, m trace.Msg, sent []int32) string {
		if sent == nil {
			return what
		}
		if m.Kind != "" {
			what += " " + m.Kind
		}
		if m.Label != "" && m.Label != m.Kind {
			what += " «" + strings.NewReplacer("«", "‹", "»", "›", "\n", " ").Replace(m.Label) + "»"
		}
		return fmt.Sprintf("%s from %s:%d", what, t.Names[m.From], sent[m.From])
	}
	event := func(node sim.NodeID, sent []int32, text string) []int32 {
		c := now[node]
		for i := range sent {
			c[i] = max(c[i], sent[i])
		}
		c[node]++
		fmt.Fprintf(&b, "%s %s\n%s\n", t.Names[node], clock.FormatLog(c, func(i int) string { return t.Names[i] }), text)
		return slices.Clone(c)
	}
	down := map[sim.NodeID]bool{}
	for _, d := range t.Down {
		down[d] = true
	}
	downTo := func(node sim.NodeID) { // a down process's event where its start would be
		for d := range sim.NodeID(n) {
			if d <= node && down[d] {
				event(d, nil, "down: "+t.Names[d]+" is down from the start")
				delete(down, d)
			}
		}
	}
	for s, r := range t.Records[:k] {
		if !host(&r) {
			continue
		}
		downTo(r.Node)
		if r.Kind == trace.Deliver {
			sent := sentClock(r.Msg)
			at[s] = event(r.Node, sent, receipt("deliver", t.Msgs[r.Msg], sent)+": "+oneLine.Replace(r.Caption))
		} else {
			at[s] = event(r.Node, nil, r.What()+": "+oneLine.Replace(r.Caption))
		}
	}
	downTo(sim.NodeID(n))
	for _, m := range t.MsgsBefore(k) {
		if sent := sentClock(m.ID); m.InFlightAt(k) && sent != nil {
			event(m.To, sent, receipt("in-flight", m, sent)+": "+t.Names[m.From]+"'s message, still on its way at the end")
		}
	}
	return b.String()
}
