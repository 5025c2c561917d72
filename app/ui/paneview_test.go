package ui

import (
	"errors"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// A pane shows its run's caption and verdict, and what an action's
// refusal says, until an action succeeds.
func TestPaneViewShowsTheRunAndTheLastRefusal(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 40), func(c *state) app.UI { return c.paneOf(0) })
	s := r.st.sess(0)
	pg := r.page()
	assert.Equal(t, r.st.page.Caption(0), pg.id("caption").text())
	// the verdict shown beside the diagram names the first invariants and
	// counts the rest; its label is the whole of it
	j := s.Verdicts().Now()
	assert.Equal(t, j.Mark()+j.Rule, pg.id("verdict").words())
	assert.Equal(t, j.Text(), pg.id("verdict").attrs["aria-label"])
	assert.Nil(t, pg.byID("notice"))

	r.do(func(ctx app.Context) { r.st.paneOf(0).act(ctx, func() error { return errors.New("not now") }) })
	assert.Equal(t, "not now", r.page().id("notice").text())
	r.do(func(ctx app.Context) { r.st.paneOf(0).act(ctx, func() error { return nil }) })
	assert.Nil(t, r.page().byID("notice"), "a later action clears it")
}
