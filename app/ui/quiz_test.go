package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quizPart is the pane's quiz box while the quiz is on, and its button.
func quizPart(c *state) app.UI {
	q := c.quizOf(0)
	return app.Div().Body(q.quizButton(), app.If(c.sess(0).Quiz().On(), func() app.UI { return q }))
}

// The quiz asks about a step before showing it; the learner's answer is
// marked right or wrong, with the right choice, and counted in the score.
func TestQuizAsksThenMarksTheAnswer(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 10), quizPart)
	assert.Nil(t, r.page().byID("quiz"), "no quiz before it is started")

	r.do(r.st.quizOf(0).toggleQuiz)
	s := r.st.sess(0)
	require.True(t, s.Quiz().On())
	r.do(func(ctx app.Context) {
		for _, asking := s.Quiz().Asking(); !asking && s.Step() < s.Len(); _, asking = s.Quiz().Asking() {
			r.st.controlsOf(0).forward(ctx)
		}
	})
	q, asking := s.Quiz().Asking()
	require.True(t, asking, "stepping on, the quiz stops before its first question")
	pg := r.page()
	assert.Contains(t, pg.id("quiz").words(), "Quiz · 0/0 right · Question 1 of")
	assert.Equal(t, q.Event+" "+q.Ask, pg.id("quiz-ask").text())
	assert.Len(t, pg.classed("choice"), len(q.Choices), "one button a choice")
	assert.Equal(t, "true", pg.id("quiz-button").attrs["aria-pressed"])

	r.do(func(ctx app.Context) { r.st.quizOf(0).answer(ctx, 0) })
	answered, right := s.Quiz().Score()
	assert.Equal(t, 1, answered)
	pg = r.page()
	result := pg.id("quiz-result")
	if right == 1 {
		assert.True(t, result.hasClass("right"))
		assert.Contains(t, result.text(), "✓ Right.")
	} else {
		assert.True(t, result.hasClass("wrong"))
		assert.Contains(t, result.text(), "✗ Not quite: "+s.Quiz().RightChoice(q.Step))
	}
	assert.Equal(t, q.Step, s.Step(), "the answer shows the step asked about")

	r.do(r.st.quizOf(0).toggleQuiz)
	assert.False(t, s.Quiz().On(), "the button ends the quiz")
	assert.Nil(t, r.page().byID("quiz"))
}
