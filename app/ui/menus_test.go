package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/faults"
	"spacetime/core/sim"
)

// processMenu is the pane's menu, opened on process B.
func processMenu(c *state) app.UI {
	c.panes[0].menu = menu{kind: menuProcess, node: 1, msg: -1}
	return c.menuOf(0)
}

// A process's menu offers what can happen to it now: crash, pause, cut a
// link, its commands while it is up; only recovery once it has crashed.
func TestMenuOffersWhatCanHappenToTheProcessNow(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 20), processMenu)
	pg := r.page()
	assert.Equal(t, "B (up)", pg.id("process-menu").classed("menu-title")[0].text())
	assert.Equal(t, "Crash B", pg.id("menu-crash").text())
	assert.Equal(t, "snapshot from B", pg.id("menu-cmd-snapshot").text())
	assert.Nil(t, pg.byID("menu-recover"))

	r.do(func(ctx app.Context) {
		require.NoError(t, r.st.sess(0).Fault("crash", faults.AtProcess(1)))
		r.st.changed(ctx)
	})
	pg = r.page()
	assert.Equal(t, "B (crashed)", pg.id("process-menu").classed("menu-title")[0].text())
	assert.Equal(t, "Recover B", pg.id("menu-recover").text())
	assert.Nil(t, pg.byID("menu-crash"))
	assert.Nil(t, pg.byID("menu-cmd-snapshot"), "a crashed process takes no command")
}

// The menu's fault arguments are read from its form: a pause lasts what
// the learner typed, within the fault's bounds.
func TestMenuReadsAFaultsArgumentsFromItsForm(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 20), processMenu)
	m := r.st.menuOf(0)
	pause, ok := lookupFault("pause")
	require.True(t, ok)
	r.st.panes[0].form = map[string]string{"pause.for": "7"}
	a, err := m.faultArgs(pause, false)
	require.NoError(t, err)
	assert.Equal(t, sim.Time(7), a.Ticks("for"), "the typed duration")

	r.st.panes[0].form = map[string]string{"pause.for": "-3"}
	_, err = m.faultArgs(pause, false)
	assert.Error(t, err, "a negative pause is refused")
}
