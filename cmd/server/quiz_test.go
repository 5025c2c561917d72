package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A quiz link stops the lesson before each question's step: the page
// shows the event about to happen and the choices, and nothing of the
// step itself (the link, the caption, the diagram stay before it). A
// number key answers; the page shows the step, says whether the answer
// was right and why, and keeps the score; the next question waits further
// on. It works the same in a slide.
func TestAQuizRound(t *testing.T) {
	for _, path := range []string{"/?s=lamport-mutex-nonfifo&quiz=6,7", "/?s=lamport-mutex-nonfifo&quiz=6,7&embed=1"} {
		p := open(t, path)
		p.do(chromedp.EmulateViewport(1280, 720))
		p.waitStill()
		// End stops before the first question (where a slide may open already)
		p.do(chromedp.KeyEvent(kb.End))
		p.waitFor(`!!document.getElementById("quiz-ask")`, "the first question")
		p.waitStill()
		assert.True(t, strings.HasPrefix(p.position(), "step 5 /"), p.position())
		assert.Equal(t, "REQUEST from 2 arrives at 1. After it, what does 1's queue read?", p.text("#quiz-ask"))
		assert.Contains(t, p.text("#quiz"), "Question 1 of 2 · step 6")
		choices := eval[[]string](p, `[...document.querySelectorAll("#quiz .choice")].map(b => b.textContent)`)
		require.Len(t, choices, 4)
		html := eval[string](p, `document.documentElement.outerHTML`)
		assert.NotContains(t, html, "1 queues 2's request", "the step's caption is not in the page before the answer")
		assert.NotContains(t, eval[string](p, `location.search`), "k=6")
		if !strings.Contains(path, "embed") {
			p.screenshot("quiz-question")
		}

		// the right answer is (2, 1) (2, 2): answer with another
		wrong := 0
		for i, c := range choices {
			if !strings.HasSuffix(c, "· (2, 1) (2, 2)") {
				wrong = i
				break
			}
		}
		p.key(string(rune('1' + wrong)))
		p.waitFor(`!!document.getElementById("quiz-result")`, "the verdict on the answer")
		assert.True(t, strings.HasPrefix(p.position(), "step 6 /"), p.position())
		assert.Contains(t, p.text("#quiz-result"), "✗ Not quite: (2, 1) (2, 2). 1 queues 2's request (2, 2) and replies")
		assert.Contains(t, p.text("#quiz"), "Quiz · 0/1 right")
		// the next question is the very next step: asked at once, below the verdict
		p.waitFor(`!!document.getElementById("quiz-ask")`, "the second question")
		assert.Contains(t, p.text("#quiz-ask"), "does “granted in timestamp order” still hold?")
		p.key("2")
		p.waitFor(`!!document.getElementById("quiz-result")`, "the verdict")
		assert.Contains(t, p.text("#quiz-result"), "✓ Right.")
		assert.True(t, regexp.MustCompile(`^Quiz · 1/2 right · ✓ Right\..*Done: 1 of 2 right\.`).MatchString(p.text("#quiz")), p.text("#quiz"))
		p.key(kb.End)
		assert.True(t, strings.HasPrefix(p.position(), "step 13 /"), "every question answered, the run is free: %s", p.position())
		p.noConsoleErrors()
	}
}
