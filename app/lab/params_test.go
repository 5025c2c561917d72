package lab

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/faults"
	"spacetime/core/scenario"
)

// Every parameter a page's link writes is one checkParams checks (given
// twice, or for a view the link does not name), and isLinkParam knows:
// the link format is written by hand in readView, Session.encode and
// viewParams, and tour= and quiz= were missing from the list.
func TestEveryParameterIsChecked(t *testing.T) {
	lesson := func(id string) *Session {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		sess, err := Open(s)
		require.NoError(t, err)
		return sess
	}
	// a view that writes every parameter of a built-in lesson
	full := lesson("snapshot-nonfifo")
	require.NotEmpty(t, full.Tour())
	require.NoError(t, full.SetFIFO(true))
	full.Seek(10)
	require.NoError(t, full.Fault("crash", faults.AtProcess(1)))
	require.NoError(t, full.GoToStop(1))
	full.Seek(30)
	full.Axis, full.Stamps = diagram.AxisLamport, diagram.StampsVector
	full.View = View{Span: 50, Pinned: true, Start: 5}
	require.NoError(t, full.StartQuiz([]int{40}))
	require.Equal(t, 30, full.Step())
	full.Select(20)
	full.Compare(12)
	full.ToggleCut()
	full.PlaceCut(0, 12.5)
	// and one of a packed scenario
	own, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 30}}`))
	require.NoError(t, err)
	packed, err := Open(own)
	require.NoError(t, err)
	page := OpenPage(full, packed, lesson("snapshot-bank"))
	page.Window = View{Span: 80, Pinned: true, Start: 3}
	page.Text, page.Theme, page.Origin = "L", "dark", "https://slides.example.org"
	apart := OpenPage(full, packed)
	apart.Together = false

	links := []url.Values{page.Query(), apart.Query()}
	links[0].Set("embed", "1") // as the page writes its own when embedded
	written := map[string]url.Values{}
	for _, q := range links {
		for key := range q {
			written[key] = q
		}
	}
	for _, base := range []string{"s", "sc", "fifo", "in", "k", "axis", "span", "at", "stamps", "sel", "sel2", "cut", "tour", "quiz"} {
		assert.True(t, written[base] != nil || written[base+".2"] != nil, "no link above writes %q: add a view that does", base)
	}
	for key, q := range written {
		assert.True(t, isLinkParam(key), "%q is written but not a link parameter", key)
		base, sfx, _ := strings.Cut(key, ".")
		if !slices.Contains(pageParams, key) {
			assert.Contains(t, viewParams, base, "%q is a view's parameter that checkParams does not check", key)
			assert.Contains(t, []string{"", "2", "3"}, sfx, key)
		}
		// each is refused given twice, and for a view the link does not
		// name
		bad := maps.Clone(q)
		bad[key] = []string{q.Get(key), q.Get(key)}
		_, err := PageFromQuery(bad, false)
		require.Error(t, err, key)
		assert.Equal(t, fmt.Sprintf("link parameter %q is given 2 times: give it once", key), err.Error())
		if slices.Contains(viewParams, base) {
			bad = maps.Clone(q)
			bad.Set(base+".5", q.Get(key))
			_, err = PageFromQuery(bad, false)
			require.Error(t, err, key)
			assert.Contains(t, err.Error(), fmt.Sprintf("link parameter %q: the link names no view", base+".5"))
		}
	}
	// and the pages' own links open again to the same pages (sel2 with
	// tour= used to be dropped: the tour's stop cleared it)
	for _, q := range links {
		again, err := PageFromQuery(q, false)
		require.NoError(t, err)
		own := again.Query()
		assert.Equal(t, q.Get("sel2"), own.Get("sel2"))
		twice, err := PageFromQuery(own, false)
		require.NoError(t, err)
		assert.Equal(t, EncodeQuery(own), EncodeQuery(twice.Query()))
	}
}

// The page's link holds the view on screen: a selection past the step
// (kept for when the run comes back to it) is not written, for the link
// reads only events on screen and used to refuse the page's own link.
func TestASelectionPastTheStepIsNotLinked(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(30)
	sess.Select(20)
	sess.Compare(25)
	sess.Seek(22)
	assert.Equal(t, "k=22&s=snapshot-bank&sel=20&v=2", EncodeQuery(sess.Query()))
	sess.Seek(13)
	assert.Equal(t, "k=13&s=snapshot-bank&v=2", EncodeQuery(sess.Query()))
	_, err = FromQuery(sess.Query())
	require.NoError(t, err)
	sess.Seek(30)
	assert.Equal(t, "k=30&s=snapshot-bank&sel=20&sel2=25&v=2", EncodeQuery(sess.Query()), "the selection comes back with its step")
}
