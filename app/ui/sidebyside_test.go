package ui

import (
	"net/url"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// A compare view's table has a column a run, its figures as the page
// computes them, and follows the runs as they step.
func TestComparisonTabulatesEveryRun(t *testing.T) {
	q := url.Values{"s": {"snapshot-bank"}, "k": {"10"}, "s.2": {"snapshot-nonfifo"}, "k.2": {"10"}}
	r := mountPart(t, q, func(c *state) app.UI { return c.comparison() })
	table := r.page().id("side-by-side")
	want := lab.SideBySide(r.st.page)
	require.Len(t, rows(table), len(want.Rows))
	before := table.words()

	r.do(func(ctx app.Context) { r.st.page.Seek(1, r.st.page.Len(1)); r.st.changed(ctx) })
	assert.NotEqual(t, before, r.page().id("side-by-side").words(), "the second run's figures at its end")
}
