package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// wholeWords measures, in the page, what of the caption and the verdict
// is cut: each is whole when nothing of it is clipped (its content no
// taller or wider than its box, no ellipsis) and it ends inside the
// window; nothing runs off the side. It returns "" when all is whole, or
// what is not.
const wholeWords = `(() => {
	const out = [];
	for (const [name, e] of [["caption", document.getElementById("caption")], ["verdict", document.getElementById("verdict")]]) {
		if (!e) { out.push(name + " missing"); continue; }
		const s = getComputedStyle(e), r = e.getBoundingClientRect();
		if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) out.push(name + " clipped");
		if (s.textOverflow === "ellipsis" || s.webkitLineClamp !== "none") out.push(name + " ellipsised");
		if (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) out.push(name + " outside the window");
	}
	if (document.scrollingElement.scrollWidth > innerWidth) out.push("the page runs off the side");
	const side = document.querySelector(".side");
	if (side && side.scrollWidth > side.clientWidth + 1) out.push("the side column scrolls sideways");
	return out.join("; ");
})()`

// Every claim of the course's index, opened as the index opens it on a
// 1280×720 projector, at text L and XL, on a 1366×768 laptop, and in a
// slide's 960×540 and 480×270 frames: the caption and the verdict are
// whole, and nothing runs off the side. Under -short (make test) only the
// tightest two are read, the projector at text XL and the smallest
// frame; make test-long reads all five. SPACETIME_SHOTS=1 keeps the
// projector's views as out/claim-*.png (claim-*xl.png at text XL), to
// look at.
func TestEveryClaimReadsWhole(t *testing.T) {
	type view struct {
		w, h  int64
		extra string
	}
	views := []view{{1280, 720, ""}, {1280, 720, "&text=XL"}, {1366, 768, ""}, {960, 540, "&embed=1"}, {480, 270, "&embed=1"}}
	if testing.Short() {
		views = []view{{1280, 720, "&text=XL"}, {480, 270, "&embed=1"}}
	}
	for _, v := range views {
		p := watchConsole(t, reusedTab(t))
		p.do(chromedp.EmulateViewport(v.w, v.h))
		n := 0
		for _, topic := range scenario.Course() {
			for _, c := range topic.Claims {
				n++
				link := "/?" + lab.ClaimQuery(c) + v.extra
				if n == 1 {
					p.do(chromedp.Navigate(siteURL + link))
					p.waitFrames(1)
				} else {
					// then the page's own router, as the index's links use
					// it: one page for every claim, as a lecturer clicks
					// through them
					p.do(chromedp.Evaluate[chromedp.Void](`goappNav(` + strconv.Quote(link) + `)`))
				}
				shown := fmt.Sprintf(`(() => { const e = document.getElementById("position"); return !!e && location.search === %q && e.textContent.startsWith("step %d /"); })()`, link[1:], c.Step)
				ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
				_, err := chromedp.Run(ctx, chromedp.Poll[bool](shown))
				cancel()
				require.NoError(t, err, "%dx%d%s: claim %d, %s: the page shows %s", v.w, v.h, v.extra, n, link,
					eval[string](p, `location.search + " at " + (document.getElementById("position") || {}).textContent`))
				// (the words are laid out as they are measured: no need to
				// wait for the diagram's paint)
				assert.Empty(t, eval[string](p, wholeWords), "%dx%d%s: claim %d, %s", v.w, v.h, v.extra, n, link)
				if v.w == 1280 && os.Getenv("SPACETIME_SHOTS") != "" {
					p.waitStill()
					p.screenshot(fmt.Sprintf("claim-%02d-%s%s", n, c.Lesson, strings.ToLower(strings.TrimPrefix(v.extra, "&text="))))
				}
			}
		}
		p.noConsoleErrors()
	}
}

