package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slidesPage is a deck on another site that frames a lesson and keeps
// every message the lesson sends it.
func slidesPage(t *testing.T, link string) string {
	t.Helper()
	deck := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(rw, `<!doctype html><title>deck</title>
<iframe id="lab" width="900" height="500" src="%s%s"></iframe>
<script>
window.replies = [];
addEventListener("message", (e) => { if (e.data && e.data.spacetime) window.replies.push(e.data); });
window.send = (m) => document.getElementById("lab").contentWindow.postMessage(m, "*");
window.last = () => window.replies[window.replies.length - 1] || {};
</script>`, siteURL, link)
	}))
	t.Cleanup(deck.Close)
	return deck.URL
}

// A deck drives an embedded lesson by postMessage: the lesson says it is
// ready, steps, jumps, loads another lesson and answers each message with
// its state; a malformed message is answered with an error and changes
// nothing; another tool's message is not answered at all.
func TestSlidesDriveTheLessonByMessages(t *testing.T) {
	ctx := newTab(t)
	p := &page{t: t, ctx: ctx, errors: &[]string{}}
	p.do(chromedp.Navigate(slidesPage(t, "/?s=snapshot-bank&k=5&embed=1")))
	p.waitFor(`window.last().event === "state" && window.last().step === 5`, "the lesson says it is ready, at step 5")
	assert.Equal(t, "snapshot-bank", eval[string](p, `window.last().lesson`))

	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "next"})`))
	p.waitFor(`window.last().step === 6`, "next steps the lesson")
	assert.NotEmpty(t, eval[string](p, `window.last().caption`), "with the step's caption")

	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "goto", step: 30})`))
	p.waitFor(`window.last().step === 30`, "goto jumps")

	before := eval[int](p, `window.replies.length`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "jump"})`))
	p.waitFor(`window.last().event === "error"`, "a malformed message is refused")
	assert.Contains(t, eval[string](p, `window.last().error`), `field "do"`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({namespace: "reveal", eventName: "slidechanged"})`))
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "state"})`))
	p.waitFor(`window.last().event === "state"`, "state answers")
	assert.Equal(t, 30, eval[int](p, `window.last().step`), "nothing moved")
	assert.Equal(t, before+2, eval[int](p, `window.replies.length`), "the other tool's message got no answer")

	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "load", lesson: "token-ring-crash"})`))
	p.waitFor(`window.last().lesson === "token-ring-crash"`, "load opens another lesson")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "load", link: "?s=split-brain&k=27"})`))
	p.waitFor(`window.last().lesson === "split-brain" && window.last().step === 27`, "load opens a link")
	assert.Contains(t, eval[string](p, `window.last().verdict`), "no two leaders are obeyed at once")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "load", lesson: "no-such-lesson"})`))
	p.waitFor(`window.last().event === "error"`, "a lesson that is not there is refused")
	assert.Contains(t, eval[string](p, `window.last().error`), "no-such-lesson")
	p.noConsoleErrors()
}

