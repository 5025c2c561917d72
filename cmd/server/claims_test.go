package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
// 1280×720 projector, at text L and XL, and in a slide's 960×540 and
// 480×270 frames: the caption and the verdict are whole, and nothing
// runs off the side. SPACETIME_SHOTS=1 keeps the projector's views as
// out/claim-*.png, to look at.
func TestEveryClaimReadsWhole(t *testing.T) {
	type view struct {
		w, h  int64
		extra string
	}
	for _, v := range []view{{1280, 720, ""}, {1280, 720, "&text=XL"}, {1366, 768, ""}, {960, 540, "&embed=1"}, {480, 270, "&embed=1"}} {
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
				if v.w == 1280 && v.extra == "" && os.Getenv("SPACETIME_SHOTS") != "" {
					p.waitStill()
					p.screenshot(fmt.Sprintf("claim-%02d-%s", n, c.Lesson))
				}
			}
		}
		p.noConsoleErrors()
	}
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
