package ui

// Each part is tested alone: a state showing one link, and a stage that
// mounts nothing but the part on go-app's native test engine (ui_test.go
// says what the engine can and cannot run). The Lab's own tests are in
// ui_test.go and panes_test.go.

import (
	"net/url"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// stage is a component holding one part and nothing else. It renders the
// part anew from the state on each of its renders, with the next render
// count, as the Lab does (parts.go), and keeps the context go-app gives
// it to run the part's actions on.
type stage struct {
	app.Compo
	st   *state
	part func(*state) app.UI
	live app.Context
}

func (s *stage) OnPreRender(ctx app.Context) { s.live = ctx }

func (s *stage) Render() app.UI {
	s.st.rev++
	return app.Div().Body(s.part(s.st))
}

// partRig is one part mounted alone over a state showing a link.
type partRig struct {
	t  testing.TB
	e  app.TestEngine
	s  *stage
	st *state
}

// newState is the page's shared state showing the link q, as the Lab's
// OnInit and open leave it.
func newState(t testing.TB, q url.Values) *state {
	t.Helper()
	page, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	st := &state{speed: 4, pngScale: 2, embed: page.Embed}
	st.setPage(page)
	return st
}

// mountPart mounts the part that part makes of a state showing q.
func mountPart(t testing.TB, q url.Values, part func(*state) app.UI) *partRig {
	t.Helper()
	return mountPartOf(t, newState(t, q), part)
}

// mountPartOf mounts the part that part makes of st.
func mountPartOf(t testing.TB, st *state, part func(*state) app.UI) *partRig {
	t.Helper()
	native(t)
	s := &stage{st: st, part: part}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(s))
	e.ConsumeAll()
	require.NotNil(t, s.live, "OnPreRender gave the stage its context")
	return &partRig{t: t, e: e, s: s, st: st}
}

// do runs a part's action as its event handler would: on the stage's
// context, then a frame, so the stage and the part render again.
func (r *partRig) do(action func(ctx app.Context)) {
	r.s.live.Dispatch(func(ctx app.Context) { action(ctx) })
	r.e.ConsumeAll()
}

// start runs an action as do does, but without waiting for what it
// started to run later (a play's beats, a search's slices): those run at
// the next do.
func (r *partRig) start(action func(ctx app.Context)) {
	r.s.live.Dispatch(func(ctx app.Context) { action(ctx) })
	r.e.ConsumeNext()
}

// page is what the part renders now.
func (r *partRig) page() page { return render(r.t, r.s) }

// url is the page's link as the part's action last recorded it.
func (r *partRig) url() url.Values { return r.s.live.Page().URL().Query() }

// A part mounted alone renders from the shared state and renders again
// when an action changes it, as it does inside the Lab.
func TestAPartRendersAgainWhenTheStateChanges(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 3), func(c *state) app.UI { return c.controlsOf(0) })
	assert.Contains(t, r.page().id("position").text(), "step 3 /")
	r.do(func(ctx app.Context) { r.st.page.Forward(0); r.st.changed(ctx) })
	assert.Contains(t, r.page().id("position").text(), "step 4 /", "the part shows the state's new step")
	assert.Equal(t, "4", r.url().Get("k"), "and the link follows")
}
