package ui

import (
	"net/url"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The header of one run picks and finds its lesson; with several runs it
// offers to step them together instead, and its checkbox follows.
func TestHeaderOffersWhatThePageHolds(t *testing.T) {
	one := mountPart(t, link("snapshot-bank", 0), func(c *state) app.UI { return c.header() })
	pg := one.page()
	assert.Equal(t, "snapshot-bank", selectedOption(t, pg.id("scenario")))
	assert.NotNil(t, pg.byID("find"), "the finder")
	assert.Nil(t, pg.byID("together"))

	q := url.Values{"s": {"snapshot-bank"}, "s.2": {"snapshot-nonfifo"}}
	two := mountPart(t, q, func(c *state) app.UI { return c.header() })
	assert.Nil(t, two.page().byID("scenario"), "each run has its own picker")
	assert.Equal(t, "true", two.page().id("together").attrs["checked"], "the runs step together by default")
	two.do(func(ctx app.Context) { two.st.header().setTogether(ctx, false) })
	assert.False(t, two.st.page.Together)
	assert.Empty(t, two.page().id("together").attrs["checked"])
	assert.Equal(t, "apart", two.url().Get("steps"), "the link says they step apart")
}

// A lesson added from the header opens beside the one shown.
func TestHeaderAddsARunBesideTheLesson(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 4), func(c *state) app.UI { return c.header() })
	r.do(func(ctx app.Context) { r.st.header().addView(ctx, "snapshot-nonfifo") })
	require.Len(t, r.st.panes, 2)
	assert.Equal(t, "snapshot-nonfifo", r.st.sess(1).Scenario().ID)
	assert.Equal(t, "snapshot-nonfifo", r.url().Get("s.2"), "the link names both")
	assert.NotNil(t, r.page().byID("together"), "the header now offers to step them together")
}

// selectedOption is the value of a select's selected option.
func selectedOption(t testing.TB, sel *node) string {
	t.Helper()
	for _, o := range sel.tags("option") {
		if o.attrs["selected"] == "true" {
			return o.attrs["value"]
		}
	}
	require.Failf(t, "no option selected", "in %s", sel.words())
	return ""
}
