package ui

import (
	"net/url"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// A slide deck steps the lesson, goes to a step and loads another link;
// the state it is told back is the page's.
func TestSlidesStepAndLoadTheLesson(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 5), func(c *state) app.UI { return c.controlsOf(0) })
	obey := func(cmd lab.SlideCommand) {
		t.Helper()
		var err error
		r.do(func(ctx app.Context) { err = r.st.slides().obey(ctx, cmd) })
		require.NoError(t, err)
	}
	obey(lab.SlideCommand{Do: "next"})
	assert.Equal(t, 6, r.st.slides().slideState().Step)
	obey(lab.SlideCommand{Do: "goto", Step: 30})
	st := r.st.slides().slideState()
	assert.Equal(t, 30, st.Step)
	assert.Equal(t, r.st.page.Caption(0), st.Caption)
	assert.Contains(t, r.page().id("position").text(), "step 30 /")

	obey(lab.SlideCommand{Do: "load", Link: url.Values{"s": {"split-brain"}, "k": {"7"}}})
	st = r.st.slides().slideState()
	assert.Equal(t, "split-brain", st.Lesson)
	assert.Equal(t, 7, st.Step)
}

// An embedded page stays embedded when its deck loads a link that does
// not say so: its own link keeps embed=1.
func TestSlidesLoadKeepsThePageEmbedded(t *testing.T) {
	q := link("snapshot-bank", 5)
	q.Set("embed", "1")
	r := mountPart(t, q, func(c *state) app.UI { return c.controlsOf(0) })
	r.do(func(ctx app.Context) {
		require.NoError(t, r.st.slides().obey(ctx, lab.SlideCommand{Do: "load", Link: link("split-brain", 7)}))
	})
	assert.Equal(t, "split-brain", r.url().Get("s"))
	assert.Equal(t, "1", r.url().Get("embed"), "the link keeps embed")
}
