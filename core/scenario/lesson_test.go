package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// Every built-in lesson names its part of the course, so that the pickers
// can group it.
func TestEveryLessonHasATopic(t *testing.T) {
	for _, b := range scenario.BuiltinList() {
		s, err := scenario.Builtin(b.ID)
		require.NoError(t, err)
		assert.Contains(t, scenario.Topics(), s.TopicOf(), "%s names a topic of the course", b.ID)
	}
}

// A lesson block that cannot be shown is refused, naming the field.
func TestBadLessonIsRefused(t *testing.T) {
	base := `{"algorithm":"chandy-lamport","n":3,"seed":1,"until":{"steps":10},"lesson":%s}`
	topic := scenario.Topics()[len(scenario.Topics())-1] // any of the course's
	for _, tc := range []struct{ lesson, want string }{
		{`{"topic":"cooking"}`, `field "lesson.topic": unknown topic "cooking" (want one of: ` + strings.Join(scenario.Topics(), "; ") + ")"},
		{`{"opens":-1}`, `field "lesson.opens": a step from 0 to`},
		{`{"frame":[5]}`, `field "lesson.frame": want [from, to] with from before to, got [5]`},
		{`{"frame":[9,3]}`, `field "lesson.frame": want [from, to] with from before to, got [9 3]`},
		{`{"frame":[0,2000000000]}`, `field "lesson.frame": want [min, max] ticks`},
		{fmt.Sprintf(`{"topik":%q}`, topic), `"lesson.topik"`},
		{`{"marks":[{"name":"","step":1}]}`, `field "lesson.marks[0].name": want a short name`},
		{`{"marks":[{"name":"a","step":0}]}`, `field "lesson.marks[0].step": a step from 1 to`},
	} {
		_, err := scenario.Parse([]byte(fmt.Sprintf(base, tc.lesson)))
		require.Error(t, err, tc.lesson)
		assert.Contains(t, err.Error(), tc.want, tc.lesson)
	}
	s, err := scenario.Parse([]byte(fmt.Sprintf(base, fmt.Sprintf(`{"topic":%q,"opens":4,"frame":[0,20]}`, topic))))
	require.NoError(t, err)
	assert.Equal(t, topic, s.TopicOf())
}
