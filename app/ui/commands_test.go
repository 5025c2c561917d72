package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/faults"
)

// toolsPart is the pane's actions.
func toolsPart(c *state) app.UI { return c.toolsOf(0) }

// The actions offer the algorithm's commands at the processes that take
// them, a button each; a crashed process takes none, and the bar follows
// the run.
func TestToolsOfferCommandsAtTheProcessesThatTakeThem(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 20), toolsPart)
	pg := r.page()
	for _, id := range []string{"network", "reset", "tour-button", "quiz-button"} {
		assert.NotNil(t, pg.byID(id), "the bar has #%s", id)
	}
	assert.Equal(t, "snapshot from A", pg.id("cmd-snapshot-A").text())
	assert.Equal(t, "snapshot from B", pg.id("cmd-snapshot-B").text())

	r.do(func(ctx app.Context) {
		require.NoError(t, r.st.sess(0).Fault("crash", faults.AtProcess(1)))
		r.st.changed(ctx)
	})
	pg = r.page()
	assert.Nil(t, pg.byID("cmd-snapshot-B"), "a crashed process takes no command")
	assert.NotNil(t, pg.byID("cmd-snapshot-A"))
}

// With more processes than buttons fit, one button acts at the process a
// picker names.
func TestToolsPickTheProcessWhenThereAreMany(t *testing.T) {
	r := mountPart(t, link("bully-seed", 0), toolsPart)
	pg := r.page()
	assert.Nil(t, pg.byID("cmd-start-election-1"), "no button a process")
	assert.Equal(t, "start-election from 1", pg.id("cmd-start-election").text())

	r.do(func(ctx app.Context) { r.st.panes[0].commandNode = 2; r.st.changed(ctx) })
	assert.Equal(t, "start-election from 3", r.page().id("cmd-start-election").text(), "the button names the picked process")
}

// A log's run takes no commands: it replays what the log says.
func TestToolsOfferNoCommandsOnALog(t *testing.T) {
	r := mountPart(t, link("log-kvstore", 0), toolsPart)
	pg := r.page()
	assert.Empty(t, pg.classed("cmd"), "no command buttons")
	assert.NotNil(t, pg.byID("reset"))
}
