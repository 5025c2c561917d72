package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Critical sections (or any interval an algorithm marks) are thick bars
// from entry to exit, or to now while still open.
func TestIntervalsAreBars(t *testing.T) {
	rec := func(step int, t sim.Time, node sim.NodeID, marks ...sim.Mark) trace.Record {
		return trace.Record{Step: step, Time: t, Node: node, Kind: trace.Command, Msg: -1, Marks: marks}
	}
	tr := &trace.Trace{Names: []string{"A", "B"}, Records: []trace.Record{
		rec(0, 1, 0, sim.Mark{Kind: sim.MarkEnter, Text: "CS"}),
		rec(1, 4, 0, sim.Mark{Kind: sim.MarkLeave}),
		rec(2, 6, 1, sim.Mark{Kind: sim.MarkEnter, Text: "CS"}),
		rec(3, 9, 0),
	}}
	bars := func(k int) []diagram.Shape {
		var out []diagram.Shape
		for _, sh := range diagram.Layout(tr, k, nil, diagram.Options{Width: 600, Height: 240}).Shapes {
			if sh.Op == diagram.OpRect && sh.Color == diagram.TokenColor {
				out = append(out, sh)
			}
		}
		return out
	}
	assert.Len(t, bars(1), 1, "an open interval reaches now")
	assert.Len(t, bars(2), 1, "a closed one")
	all := bars(4)
	require.Len(t, all, 2, "A's closed bar and B's open one")
	assert.Less(t, all[0].Y1, all[1].Y1, "on A's lane, then B's")
	assert.Greater(t, all[0].X2, 0.0)
}
