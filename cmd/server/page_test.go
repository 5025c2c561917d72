package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/engine"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/benchlog"
	"spacetime/internal/scenariotest"
)

// bankRun is the default lesson's run, computed here the way the CLI does.
func bankRun(t *testing.T, id string) (*scenario.Scenario, *engine.Run) {
	t.Helper()
	return scenariotest.Run(t, id)
}

func TestTheBankOpensAndDraws(t *testing.T) {
	p := open(t, "/?s=snapshot-bank")
	_, r := bankRun(t, "snapshot-bank")
	assert.Equal(t, fmt.Sprintf("step 0 / %d · time 0", r.Len()), p.position())
	assert.Contains(t, p.text("#caption"), "Branches A, B and C hold $100 each")
	// the lanes are drawn: the canvas is not blank
	assert.Greater(t, p.countColor(diagram.Palette[diagram.LaneColor], 0, 400), 1000)
	p.do(chromedp.KeyEvent(kb.End))
	p.waitFrames(2)
	p.screenshot("bank-end")
	p.noConsoleErrors()
}

func TestKeysStepAndRewindToTheSamePicture(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=40")
	require.Equal(t, "step 40 / 59 · time 41", p.position())
	at40 := p.picture()
	p.key(kb.ArrowRight)
	assert.True(t, strings.HasPrefix(p.position(), "step 41 /"), p.position())
	at41 := p.picture()
	assert.NotEqual(t, at40, at41, "a step changes the picture")
	p.key(kb.ArrowLeft)
	assert.True(t, strings.HasPrefix(p.position(), "step 40 /"), p.position())
	assert.Equal(t, at40, p.picture(), "stepping back gives the identical picture")
	p.key(kb.ArrowRight)
	assert.Equal(t, at41, p.picture(), "stepping forward again gives the identical picture")

	// presenter remotes send PageDown and PageUp
	p.key(kb.PageDown)
	assert.True(t, strings.HasPrefix(p.position(), "step 42 /"), p.position())
	p.key(kb.PageUp)
	assert.True(t, strings.HasPrefix(p.position(), "step 41 /"), p.position())
	p.key(kb.Home)
	assert.True(t, strings.HasPrefix(p.position(), "step 0 /"), p.position())
	p.key(kb.End)
	// a key may repaint more than once; the position is what it settles on
	p.waitFor(`document.getElementById("position").textContent.startsWith("step 59 / 59")`, "End goes to the last step")
	// the URL follows the view
	assert.Contains(t, eval[string](p, "location.search"), "k=59")

	// Space plays from the start
	p.key(kb.Home)
	p.do(chromedp.KeyEvent(" "))
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`/step ([3-9]|[1-9][0-9]) \//.test(document.getElementById("position").textContent)`))
	require.NoError(t, err, "playing advances the steps")
	p.do(chromedp.KeyEvent(" "))
	p.noConsoleErrors()
}

func TestBalancesPanelMatchesTheCommandLine(t *testing.T) {
	s, r := bankRun(t, "snapshot-bank")
	for _, k := range []int{45, r.Len()} {
		p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d", k))
		rows := eval[[][]string](p, `[...document.querySelectorAll('[data-panel] tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`)
		rep := report.Build(s, r, k)
		live := rep.Metrics["live_balances"].(map[string]int64)
		for _, name := range s.Names {
			row := findRow(t, rows, name+" balance")
			assert.Equal(t, fmt.Sprintf("$%d", live[name]), row[1], "live balance of %s at step %d", name, k)
			if rec, ok := rep.Metrics["recorded"].(map[string]int64)[name]; ok {
				assert.Equal(t, fmt.Sprintf("$%d", rec), row[2], "recorded balance of %s at step %d", name, k)
			}
		}
		total := findRow(t, rows, "total (opening $300)")
		assert.Equal(t, fmt.Sprintf("$%d", rep.Metrics["live_total"]), total[1])
		if st := rep.Metrics["snapshot_total"]; st != nil {
			assert.Equal(t, fmt.Sprintf("$%d", st), total[2])
		}
	}
}

