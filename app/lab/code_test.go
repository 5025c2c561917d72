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
	"spacetime/core/scenario"
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

// "Open as code" links a lesson run by its port as the code row writes
// it: the link opens the lesson run by the program, and writes itself
// again the same.
func TestCodeQueryOpensTheLessonRunByThePort(t *testing.T) {
	for _, algorithm := range ports.Algorithms() {
		code, _ := ports.For(algorithm)
		lesson := ""
		for _, info := range scenario.BuiltinList() {
			if s, err := scenario.Builtin(info.ID); err == nil && s.Algorithm == algorithm {
				lesson = s.ID
				break
			}
		}
		require.NotEmpty(t, lesson, algorithm)
		q := lab.CodeQuery(lesson, code)
		assert.Equal(t, packText(t, code), q.Get("code"), "packed as a link packs it")
		p, err := lab.PageFromQuery(q, false)
		require.NoError(t, err, algorithm)
		s := p.Views[0].Scenario()
		assert.Equal(t, lesson, s.ID)
		assert.Equal(t, "python", s.Algorithm)
		assert.Equal(t, code, s.Code)
		assert.Equal(t, lab.EncodeQuery(q), lab.EncodeQuery(lab.CodeQuery(lesson, code)))
		assert.Equal(t, q.Get("code"), p.Query().Get("code"))
	}
}

// A run whose program raised stops at that step, and the session says
// which step, process and error.
func TestASessionSaysWhereItsProgramFailed(t *testing.T) {
	code, _ := ports.For("token-ring")
	broken := strings.Replace(code, "token = (m.gen, m.hop)", "token = (m.gen, m.hops)", 1)
	require.NotEqual(t, code, broken)
	p, err := lab.PageFromQuery(lab.CodeQuery("token-ring-idle", broken), false)
	require.NoError(t, err)
	s := p.Views[0]
	f := s.Failure()
	require.NotNil(t, f)
	assert.Equal(t, s.Len(), f.Step+1, "the run ends at the failing step")
	assert.Equal(t, "2", s.Scenario().Names[f.Node])
	assert.Contains(t, f.Error(), "in on_message of 2, taking TOKEN from 1")

	p, err = lab.PageFromQuery(lab.CodeQuery("token-ring-idle", code), false)
	require.NoError(t, err)
	assert.Nil(t, p.Views[0].Failure())
}

// A link whose program does not compile says so, whatever inputs it
// gives: they are read against the program's own commands, which a
// broken program has none of.
func TestABrokenProgramIsReportedBeforeItsInputs(t *testing.T) {
	_, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"token-ring-idle"}, "in": {"3krequest-cs.1.0.0"}, "code": {packText(t, "def init(p)\n  pass\n")}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 1, column 12")
}
