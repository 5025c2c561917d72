package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

// The panels show the session's invariants, each said to hold or not, and
// a cut drawn at every process with the cut tool adds its own table first.
func TestPanelsShowTheInvariantsAndACutsTable(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 20), func(c *state) app.UI { return c.panelsOf(0) })
	s := r.st.sess(0)
	pg := r.page()
	items := pg.id("invariants").tags("li")
	require.Len(t, items, len(s.Report().Invariants), "one line an invariant")
	for n, inv := range s.Report().Invariants {
		assert.Contains(t, items[n].words(), inv.Name)
	}
	tables := len(pg.id("panels").tags("table"))

	r.do(func(ctx app.Context) {
		r.st.cutToolOf(0).toggleCut(ctx)
		for id := range s.Scenario().Names {
			s.Cut().PlaceNow(sim.NodeID(id))
		}
		r.st.changed(ctx)
	})
	_, hasCut := s.Cut().Panel()
	require.True(t, hasCut, "a cut at every process has a panel")
	assert.Len(t, r.page().id("panels").tags("table"), tables+1, "the cut's table joins the panels")
}