// With the link's origin parameter, a lesson obeys only the slides of that
// origin, and tells no other.
func TestSlidesOfAnotherOriginAreIgnored(t *testing.T) {
	ctx := newTab(t)
	p := &page{t: t, ctx: ctx, errors: &[]string{}}
	p.do(chromedp.Navigate(slidesPage(t, "/?s=snapshot-bank&k=5&embed=1&origin=https://slides.example.org")))
	frame := framedSite(t, ctx, false)
	inFrame := func(js string) string {
		t.Helper()
		var out string
		var err error
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			// a poll started while the frame loads fails: poll again
			if out, err = chromedp.Run(frame.ctx, chromedp.Poll[string](js, frame.in...)); err == nil {
				break
			}
		}
		require.NoError(t, err)
		return out
	}
	// the lesson's client runs
	assert.Contains(t, inFrame(`(window.spacetimeFrames || 0) >= 1 && document.getElementById("position").textContent`), "step 5 /")
	read := inFrame(`String(window.spacetimeSlideMessages || 0)`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "next"})`))
	// the page counts every message it reads, obeyed or not
	inFrame(`(window.spacetimeSlideMessages || 0) > ` + read + ` && "read"`)
	assert.Contains(t, inFrame(`document.getElementById("position").textContent`), "step 5 /", "the deck's next was not obeyed")
	assert.Zero(t, eval[int](p, `window.replies.length`), "no answer and no announcement to this deck")
}

// The example deck (web/deck.html) steps its embedded lesson with its own
// keys, from the slide's first step to its last, and then moves on to the
// next slide; back steps the lesson back before leaving the slide.
func TestExampleDeckStepsItsLesson(t *testing.T) {
	p := open2(t, "/web/deck.html")
	press := func(key string) { t.Helper(); p.do(chromedp.KeyEvent(key)) }
	shown := func() string {
		return eval[string](p, `[...document.querySelectorAll(".slide")].findIndex(s => !s.hidden) + 1 + ""`)
	}
	require.Equal(t, "1", shown())
	// the second → comes while the lesson loads: it is the lesson's
	press(kb.ArrowRight)
	press(kb.ArrowRight)
	p.waitFor(`location.hash === "#2"`, "→ moves to the lesson's slide")
	p.waitFor(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step 38 / 59")`, "→ pressed while the lesson loads steps it once it is ready")
	assert.Equal(t, "2", shown(), "the key pressed while the lesson loaded did not leave its slide")
	press(kb.ArrowLeft)
	p.waitFor(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step 37 / 59")`, "the lesson opens at the slide's first step")
	press(kb.ArrowRight)
	p.waitFor(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step 38 / 59")`, "→ steps the lesson")
	assert.Contains(t, p.text(".slide:not([hidden]) .status"), "A starts snapshot 1", "with the step's caption")
	press(kb.ArrowLeft)
	p.waitFor(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step 37 / 59")`, "← steps it back")
	press(kb.ArrowLeft)
	p.waitFor(`location.hash === "#1"`, "at the slide's first step, ← leaves the slide")
	press(kb.ArrowRight)
	p.waitFor(`location.hash === "#2"`, "back to the lesson")
	for k := 37; k < 59; k++ {
		press(kb.ArrowRight)
		p.waitFor(fmt.Sprintf(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step %d / 59")`, k+1), "the lesson steps to its end")
	}
	press(kb.ArrowRight)
	p.waitFor(`location.hash === "#3"`, "past the lesson's last step, the next slide")
	p.noConsoleErrors()
}

// The example deck loads the next slide's lesson while a slide is read:
// it is ready before its slide is shown, and the deck keeps drawing when
// the lecturer gets there (the lesson's start, which holds the thread
// this deck shares with it, is over by then).
func TestExampleDeckLoadsTheNextLessonAhead(t *testing.T) {
	p := open2(t, "/web/deck.html")
	p.waitFor(`(document.querySelectorAll(".slide")[1].querySelector(".status").textContent || "").startsWith("step 37 / 59")`,
		"the second slide's lesson is ready while the first slide is shown")
	assert.Equal(t, "#1", eval[string](p, `location.hash`))
	assert.Empty(t, eval[string](p, `document.querySelectorAll(".slide")[2].querySelector("iframe").getAttribute("src") || ""`),
		"one lesson ahead, not every lesson of the deck")
	p.do(chromedp.Evaluate[chromedp.Void](`window.gap = 0; { let last = performance.now(); requestAnimationFrame(function tick(now) { window.gap = Math.max(window.gap, now - last); last = now; requestAnimationFrame(tick); }); }`))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor(`location.hash === "#2"`, "→ moves to the lesson's slide")
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor(`document.querySelector(".slide:not([hidden]) .status").textContent.startsWith("step 38 / 59")`, "→ steps the lesson at once")
	t.Logf("the deck's longest frame gap from the lesson's slide to its first step: %.0f ms", eval[float64](p, `window.gap`))
	p.waitFor(`(document.querySelectorAll(".slide")[2].querySelector(".status").textContent || "").startsWith("step 40 / 47")`,
		"then the next slide's lesson loads, ready before its slide")
	p.noConsoleErrors()
}

// open2 opens a page that is not the lab (it paints no diagram of its own).
func open2(t *testing.T, path string) *page {
	t.Helper()
	p := &page{t: t, ctx: newTab(t), errors: &[]string{}}
	p.do(chromedp.Navigate(siteURL + path))
	return p
}
