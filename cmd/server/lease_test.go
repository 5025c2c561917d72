package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

// A learner GC-pauses a client from the process menu while it writes:
// the pause is drawn on its line, and a client that takes the lease
// meanwhile makes two believers.
func TestPauseAClientFromTheMenu(t *testing.T) {
	p := open(t, "/?s=lease-fencing&k=8") // client1 has begun its write
	require.Contains(t, p.text("#caption"), "client1 believes it holds the lease (token 33) and starts a write")
	p.clickProcess("lease-fencing", sim.NodeID(2))
	p.do(chromedp.WaitVisible(chromedp.CSS("#process-menu")))
	assert.Contains(t, p.text("#process-menu"), "client1 (up)")
	p.click("#menu-pause", true)
	assert.Contains(t, p.text("#caption"), "client1 stops for a GC pause")
	assert.Contains(t, eval[string](p, "location.search"), "in=8p3", "the pause is in the link")
	assert.Contains(t, p.text("#processes"), "paused")
	assert.Contains(t, p.text("#legend"), "GC pause", "the pause is drawn, and the legend says so")
	p.key(kb.End)
	assert.Contains(t, p.text("#invariants"), "client1 (token 33) and client2 (token 34) each believe they hold the lease")
	p.noConsoleErrors()
}

// The two lease lessons side by side: the same schedule, one stale write
// taken and one rejected, in the side-by-side table.
func TestLeaseLessonsSideBySide(t *testing.T) {
	p := open(t, "/?s=lease-no-fencing&s.2=lease-fencing")
	p.key(kb.End)
	rows := eval[[][]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => [...tr.children].map(td => td.textContent))`)
	require.Len(t, rows, 2)
	head := eval[[]string](p, `[...document.querySelectorAll('#side-by-side thead th')].map(th => th.textContent)`)
	col := -1
	for i, h := range head {
		if h == "final value" {
			col = i
		}
	}
	require.Positive(t, col, strings.Join(head, ", "))
	assert.Equal(t, "Leases without fencing: a GC pause, two holders, a stale write", rows[0][0], "runs of one algorithm go by their lessons")
	assert.Equal(t, "stale write by client 1", rows[0][col])
	assert.Equal(t, "paid by client 2", rows[1][col])
	p.screenshot("lease-compare")
	p.noConsoleErrors()
}

// One lesson twice, and its switch flipped in the second pane: the split
// brain on the same schedule without and with epochs, side by side.
func TestSwitchEpochsOnTheSameSchedule(t *testing.T) {
	p := open(t, "/?s=split-brain&s.2=split-brain")
	p.enlarge(2)
	assert.False(t, eval[bool](p, `document.querySelector('#switch-epochs-2').checked`))
	p.click("#switch-epochs-2", false) // at step 0 the picture is the same
	p.waitFor(`location.search.includes("sc.2=")`, "the switched run travels in the link")
	assert.Contains(t, p.text("#changes-2"), "epochs: on here, off in the lesson as written")
	p.key(kb.End)
	rows := eval[[]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => tr.children[0].textContent)`)
	require.Len(t, rows, 2)
	assert.NotContains(t, rows[0], "(epochs")
	assert.True(t, strings.HasSuffix(rows[1], "(epochs on)"), rows[1])
	p.click("#all-runs", false)
	p.waitFor(`!!document.getElementById("run-verdict")`, "back to both runs")
	assert.Equal(t, "✗", p.text("#verdict"), "the first pane's cell leads its caption with a ✗")
	assert.Contains(t, p.text("#run-verdict"), "no two leaders are obeyed at once", "the first pane's split brain, under its row of the table")
	p.screenshot("epochs-switch")
	p.noConsoleErrors()
}

// A learner makes a client's clock run slow from the process menu: the
// lane says how far it is off and its rate, the process panel what it
// reads, and the link keeps the drift.
func TestDriftAClockFromTheMenu(t *testing.T) {
	p := open(t, "/?s=lease-wall-clock&k=4")
	p.clickProcess("lease-wall-clock", sim.NodeID(2))
	p.do(chromedp.WaitVisible(chromedp.CSS("#process-menu")))
	assert.Equal(t, "50", eval[string](p, `document.getElementById("menu-drift-rate").value`), "half speed at first")
	p.click("#menu-drift", true)
	assert.Contains(t, p.text("#caption"), "client1's clock drifts: from now on it counts 0.5 ticks for every one that passes (slow)")
	assert.Contains(t, eval[string](p, "location.search"), "t3.50", "the drift is in the link")
	for range 8 {
		p.key(kb.ArrowRight)
	}
	assert.Contains(t, p.text("#processes"), "counts 0.5 ticks a tick")
	assert.Contains(t, p.text("#legend"), "clock drift", "the legend says what the mark is")
	p.screenshot("lease-drift-menu")
	p.noConsoleErrors()
}
