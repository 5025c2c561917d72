package diagram_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/sim"
	"spacetime/internal/conformance"
)

// A process's row of cells (a Raft log) is drawn in a table under the
// process graph: its name, then its cells in order, a settled cell filled
// and a tentative one outlined, below every circle; a row longer than the
// view shows its end after an ellipsis.
func TestCellsAreATableUnderTheGraph(t *testing.T) {
	r := relayRun(t, 3)
	spec := *conformance.Relay
	spec.Picture.Roles = append(slices.Clone(spec.Picture.Roles), sim.RoleSpec{Name: "log", Style: sim.StyleCells, Legend: "log"})
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, &spec)
	topo := spec.Picture.Topology(r.At(0).View())
	long := make([]sim.Cell, 40)
	for i := range long {
		long[i] = sim.Cell{Text: "7", Group: 7}
	}
	overlays := []sim.Overlay{
		{Role: "log", Node: 0, Peer: sim.None, Cells: []sim.Cell{{Text: "1", Group: 1}, {Text: "2", Group: 2, Tentative: true}}, First: 1},
		{Role: "log", Node: 1, Peer: sim.None, Cells: long, First: 1},
		{Role: "log", Node: 2, Peer: sim.None, First: 1},
	}
	height := diagram.TopologyHeight(&spec, 3)
	assert.Greater(t, height, diagram.TopologyHeight(conformance.Relay, 3), "room for the table")
	sc := ix.Topology(0, &spec, topo, diagram.TopologyOptions{Width: 320, Height: height, Overlays: overlays})
	lowest := 0.0
	for i := range 3 {
		_, y, ok := sc.NodeAt(sim.NodeID(i))
		require.True(t, ok)
		lowest = max(lowest, y)
	}
	texts := map[sim.NodeID][]string{}
	filled, outlined := 0, 0
	for _, sh := range sc.Shapes {
		node, ok := sh.Tag.Process()
		if !ok || sh.Y1 <= lowest+20 {
			continue
		}
		switch sh.Op {
		case diagram.OpText:
			texts[node] = append(texts[node], sh.Text)
		case diagram.OpRect:
			filled++
		case diagram.OpLine:
			outlined++
		}
	}
	assert.Equal(t, []string{"1", "1", "2"}, texts[0], "its name, then its cells")
	assert.Equal(t, []string{"3"}, texts[2], "an empty row is its name")
	require.NotEmpty(t, texts[1])
	assert.Equal(t, "…", texts[1][1], "a long row shows its end")
	assert.Less(t, len(texts[1]), 40)
	assert.Equal(t, 4, outlined, "the tentative cell is outlined")
	assert.Equal(t, 1+len(texts[1])-2, filled, "every settled cell is filled")
}
