package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The legend lists what the session's diagram draws, one key an entry,
// each in the colour of the page's theme.
func TestLegendListsTheDiagramsEntriesInTheTheme(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 5), func(c *state) app.UI { return c.legendOf(0) })
	entries := r.st.sess(0).Diagram().Legend()
	keys := r.page().id("legend").classed("key")
	require.Len(t, keys, len(entries))
	for n, e := range entries {
		assert.True(t, strings.HasSuffix(keys[n].words(), e.Label), "key %d: %q", n, keys[n].words())
	}
	light := r.page().html

	r.do(func(ctx app.Context) { r.st.page.Theme = "dark"; r.st.changed(ctx) })
	assert.NotEqual(t, light, r.page().html, "the dark theme's colours")
	assert.Contains(t, r.page().html, r.st.palette()[entries[0].Color])
}
