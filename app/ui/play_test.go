package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// The controls step the run and say where it stands; a step closes the
// menu and the notice of the step before; play turns into pause.
func TestControlsStepTheRunAndSayWhereItStands(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 5), func(c *state) app.UI { return c.controlsOf(0) })
	s := r.st.sess(0)
	pg := r.page()
	assert.Contains(t, pg.id("position").text(), "step 5 / ")
	assert.Equal(t, "5", pg.id("scrubber").attrs["value"])

	r.st.panes[0].notice, r.st.panes[0].menu.kind = "refused", menuProcess
	r.do(r.st.controlsOf(0).forward)
	assert.Equal(t, 6, s.Step())
	assert.Empty(t, r.st.panes[0].notice, "the old step's notice goes")
	assert.Equal(t, menuNone, r.st.panes[0].menu.kind, "and its menu")
	assert.Contains(t, r.page().id("position").text(), "step 6 / ")

	r.do(r.st.controlsOf(0).back)
	assert.Equal(t, 5, s.Step())
	r.do(r.st.controlsOf(0).end)
	assert.Equal(t, s.Len(), s.Step())
	r.do(r.st.controlsOf(0).home)
	assert.Equal(t, 0, s.Step())
	assert.Equal(t, "0", r.url().Get("k"))

	assert.Equal(t, "▶ Play", r.page().id("play").text())
	r.st.speed = 60 // a beat of 16 ms, for the next do
	r.start(r.st.controlsOf(0).togglePlay)
	assert.True(t, r.st.playing(0))
	assert.Equal(t, "❚❚ Pause", r.page().id("play").text())
	r.do(r.st.controlsOf(0).togglePlay)
	assert.False(t, r.st.playing(0))
	assert.Equal(t, "▶ Play", r.page().id("play").text())
}
