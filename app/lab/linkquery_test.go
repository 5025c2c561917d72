package lab_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/engine"
)

// linkError opens a raw query as the page and the server do, and returns
// its refusal.
func linkError(t *testing.T, raw string, compare bool) string {
	t.Helper()
	p, err := lab.PageFromRawQuery(raw, compare)
	require.Error(t, err, "%s opens %d views", raw, len(pageViews(p)))
	return err.Error()
}

func pageViews(p *lab.Page) []*lab.Session {
	if p == nil {
		return nil
	}
	return p.Views
}

// tour= and quiz= are a view's parameters like k=: given twice, or for a
// view the link does not name, they are refused with the parameter named
// (they were missing from the list checkParams checks, and were read
// once, or not at all, without a word).
func TestTourAndQuizAreCheckedAsEveryParameter(t *testing.T) {
	for raw, want := range map[string]string{
		"v=2&s=snapshot-nonfifo&tour=1&tour=2":            `link parameter "tour" is given 2 times: give it once`,
		"v=2&s=lamport-mutex-nonfifo&quiz=1&quiz=2":       `link parameter "quiz" is given 2 times: give it once`,
		"v=2&s=snapshot-nonfifo&tour.3=1":                 `link parameter "tour.3": the link names no view 2 (no "s.2" or "sc.2")`,
		"v=2&s=lamport-mutex-nonfifo&quiz.2=1":            `link parameter "quiz.2": the link names no view 2 (no "s.2" or "sc.2")`,
		"v=2&s=snapshot-nonfifo&s.2=lease-crash&tour.3=1": `link parameter "tour.3": the link names no view 3 (no "s.3" or "sc.3")`,
		"v=2&tour=1": `link parameter "tour": /compare without "s" opens its default comparison, which takes no view's parameters: name the views (s=…&s.2=…) to set them`,
	} {
		compare := raw == "v=2&tour=1"
		assert.Equal(t, want, linkError(t, raw, compare), raw)
	}
	// once, for a view the link names, they open as before
	p, err := lab.PageFromRawQuery("v=2&s=snapshot-bank&s.2=snapshot-nonfifo&tour.2=3&quiz=1", false)
	require.NoError(t, err)
	assert.Equal(t, 3, p.Views[1].Tour().Stop())
	assert.True(t, p.Views[0].Quiz().On())
}

