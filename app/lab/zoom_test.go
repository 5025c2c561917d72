package lab

import (
	"math"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

func longSession(t *testing.T, k int) *Session {
	t.Helper()
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(k)
	return sess
}

func TestZoomAtKeepsThePointUnderTheMouse(t *testing.T) {
	sess := longSession(t, 5000)
	scene := sess.Diagram().Scene(1000, 350)
	x := 400.0
	before := scene.TimeAt(x)
	sess.View = ZoomedAt(scene, x, 0.5)
	after := sess.Diagram().Scene(1000, 350)
	assert.InDelta(t, before, after.TimeAt(x), 1e-6, "the point under the mouse stays put")
	assert.InDelta(t, (scene.T1-scene.T0)/2, after.T1-after.T0, 1e-6, "half the span")
	assert.True(t, sess.View.Pinned)

	// stepping on does not move a pinned window
	sess.Seek(9000)
	assert.Equal(t, after.T0, sess.Diagram().Scene(1000, 350).T0)
	sess.View = sess.View.Following()
	follow := sess.Diagram().Scene(1000, 350)
	assert.Greater(t, follow.T0, after.T0, "following the present again")
	assert.InDelta(t, after.T1-after.T0, follow.T1-follow.T0, 1e-6, "with the same zoom")
}

func TestPanMovesTheWindowByPixels(t *testing.T) {
	sess := longSession(t, 5000)
	scene := sess.Diagram().Scene(1000, 350)
	sess.View = Panned(scene, -scene.PlotWidth()/2)
	after := sess.Diagram().Scene(1000, 350)
	assert.InDelta(t, scene.T0-(scene.T1-scene.T0)/2, after.T0, 1e-6)
	sess.View = View{}
	assert.Equal(t, scene.T0, sess.Diagram().Scene(1000, 350).T0)
}

func TestZoomIsClamped(t *testing.T) {
	sess := longSession(t, 100)
	for range 40 {
		sess.View = Zoomed(sess.View, sess.Diagram().Scene(1000, 350), 0.5)
	}
	sc := sess.Diagram().Scene(1000, 350)
	assert.InDelta(t, MinSpan, sc.T1-sc.T0, 1e-9)
}

func TestViewRoundTripsThroughTheLink(t *testing.T) {
	sess := longSession(t, 5000)
	sess.View = ZoomedAt(sess.Diagram().Scene(1000, 350), 300, 0.3)
	q := sess.Query()
	again, err := FromQuery(q)
	require.NoError(t, err)
	assert.InDelta(t, sess.View.Span, again.View.Span, 1e-3)
	assert.InDelta(t, sess.View.Start, again.View.Start, 1e-3)
	assert.True(t, again.View.Pinned)

	for _, bad := range []url.Values{
		{"s": {"snapshot-long"}, "span": {"1"}},
		{"s": {"snapshot-long"}, "span": {"wide"}},
		{"s": {"snapshot-long"}, "at": {"NaN"}},
	} {
		_, err := FromQuery(bad)
		require.Error(t, err, bad.Encode())
		assert.Regexp(t, `link parameter "(span|at)"`, err.Error())
	}
}

// The link of a window the learner makes always opens: dragging a run
// shorter than MinSpan, or zooming at a point past MaxAt, used to write a
// span or a point that readWindow refuses (found by FuzzZoomPan).
func TestZoomedAndPannedWindowsMakeLinksThatOpen(t *testing.T) {
	short, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 3}}`))
	require.NoError(t, err)
	sess, err := Open(short)
	require.NoError(t, err)
	sess.Seek(3)
	scene := sess.Diagram().Scene(960, 350)
	require.Less(t, scene.T1-scene.T0, float64(MinSpan), "the whole short run is in the window")
	sess.View = Panned(scene, 10)
	assert.Equal(t, float64(MinSpan), sess.View.Span, "a pinned window is at least MinSpan wide")
	again, err := FromQuery(sess.Query())
	require.NoError(t, err)
	assert.Equal(t, sess.View.Span, again.View.Span)
	assert.InDelta(t, sess.View.Start, again.View.Start, 1e-6)

	for _, tc := range []struct {
		link      string
		x, factor float64
	}{
		{"v=2&s=snapshot-bank&k=59&at=1e9&span=100000", 940, 0.25},
		{"v=2&s=snapshot-bank&k=59&at=-1e9&span=1000", 870, 2},
	} {
		q, err := url.ParseQuery(tc.link)
		require.NoError(t, err)
		sess, err := FromQuery(q)
		require.NoError(t, err)
		sess.View = ZoomedAt(sess.Diagram().Scene(960, 350), tc.x, tc.factor)
		assert.Equal(t, MaxAt, math.Abs(sess.View.Start), "the zoom stops the window at MaxAt")
		again, err := FromQuery(sess.Query())
		require.NoError(t, err, tc.link)
		assert.InDelta(t, sess.View.Start, again.View.Start, 1e-6)
	}
}
