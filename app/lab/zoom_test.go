package lab

import (
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
	scene := sess.Scene(1000, 350)
	x := 400.0
	before := scene.TimeAt(x)
	sess.ZoomAt(scene, x, 0.5)
	after := sess.Scene(1000, 350)
	assert.InDelta(t, before, after.TimeAt(x), 1e-6, "the point under the mouse stays put")
	assert.InDelta(t, (scene.T1-scene.T0)/2, after.T1-after.T0, 1e-6, "half the span")
	assert.True(t, sess.View.Pinned)

	// stepping on does not move a pinned window
	sess.Seek(9000)
	assert.Equal(t, after.T0, sess.Scene(1000, 350).T0)
	sess.Follow()
	follow := sess.Scene(1000, 350)
	assert.Greater(t, follow.T0, after.T0, "following the present again")
	assert.InDelta(t, after.T1-after.T0, follow.T1-follow.T0, 1e-6, "with the same zoom")
}

func TestPanMovesTheWindowByPixels(t *testing.T) {
	sess := longSession(t, 5000)
	scene := sess.Scene(1000, 350)
	sess.Pan(scene, -scene.PlotWidth()/2)
	after := sess.Scene(1000, 350)
	assert.InDelta(t, scene.T0-(scene.T1-scene.T0)/2, after.T0, 1e-6)
	sess.ResetView()
	assert.Equal(t, scene.T0, sess.Scene(1000, 350).T0)
}

func TestZoomIsClamped(t *testing.T) {
	sess := longSession(t, 100)
	for range 40 {
		sess.Zoom(sess.Scene(1000, 350), 0.5)
	}
	sc := sess.Scene(1000, 350)
	assert.InDelta(t, MinSpan, sc.T1-sc.T0, 1e-9)
}

func TestViewRoundTripsThroughTheLink(t *testing.T) {
	sess := longSession(t, 5000)
	sess.ZoomAt(sess.Scene(1000, 350), 300, 0.3)
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