func findRow(t *testing.T, rows [][]string, first string) []string {
	t.Helper()
	for _, r := range rows {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	require.Failf(t, "row not found", "no row %q in %v", first, rows)
	return nil
}

func TestDeepLinkOpensAtItsStep(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	p := open(t, "/?v=1&s=snapshot-bank&k=30")
	assert.Equal(t, fmt.Sprintf("step 30 / %d · time %d", r.Len(), r.At(30).Now()), p.position())
	assert.Equal(t, r.Trace().Records[29].Caption, p.text("#caption"))
	assert.Equal(t, "30", eval[string](p, `document.getElementById("scrubber").value`))
}

func TestCrashClickShowsOnTheDiagram(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=20")
	w, h := p.canvasSize()
	_, r := bankRun(t, "snapshot-bank")
	scene := diagram.Layout(r.Trace(), 20, r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	y := scene.ProcessY(1)
	crash := diagram.Palette[diagram.CrashColor]
	require.Zero(t, p.countColor(crash, y-10, y+10), "nothing crashed yet")
	p.clickCanvas(24, y, false)
	p.do(chromedp.WaitVisible(chromedp.CSS("#process-menu")))
	assert.Contains(t, p.text("#process-menu"), "B (up)")
	p.click("#menu-crash", true)
	assert.True(t, strings.HasPrefix(p.position(), "step 21 /"), p.position())
	assert.Contains(t, p.text("#caption"), "B crashes")
	assert.Greater(t, p.countColor(crash, y-10, y+10), 20, "the crash is drawn on B's line")
	assert.Contains(t, p.text("#processes"), "crashed")
	assert.Contains(t, eval[string](p, "location.search"), "in=20c2", "the input is in the link")
	p.screenshot("crash")

	// rewinding and stepping forward replays the crash
	p.key(kb.ArrowLeft)
	p.key(kb.ArrowRight)
	assert.Contains(t, p.text("#caption"), "B crashes")
	p.noConsoleErrors()
}

// headless finds a step and a message in flight behind another on the same
// FIFO channel.
func headless(t *testing.T, r *engine.Run) (int, int) {
	for k := 1; k <= r.Len(); k++ {
		st := r.At(k)
		v := st.View()
		for i := range v.N() {
			for j := range v.N() {
				if ids := v.InFlight(sim.NodeID(i), sim.NodeID(j)); len(ids) >= 2 {
					return k, ids[1]
				}
			}
		}
	}
	t.Fatal("no channel ever holds two messages")
	return 0, 0
}

func TestClickingAMessageDeliversItOrSaysWhyNot(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	k, behind := headless(t, r)
	p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d", k))
	w, h := p.canvasSize()
	scene := diagram.Layout(r.Trace(), k, r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	x, y := clickable(t, scene, behind)
	p.clickCanvas(x, y, false)
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`!!document.getElementById("notice")`))
	require.NoError(t, err)
	assert.Contains(t, p.text("#notice"), "FIFO")
	assert.True(t, strings.HasPrefix(p.position(), fmt.Sprintf("step %d /", k)), "a refused delivery changes nothing")

	// the head of that channel can be delivered
	head := r.Trace().Msgs[behind]
	ids := r.At(k).View().InFlight(head.From, head.To)
	x, y = clickable(t, scene, ids[0])
	p.clickCanvas(x, y, false)
	// the frame may be the pointer's hover before the delivery's
	p.waitFor(fmt.Sprintf(`document.getElementById("position").textContent.startsWith("step %d /")`, k+1), "the head is delivered")
	assert.Contains(t, p.text("#caption"), "receives")
	assert.Contains(t, eval[string](p, "location.search"), fmt.Sprintf("in=%dd%d", k, ids[0]))
	p.noConsoleErrors()
}

// clickable finds a point on a message's arrow that hits that message.
func clickable(t *testing.T, scene *diagram.Scene, id int) (float64, float64) {
	for f := 0.95; f > 0.1; f -= 0.05 {
		x, y, ok := scene.MessageAt(id, f)
		require.True(t, ok)
		if h := scene.Hit(x, y); h.Kind == diagram.HitMessage && h.Msg == id {
			return x, y
		}
	}
	t.Fatalf("no point of message %d can be clicked", id)
	return 0, 0
}

// The FIFO toggle runs the same lesson again on the other network and keeps
// the learner's inputs and the step on screen; the non-FIFO lesson shows
// the snapshot breaking.
func TestFIFOToggleKeepsTheInputs(t *testing.T) {
	p := open(t, "/?v=2&s=snapshot-bank&in=20c2&k=30")
	require.Contains(t, p.text("#processes"), "crashed")
	p.click("#fifo", false) // the first 30 steps may look the same on both networks
	p.waitFor(`location.search.includes("fifo=0")`, "the lesson runs again without FIFO")
	search := eval[string](p, "location.search")
	assert.Contains(t, search, "fifo=0")
	assert.Contains(t, search, "in=20c2", "the crash of B is kept")
	assert.Contains(t, search, "s=snapshot-bank")
	assert.True(t, strings.HasPrefix(p.position(), "step 30 / "), p.position())
	assert.Contains(t, p.text("#processes"), "crashed")
	assert.False(t, eval[bool](p, `document.getElementById("fifo").checked`))
	p.click("#fifo", false)
	p.waitFor(`!location.search.includes("fifo=")`, "the lesson runs again with FIFO")
	search = eval[string](p, "location.search")
	assert.NotContains(t, search, "fifo=")
	assert.Contains(t, search, "in=20c2")

	p = open(t, "/?s=snapshot-nonfifo")
	p.key(kb.End)
	inv := p.text("#invariants")
	assert.Contains(t, inv, "snapshot total equals the money there is: fails at step")
	assert.Contains(t, inv, "overtook")
	// the culprits are highlighted on the diagram
	assert.Greater(t, p.countColor(diagram.Palette[diagram.HighlightColor], 0, 400), 50)
	p.screenshot("nonfifo")
	p.noConsoleErrors()
}

func TestBadLinkSaysWhatIsWrongAndThePageWorks(t *testing.T) {
	p := open(t, "/?s=no-such-lesson&k=3")
	assert.Contains(t, p.text(".problem"), `link parameter "s"`)
	assert.Contains(t, p.text(".problem"), "no-such-lesson")
	p.key(kb.ArrowRight)
	assert.True(t, strings.HasPrefix(p.position(), "step 1 /"), p.position())

	// a step past the end opens the lesson the link names, at its last
	// step, and says so
	p = open(t, "/?s=snapshot-nonfifo&k=400")
	p.waitFor(`!!document.getElementById("notice")`, "the page says where it opened")
	assert.Contains(t, p.text("#notice"), "step 400, past the end of this run")
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll(".problem").length`), "it is no error")
	assert.Contains(t, p.text("#scenario option:checked"), "without FIFO", "the lesson the link names")
	var k, n int
	_, err := fmt.Sscanf(p.position(), "step %d / %d", &k, &n)
	require.NoError(t, err, p.position())
	assert.Equal(t, n, k, "at its last step")
	p.noConsoleErrors()
}

func TestBadScenarioKeepsTheView(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=12")
	p.click("#load", false)
	p.do(chromedp.SetValue(chromedp.CSS("#scenario-text"), `{"algorithm": "chandy-lamport", "n": 3, "seed": 1, "until": {"steps": 10}, "netwrk": {}}`))
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("scenario-text").dispatchEvent(new Event("input", {bubbles: true}))`))
	p.do(chromedp.Click(chromedp.CSS("#load-apply")))
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`!!document.querySelector(".problem")`))
	require.NoError(t, err)
	assert.Contains(t, p.text(".problem"), `field "netwrk": unknown field`)
	assert.True(t, strings.HasPrefix(p.position(), "step 12 /"), "the previous view stays")

	// a good scenario opens
	p.do(chromedp.SetValue(chromedp.CSS("#scenario-text"), `{"algorithm": "chandy-lamport", "n": 4, "seed": 7, "scheduler": "random", "workload": {"p": 0.5}, "script": [{"at": 10, "node": "D", "command": "snapshot"}], "until": {"done": true, "time": 500}}`))
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("scenario-text").dispatchEvent(new Event("input", {bubbles: true}))`))
	before := p.frames()
	p.do(chromedp.Click(chromedp.CSS("#load-apply")))
	p.settle(before)
	assert.True(t, strings.HasPrefix(p.position(), "step 0 /"), p.position())
	assert.Contains(t, eval[string](p, "location.search"), "sc=")
	p.key(kb.End)
	assert.Contains(t, p.text("#invariants"), "snapshot total equals the money there is: holds")
	p.noConsoleErrors()
}

func TestZoomAndPanTheDiagram(t *testing.T) {
	p := open(t, "/?s=snapshot-long&k=5000")
	whole := p.picture()
	// the long run is shown as a window that follows the present
	p.key("+")
	assert.Contains(t, eval[string](p, "location.search"), "span=128")
	assert.NotEqual(t, whole, p.picture(), "zooming in changes the picture")
	p.key("-")
	assert.Contains(t, eval[string](p, "location.search"), "span=160")

	// the wheel zooms at the mouse and pins the window there
	before := p.frames()
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("diagram").dispatchEvent(new WheelEvent("wheel", {deltaY: -300, clientX: 400, clientY: 200, bubbles: true, cancelable: true}))`))
	p.settle(before)
	search := eval[string](p, "location.search")
	assert.Contains(t, search, "at=")
	require.NoError(t, chromedp.Do(p.ctx, chromedp.WaitVisible(chromedp.CSS("#follow"))))

	// dragging pans: the window moves to earlier times
	w, _ := p.canvasSize()
	before = p.frames()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const c = document.getElementById("diagram"), r = c.getBoundingClientRect();
		const ev = (type, x) => c.dispatchEvent(new MouseEvent(type, {clientX: r.left + x, clientY: r.top + 150, bubbles: true}));
		ev("mousedown", %[1]f); ev("mousemove", %[1]f + 40); ev("mousemove", %[1]f + 200); ev("mouseup", %[1]f + 200);
	})()`, w/2)))
	p.settle(before)
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](fmt.Sprintf(`location.search !== %q`, search)))
	require.NoError(t, err, "the drag moved the window")

	// 0 goes back to the default view, following the present
	p.key("0")
	_, err = chromedp.Run(p.ctx, chromedp.Poll[bool](`!location.search.includes("at=") && !location.search.includes("span=")`))
	require.NoError(t, err)
	assert.Equal(t, whole, p.picture(), "the default view again")
	p.noConsoleErrors()
}

// Dragging the scrubber repaints the diagram at once; the caption, panels
// and link catch up when it rests.
func TestScrubberSeeks(t *testing.T) {
	p := open(t, "/?s=snapshot-bank")
	before := p.frames()
	p.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("scrubber"); for (const v of [10, 20, 30]) { s.value = v; s.dispatchEvent(new Event("input", {bubbles: true})); } })()`))
	p.settle(before)
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("position").textContent.startsWith("step 30 /") && location.search.includes("k=30")`))
	require.NoError(t, err, "the page catches up with the scrubber")
	_, r := bankRun(t, "snapshot-bank")
	assert.Equal(t, r.Trace().Records[29].Caption, p.text("#caption"))
	p.noConsoleErrors()
}

// The export buttons hand the browser a file: the diagram as SVG (the same
// picture), the trace as JSON and as a ShiViz log, the figure as TikZ and
// as a Mermaid sequence diagram, the scenario.
func TestExportButtonsOfferFiles(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=45")
	p.do(chromedp.Evaluate[chromedp.Void](`window.spacetime.download = (name, mime, text) => { window.saved = {name, mime, text}; }`))
	for _, tc := range []struct{ button, name, mime, contains string }{
		{"#export-svg", "snapshot-bank-step45.svg", "image/svg+xml", "<svg"},
		{"#export-json", "snapshot-bank-step45.json", "application/json", `"records"`},
		{"#export-shiviz", "snapshot-bank-step45.log", "text/plain", "A {"},
		{"#export-scenario", "snapshot-bank-step45.scenario.json", "application/json", `"algorithm": "chandy-lamport"`},
		{"#export-tikz", "snapshot-bank-step45.tex", "application/x-tex", `\begin{messagepassing}`},
		{"#export-mermaid", "snapshot-bank-step45.mmd", "text/plain", "sequenceDiagram\n    %% Chandy–Lamport: a snapshot of three bank branches\n"},
	} {
		p.do(chromedp.Evaluate[chromedp.Void](`window.saved = null`))
		p.click(tc.button, false)
		_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`!!window.saved`))
		require.NoError(t, err, tc.button)
		saved := eval[map[string]string](p, `window.saved`)
		assert.Equal(t, tc.name, saved["name"])
		assert.Equal(t, tc.mime, saved["mime"])
		assert.Contains(t, saved["text"], tc.contains, tc.button)
	}
	// the SVG is the picture on screen: its text size and its theme
	svg := func() string {
		t.Helper()
		p.do(chromedp.Evaluate[chromedp.Void](`window.saved = null`))
		p.click("#export-svg", false)
		_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`!!window.saved`))
		require.NoError(t, err)
		return eval[string](p, `window.saved.text`)
	}
	assert.Contains(t, svg(), fmt.Sprintf(`font-size="%g"`, 12*p.scale()), "the page's text size")
	// the PNG is the same picture at twice its size on screen, or at the
	// scale chosen beside its button
	png := func() map[string]float64 {
		t.Helper()
		p.do(chromedp.Evaluate[chromedp.Void](`window.saved = null`))
		p.click("#export-png", false)
		_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`!!window.saved`))
		require.NoError(t, err, "the PNG is saved")
		assert.Equal(t, "snapshot-bank-step45.png", eval[string](p, `window.saved.name`))
		assert.Equal(t, "image/png", eval[string](p, `window.saved.mime`))
		size, err := chromedp.Run(p.ctx, chromedp.Evaluate[map[string]float64](`(async () => {
			const b = await createImageBitmap(window.saved.text);
			const c = document.createElement("canvas"); c.width = b.width; c.height = b.height;
			const g = c.getContext("2d"); g.drawImage(b, 0, 0);
			const d = g.getImageData(0, 0, b.width, b.height).data;
			let ink = 0; // pixels not of the paper's colour
			for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) ink++;
			return {w: b.width, h: b.height, ink};
		})()`, chromedp.EvalAwaitPromise))
		require.NoError(t, err, "the PNG decodes")
		assert.Greater(t, size["ink"], 5000.0, "the diagram is drawn on it")
		return size
	}
	w, h := p.canvasSize()
	size := png()
	assert.InDelta(t, 2*w, size["w"], 2, "twice the diagram's width")
	assert.InDelta(t, 2*h, size["h"], 2, "twice its height")
	p.do(chromedp.SetValue(chromedp.CSS("#png-scale"), "3"))
	size = png()
	assert.InDelta(t, 3*w, size["w"], 3, "three times, as chosen")
	assert.InDelta(t, 3*h, size["h"], 3)
	p.click("#theme", false)
	p.waitFor(`location.search.includes("theme=dark")`, "the dark theme")
	assert.Contains(t, svg(), fmt.Sprintf(`fill="%s"`, diagram.DarkPalette[diagram.Paper]), "the dark theme's paper")
	// the next press: colours kept apart for colour-blind readers
	p.click("#theme", true)
	p.waitFor(`location.search.includes("theme=colour-blind")`, "the colour-blind theme")
	assert.Contains(t, svg(), fmt.Sprintf(`stroke="%s"`, diagram.ColourBlindPalette[diagram.MessageColor]), "its transfers' colour")
	assert.Positive(t, p.countColor(diagram.ColourBlindPalette[diagram.MessageColor], 0, 1000), "painted on the canvas")
	assert.Equal(t, "Light", p.text("#theme"), "and then back to light")
	p.noConsoleErrors()
}

// Clicking an event rings its causal past in blue and its future in orange.
func TestClickAnEventForItsCausalPastAndFuture(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d", r.Len()))
	w, h := p.canvasSize()
	scene := diagram.Layout(r.Trace(), r.Len(), r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	past, future := diagram.Palette[diagram.PastColor], diagram.Palette[diagram.FutureColor]
	require.Zero(t, p.countColor(past, 0, h)+p.countColor(future, 0, h))
	var x, y float64
	found := false
	for i := 0; i < 3 && !found; i++ {
		y = scene.ProcessY(sim.NodeID(i))
		for x = w / 3; x < w; x++ {
			if hit := scene.Hit(x, y); hit.Kind == diagram.HitEvent {
				found = true
				break
			}
		}
	}
	require.True(t, found)
	p.clickCanvas(x, y, true)
	assert.Contains(t, p.text("#notice"), "happened before it")
	assert.Contains(t, eval[string](p, "location.search"), "sel=")
	assert.Positive(t, p.countColor(past, 0, h)+p.countColor(future, 0, h), "rings are drawn")
	p.screenshot("causality")
	p.key(kb.Escape)
	assert.NotContains(t, eval[string](p, "location.search"), "sel=")
	p.noConsoleErrors()
}

// The process menu offers the algorithm's commands with their arguments:
// a bank branch can be told to transfer an amount to another.
func TestProcessMenuTransfers(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=10")
	p.clickProcess("snapshot-bank", 0)
	p.do(chromedp.WaitVisible(chromedp.CSS("#menu-cmd-transfer")))
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event("change", {bubbles: true})); };
		set("menu-arg-transfer", "7"); set("menu-target-transfer", "2");
	})()`))
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("menu-arg-transfer").value === "7"`))
	require.NoError(t, err)
	p.click("#menu-cmd-transfer", true)
	_, err = chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("caption").textContent.startsWith("A sends $7 to C")`))
	require.NoError(t, err, p.text("#caption"))
	assert.Contains(t, eval[string](p, "location.search"), "in=10ktransfer.1.3.7")
	p.noConsoleErrors()
}

