package lab_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/app/lab"
)

// program is a learner's program as a scenario.
const program = `{"algorithm": "python", "n": 2, "code": "def init(ctx):\n    pass\n"}`

// A link whose scenario is a program names the Write view, read without
// running anything (core/scenario's tests, where python is not linked as
// it is not in the lesson page's client, hold the error that names it).
func TestAProgramsLinkNamesTheWriteView(t *testing.T) {
	q := lab.RawScenarioQuery([]byte(program))
	assert.Equal(t, "/write", lab.ElsewherePage(q))
	q2 := url.Values{"s": {"snapshot-bank"}, "sc.2": {q.Get("sc")}}
	assert.Equal(t, "/write", lab.ElsewherePage(q2), "any view's")
	assert.Empty(t, lab.ElsewherePage(url.Values{"s": {"snapshot-bank"}}))
	assert.Empty(t, lab.ElsewherePage(url.Values{"sc": {"%%not packed"}}), "a view it cannot read is the page's to refuse")
	assert.Equal(t, "/write", lab.ElsewherePage(url.Values{"s": {"token-ring-idle"}, "code": {"eJwrzs8tSE4tLMnP0ynPL8pJUQQAJyYFCA"}}), "a lesson run by a program")

}
