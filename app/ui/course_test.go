package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// A link with nothing in its query shows the course's index and no run:
// each topic's heading, then its claims, each a link (relative to the
// site's path) to its lesson at the step that shows it, under the claim's
// sentence and the lesson's title.
func TestTheIndexListsEveryClaim(t *testing.T) {
	r := mount(t, url.Values{})
	p := r.page()
	assert.Nil(t, p.byID("diagram"), "no run on the index")
	main := p.classed("claims")
	require.Len(t, main, 1)
	sections := main[0].tags("section")
	require.Len(t, sections, len(scenario.Course()))
	for i, topic := range scenario.Course() {
		assert.Equal(t, topicLabel(topic.Name), sections[i].tags("h2")[0].text())
		links := sections[i].tags("a")
		require.Len(t, links, len(topic.Claims), topic.Name)
		for j, c := range topic.Claims {
			s, err := scenario.Builtin(c.Lesson)
			require.NoError(t, err)
			assert.Equal(t, "./?"+lab.ClaimQuery(c), links[j].attrs["href"])
			assert.Equal(t, c.Text, links[j].classed("claim")[0].text())
			assert.Equal(t, s.Title, links[j].classed("lesson")[0].text())
		}
	}
}

// A slide deck that frames the index can load a lesson into it; any other
// command says there is no lesson yet, and the page keeps its index.
func TestSlidesLoadALessonIntoTheIndex(t *testing.T) {
	r := mount(t, url.Values{})
	var err error
	r.do(func(ctx app.Context) { err = r.c.slides().obey(ctx, lab.SlideCommand{Do: "next"}) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), `send "load"`)
	assert.True(t, r.c.index)
	r.do(func(ctx app.Context) {
		err = r.c.slides().obey(ctx, lab.SlideCommand{Do: "load", Link: url.Values{"s": {"snapshot-bank"}, "k": {"3"}}})
	})
	require.NoError(t, err)
	assert.False(t, r.c.index)
	assert.True(t, strings.HasPrefix(r.page().position(), "step 3 / 59 "), r.page().position())
}