// Clicking another process while the menu is open moves the menu there, and
// its buttons act on that process.
func TestProcessMenuFollowsTheClickedProcess(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=10")
	p.clickProcess("snapshot-bank", 0)
	p.do(chromedp.WaitVisible(chromedp.CSS("#menu-crash")))
	p.clickProcess("snapshot-bank", 2)
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("process-menu").textContent.includes("C (up)")`))
	require.NoError(t, err)
	p.click("#menu-crash", true)
	assert.Contains(t, p.text("#caption"), "C crashes")
	p.noConsoleErrors()
}

// Embedded in a slide, the page shows the diagram, controls and caption
// only, and the diagram takes the height the frame leaves.
func TestEmbedFitsItsFrame(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=20&embed=1")
	// the diagram takes what the frame leaves after the controls, caption
	// and verdict, and nothing scrolls
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`(() => {
		const cv = document.getElementById("diagram"), v = document.getElementById("verdict");
		return cv.clientHeight > window.innerHeight * 0.5 && v.getBoundingClientRect().bottom <= window.innerHeight &&
			document.documentElement.scrollHeight <= window.innerHeight;
	})()`))
	require.NoError(t, err, "the canvas fills the frame")
	assert.Zero(t, eval[int](p, `document.querySelectorAll("header, .panels").length`), "no header, no panels")
	p.key(kb.ArrowRight)
	assert.Contains(t, eval[string](p, "location.search"), "embed=1", "the link stays embedded")
	p.noConsoleErrors()
}

// When the window changes size the diagram is laid out again for it.
func TestResizingRelaysTheDiagram(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=30")
	before := p.frames()
	p.do(chromedp.EmulateViewport(820, 700))
	p.settle(before)
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`Math.abs(document.getElementById("diagram").width / (window.devicePixelRatio || 1) - document.getElementById("diagram").clientWidth) < 2 && document.getElementById("diagram").clientWidth < 820`))
	require.NoError(t, err, "the canvas is painted at its new width")
	p.noConsoleErrors()
}

// The cut tool: press C, click each process line, and the page says whether
// the cut is consistent.
func TestCutTool(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d", r.Len()))
	w, h := p.canvasSize()
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	scene := ix.Layout(r.Len(), r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	p.do(chromedp.KeyEvent("c"))
	p.waitFor(`!!document.getElementById("cut-verdict")`, "the cut tool opens")
	require.Contains(t, p.text("#cut-verdict"), "0 of 3 placed")
	// through the snapshot's recording points: consistent
	for s, rec := range r.Trace().Records {
		for _, a := range rec.Annotations() {
			if a.Role == chandylamport.RoleRecorded {
				p.clickCanvas(scene.XOf(ix.At(s)), scene.ProcessY(rec.Node)+6, true)
			}
		}
	}
	assert.Contains(t, p.text("#cut-verdict"), "The cut you drew is consistent")
	// move A's point back to the start: B and C received money A had not sent yet
	p.clickCanvas(scene.XOf(0.5), scene.ProcessY(0)+6, true)
	assert.Contains(t, p.text("#cut-verdict"), "The cut you drew is inconsistent")
	assert.Positive(t, p.countColor(diagram.Palette[diagram.HighlightColor], 0, h), "the culprits are highlighted")
	assert.Contains(t, eval[string](p, "location.search"), "cut=")
	p.screenshot("cut-tool")
	p.noConsoleErrors()
}

// The central coordinator's lesson in the page: the coordinator's panel
// follows the steps, and the deadlock after its crash is shown as such.
func TestCentralCoordinatorInThePage(t *testing.T) {
	rows := func(p *page) [][]string {
		return eval[[][]string](p, `[...document.querySelectorAll('[data-panel] tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`)
	}
	p := open(t, "/?s=central-queue&k=14")
	assert.Equal(t, "3 gets the GRANT and enters the critical section for 5 ticks", p.text("#caption"))
	assert.Equal(t, "3", findRow(t, rows(p), "holder")[1])
	assert.Equal(t, "4", findRow(t, rows(p), "queue")[1])
	assert.Contains(t, findRow(t, rows(p), "3")[1], "in the critical section")
	p.key(kb.ArrowRight)
	assert.Equal(t, "3's timer \"release\" fires: 3 leaves the critical section after 5 ticks: RELEASE to 1", p.text("#caption"))

	_, r := bankRun(t, "central-crash")
	p = open(t, fmt.Sprintf("/?s=central-crash&k=%d", r.Len()))
	assert.Contains(t, p.text("#invariants"), "3 waits for the coordinator 1, which has crashed")
	assert.Contains(t, p.text("#invariants"), "(this lesson's point)")
}

// fileWriter writes files into a directory of the test's, and says where.
func fileWriter(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
}

// A scenario file opens from disk: picked in the Load panel, or dropped on
// the page. A bad file is refused with its name and what is wrong, and a
// file larger than a link can carry is refused unread; the view stays.
func TestScenarioFileOpensFromDisk(t *testing.T) {
	write := fileWriter(t)
	good := write("four.json", `{"id": "four-branches", "title": "Four branches", "algorithm": "chandy-lamport", "n": 4, "seed": 7, "workload": {"p": 0.5}, "until": {"time": 200}}`)
	bad := write("bad.json", `{"algorithm": "chandy-lamport", "n": 3, "seed": 1, "until": {"steps": 10}, "netwrk": {}}`)
	large := write("large.json", `{"title": "`+strings.Repeat("x", 1<<20)+`"}`)

	p := open(t, "/?s=snapshot-bank&k=12")
	p.click("#load", false)
	p.waitFor(`!!document.getElementById("scenario-file")`, "the Load panel opens")
	p.do(chromedp.SetUploadFiles("#scenario-file", []string{bad}))
	p.waitFor(`!!document.querySelector(".problem")`, "a bad file is refused")
	assert.Contains(t, p.text(".problem"), `bad.json was not loaded: scenario: field "netwrk": unknown field`)
	assert.True(t, strings.HasPrefix(p.position(), "step 12 /"), "the view stays")
	p.do(chromedp.SetUploadFiles("#scenario-file", []string{large}))
	p.waitFor(`document.querySelector(".problem").textContent.includes("large.json")`, "a large file is refused")
	assert.Contains(t, p.text(".problem"), "at most 1048576 bytes")

	p.do(chromedp.SetUploadFiles("#scenario-file", []string{good}))
	p.waitFor(`document.getElementById("scenario").selectedOptions[0].textContent.includes("Four branches")`, "the file opens")
	assert.True(t, strings.HasPrefix(p.position(), "step 0 /"), p.position())
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll(".problem").length`))

	// dropped on the page
	p2 := open(t, "/?s=snapshot-bank&k=12")
	p2.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(['{"title": "Dropped", "algorithm": "lamport-clock", "n": 3, "seed": 2, "workload": {"p": 0.5}, "until": {"time": 50}}'], "dropped.json", {type: "application/json"}));
		document.querySelector(".stage").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`))
	p2.waitFor(`document.getElementById("scenario").selectedOptions[0].textContent.includes("Dropped")`, "a dropped file opens")
	p.noConsoleErrors()
	p2.noConsoleErrors()
}

