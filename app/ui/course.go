package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// CourseIndex is the course's index: every claim, by topic, a link to its
// lesson.
type CourseIndex struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// showIndex puts the course's index in place of the runs: the page's
// start, and where the header's title leads.
func (c *Lab) showIndex() {
	for _, p := range c.panes {
		p.playing = false
		p.stopObserving()
	}
	c.page, c.panes, c.index = nil, nil, true
	c.problem, c.enlarged, c.focus = "", 0, 0
}

// courseIndex lists the course's claims by topic, in the course's order,
// each a link that opens its lesson at the step that shows it. It is
// plain links: the server sends it whole, and it works before the client
// runs. Relative links keep a site served below a path on its path.
func (c *CourseIndex) Render() app.UI {
	titles := map[string]string{}
	for _, b := range scenario.BuiltinList() { // the titles, without a copy of each lesson
		titles[b.ID] = b.Title
	}
	topics := scenario.Course()
	sections := make([]app.UI, 0, len(topics))
	for _, t := range topics {
		items := make([]app.UI, 0, len(t.Claims))
		for _, cl := range t.Claims {
			items = append(items, app.Li().Body(
				app.A().Href(attrText("./?"+lab.ClaimQuery(cl))).Body(
					app.Span().Class("claim").Text(cl.Text),
					app.Span().Class("lesson").Text(titles[cl.Lesson]),
				),
			))
		}
		sections = append(sections, app.Section().Class("topic").Body(
			app.H2().Text(topicLabel(t.Name)),
			app.Ul().Body(items...),
		))
	}
	return app.Div().Class(attrText("lab course text-"+c.textSize())).Body(
		app.Header().Class("top").Body(
			app.H1().Text("Spacetime"),
			app.P().Class("intro").Text("Every claim of the course, shown by a run you can step, rewind and break. Choose one to open its lesson at the step that shows it."),
		),
		app.Main().Class("claims").Body(sections...),
	)
}
