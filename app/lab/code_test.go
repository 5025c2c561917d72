package lab_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/python/ports"
)

// packText packs a program as a link's code= does.
func packText(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// A lesson run by a program travels as the lesson and the program, and
// opens again to the same link.
func TestALinkCarriesALessonRunByAProgram(t *testing.T) {
	code, ok := ports.For("token-ring")
	require.True(t, ok)
	p, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"token-ring-idle"}, "code": {packText(t, code)}}, false)
	require.NoError(t, err)
	s := p.Views[0]
	assert.Equal(t, "python", s.Scenario().Algorithm)
	assert.Equal(t, code, s.Scenario().Code)
	assert.Equal(t, "token-ring-idle", s.Scenario().ID)
	q := p.Query()
	assert.Equal(t, "token-ring-idle", q.Get("s"))
	assert.Empty(t, q.Get("sc"), "the lesson is named, not packed")
	again, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	assert.Equal(t, code, again.Views[0].Scenario().Code)
	assert.Equal(t, lab.EncodeQuery(q), lab.EncodeQuery(again.Query()))
}

// A program that does not compile is refused at its line, naming code=.
func TestALinkRefusesABrokenProgramAtItsLine(t *testing.T) {
	_, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"token-ring-idle"}, "code": {packText(t, "def init(p)\n  pass\n")}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `line 1, column 12`)
}

// A program is bounded in the link, and the bound is named.
func TestALinkBoundsItsProgram(t *testing.T) {
	huge := "# " + strings.Repeat("x", lab.MaxPackedCode) + "\n"
	_, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"token-ring-idle"}, "code": {packText(t, huge)}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `link parameter "code": the packed program is too large: more than 65536 bytes once inflated`)

	_, err = lab.PageFromQuery(url.Values{"v": {"2"}, "sc": {packText(t, `{"algorithm":"token-ring","n":3,"until":{"steps":5}}`)}, "code": {packText(t, "def init(p):\n  pass\n")}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `holds its own program`)

	_, err = lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"token-ring-idle"}, "code": {"%%%"}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `not a packed program`)
}
