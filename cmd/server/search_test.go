package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// B finds the bug: from the lesson's starting step the page searches the
// schedules of Chandy–Lamport without FIFO, opens the one that breaks the
// snapshot's total at its failing step, framed on the schedule, and says
// what it found; the keys step back through it.
func TestFindTheBugOpensTheSchedule(t *testing.T) {
	p := open(t, "/?s=snapshot-nonfifo&k=10")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	p.do(chromedp.KeyEvent("b"))
	p.waitFor(`(document.getElementById("notice")||{}).textContent?.includes("The shortest schedule that differs from it:")`, "the search's finding")
	p.waitStill()
	// the lesson's own course breaks it later: the search says so, and
	// finds a shorter schedule of its own
	assert.Contains(t, p.text("#notice"), `This run's own schedule already breaks "snapshot total equals the money there is" at step 47.`)
	assert.Contains(t, p.text("#notice"), `"snapshot total equals the money there is" fails at step 43, 5 steps after step 38; 4 of them are the search's choices`)
	assert.True(t, strings.HasPrefix(p.position(), "step 43 /"), p.position())
	assert.Contains(t, p.text("#verdict"), "snapshot total equals the money there is: fails at step 43")
	search := eval[string](p, `location.search`)
	assert.Contains(t, search, "in=39d17,40d20,41d21,42d22", "the schedule is the link's inputs")
	assert.Contains(t, search, "span=", "the window is framed on the schedule")
	assert.Equal(t, "Find the bug", p.text("#search"))
	p.screenshot("search-found")

	p.key(kb.ArrowLeft)
	assert.True(t, strings.HasPrefix(p.position(), "step 42 /"), p.position())
	p.noConsoleErrors()
}

// A long search shows its progress, leaves the page answering the keys,
// and stops when asked, leaving the run as it was.
func TestTheSearchShowsProgressAndStops(t *testing.T) {
	p := open(t, "/?s=snapshot-long&k=5")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	p.click("#search", false)
	p.waitFor(`/Searching from step 5: [1-9][0-9]* states/.test((document.getElementById("search-status")||{}).textContent||"")`, "the search's progress")
	assert.Equal(t, "Stop search", p.text("#search"))
	p.screenshot("search-progress")

	// the page answers while the search runs
	p.key(kb.ArrowRight)
	assert.True(t, strings.HasPrefix(p.position(), "step 6 /"), p.position())
	assert.NotEmpty(t, eval[string](p, `(document.getElementById("search-status")||{}).textContent||""`), "still searching")

	p.do(chromedp.KeyEvent("b"))
	p.waitFor(`(document.getElementById("notice")||{}).textContent?.startsWith("Search stopped: ")`, "the stop")
	assert.Empty(t, eval[string](p, `(document.getElementById("search-status")||{}).textContent||""`))
	assert.NotContains(t, eval[string](p, `location.search`), "in=", "a stopped search changes nothing")
	assert.Equal(t, "Find the bug", p.text("#search"))
	p.noConsoleErrors()
}

// On a lesson whose own run already breaks its invariant from the
// search's start, the search says so and finds the shortest schedule that
// differs from that run, at least one of its steps its own choice.
func TestFindTheBugOnABrokenLessonFindsAnotherSchedule(t *testing.T) {
	p := open(t, "/?s=maekawa-deadlock&k=1")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	p.do(chromedp.KeyEvent("b"))
	p.waitFor(`(document.getElementById("notice")||{}).textContent?.includes("The shortest schedule that differs from it:")`, "the search's finding")
	p.waitStill()
	notice := p.text("#notice")
	assert.Contains(t, notice, `This run's own schedule already breaks "no deadlock" at step 19.`)
	assert.NotContains(t, notice, "; 0 of them are the search's choices", notice)
	assert.Regexp(t, `; [1-9]\d* of them are the search's choices`, notice)
	p.screenshot("search-differs")
	p.noConsoleErrors()
}
