package ui

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Quiz is a pane's quiz: a question on a step drawn from its run, and the
// page's word on the answer.
type Quiz struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// quizResult is what the page says of the answer just given.
type quizResult struct {
	step  int
	right bool
	text  string
}

// toggleQuiz makes the pane's run a quiz on steps drawn from it, or ends it.
func (c *Quiz) toggleQuiz(ctx app.Context) {
	i := c.Pane
	s := c.sess(i)
	p := c.panes[i]
	c.stopPlaying(i)
	p.quizResult = quizResult{}
	if s.Quiz().On() {
		s.Quiz().End()
	} else if err := s.Quiz().Start(nil); err != nil {
		p.notice = "No quiz: " + err.Error()
	}
	c.changed(ctx)
}

// answer answers the pane's question with choice n (from 0).
func (c *Quiz) answer(ctx app.Context, n int) {
	i := c.Pane
	s := c.sess(i)
	q, ok := s.Quiz().Asking()
	if !ok || n < 0 || n >= len(q.Choices) {
		return
	}
	right, why, err := s.Quiz().Answer(n)
	if err != nil {
		return
	}
	verdict := "✓ Right."
	if !right {
		verdict = "✗ Not quite: " + s.Quiz().RightChoice(q.Step) + "."
	}
	c.panes[i].quizResult = quizResult{step: q.Step, right: right, text: verdict + " " + capitalise(why) + "."}
	c.changed(ctx)
}

// quizButton starts and ends the pane's quiz.
func (c *Quiz) quizButton() app.UI {
	i := c.Pane
	p := c.panes[i]
	return app.Button().ID(p.id("quiz-button")).Attr("aria-pressed", c.sess(i).Quiz().On()).
		Title("Predict the next step: the page stops before some steps and asks what they will do (Q)").
		Text("Quiz").OnClick(func(ctx app.Context, e app.Event) { c.toggleQuiz(ctx) }, app.EventScope(p.n, i))
}

// Render draws the pane's quiz: the question asked, with its choices, or what
// the last answer was, and the score.
func (c *Quiz) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	s := c.sess(i)
	answered, right := s.Quiz().Score()
	total := len(s.Quiz().Steps())
	score := fmt.Sprintf("Quiz · %d/%d right · ", right, answered)
	scope := app.EventScope(p.n, i)
	r := p.quizResult
	result := app.If(r.step > 0 && r.step == s.Step(), func() app.UI {
		cls := "result wrong"
		if r.right {
			cls = "result right"
		}
		return app.Span().ID(p.id("quiz-result")).Class(attrText(cls)).Text(r.text + " ")
	})
	if q, ok := s.Quiz().Asking(); ok {
		choices := make([]app.UI, len(q.Choices))
		for n, choice := range q.Choices {
			choices[n] = app.Button().ID(p.id("choice-"+strconv.Itoa(n+1))).Class("choice").Title("Answer with this ("+strconv.Itoa(n+1)+")").
				Text(strconv.Itoa(n+1)+" · "+choice).OnClick(func(ctx app.Context, e app.Event) { c.answer(ctx, n) }, scope)
		}
		return app.Div().ID(p.id("quiz")).Class("notice quiz").Attr("role", "status").Body(
			app.Div().Body(result),
			app.Div().Body(
				app.Strong().Text(fmt.Sprintf("%sQuestion %d of %d · step %d: ", score, answered+1, total, q.Step)),
				app.Span().ID(p.id("quiz-ask")).Text(q.Event+" "+q.Ask),
			),
			app.Div().Class("choices").Body(choices...),
		)
	}
	text := "Step on (→) to the next question."
	if answered == total {
		text = fmt.Sprintf("Done: %d of %d right. Q ends the quiz.", right, total)
	}
	return app.Div().ID(p.id("quiz")).Class("notice quiz").Attr("role", "status").Body(
		app.Strong().Text(score),
		result,
		app.Span().Text(text),
	)
}
