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
