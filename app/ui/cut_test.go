package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// The cut tool's button turns the learner's cut on and off, closes the
// menu left open and says whether it is on.
func TestCutToolTurnsTheCutOnAndOff(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 12), func(c *state) app.UI { return c.cutToolOf(0) })
	s := r.st.sess(0)
	assert.Equal(t, "false", r.page().id("cut-tool").attrs["aria-pressed"])

	r.st.panes[0].menu.kind = menuProcess
	r.do(r.st.cutToolOf(0).toggleCut)
	assert.True(t, s.Cut().On())
	assert.Equal(t, menuNone, r.st.panes[0].menu.kind, "the menu closes")
	assert.Equal(t, "true", r.page().id("cut-tool").attrs["aria-pressed"])

	r.do(r.st.cutToolOf(0).toggleCut)
	assert.False(t, s.Cut().On())
	assert.Equal(t, "false", r.page().id("cut-tool").attrs["aria-pressed"])
}