// A ShiViz or GoVector log opens from disk as a run of its own, at its
// last event, captioned in the log's words; a log that breaks a rule is
// refused with its line and the rule, and the view stays; a log of
// several executions opens one run each.
// E does from the keyboard what a click on an event does: it selects the
// latest event, ringing its causal past and future; stepping on and
// pressing Shift+E relates the new event to it; E again clears.
func TestSelectEventsFromTheKeyboard(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=30")
	_, h := p.canvasSize()
	past, future := diagram.Palette[diagram.PastColor], diagram.Palette[diagram.FutureColor]
	p.key("e")
	p.waitFor(`location.search.includes("sel=29")`, "the 30th step's event is selected")
	assert.Contains(t, p.text("#notice"), "Step 30 (")
	assert.Contains(t, p.text("#notice"), "happened before it")
	assert.Positive(t, p.countColor(past, 0, h), "its past is ringed")
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	before := p.frames()
	p.do(chromedp.KeyEvent("E", chromedp.KeyModifiers(chromedp.ModifierShift)))
	p.settle(before)
	notice := p.text("#notice")
	assert.True(t, strings.Contains(notice, "→") || strings.Contains(notice, "concurrent"), "the two events related: %s", notice)
	p.key("e")
	p.key("e")
	p.waitFor(`!location.search.includes("sel=")`, "E on the selected event clears it")
	assert.Zero(t, p.countColor(past, 0, h)+p.countColor(future, 0, h))
	p.noConsoleErrors()
}