// A raw query is read as url.ParseQuery reads it, but what it would drop
// without a word (url.URL.Query discards its error) is refused, naming the
// parameter.
func TestParseLinkQuery(t *testing.T) {
	for raw, want := range map[string]string{
		"v=2&s=snapshot-bank&k=%zz":                                     `link parameter "k": "%zz" is not a valid escape: a "%" takes two hexadecimal digits ("%25" is "%" itself)`,
		"v=2&s=snapshot-bank&k=5%":                                      `link parameter "k": "%" is not a valid escape`,
		"v=2&s=snapshot-bank&k%zz=5":                                    `link parameter "k%zz": "%zz" is not a valid escape`,
		"v=2&s=snapshot-bank;k=3":                                       `link parameter "s": the link has a ";" in "s=snapshot-bank;k=3", where parameters are separated by "&"`,
		"v=2&utm=a;k=3&s=snapshot-bank":                                 `link parameter "k": the link has a ";" in "utm=a;k=3", where parameters are separated by "&"`,
		"s=snapshot-bank&amp;k=37&amp;embed=1":                          `link parameter "k": the link has "&amp;" (as a web page's source writes "&") where parameters are separated by "&"`,
		"v=2&%zz;k=3":                                                   `the link has a ";" in "%zz;k=3", where parameters are separated by "&"`,
		strings.Repeat("utm=1&", lab.MaxLinkParams) + "s=snapshot-bank": "the link has more than 10,000 parameters; a Spacetime link has at most 104",
	} {
		q, err := lab.ParseLinkQuery(raw)
		require.Error(t, err, "%.80s", raw)
		assert.Contains(t, err.Error(), want, "%.80s", raw)
		assert.Nil(t, q, "a link that does not parse opens nothing")
		assert.Equal(t, err.Error(), linkError(t, raw, false), "%.80s", raw)
		_, werr := lab.PageFromRawQueryWithin(raw, false, &engine.Budget{})
		assert.Equal(t, err, werr)
	}
	// url.URL.Query gave none of those errors: the first two opened the
	// bank at step 0, and the last the course index
	q := (&url.URL{RawQuery: strings.Repeat("utm=1&", lab.MaxLinkParams) + "s=snapshot-bank"}).Query()
	assert.True(t, lab.IsCourseIndex(q, false))

	// what url.ParseQuery keeps is kept alike
	for _, raw := range []string{"", "&&", "v=2&s=snapshot-bank&k=4", "a=1&b=2+3&c=%41&&d&=e&s=x&s=y", "s=snapshot%2Dbank&k=%34"} {
		want, err := url.ParseQuery(raw)
		require.NoError(t, err)
		got, err := lab.ParseLinkQuery(raw)
		require.NoError(t, err, raw)
		assert.Equal(t, want, got, raw)
	}
	// a setting that is not the link's and does not parse is left out, as
	// url.ParseQuery leaves it out: the link opens as it did
	for _, raw := range []string{"v=2&s=snapshot-bank&k=4&utm_content=50%", "v=2&s=snapshot-bank&k=4&utm=a;b", "v=2&s=snapshot-bank&k=4&K%zz"} {
		got, err := lab.ParseLinkQuery(raw)
		if strings.Contains(raw, "K%zz") {
			require.Error(t, err, "a name that does not decode may be the link's")
			continue
		}
		require.NoError(t, err, raw)
		assert.Equal(t, url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "k": {"4"}}, got, raw)
		p, err := lab.PageFromRawQuery(raw, false)
		require.NoError(t, err)
		assert.Equal(t, 4, p.Views[0].Step())
	}
	// as many parameters as Go reads open, when they are not the link's
	raw := strings.Repeat("utm=1&", lab.MaxLinkParams-1) + "s=snapshot-bank"
	p, err := lab.PageFromRawQuery(raw, false)
	require.NoError(t, err)
	assert.Equal(t, "snapshot-bank", p.Views[0].Scenario().ID)
	// the raw entry points open what PageFromQuery opens
	p, err = lab.PageFromRawQueryWithin("v=2&s=snapshot-bank&k=7&in=5c1", false, &engine.Budget{Work: 1 << 30})
	require.NoError(t, err)
	assert.Equal(t, "in=5c1&k=7&s=snapshot-bank&v=2", lab.EncodeQuery(p.Query()))
}

