package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tourPart is the pane's tour button, and its narration while it tours.
func tourPart(c *state) app.UI {
	t := c.tourOf(0)
	return app.Div().Body(t.tourButton(), app.If(t.touring(), func() app.UI { return t }))
}

// The tour goes from stop to stop, each at its step with its narration;
// its buttons stop at its ends, and ending it leaves the step where it is.
func TestTourNarratesItsStopsInTurn(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 0), tourPart)
	s := r.st.sess(0)
	tour := s.Tour().Stops()
	require.GreaterOrEqual(t, len(tour), 2, "the lesson has a tour")
	assert.Nil(t, r.page().byID("tour"))

	r.do(r.st.tourOf(0).toggleTour)
	pg := r.page()
	assert.Equal(t, 1, s.Tour().Stop())
	assert.Equal(t, tour[0].Step, s.Step(), "the first stop's step")
	assert.Equal(t, tour[0].Say, pg.id("tour-say").text())
	assert.Contains(t, pg.id("tour").words(), "Tour 1/")
	assert.Equal(t, "true", pg.id("tour-prev").attrs["disabled"], "no stop before the first")

	r.do(r.st.tourOf(0).nextStop)
	pg = r.page()
	assert.Equal(t, tour[1].Step, s.Step())
	assert.Equal(t, tour[1].Say, pg.id("tour-say").text())
	assert.Equal(t, "2", r.url().Get("tour"), "the link names the stop")

	r.do(func(ctx app.Context) { require.NoError(t, r.st.tourOf(0).goToStop(ctx, len(tour))) })
	assert.Equal(t, "true", r.page().id("tour-next").attrs["disabled"], "no stop after the last")

	r.do(r.st.tourOf(0).toggleTour)
	assert.Zero(t, s.Tour().Stop(), "the button ends the tour")
	assert.Equal(t, tour[len(tour)-1].Step, s.Step(), "where the tour left it")
	assert.Nil(t, r.page().byID("tour"))
}
