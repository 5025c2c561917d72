package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"spacetime/app/lab"
	"spacetime/internal/hostile"
)

// A link is data, never markup: whatever text a scenario, a log or a link
// carries reaches the server's page as text, in <title>, in attribute
// values (the description and link-preview tags, tooltips, labels) and in
// the page's body, in one run, a compare view and an embed.

var markupHandler = sync.OnceValues(func() (*handler, error) { return newHandler(filepath.Join("..", "..")) })

// pageOf is the server's page at path, parsed as a browser parses it.
func pageOf(t testing.TB, path string) (*html.Node, string) {
	h, err := markupHandler()
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	withPolicy(h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	require.Equal(t, http.StatusOK, rec.Code, path)
	body := rec.Body.String()
	doc, err := html.Parse(strings.NewReader(body))
	require.NoError(t, err)
	return doc, body
}

func TestHostileTextsStayText(t *testing.T) {
	opened := 0
	for _, text := range hostile.Texts {
		for field, doc := range hostile.TextScenarios(text) {
			for _, view := range hostile.TextViews {
				page, body := pageOf(t, hostile.TextLink(view, field, doc))
				what := field + " in a " + view + ": " + clip(text)
				assert.Empty(t, hostile.Smuggled(page), what)
				if strings.Contains(body, "could not be opened") {
					continue
				}
				opened++
				if view == "compare" {
					continue // named after both runs
				}
				title, descriptions := hostile.Head(page)
				if field == "title" {
					assert.True(t, strings.HasPrefix(title, start(text)), "%s: the tab's title reads %q", what, clip(title))
				}
				if field == "description" {
					for _, d := range descriptions {
						assert.True(t, strings.HasPrefix(d, start(text)), "%s: the description reads %q", what, clip(d))
					}
				}
			}
		}
	}
	assert.Greater(t, opened, 50, "most hostile texts open as lessons, not as errors")
}

// The issue's own link: a meta refresh in a packed scenario's title and
// description stays text in the page's head, in the attributes where
// go-app writes them.
func TestAMetaRefreshInATitleIsText(t *testing.T) {
	payload := `x"><meta http-equiv=refresh content=0;url=https://example.org/><x y="`
	docs := hostile.TextScenarios(payload)
	for _, field := range []string{"title", "description"} {
		page, body := pageOf(t, hostile.TextLink("run", field, docs[field]))
		assert.Empty(t, hostile.Smuggled(page), field)
		assert.NotContains(t, body, "could not be opened", field)
		title, descriptions := hostile.Head(page)
		if field == "title" {
			assert.Equal(t, payload+" · Spacetime", title)
		} else {
			assert.Equal(t, []string{payload, payload}, descriptions)
		}
	}
}

// start is the beginning of a text as the page shows it: its first 20
// characters.
func start(text string) string {
	if utf8.RuneCountInString(text) > 20 {
		return string([]rune(text)[:20])
	}
	return text
}

// clip shortens a text for a test's message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// In Chromium the link is text: a packed scenario whose title and
// description close their attributes and open a meta refresh and an <h1>
// leaves the page on the site, titled and captioned with those very
// words, with no element or attribute they asked for, as the server sent
// it (the client held back) and once the client runs; embedded too.
func TestAHostileLinkIsTextInTheBrowser(t *testing.T) {
	payload := `x"><meta http-equiv=refresh content=0;url=https://example.org/><x y="<h1>T</h1>`
	doc, err := json.Marshal(map[string]any{"title": payload, "description": payload, "algorithm": "token-ring", "n": 3, "seed": 1, "until": map[string]any{"steps": 12}})
	require.NoError(t, err)
	link := "/?" + lab.EncodeQuery(lab.RawScenarioQuery(doc)) + "&k=0"
	// the elements the texts ask for, and the page's own heading (none
	// in an embed)
	const smuggled = `document.querySelectorAll("meta[http-equiv], x").length + document.querySelectorAll("h1").length`
	for _, path := range []string{link, link + "&embed=1"} {
		p, release := coldTab(t, path)
		p.waitFor(`document.querySelector(".prerender svg") !== null`, "the server's picture is shown")
		assert.True(t, eval[bool](p, `location.href.startsWith(`+strconv.Quote(siteURL)+`)`), "%s: the page stays on the site", path)
		assert.Equal(t, payload+" · Spacetime", eval[string](p, "document.title"), path)
		assert.Equal(t, payload, eval[string](p, `document.querySelector('meta[name="description"]').content`), path)
		assert.Equal(t, payload, eval[string](p, `document.querySelector(".caption").textContent.trim()`), path)
		wantH1 := map[bool]int{true: 0, false: 1}[strings.HasSuffix(path, "embed=1")]
		assert.Equal(t, wantH1, eval[int](p, smuggled), "%s: nothing the texts asked for, as the server sent it", path)
		release()
		p.waitFrames(1)
		p.waitStill()
		assert.True(t, eval[bool](p, `location.href.startsWith(`+strconv.Quote(siteURL)+`)`), "%s: the page stays on the site", path)
		assert.Equal(t, payload+" · Spacetime", eval[string](p, "document.title"), path)
		assert.Contains(t, p.text(".caption"), payload, path)
		assert.Equal(t, wantH1, eval[int](p, smuggled), "%s: nothing the texts asked for, once the client runs", path)
		p.screenshot(map[int]string{1: "hostile-link", 0: "hostile-link-embed"}[wantH1])
	}
}