// A link of format 1 counted processes from 0: a number that is none of
// its scenario's processes is quoted as the link wrote it, with that
// format's bounds. The largest number used to overflow when brought to
// today's count (-9223372036854775808), and one past the last process was
// quoted one higher, against today's bounds.
func TestFirstVersionProcessNumbersAreQuotedAsWritten(t *testing.T) {
	const maxInt = "9223372036854775807"
	script := func(entry string) string {
		return lab.EncodeQuery(lab.RawScenarioQuery([]byte(`{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 30}, "script": [` + entry + `]}`)))
	}
	v1 := func(raw string) string { return strings.Replace(raw, "v=2", "v=1", 1) }
	for raw, want := range map[string]string{
		v1(script(`{"at": 5, "fault": "crash", "node": ` + maxInt + `}`)):       `link parameter "sc": scenario: field "script[0].node": want a process name or a number from 0 to 2 (this link, of format 1, counts processes from 0), got 9223372036854775807`,
		v1(script(`{"at": 5, "fault": "crash", "node": 99999999999999999999}`)): `got 99999999999999999999`,
		v1(script(`{"at": 5, "fault": "crash", "node": 3}`)):                    `field "script[0].node": want a process name or a number from 0 to 2 (this link, of format 1, counts processes from 0), got 3`,
		v1(script(`{"at": 5, "fault": "crash", "node": -1}`)):                   `got -1`,
		v1(script(`{"at": 5, "command": "snapshot", "node": 0, "target": 7}`)):  `field "script[0].target": want a process name or a number from 0 to 2`,
		// in= of a link of format 1
		"v=1&s=snapshot-bank&in=5c" + maxInt:                   `link parameter "in": "5c9223372036854775807" is not an input: there is no process 9223372036854775807 (this link, of format 1, counts processes from 0: they are 0 to 2)`,
		"v=1&s=snapshot-bank&in=5c3":                           `there is no process 3 (this link, of format 1, counts processes from 0: they are 0 to 2)`,
		"v=1&s=snapshot-bank&in=5p1.5,9l0." + maxInt:           `there is no process 9223372036854775807 (this link`,
		"v=1&s=snapshot-bank&in=5g0~1_2~99999999999999999999":  `there is no process 99999999999999999999 (this link`,
		"v=1&s=snapshot-bank&in=5ksnapshot." + maxInt + ".0.0": `there is no process 9223372036854775807 (this link, of format 1, counts processes from 0: they are 0 to 2)`,
		"v=1&s=snapshot-bank&in=5ktransfer.0.3.5":              `there is no process 3 to target (this link, of format 1, counts processes from 0: they are 0 to 2)`,
		"v=1&s=snapshot-bank&in=5l0.0":                         `"5l0.0" is not an input: target: the target must be another process than 0`,
		"v=1&s=snapshot-bank&in=5g0~1_1~2":                     `"5g0~1_1~2" is not an input: groups: process 1 is in two groups`,
		"v=2&s=snapshot-bank&in=5c" + maxInt:                   `there is no process 9223372036854775807`,
	} {
		got := linkError(t, raw, false)
		assert.Contains(t, got, want, "%.120s", raw)
		assert.NotContains(t, got, "-9223372036854775808", raw)
	}
	// what a link of format 1 said right opens as it did
	for raw, want := range map[string]string{
		v1(script(`{"at": 5, "fault": "crash", "node": 2}`)):   `"node": 3,`,
		v1(script(`{"at": 5, "fault": "crash", "node": "C"}`)): `"node": "C",`,
	} {
		p, err := lab.PageFromRawQuery(raw, false)
		require.NoError(t, err, raw)
		assert.Contains(t, string(p.Views[0].Scenario().JSON()), want)
	}
	for _, raw := range []string{"v=1&s=snapshot-bank&in=5c2", "v=1&s=snapshot-bank&in=5l0.2", "v=1&s=snapshot-bank&in=5g0~1_2", "v=1&s=snapshot-bank&in=5ksnapshot.2.0.0", "v=1&s=snapshot-bank&in=5ksnapshot.0.5.0"} {
		_, err := lab.PageFromRawQuery(raw, false)
		require.NoError(t, err, raw)
	}
	p, err := lab.PageFromRawQuery("v=1&s=snapshot-bank&in=5c2", false)
	require.NoError(t, err)
	assert.Equal(t, "in=5c3&k=0&s=snapshot-bank&v=2", lab.EncodeQuery(p.Query()), "process 2 counted from 0 is process 3 today")
}

// An input's letter is a character: one that takes several bytes is quoted
// whole (the decoder read one byte, and quoted half of "é" as "Ã"); a byte
// that is no character is quoted as the byte it is.
func TestAnInputsLetterIsQuotedAsWritten(t *testing.T) {
	for raw, want := range map[string]string{
		"v=2&s=snapshot-bank&in=5é1":     `link parameter "in": "5é1" is not an input: unknown action "é" (known: d (deliver), k (command), c (crash)`,
		"v=2&s=snapshot-bank&in=5%C3%A9": `unknown action "é"`,
		"v=2&s=snapshot-bank&in=5%FF1":   `"5\xff1" is not an input: unknown action "\xff"`,
		"v=2&s=snapshot-bank&in=5😀":      `unknown action "😀"`,
	} {
		got := linkError(t, raw, false)
		assert.Contains(t, got, want, raw)
		assert.NotContains(t, got, "Ã", raw)
	}
	// a long bad value is cut at a character, and keeps its bytes
	got := linkError(t, "v=2&s=snapshot-bank&k="+strings.Repeat("%FF", 50), false)
	assert.Equal(t, `link parameter "k": want a step number, got "`+strings.Repeat(`\xff`, 40)+`…"`, got)
	got = linkError(t, "v=2&s=snapshot-bank&k="+strings.Repeat("é", 50), false)
	assert.Equal(t, `link parameter "k": want a step number, got "`+strings.Repeat("é", 40)+`…"`, got)
}

