package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// searchPart is the pane's search button, its progress while it runs and
// the pane's notice.
func searchPart(c *state) app.UI {
	s := c.searchOf(0)
	p := c.panes[0]
	return app.Div().Body(s.searchButton(),
		app.If(p.search != nil, func() app.UI { return s }),
		app.If(p.notice != "", func() app.UI { return app.P().ID("notice").Text(p.notice) }))
}

// The search starts from where the lesson says, shows its progress and
// offers to stop; stopped, it says so and offers to search again.
func TestSearchStartsShowsProgressAndStops(t *testing.T) {
	r := mountPart(t, link("lamport-mutex-nonfifo", 0), searchPart)
	r.st.ctx = r.s.live // the Lab's context, which the slices run on
	search := r.st.searchOf(0)
	require.True(t, search.searchable(), "the lesson checks an invariant")
	assert.Equal(t, "Find the bug", r.page().id("search").text())

	r.start(func(ctx app.Context) { search.toggleSearch(ctx); r.st.changed(ctx) })
	require.NotNil(t, r.st.panes[0].search, "a search is under way")
	pg := r.page()
	assert.Equal(t, "Stop search", pg.id("search").text())
	assert.Contains(t, pg.id("search-status").text(), "Searching from step")

	// stopped at once, before the slice queued behind the start can run:
	// on a fast machine that slice alone finds the failure and ends the
	// search, and the button would start another
	search.toggleSearch(r.s.live)
	r.do(func(ctx app.Context) { r.st.changed(ctx) })
	assert.Nil(t, r.st.panes[0].search)
	pg = r.page()
	assert.Nil(t, pg.byID("search-status"))
	assert.Contains(t, pg.id("notice").text(), "Search stopped")
	assert.Equal(t, "Find the bug", pg.id("search").text())
}
