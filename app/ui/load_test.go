package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// The load panel opens on the lesson's own file; a text that is not a
// scenario is refused with the reason and the panel stays, a scenario
// opens in the pane and the panel closes.
func TestImporterOpensAPastedScenario(t *testing.T) {
	r := openLoadPanel(t)
	require.True(t, r.st.loading)
	assert.Equal(t, string(r.st.sess(0).ScenarioFile().Bytes()), r.page().id("scenario-text").attrs["value"], "the lesson's file as an example")

	paste(r, `{"id": "x"`)
	assert.Contains(t, r.st.problem, pastedText+" was not loaded")
	assert.True(t, r.st.loading, "the panel stays for a fix")
	assert.Equal(t, "snapshot-bank", r.st.sess(0).Scenario().ID, "the lesson stays")

	other, err := scenario.Builtin("token-ring-crash")
	require.NoError(t, err)
	paste(r, string(other.JSON()))
	assert.False(t, r.st.loading, "the panel closes")
	assert.Equal(t, "token-ring-crash", r.st.sess(0).Scenario().ID)
	assert.Nil(t, r.page().byID("scenario-text"))
}

// A pasted log that breaks a rule is refused as a log, with its line:
// not as a scenario.
func TestImporterNamesARefusedPastedLog(t *testing.T) {
	r := openLoadPanel(t)
	paste(r, "A {\"A\":1}\nstart\nB {\"B\":1, \"A\":5}\nreceive\n")
	assert.True(t, strings.HasPrefix(r.st.problem, "This log was not opened: "), r.st.problem)
	assert.Contains(t, r.st.problem, "line ")
	assert.Equal(t, "snapshot-bank", r.st.sess(0).Scenario().ID, "the lesson stays")
}

// A log of several executions opens each in a pane of its own, every one
// whole, as one execution alone opens: not at step 0 with empty lanes.
func TestALogOfSeveralExecutionsOpensWhole(t *testing.T) {
	r := openLoadPanel(t)
	paste(r, "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n^=== (?<trace>.*) ===$\n=== first ===\nA {\"A\":1}\nstart\nA {\"A\":2}\nsend\nB {\"A\":2, \"B\":1}\nreceive\n=== second ===\nB {\"B\":1}\nalone\n")
	require.Empty(t, r.st.problem)
	require.Len(t, r.st.page.Views, 2)
	for i, v := range r.st.page.Views {
		assert.Equal(t, v.Len(), v.Step(), "execution %d opens whole", i+1)
	}
	assert.Equal(t, 4, r.st.page.Views[0].Len())
	assert.Equal(t, 1, r.st.page.Views[1].Len())
}

// openLoadPanel is a page of snapshot-bank at step 3 with its Load panel
// open.
func openLoadPanel(t *testing.T) *partRig {
	t.Helper()
	r := mountPart(t, link("snapshot-bank", 3), func(c *state) app.UI {
		return app.If(c.loading, func() app.UI { return c.importer() })
	})
	r.do(func(app.Context) { r.st.importer().toggleLoader() })
	return r
}

// A log with lines that match no event opens, as ShiViz opens it, and the
// pane says how many lines it passed over and where the first is.
func TestALogWithLinesThatMatchNoEventOpens(t *testing.T) {
	r := openLoadPanel(t)
	paste(r, "A {\"A\":1}\nsend\n[INFO] dead letter\nB {\"A\":1, \"B\":1}\nreceive\n")
	require.Empty(t, r.st.problem)
	assert.Equal(t, 2, len(r.st.sess(0).Run().Trace().Names), "the log opened")
	assert.Contains(t, r.st.panes[0].notice, "This log, line 3: 1 line matches no event")
}

// paste pastes text in the Load panel and opens it.
func paste(r *partRig, text string) {
	r.do(func(ctx app.Context) { r.st.loadText = text; r.st.importer().loadPasted(ctx) })
}