// M opens the menu of a message in flight from the keyboard, the oldest
// first and the next on each press, with the keyboard in it: Enter on its
// first choice delivers the message next, as the menu does for a click.
func TestMessageMenusFromTheKeyboard(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=20")
	p.do(chromedp.KeyEvent("m"))
	p.waitFor(`!!document.activeElement && !!document.activeElement.closest("#message-menu")`, "a message's menu opens with the keyboard in it")
	first := p.text("#message-menu .menu-title")
	assert.Contains(t, first, "(in flight)")
	p.do(chromedp.KeyEvent("m"))
	p.waitFor(`document.querySelector("#message-menu .menu-title").textContent !== `+strconv.Quote(first), "the next message's menu")
	assert.Contains(t, eval[string](p, `document.activeElement.textContent`), "Deliver it next")
	before := p.position()
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.getElementById("position").textContent !== `+strconv.Quote(before), "the message is delivered next")
	assert.Contains(t, p.text("#caption"), "receives")
	p.noConsoleErrors()
}

// A process's menu is reached from the keyboard alone: its name in the
// Processes panel is a button; Enter opens the menu with the keyboard in
// it, Enter takes its first choice, and the run changes as a click would.
func TestAProcessMenuFromTheKeyboard(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=20")
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("proc-1").focus()`))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`!!document.activeElement && !!document.activeElement.closest("#process-menu")`, "the menu opens with the keyboard in it")
	assert.True(t, strings.HasPrefix(p.text("#process-menu .menu-title"), "B (up)"), p.text("#process-menu .menu-title"))
	first := eval[string](p, `document.activeElement.textContent`)
	assert.Contains(t, first, "Crash", "the first choice")
	before := p.frames()
	p.do(chromedp.KeyEvent(kb.Enter))
	p.settle(before)
	p.waitFor(`document.getElementById("processes").textContent.includes("crashed")`, "B crashes")
	assert.Contains(t, p.text("#caption"), "crash")
	p.screenshot("keyboard-menu")
	p.noConsoleErrors()
}

