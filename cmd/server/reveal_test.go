package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// revealDist is reveal.js as the npm registry serves it, installed by
// .ci/run (npm install --prefix .deps reveal.js); none of it is committed.
func revealDist(t *testing.T) string {
	dir := filepath.Join("..", "..", ".deps", "node_modules", "reveal.js", "dist")
	if _, err := os.Stat(filepath.Join(dir, "reveal.js")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("reveal.js is not installed: .ci/run installs it from the npm registry")
		}
		t.Skip("reveal.js is not installed (npm install --no-save --prefix .deps reveal.js@6.0.2); skipping the deck test")
	}
	return dir
}

// readmeKit is README's reveal.js snippet, the deck kit: its slide and
// its script, with the lesson's link on the test's site.
func readmeKit(t *testing.T) (slide, script string) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	text := string(data)
	at := strings.Index(text, "reveal.js, with the **deck kit**")
	require.GreaterOrEqual(t, at, 0, "README has the deck kit")
	block := text[at:]
	block = block[strings.Index(block, "```html\n")+len("```html\n"):]
	block = block[:strings.Index(block, "```")]
	cut := strings.Index(block, "<script>")
	require.Greater(t, cut, 0)
	return strings.ReplaceAll(block[:cut], "http://127.0.0.1:8080", siteURL), block[cut:]
}

// A real reveal.js deck (from the npm registry) on another site, with
// README's kit, steps a lesson through a lecture without the two
// disagreeing: fragments forward and back, leaving the slide and coming
// back, and a learner's clicks and steps inside the lesson, then Escape.
// It also measures the deck's longest frame gap while the lesson loads.
func TestARevealDeckAndItsLessonAgree(t *testing.T) {
	site(t)
	dist := revealDist(t)
	slide, kit := readmeKit(t)
	deck := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if name, ok := strings.CutPrefix(r.URL.Path, "/reveal/"); ok {
			http.ServeFile(rw, r, filepath.Join(dist, filepath.Clean("/"+name)))
			return
		}
		fmt.Fprintf(rw, `<!doctype html><html><head><meta charset="utf-8"><title>deck</title>
<link rel="stylesheet" href="/reveal/reveal.css"></head><body>
<div class="reveal"><div class="slides">
<section><h1>Global state</h1></section>
%s
<section><h2>What we saw</h2></section>
</div></div>
<script>
window.states = [];
addEventListener("message", (e) => { if (e.data && e.data.spacetime === 1 && e.data.event === "state") window.states.push(e.data); });
window.step = () => (window.states[window.states.length - 1] || {}).step;
// the deck's frames: the longest gap between two
window.gap = 0;
let last = performance.now();
requestAnimationFrame(function tick(now) { window.gap = Math.max(window.gap, now - last); last = now; requestAnimationFrame(tick); });
</script>
<script src="/reveal/reveal.js"></script>
<script>Reveal.initialize({ hash: true, transition: "none", width: 1280, height: 720 });</script>
%s
</body></html>`, slide, kit)
	}))
	t.Cleanup(deck.Close)

	p := watchConsole(t, newTab(t))
	p.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(deck.URL+"/"))
	p.waitFor(`typeof Reveal !== "undefined" && Reveal.isReady()`, "reveal.js starts")
	press := func(k string) { t.Helper(); p.do(chromedp.KeyEvent(k)) }
	at := func(step int, why string) {
		t.Helper()
		p.waitFor(fmt.Sprintf(`window.step() === %d`, step), fmt.Sprintf("%s: the lesson at step %d (it is at %v)", why, step, eval[any](p, `window.step()`)))
	}
	slideNo := func() int { return eval[int](p, `Reveal.getIndices().h`) }

	p.do(chromedp.Evaluate[chromedp.Void](`window.gap = 0`))
	press(kb.ArrowRight)
	at(37, "the lesson's slide opens at its link's step")
	t.Logf("the deck's longest frame gap while the lesson loaded: %.0f ms", eval[float64](p, `window.gap`))
	press(kb.ArrowRight)
	at(38, "the first fragment")
	press(kb.ArrowRight)
	at(39, "the second fragment")
	press(kb.ArrowLeft)
	at(38, "a fragment back")
	press(kb.ArrowRight)
	at(39, "forward again")

	// leave the slide and come back: reveal shows its fragments done
	press(kb.ArrowRight)
	p.waitFor(`Reveal.getIndices().h === 2`, "the next slide")
	press(kb.ArrowLeft)
	p.waitFor(`Reveal.getIndices().h === 1`, "back on the lesson's slide")
	at(39, "re-entered, the lesson is where its fragments say")
	press(kb.ArrowLeft)
	at(38, "a fragment back after re-entering")

	// a learner clicks into the lesson and steps it there, then Escape
	p.do(chromedp.MouseClickXY(640, 200))
	p.waitFor(`document.activeElement && document.activeElement.tagName === "IFRAME"`, "the lesson has the keys")
	press(kb.ArrowRight)
	press(kb.ArrowRight)
	at(40, "the learner steps inside the lesson")
	press(kb.Escape)
	p.waitFor(`document.hasFocus() && document.activeElement.tagName !== "IFRAME"`, "Escape gives the keys back to the deck")
	press(kb.ArrowRight)
	at(39, "the next fragment puts the lesson at its step")
	press(kb.ArrowLeft)
	at(38, "and the one before")
	assert.Equal(t, 1, slideNo())
	p.noConsoleErrors()
}
