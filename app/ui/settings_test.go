package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"

	"spacetime/app/diagram"
)

// The run's toggles show the scenario's channels, axis and timestamps,
// and each runs or draws the lesson anew: the checkbox follows, and the
// link says so.
func TestSettingsToggleTheRunAndItsDrawing(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 8), func(c *state) app.UI { return c.settingsOf(0) })
	s := r.st.sess(0)
	pg := r.page()
	assert.Equal(t, "true", pg.id("fifo").attrs["checked"], "the lesson's channels are FIFO")
	assert.Empty(t, pg.id("lamport").attrs["checked"], "the axis is simulated time")

	r.do(r.st.settingsOf(0).toggleFIFO)
	assert.False(t, s.Scenario().FIFO(), "the run is the lesson without FIFO channels")
	assert.Equal(t, 8, s.Step(), "at the step it showed")
	assert.Empty(t, r.page().id("fifo").attrs["checked"])

	r.do(func(ctx app.Context) { r.st.settingsOf(0).setAxis(ctx, string(diagram.AxisLamport)) })
	assert.Equal(t, diagram.AxisLamport, s.Axis)
	assert.Equal(t, "true", r.page().id("lamport").attrs["checked"])

	r.do(func(ctx app.Context) { r.st.settingsOf(0).setStamps(ctx, string(diagram.StampsVector)) })
	assert.Equal(t, diagram.StampsVector, s.Stamps)
	assert.Equal(t, r.url().Get("stamps"), string(diagram.StampsVector), "the link keeps the stamps")
	r.do(func(ctx app.Context) { r.st.settingsOf(0).setStamps(ctx, "nonsense") })
	assert.Equal(t, diagram.StampsNone, s.Stamps, "anything else draws none")
}
