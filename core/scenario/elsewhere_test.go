package scenario_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
)

// A learner's program, opened where python is not linked (as in the
// lesson page's client, and in this test binary), fails with an error
// that names the page whose client runs it.
func TestAProgramOpensElsewhereWherePythonIsNotLinked(t *testing.T) {
	_, err := scenario.Parse([]byte(`{"algorithm": "python", "n": 2, "code": "def init(p):\n    pass\n", "until": {"steps": 3}}`))
	var e *all.ElsewhereError
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, all.ElsewhereError{Algorithm: "python", Page: "/write"}, *e)
	assert.False(t, all.PageHere("/write"), "this binary lacks the Write view's algorithms")
	assert.True(t, all.PageHere("/"))
}
