package scenario_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// An unknown lesson id is answered with the lessons it may have meant, not
// a list of every lesson; a comparison's id is named as one.
func TestUnknownLessonSuggests(t *testing.T) {
	_, err := scenario.Builtin("mutex-contention-low")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"mutex-contention-low" is a comparison`)
	_, err = scenario.Builtin("token-ring-lost")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did you mean token-ring-")
	assert.Less(t, strings.Count(err.Error(), ","), 6, "a few, not all of them")
	_, err = scenario.Builtin("zzz")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listed by spacetime list")
}

// The lists a picker reads without parsing the lessons (their titles,
// topics and tours) say what the lessons parsed say, and list each lesson and
// comparison once; the comparisons' runs are built-in scenarios too.
func TestTheListsAgreeWithTheParsedLessons(t *testing.T) {
	require.Empty(t, scenario.Broken())
	listed := map[string]bool{}
	for _, info := range scenario.BuiltinList() {
		s, err := scenario.Builtin(info.ID)
		require.NoError(t, err)
		assert.Equal(t, s.Title, info.Title, info.ID)
		assert.Equal(t, s.TopicOf(), info.Topic, info.ID)
		var tour []scenario.TourStop
		if s.Lesson != nil {
			tour = s.Lesson.Tour
		}
		assert.Equal(t, tour, scenario.BuiltinTour(info.ID), info.ID)
		assert.Empty(t, scenario.ComparisonOf(info.ID), info.ID)
		listed[info.ID] = true
	}
	var compared []scenario.Info
	for _, c := range scenario.Comparisons() {
		compared = append(compared, scenario.Info{ID: c.ID, Title: c.Title})
		for _, id := range c.MemberIDs() {
			assert.Equal(t, c.ID, scenario.ComparisonOf(id))
			_, err := scenario.Builtin(id)
			assert.NoError(t, err)
			listed[id] = true
		}
	}
	assert.Equal(t, compared, scenario.ComparisonList())
	assert.Len(t, scenario.BuiltinIDs(), len(listed), "every built-in scenario is a lesson or a comparison's run")
	for _, id := range scenario.BuiltinIDs() {
		assert.True(t, listed[id], id)
	}
}
