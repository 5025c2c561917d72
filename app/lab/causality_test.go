package lab

import (
	"net/url"
	"strings"
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
	sess.Causality().Select(snapshot)
	past, future, concurrent := sess.Causality().Counts()
	assert.Positive(t, past)
	assert.Positive(t, future, "the markers carry A's snapshot to B and C")
	assert.Positive(t, concurrent)
	assert.LessOrEqual(t, past+future+concurrent, sess.Len()-1)
	assert.Contains(t, sess.Causality().Text(), "happened before it")

	rings := map[diagram.Color]int{}
	for _, sh := range sess.Diagram().Scene(1200, 350).Shapes {
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
	assert.Equal(t, snapshot, again.Causality().Selected())
	again.Seek(snapshot)
	for _, sh := range again.Diagram().Scene(1200, 350).Shapes {
		assert.Zero(t, sh.Flags&diagram.FlagOutline, "no rings before the selected event happens")
	}
	sess.Causality().Select(snapshot)
	assert.Equal(t, -1, sess.Causality().Selected(), "selecting it again clears it")
}

// Two events compared: the page names their relation and says why, entry
// by entry of their vectors; the comparison and the stamps travel in the
// link, and a bad one is refused, naming the parameter.
func TestComparingTwoEvents(t *testing.T) {
	s, err := scenario.Builtin("vector-clock-concurrent")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	a, b := 3, sess.Len()-1 // P1's local event, P3's last
	sess.Causality().Compare(a)
	require.Equal(t, a, sess.Causality().Selected(), "with nothing selected, comparing selects")
	sess.Causality().Compare(b)
	assert.Equal(t, "a and b are concurrent: step 4 (P1, [2,0,0]) and step 10 (P3, [0,4,4]). a's vector is larger in one entry (2 > 0 in P1's entry) and b's in another (4 > 0 in P2's entry), so neither heard of the other: no chain of messages joins them, whatever their Lamport timestamps (2 and 7) say.", sess.Causality().Relation())

	sess.Causality().Select(1) // P2's start happened before P3's last event
	sess.Causality().Compare(b)
	assert.True(t, strings.HasPrefix(sess.Causality().Relation(), "a → b: step 2 (P2, [0,1,0]) happened before step 10 (P3, [0,4,4])."), sess.Causality().Relation())
	sess.Causality().Select(b)
	sess.Causality().Compare(1)
	assert.True(t, strings.HasPrefix(sess.Causality().Relation(), "b → a: step 2 (P2, [0,1,0]) happened before step 10 (P3, [0,4,4])."), sess.Causality().Relation())

	sess.Stamps = diagram.StampsVector
	q := sess.Query()
	assert.Equal(t, "vector", q.Get("stamps"))
	assert.Equal(t, "1", q.Get("sel2"))
	back, err := FromQuery(q)
	require.NoError(t, err)
	assert.Equal(t, sess.Causality().Relation(), back.Causality().Relation())
	assert.Equal(t, diagram.StampsVector, back.Stamps)

	sess.Causality().Select(b) // selecting again clears both
	assert.Equal(t, -1, sess.Causality().Selected())
	assert.Equal(t, -1, sess.Causality().Other())
	assert.Empty(t, sess.Causality().Relation())

	for raw, want := range map[string]string{
		"s=vector-clock-concurrent&k=10&stamps=sundial": `link parameter "stamps": want lamport or vector, got "sundial"`,
		"s=vector-clock-concurrent&k=10&sel2=3":         `link parameter "sel2": an event compared with the selected one needs link parameter "sel" too`,
		"s=vector-clock-concurrent&k=10&sel=3&sel2=10":  `link parameter "sel2": want an event on screen, a step from 0 to 9, got "10"`,
		"s=vector-clock-concurrent&k=10&sel=3&sel2=3":   `link parameter "sel2": want another event than the selected one (link parameter "sel"), got the same step 3`,
		"s=vector-clock-concurrent&k=10&sel=x":          `link parameter "sel": want an event on screen, a step from 0 to 9, got "x"`,
	} {
		q, err := url.ParseQuery(raw)
		require.NoError(t, err)
		_, err = FromQuery(q)
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), want, raw)
	}
}
