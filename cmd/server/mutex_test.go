package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/tokenring"
	"spacetime/internal/scenariotest"
)

// panelRows reads every algorithm panel's rows as text.
func panelRows(p *page, panel string) [][]string {
	return eval[[][]string](p, fmt.Sprintf(`[...document.querySelectorAll('[data-panel=%q] tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`, panel))
}

// The token ring in the page: the holder's line carries the token in gold
// while it is in the section, the panel says where the token is, and a
// step later the token travels (its coin leaves the line).
func TestTokenIsHeldAndTravelsInThePage(t *testing.T) {
	_, r := scenariotest.Run(t, "token-ring-idle")
	held := -1
	for k := 1; k <= r.Len() && held < 0; k++ {
		p := r.At(k).View().Node(2).(*tokenring.Process)
		if p.Holds && p.State == mutex.InCS {
			held = k
		}
	}
	require.Positive(t, held)
	p := open(t, fmt.Sprintf("/?s=token-ring-idle&k=%d", held))
	assert.Equal(t, "3 gets the token and enters the critical section for 5 ticks", p.text("#caption"))
	assert.Contains(t, p.text(`[data-panel="Token ring"]`), "the token is held by 3")
	w, h := p.canvasSize()
	scene := diagram.Layout(r.Trace(), held, r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	gold := diagram.Palette[diagram.TokenColor]
	y3 := scene.ProcessY(2)
	onLine := p.countColor(gold, y3-3, y3+3)
	assert.Greater(t, onLine, 40, "a gold token on 3's line")
	assert.Contains(t, p.text("#legend"), "holds the token")
	p.screenshot("token-held")

	// 3 leaves and passes the token: it is on its way, not held
	for k := held; k < r.Len(); k++ {
		if len(r.At(k).View().InFlight(2, 3)) > 0 {
			p = open(t, fmt.Sprintf("/?s=token-ring-idle&k=%d", k))
			assert.Contains(t, p.text(`[data-panel="Token ring"]`), "the token is on its way")
			w, h = p.canvasSize() // the diagram's height is what the caption leaves it
			scene = diagram.Layout(r.Trace(), k, r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
			id := r.At(k).View().InFlight(2, 3)[0]
			x, y, ok := scene.MessageAt(id, 1)
			require.True(t, ok)
			assert.Greater(t, p.countColor(gold, y-4, y+4), 20, "the token's coin rides its arrow at (%.0f, %.0f)", x, y)
			break
		}
	}
	p.noConsoleErrors()
}

// Suzuki–Kasami's panels: every process's RN, and the token's LN and
// queue; the caption names the outdated request.
func TestSuzukiKasamiPanels(t *testing.T) {
	_, r := scenariotest.Run(t, "suzuki-kasami-outdated")
	p := open(t, fmt.Sprintf("/?s=suzuki-kasami-outdated&k=%d", r.Len()))
	assert.Contains(t, p.text("#caption"), "3 holds the token but 2's REQUEST #1 is outdated: LN[2] = 1")
	rn := panelRows(p, "Request numbers (RN)")
	require.Len(t, rn, 3)
	assert.Equal(t, []string{"3", "idle", "0", "1", "1"}, rn[2], "3 has heard 2's request #1 and made its own")
	token := panelRows(p, "Token")
	assert.Equal(t, []string{"LN (last served)", "1: 0, 2: 1, 3: 1"}, token[0])
	assert.Contains(t, p.text(`[data-panel="Token"]`), "held by 3")
	p.noConsoleErrors()
}

// Maekawa's deadlock in the page: the invariant names the cycle, the
// wait-for panel lists it, and the diagram highlights its messages.
func TestMaekawaDeadlockInThePage(t *testing.T) {
	_, r := scenariotest.Run(t, "maekawa-deadlock")
	p := open(t, fmt.Sprintf("/?s=maekawa-deadlock&k=%d", r.Len()))
	assert.Contains(t, p.text("#invariants"), "a wait-for cycle 1 → 2 → 3 → 1")
	cycle := panelRows(p, "Wait-for cycle")
	assert.Equal(t, [][]string{{"1", "2", "2"}, {"2", "3", "3"}, {"3", "4", "1"}}, cycle)
	sets := panelRows(p, "Request sets and votes")
	assert.Equal(t, []string{"4", "idle", "{4, 5, 7}", "", "1", "3"}, sets[3], "4 voted for 1 and queued 3")
	_, h := p.canvasSize()
	assert.Greater(t, p.countColor(diagram.Palette[diagram.HighlightColor], 0, h), 100, "the cycle's messages are highlighted")
	p.screenshot("maekawa-deadlock")
	p.noConsoleErrors()
}

// The comparison from the picker: six runs stepped together, with the
// side-by-side table; at the end Maekawa's run has deadlocked and the
// token ring paid about one pass per entry.
func TestComparisonInThePage(t *testing.T) {
	p := open(t, "/?s=central-queue")
	before := p.frames()
	eval[bool](p, `(() => { const s = document.getElementById("scenario"); s.value = "compare:mutex-contention-high"; return s.dispatchEvent(new Event("change", {bubbles: true})); })()`)
	p.waitFor(`!!document.getElementById("pane-6")`, "six panes open")
	p.settle(before)
	assert.Equal(t, "mutex-contention-high-maekawa", p.query().Get("s.6"))
	rows := func() [][]string {
		return eval[[][]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => [...tr.children].map(td => td.textContent))`)
	}
	require.Len(t, rows(), 6)
	p.key(kb.End)
	p.waitFor(`[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')][5].children[7].textContent === "true"`, "Maekawa deadlocks")
	byRun := map[string][]string{}
	for _, r := range rows() {
		byRun[r[0]] = r
	}
	assert.Equal(t, "18", byRun["Lamport's mutual exclusion"][4])
	assert.Equal(t, "12", byRun["Ricart–Agrawala"][4])
	assert.True(t, strings.HasPrefix(byRun["Token ring"][4], "1."), byRun["Token ring"][4])
	assert.Equal(t, "✗", p.text("#verdict-6"), "Maekawa's cell of the grid leads its caption with a ✗")
	assert.Contains(t, p.text("#run-verdict-6"), "a wait-for cycle", "Maekawa's verdict, whole, under its row of the table")
	p.screenshot("mutex-comparison")
	p.noConsoleErrors()
}

// The ring election's process graph is the ring, and its messages travel
// around it in step with the diagram: before the announcement there is
// no ELECTED on the ring, and while it goes round, there is.
func TestRingViewFollowsTheElection(t *testing.T) {
	_, r := scenariotest.Run(t, "ring-election-worst")
	before, during := -1, -1
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		if v.InFlightTotal("ELECTED").Count > 0 && during < 0 {
			during = k
		}
		if v.InFlightTotal("ELECTION").Count > 0 && during < 0 {
			before = k
		}
	}
	require.Positive(t, before)
	require.Greater(t, during, before)
	purple := diagram.Palette[diagram.CutColor]
	p := open(t, fmt.Sprintf("/?s=ring-election-worst&k=%d", before))
	w, _ := p.sizeOf("topology")
	require.Positive(t, w, "the ring is drawn beside the lanes")
	assert.Less(t, p.countOn("topology", purple), 5, "no ELECTED on its way yet")
	for k := before; k < during; k++ {
		p.key(kb.ArrowRight)
	}
	assert.Contains(t, p.text("#caption"), "sends ELECTED(6)")
	assert.Greater(t, p.countOn("topology", purple), 20, "the ELECTED rides the ring")
	p.noConsoleErrors()
}
