package lab_test

import (
	"errors"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/all"
)

// program is a learner's program as a scenario: its algorithm, python, is
// not linked into this test binary, as it is not into the lesson page's
// client.
const program = `{"algorithm": "python", "n": 2, "code": "def init(ctx):\n    pass\n"}`

// A link whose scenario is a program names the Write view, read without
// running anything; opened where python is not linked, it fails with an
// error that names that page, which the lesson page's client follows.
func TestAProgramsLinkNamesTheWriteView(t *testing.T) {
	q := lab.RawScenarioQuery([]byte(program))
	assert.Equal(t, "/write", lab.ElsewherePage(q))
	q2 := url.Values{"s": {"snapshot-bank"}, "sc.2": {q.Get("sc")}}
	assert.Equal(t, "/write", lab.ElsewherePage(q2), "any view's")
	assert.Empty(t, lab.ElsewherePage(url.Values{"s": {"snapshot-bank"}}))
	assert.Empty(t, lab.ElsewherePage(url.Values{"sc": {"%%not packed"}}), "a view it cannot read is the page's to refuse")
	assert.Equal(t, "/write", lab.ElsewherePage(url.Values{"s": {"token-ring-idle"}, "code": {"eJwrzs8tSE4tLMnP0ynPL8pJUQQAJyYFCA"}}), "a lesson run by a program")

	_, err := lab.PageFromQuery(q, false)
	var e *all.ElsewhereError
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, all.ElsewhereError{Algorithm: "python", Page: "/write"}, *e)
	assert.False(t, all.PageHere("/write"), "this binary lacks the Write view's algorithms")
	assert.True(t, all.PageHere("/"))
}
