package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// T starts the lesson's tour: each stop shows its step, narrates what to
// look at with its event ringed, and the remote's keys go from stop to
// stop; the last stop says what to try; Esc ends the tour.
func TestATourPlaysWithTheRemote(t *testing.T) {
	p := open(t, "/?s=snapshot-nonfifo&k=0")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	p.key("t")
	assert.True(t, strings.HasPrefix(p.position(), "step 36 /"), p.position())
	assert.True(t, strings.HasPrefix(p.text("#tour"), "Tour 1/4 · A sends $16 to B."), p.text("#tour"))
	assert.Contains(t, eval[string](p, `location.search`), "tour=1")
	p.key(kb.PageDown)
	p.key(kb.PageDown)
	assert.True(t, strings.HasPrefix(p.position(), "step 42 /"), p.position())
	assert.Contains(t, p.text("#tour-say"), "it overtakes the $16")
	assert.Contains(t, eval[string](p, `location.search`), "sel=41", "the stop's event is ringed")
	p.key(kb.ArrowRight)
	assert.Contains(t, p.text("#tour-try"), "Tick FIFO channels")
	assert.True(t, eval[bool](p, `document.getElementById("tour-next").disabled`), "the last stop")
	p.screenshot("tour-last-stop")
	p.key(kb.PageUp)
	assert.True(t, strings.HasPrefix(p.text("#tour"), "Tour 3/4"), p.text("#tour"))
	p.key(kb.Escape)
	p.waitFor(`!document.getElementById("tour")`, "the tour ends")
	assert.NotContains(t, eval[string](p, `location.search`), "tour=")
	p.key(kb.ArrowRight)
	assert.True(t, strings.HasPrefix(p.position(), "step 43 /"), "after the tour the keys step again: %s", p.position())
	p.noConsoleErrors()
}

// An embedded lesson plays its tour from a link and from a deck's
// messages, and tells the deck the stop and its words.
func TestSlidesPlayATour(t *testing.T) {
	ctx := newTab(t)
	p := &page{t: t, ctx: ctx, errors: &[]string{}}
	p.do(chromedp.Navigate(slidesPage(t, "/?s=snapshot-bank&embed=1&tour=1")))
	p.waitFor(`window.last().event === "state" && window.last().stop === 1`, "the lesson opens at the tour's first stop")
	assert.Equal(t, 38, eval[int](p, `window.last().step`))
	assert.Equal(t, 4, eval[int](p, `window.last().stops`))
	assert.Contains(t, eval[string](p, `window.last().narration`), "A starts the snapshot")

	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "next"})`))
	p.waitFor(`window.last().stop === 2 && window.last().step === 43`, "next goes to the next stop")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "tour", stop: 4})`))
	p.waitFor(`window.last().stop === 4 && window.last().step === 59`, "tour goes to a stop")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "tour", stop: 9})`))
	p.waitFor(`window.last().event === "error"`, "a stop the tour has not is refused")
	assert.Contains(t, eval[string](p, `window.last().error`), "stops 1 to 4")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "tour", stop: 0})`))
	p.waitFor(`window.last().event === "state" && !window.last().stop`, "stop 0 ends the tour")
	p.do(chromedp.Evaluate[chromedp.Void](`window.send({spacetime: 1, do: "next"})`))
	p.waitFor(`window.last().step === 60 || window.last().step === 59`, "next steps again")
	p.noConsoleErrors()
}
