package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// openIndex opens the page's start, the course's index, in the reused tab
// at a projector's 1280×720, and waits for the client.
func openIndex(t *testing.T) *page {
	t.Helper()
	site(t)
	p := watchConsole(t, reusedTab(t))
	p.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(siteURL+"/"))
	p.waitFor(fmt.Sprintf(`!!window.goappNav && document.querySelectorAll(".claims a").length === %d`, courseClaims()), "the index and the client")
	return p
}

// courseClaims counts the claims of course.json, each a link of the index.
func courseClaims() int {
	claims := 0
	for _, topic := range scenario.Course() {
		claims += len(topic.Claims)
	}
	return claims
}

// The page starts on the course's index: every claim by topic in the
// course's order, readable from the back of a room at 1280×720. A claim
// opens its lesson at the step that shows it; the title leads back, and
// so does the browser's Back.
func TestTheIndexOpensAClaimAtItsStep(t *testing.T) {
	p := openIndex(t)
	var headings []string
	for _, topic := range scenario.Course() {
		headings = append(headings, strings.ToUpper(topic.Name))
	}
	assert.Equal(t, headings, eval[[]string](p, `[...document.querySelectorAll(".claims h2")].map(h => getComputedStyle(h).textTransform === "uppercase" ? h.textContent.toUpperCase() : h.textContent)`))
	assert.Equal(t, courseClaims(), eval[int](p, `document.querySelectorAll(".claims a").length`))
	assert.Equal(t, "Spacetime: the course, claim by claim", eval[string](p, `document.title`))
	assert.GreaterOrEqual(t, eval[float64](p, `parseFloat(getComputedStyle(document.querySelector(".claims .claim")).fontSize)`), 18.0, "a claim is read from the back of the room")
	assert.LessOrEqual(t, eval[float64](p, `document.scrollingElement.scrollWidth`), 1280.0, "nothing runs off the side")
	assert.GreaterOrEqual(t, eval[int](p, `[...document.querySelectorAll(".claims a")].filter(a => a.getBoundingClientRect().bottom <= innerHeight).length`), 6,
		"the first screen holds a topic's claims")
	p.screenshot("course-index")

	var nonFIFO scenario.Claim
	for _, c := range scenario.Course()[0].Claims {
		if c.Lesson == "snapshot-nonfifo" {
			nonFIFO = c
		}
	}
	require.NotEmpty(t, nonFIFO.Text)
	link := fmt.Sprintf(`[...document.querySelectorAll(".claims a")].find(a => a.href.endsWith("/?" + %q))`, lab.ClaimQuery(nonFIFO))
	require.Equal(t, nonFIFO.Text, eval[string](p, link+`.querySelector(".claim").textContent`))
	p.do(chromedp.Evaluate[chromedp.Void](link + `.click()`))
	p.waitFrames(1)
	p.waitStill()
	assert.Equal(t, fmt.Sprintf("step %d / %d", nonFIFO.Step, nonFIFO.Step), strings.SplitN(p.position(), " ·", 2)[0])
	assert.Contains(t, p.text("#verdict"), nonFIFO.Breaks)
	assert.Contains(t, p.text("#tour"), "Tour 4/4 · The snapshot is complete", "the claim is narrated by its stop of the lesson's tour")
	p.screenshot("course-claim")

	// the keys step the lesson the claim opened
	p.key(kb.Home)
	assert.True(t, strings.HasPrefix(p.position(), "step 0 /"), p.position())

	// the title leads back to the index, and Back to the lesson
	p.do(chromedp.Click(chromedp.CSS("h1 a")))
	p.waitFor(`document.querySelectorAll(".claims a").length > 0 && !document.getElementById("diagram")`, "the index again")
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.waitFrames(1)
	assert.Contains(t, eval[string](p, `location.search`), "s=snapshot-nonfifo")
	p.noConsoleErrors()
}