// The compare view of six mutual exclusions on a 1280×720 projector, at
// the start and at the end (where Maekawa's run has deadlocked): the
// table's figures and every caption are at least 16 px, every row of the
// table is in the window, the page does not scroll, and the failing
// run's verdict is whole under its row.
func TestTheCompareViewOfSixReadsFromTheBackRow(t *testing.T) {
	p := open(t, "/?s=central-queue")
	p.do(chromedp.EmulateViewport(1280, 720))
	before := p.frames()
	eval[bool](p, `(() => { const s = document.getElementById("scenario"); s.value = "compare:mutex-contention-high"; return s.dispatchEvent(new Event("change", {bubbles: true})); })()`)
	p.waitFor(`!!document.getElementById("pane-6")`, "six panes open")
	p.settle(before)
	const legible = `(() => {
		const out = [], px = e => parseFloat(getComputedStyle(e).fontSize);
		const panel = document.querySelector("#side-by-side .panel");
		if (panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1) out.push("the table is clipped");
		for (const td of document.querySelectorAll("#side-by-side td, #side-by-side th")) {
			if (px(td) < 16) { out.push("a table cell at " + px(td) + " px"); break; }
		}
		const rows = document.querySelectorAll("#side-by-side tbody tr");
		rows.forEach((tr, i) => { if (tr.getBoundingClientRect().bottom > innerHeight + 0.5) out.push("row " + (i + 1) + " below the window"); });
		for (let n = 1; n <= 6; n++) {
			const c = document.getElementById(n === 1 ? "caption" : "caption-" + n);
			if (!c) { out.push("run " + n + " has no caption"); continue; }
			if (px(c) < 16) out.push("run " + n + "'s caption at " + px(c) + " px");
			if (c.getBoundingClientRect().bottom > innerHeight + 0.5) out.push("run " + n + "'s caption below the window");
		}
		for (const v of document.querySelectorAll("#side-by-side .verdict")) {
			const r = v.getBoundingClientRect();
			if (v.scrollHeight > v.clientHeight + 1 || v.scrollWidth > v.clientWidth + 1 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) out.push("a verdict is cut: " + v.textContent.slice(0, 40));
			if (px(v) < 16) out.push("a verdict at " + px(v) + " px");
		}
		if (document.scrollingElement.scrollHeight > innerHeight + 1) out.push("the page scrolls");
		return out.join("; ");
	})()`
	assert.Empty(t, eval[string](p, legible), "at the start")
	assert.Len(t, eval[[]string](p, `[...document.querySelectorAll("#side-by-side tbody tr")].map(tr => tr.className)`), 6, "six rows, no verdict yet")
	p.key(kb.End)
	p.waitFor(`!!document.getElementById("run-verdict-6")`, "Maekawa deadlocks")
	p.waitStill()
	assert.Empty(t, eval[string](p, legible), "at the end")
	assert.Contains(t, p.text("#run-verdict-6"), "a wait-for cycle 7 → 2 → 5 → 7")
	assert.Contains(t, p.text("#run-verdict-6"), "no deadlock", "the verdict names the invariant")
	assert.Contains(t, eval[string](p, `document.getElementById("verdict-6").getAttribute("aria-label")`), "a wait-for cycle", "the cell's ✗ says the whole verdict to a screen reader")
	p.screenshot("compare-six-1280x720")
	p.noConsoleErrors()
}

// A tour's stop stands beside the diagram, which keeps one height from
// stop to stop, and covers none of it.
func TestTheTourKeepsTheDiagramsHeight(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&tour=1")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	height := func() float64 {
		return eval[float64](p, `document.getElementById("diagram").getBoundingClientRect().height`)
	}
	first := height()
	stops := eval[int](p, `parseInt(document.querySelector("#tour strong").textContent.match(/\/(\d+)/)[1])`)
	assert.Greater(t, stops, 2)
	for n := 2; n <= stops; n++ {
		p.click("#tour-next", true)
		assert.Contains(t, p.text("#tour strong"), fmt.Sprintf("Tour %d/%d", n, stops))
		assert.Equal(t, first, height(), "stop %d", n)
		assert.True(t, eval[bool](p, `(() => { const t = document.getElementById("tour").getBoundingClientRect(), d = document.getElementById("diagram").getBoundingClientRect();
			return t.left >= d.right || t.bottom <= d.top || t.top >= d.bottom; })()`), "stop %d: the tour covers none of the diagram", n)
	}
	p.screenshot("tour-beside")
	p.noConsoleErrors()
}