// What a link says that the page would drop without a word is refused,
// naming the parameter; /compare's default comparison reads the page's
// parameters as any page does.
func TestNothingALinkSaysIsDropped(t *testing.T) {
	for raw, want := range map[string]string{
		"v=2&s=snapshot-bank&embed=true":                               `link parameter "embed": want 1 (the page without its header and panels, for a slide) or 0, got "true"`,
		"v=2&s=snapshot-bank&span.shared=100":                          `link parameter "span.shared": the views' shared window is for a page of several views stepped together, and this page has one (its own is "span")`,
		"v=2&s=snapshot-bank&s.2=lease-crash&steps=apart&at.shared=10": `link parameter "at.shared": the views' shared window is for views stepped together, and this link steps them apart (steps=apart): give each view's own ("at", "at.2"…)`,
		"v=2&s=snapshot-bank&K=3":                                      `link parameter "K": the link's parameters are in lower case: want "k"`,
		"v=2&s=snapshot-bank&Embed=1":                                  `link parameter "Embed": the link's parameters are in lower case: want "embed"`,
		"v=2&s=snapshot-bank&S.2=lease-crash":                          `link parameter "S.2": the link's parameters are in lower case: want "s.2"`,
		"v=2&s=snapshot-bank&sc.2=x&s.2=lease-crash&k=1":               `link parameter "s.2": a view names its scenario once, by "s.2" (a lesson) or by "sc.2" (a packed scenario), and this link gives both`,
	} {
		assert.Equal(t, want, linkError(t, raw, false), raw)
	}
	assert.Equal(t, `link parameter "steps": want together or apart, got "sideways"`, linkError(t, "v=2&steps=sideways", true))
	// embed=0 and 1 open; so do other parameters that are not the link's
	for _, raw := range []string{"v=2&s=snapshot-bank&embed=0", "v=2&s=snapshot-bank&embed=1", "v=2&s=snapshot-bank&utm_source=Slides&fbclid=x"} {
		_, err := lab.PageFromRawQuery(raw, false)
		require.NoError(t, err, raw)
	}
	// /compare's default comparison used to drop steps= and the shared
	// window
	p, err := lab.PageFromRawQuery("v=2&steps=apart", true)
	require.NoError(t, err)
	assert.False(t, p.Together)
	p, err = lab.PageFromRawQuery("v=2&span.shared=100&at.shared=20", true)
	require.NoError(t, err)
	assert.Equal(t, lab.View{Span: 100, Pinned: true, Start: 20}, p.Window)
	again, err := lab.PageFromQuery(p.Query(), true)
	require.NoError(t, err)
	assert.Equal(t, p.Window, again.Window, "the page's own link keeps its window")
}

// A slide deck's "load" message reads its link as the address bar's is.
func TestASlidesLinkIsReadAsALink(t *testing.T) {
	_, _, err := lab.DecodeSlideMessage([]byte(`{"spacetime": 1, "do": "load", "link": "https://x.org/?s=snapshot-bank;k=3"}`))
	require.Error(t, err)
	assert.Equal(t, `field "link": want a link or its query ("?s=snapshot-bank&k=40"): link parameter "s": the link has a ";" in "s=snapshot-bank;k=3", where parameters are separated by "&"`, err.Error())
	cmd, _, err := lab.DecodeSlideMessage([]byte(`{"spacetime": 1, "do": "load", "link": "?s=snapshot-bank&k=3&utm_content=50%"}`))
	require.NoError(t, err)
	assert.Equal(t, url.Values{"s": {"snapshot-bank"}, "k": {"3"}}, cmd.Link)
}
