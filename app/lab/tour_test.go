package lab

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// Every claim of the index opens its lesson, whose tour plays from its
// first stop to its last: each stop's step is in the run, and the claim
// is narrated at one of them (a lesson's own tour) or is a stop's words
// (a lesson toured through its claims).
func TestEveryClaimsTourPlaysToTheEnd(t *testing.T) {
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			q, err := url.ParseQuery(ClaimQuery(c))
			require.NoError(t, err)
			page, err := PageFromQuery(q, false)
			require.NoError(t, err, c.Lesson)
			s := page.Views[0]
			tour := s.Tour().Stops()
			require.NotEmpty(t, tour, "%s has no tour", c.Lesson)
			if n := s.Tour().Stop(); n > 0 {
				assert.Equal(t, c.Step, tour[n-1].Step, "%s: the claim opens at a stop of its step", c.Lesson)
				assert.Equal(t, c.Step, s.Step())
			} else {
				assert.NotEmpty(t, s.Scenario().Lesson.Tour, "%s: the claim %q opens at no stop of the tour of its claims", c.Lesson, c.Text)
			}
			require.NoError(t, s.Tour().GoTo(1))
			stops := 1
			for s.Tour().Next() {
				stops++
			}
			assert.Equal(t, len(tour), stops, c.Lesson)
			assert.Equal(t, len(tour), s.Tour().Stop(), "%s: the tour ends at its last stop", c.Lesson)
			for i, st := range tour {
				assert.LessOrEqual(t, st.Step, s.Len(), "%s: stop %d is past the run's end", c.Lesson, i+1)
			}
			own := s.Scenario().Lesson != nil && len(s.Scenario().Lesson.Tour) > 0
			if !own {
				found := false
				for _, st := range tour {
					found = found || (st.Say == c.Text && st.Step == c.Step)
				}
				assert.True(t, found, "%s: the claim %q is not a stop", c.Lesson, c.Text)
			} else {
				assert.LessOrEqual(t, tour[0].Step, c.Step, "%s: the tour starts by the claim's step", c.Lesson)
			}
			assert.False(t, s.Tour().Next(), "no stop after the last")
			for s.Tour().Prev() {
			}
			assert.Equal(t, 1, s.Tour().Stop())
		}
	}
}

// A stop selects its event and points at its messages; the link keeps
// the stop, and a link to a stop opens at its step; a bad stop is refused
// in words that name the parameter.
func TestTourStopsAndLinks(t *testing.T) {
	s, err := FromQuery(url.Values{"v": {"2"}, "s": {"snapshot-nonfifo"}})
	require.NoError(t, err)
	require.NoError(t, s.Tour().GoTo(3))
	assert.Equal(t, 42, s.Step())
	assert.Equal(t, 41, s.Causality().Selected(), "the stop's event is selected")
	assert.Subset(t, s.Diagram().highlightAll(), []int{16, 17}, "the stop's messages are pointed at")
	q := s.Query()
	assert.Equal(t, "3", q.Get("tour"))

	back, err := FromQuery(url.Values{"v": {"2"}, "s": {"snapshot-nonfifo"}, "tour": {"2"}})
	require.NoError(t, err)
	assert.Equal(t, 2, back.Tour().Stop())
	assert.Equal(t, 37, back.Step(), "a link to a stop opens at its step")

	s.Seek(10)
	assert.NotContains(t, s.Diagram().highlightAll(), 16, "off its step, the stop points at nothing")
	require.NoError(t, s.Tour().GoTo(0))
	assert.Equal(t, "", s.Query().Get("tour"))

	for raw, want := range map[string]string{
		"9":  `link parameter "tour": want a stop of the lesson's tour, from 1 to 4, got "9"`,
		"x":  `link parameter "tour": want a stop of the lesson's tour, from 1 to 4, got "x"`,
		"-1": `from 1 to 4, got "-1"`,
	} {
		_, err := FromQuery(url.Values{"v": {"2"}, "s": {"snapshot-nonfifo"}, "tour": {raw}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), want)
	}
	// a changed lesson keeps its own tour, but is not toured through the
	// claims its unchanged self shows
	flipped, err := FromQuery(url.Values{"v": {"2"}, "s": {"ricart-agrawala-defer"}, "fifo": {"0"}})
	require.NoError(t, err)
	assert.Empty(t, flipped.Tour().Stops())
	_, err = FromQuery(url.Values{"v": {"2"}, "s": {"ricart-agrawala-defer"}, "fifo": {"0"}, "tour": {"1"}})
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "this lesson has no tour"), err.Error())
}
