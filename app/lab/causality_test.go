package lab

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/trace"
)

// Selecting A's snapshot in the bank lesson: the events that led to it are
// its past, everything its markers reached is its future, and the diagram
// rings exactly those.
func TestSelectingAnEventShowsItsCausalPastAndFuture(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	snapshot := -1
	for i, r := range sess.Run().Trace().Records {
		if r.Kind == trace.Command && r.Tag() == "snapshot" {
			snapshot = i
		}
	}
	require.GreaterOrEqual(t, snapshot, 0)
	sess.Select(snapshot)
	past, future, concurrent := sess.Causality()
	assert.Positive(t, past)
	assert.Positive(t, future, "the markers carry A's snapshot to B and C")
	assert.Positive(t, concurrent)
	assert.LessOrEqual(t, past+future+concurrent, sess.Len()-1)
	assert.Contains(t, sess.SelectionText(), "happened before it")

	rings := map[diagram.Color]int{}
	for _, sh := range sess.Scene(1200, 350).Shapes {
		if sh.Op == diagram.OpCircle && sh.Flags&diagram.FlagOutline != 0 {
			rings[sh.Color]++
		}
	}
	// the lesson fits on screen, so every event is drawn (faults aside)
	assert.Equal(t, past, rings[diagram.PastColor])
	assert.Equal(t, future, rings[diagram.FutureColor])
	assert.Equal(t, 1, rings[diagram.Ink], "the selected event itself")

	// the link keeps the selection; stepping back before it hides the rings
	again, err := FromQuery(sess.Query())
	require.NoError(t, err)
	assert.Equal(t, snapshot, again.Selected)
	again.Seek(snapshot)
	for _, sh := range again.Scene(1200, 350).Shapes {
		assert.Zero(t, sh.Flags&diagram.FlagOutline, "no rings before the selected event happens")
	}
	sess.Select(snapshot)
	assert.Equal(t, -1, sess.Selected, "selecting it again clears it")
}
