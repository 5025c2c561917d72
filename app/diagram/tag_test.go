package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Every shape of every lesson's pictures says what it stands for, and
// the tags agree with what is drawn: one lane and one name per process,
// an arrow for each message the diagram draws (and only those), a dot
// for each event in view.
func TestEveryShapeSaysWhatItIs(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		r := builtinRun(t, id)
		for _, k := range []int{r.Len() / 2, r.Len()} {
			sc := layout(r, k, diagram.Options{Scale: diagram.TextScale("L")})
			lanes, names := map[sim.NodeID]int{}, map[sim.NodeID]int{}
			arrows := map[int]bool{}
			events := 0
			for _, sh := range sc.Shapes {
				require.NotEqual(t, diagram.WhatNone, sh.Tag.What, "%s k=%d: %+v says what it is", id, k, sh)
				n, hasNode := sh.Tag.Process()
				switch sh.Tag.What {
				case diagram.WhatLane:
					require.True(t, hasNode)
					lanes[n]++
				case diagram.WhatName:
					if sh.Op == diagram.OpText && sh.Text == r.Trace().Names[n] {
						names[n]++
					}
				case diagram.WhatMessage:
					m, ok := sh.Tag.Message()
					require.True(t, ok, "%s: a message's shape names it", id)
					assert.Equal(t, r.Trace().Msgs[m].Kind, sh.Tag.Role)
					if sh.Op == diagram.OpLine {
						arrows[m] = true
					}
				case diagram.WhatEvent:
					if sh.Op == diagram.OpCircle || sh.Op == diagram.OpRect {
						step, ok := sh.Tag.Step()
						require.True(t, ok)
						assert.Equal(t, r.Trace().Records[step].Node, n, "%s: an event's dot is on its process's lane", id)
						events++
					}
				}
			}
			for i := range r.Trace().Names {
				assert.Equal(t, 1, lanes[sim.NodeID(i)], "%s: one lane for process %d", id, i)
				assert.Equal(t, 1, names[sim.NodeID(i)], "%s: one name for process %d", id, i)
			}
			_, drawn := sc.Visible()
			assert.Len(t, arrows, drawn, "%s k=%d: an arrow for each message drawn", id, k)
			for m := range arrows {
				_, _, ok := sc.MessageAt(m, 0.5)
				assert.True(t, ok, "%s: message %d is one the diagram draws", id, m)
			}
		}
	}
}