// A large log takes a moment to open in a fresh tab: the page says it is
// opening it, and says no more once it is open.
func TestALargeLogSaysItIsOpening(t *testing.T) {
	logs, err := benchlog.Long([]int{5000})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(logs[0]), 256<<10, "large enough for the notice")
	file := fileWriter(t)("long.log", string(logs[0]))
	p := open(t, "/?s=snapshot-bank")
	p.click("#load", false)
	p.waitFor(`!!document.getElementById("scenario-file")`, "the Load panel opens")
	p.do(chromedp.Evaluate[chromedp.Void](`window.openingSeen = [];
		new MutationObserver(() => {
			const o = document.querySelector(".opening");
			if (o && !o.hidden && !openingSeen.includes(o.textContent)) openingSeen.push(o.textContent);
		}).observe(document.body, {subtree: true, childList: true, characterData: true})`))
	p.do(chromedp.SetUploadFiles("#scenario-file", []string{file}))
	p.waitFor(`document.getElementById("position").textContent.startsWith("step 5000 / 5000")`, "the log opens at its end")
	assert.Equal(t, []string{fmt.Sprintf("Opening long.log (%.1f MB)…", float64(len(logs[0]))/1e6)}, eval[[]string](p, `openingSeen`))
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll(".opening:not([hidden])").length`), "and no longer once it is open")
	p.noConsoleErrors()
}

func TestALogOpensFromDisk(t *testing.T) {
	write := fileWriter(t)
	data, err := os.ReadFile("../../core/logimport/testdata/logs/kvstore.log")
	require.NoError(t, err)
	good := write("kvstore.log", string(data))
	bad := write("bad.log", "A {\"A\":1}\nstart\nA {\"A\":3}\nskips one\n")
	two := write("two.log", "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n^--- (?<trace>.*)$\n--- monday\nA {\"A\":1}\nhello\n--- tuesday\nB {\"B\":1}\nbye\n")

	p := open(t, "/?s=snapshot-bank&k=12")
	p.click("#load", false)
	p.waitFor(`!!document.getElementById("scenario-file")`, "the Load panel opens")
	p.do(chromedp.SetUploadFiles("#scenario-file", []string{bad}))
	p.waitFor(`!!document.querySelector(".problem")`, "a bad log is refused")
	assert.Contains(t, p.text(".problem"), "bad.log was not opened: line 3: A's own clock entry is 3, but this is its event 2")
	assert.True(t, strings.HasPrefix(p.position(), "step 12 /"), "the view stays")

	p.do(chromedp.SetUploadFiles("#scenario-file", []string{good}))
	p.waitFor(`document.getElementById("scenario").selectedOptions[0].textContent.includes("kvstore.log")`, "the log opens")
	assert.True(t, strings.HasPrefix(p.position(), "step 13 / 13 "), "the whole log, as ShiViz shows it: %s", p.position())
	assert.Contains(t, p.text(".caption"), `server {"client1":4, "client2":2, "server":6}: Received put x=2 from client1`)
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll(".problem").length`))
	p.screenshot("log-kvstore")
	// a log is read, not changed: no commands, and a process's menu says why
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll(".commands button").length`), "no command buttons")
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll("#fifo").length`), "no FIFO switch: the channels did what the log says")
	p.clickProcess("log-kvstore", 2)
	p.waitFor(`!!document.getElementById("process-menu")`, "the server's menu opens")
	assert.Contains(t, p.text("#process-menu"), "A log records what happened: it takes no faults")
	assert.Equal(t, 0, eval[int](p, `document.querySelectorAll("#process-menu button:not(.link)").length`), "nothing to inject")
	p.screenshot("log-kvstore-menu")

	p2 := open(t, "/?s=snapshot-bank")
	p2.click("#load", false)
	p2.waitFor(`!!document.getElementById("scenario-file")`, "the Load panel opens")
	p2.do(chromedp.SetUploadFiles("#scenario-file", []string{two}))
	p2.waitFor(`location.search.includes("sc.2=")`, "two executions, two runs")
	p.noConsoleErrors()
	p2.noConsoleErrors()
}

// A process's line can be left out of the diagram from the Processes
// panel, as a learner reads a run of many processes a few lines at a
// time: the link keeps it, and "Draw them all" brings every line back.
func TestAProcessLineLeftOutOfTheDiagram(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=59")
	p.click("#shown-1", true)
	p.waitFor(`location.search.includes("hide=2")`, "the link leaves B out")
	assert.Contains(t, p.text("#processes"), "The diagram draws 2 of the 3 processes' lines.")
	p.screenshot("line-left-out")
	again := open(t, "/"+eval[string](p, `location.search`))
	assert.False(t, eval[bool](again, `document.getElementById("shown-1").checked`), "the link opens with B left out")
	assert.True(t, eval[bool](again, `document.getElementById("shown-0").checked`))
	again.click("#show-all", true)
	again.waitFor(`!location.search.includes("hide=")`, "every line drawn again")
	assert.True(t, eval[bool](again, `document.getElementById("shown-1").checked`))
	p.noConsoleErrors()
	again.noConsoleErrors()
}
