package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
)

// programLink is a link whose scenario is a learner's program: the token
// ring's crash lesson, run by its port to Python.
func programLink(t *testing.T) string {
	t.Helper()
	s, err := scenario.Builtin("token-ring-crash")
	require.NoError(t, err)
	code, err := ports.AsCode(s, "python")
	require.NoError(t, err)
	return lab.EncodeQuery(lab.RawScenarioQuery(code.JSON()))
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}

// The Write view is the same page with a client of its own: its page
// loads its own loader, which loads write.wasm, and everything else the
// lesson page's, the service worker included; the lesson page never
// names write.wasm.
func TestTheWriteViewLoadsItsOwnClient(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	res := get(t, h, "/write", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	write := body(t, res)
	assert.Contains(t, write, `src="/write.js"`)
	assert.NotContains(t, write, `src="/app.js"`)
	assert.Contains(t, write, `<link rel="preload" href="/web/write.wasm"`)
	assert.NotContains(t, write, "app.wasm")
	assert.Contains(t, write, `src="/wasm_exec.js"`, "the Go runtime's support is shared")
	assert.Contains(t, write, `href="/manifest.webmanifest"`, "one app, one manifest")
	assert.Contains(t, write, `<div class="prerender"><svg`, "the default lesson, prerendered")
	assert.NotContains(t, write, `class="course-index"`, "an empty link is not the index here")

	lesson := body(t, get(t, h, "/", ""))
	assert.Contains(t, lesson, `src="/app.js"`)
	assert.NotContains(t, lesson, "write.js")
	assert.NotContains(t, lesson, "write.wasm")

	loader := body(t, get(t, h, "/write.js", ""))
	assert.Contains(t, loader, `fetchWithProgress("/web/write.wasm"`)
	assert.Contains(t, loader, `register(
        "/app-worker.js"`, "the site's one worker")
	assert.Contains(t, loader, `"GOAPP_ROOT_PREFIX":"/"`)
	appJS := body(t, get(t, h, "/app.js", ""))
	assert.Contains(t, appJS, `fetchWithProgress("/web/app.wasm"`)
	assert.NotContains(t, appJS, "write.wasm")

	for path, want := range map[string]string{"/web/write.wasm": "WRITE", "/web/app.wasm": "RAW", "/app.wasm": "RAW"} {
		res := get(t, h, path, "br")
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Equal(t, want, inflate(t, res.Header.Get("Content-Encoding"), []byte(body(t, res))), path)
	}
}

// The Write view prerenders a learner's program as the lesson page does a
// lesson; the lesson page sends such a link to the Write view.
func TestAProgramIsPrerenderedOnTheWriteView(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	link := programLink(t) + "&k=20"
	res := get(t, h, "/write?"+link, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	page := body(t, res)
	assert.Contains(t, page, `<div class="prerender"><svg`)
	assert.Contains(t, page, "(as code)")
	assert.Contains(t, page, "step 20 /")

	for _, path := range []string{"/", "/compare"} {
		res = get(t, h, path+"?"+link, "")
		assert.Equal(t, http.StatusFound, res.StatusCode, path)
		loc, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err)
		assert.Equal(t, "/write", loc.Path, path)
		assert.Equal(t, link, loc.RawQuery, "the same link")
	}
	assert.Equal(t, http.StatusOK, get(t, h, "/?s=token-ring-crash", "").StatusCode, "a lesson stays")
	assert.Equal(t, http.StatusOK, get(t, h, "/?sc=%%bad", "").StatusCode, "a bad link is the page's to refuse")
}

// The server runs only the programs Spacetime ships: a link whose program
// is any other (a learner's, or a hostile one that would hold the server
// in one instruction) gets its page without pictures, and the page runs
// the program in the visitor's tab.
func TestTheServerRunsOnlyShippedPrograms(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	s, err := scenario.Builtin("token-ring-crash")
	require.NoError(t, err)
	shipped, err := ports.AsCode(s, "python")
	require.NoError(t, err)
	edited := *shipped
	edited.Code = "t = (1,)\nfor i in range(60):\n    t = (t, t)\n\ndef init(p):\n    d = {t: 1}\n"
	for _, tc := range []struct {
		code       *scenario.Scenario
		prerenders bool
	}{{shipped, true}, {&edited, false}} {
		res := get(t, h, "/write?"+lab.EncodeQuery(lab.RawScenarioQuery(tc.code.JSON())), "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		page := body(t, res)
		assert.Equal(t, tc.prerenders, strings.Contains(page, `<div class="prerender"><svg`))
		assert.NotContains(t, page, "not opened", "the page says nothing wrong: the client opens it")
	}
}

// One service worker, the lesson page's, serves both pages: offline it
// never answers the Write view with the lesson page's client, and it keeps
// the Write view's page, loader and client as they are first used.
func TestTheWorkerKeepsTheWriteViewApart(t *testing.T) {
	sw := serviceWorker()
	assert.Contains(t, sw, `const keptOnUse = ["write", "write.html", "write.js", "web/write.wasm"];`)
	assert.Contains(t, sw, `(!kept && await caches.match(self.registration.scope))`)
	assert.Contains(t, sw, `keep(request, response.clone())`)
}

// The lesson page's client leaves the interpreter of learners' programs
// out (it would add 300 KB of brotli), and the Write view's has it.
func TestTheLessonClientLeavesOutTheInterpreter(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	deps := func(pkg string) string {
		cmd := exec.Command(gobin, "list", "-deps", pkg)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		require.NoError(t, err, "go list -deps %s", pkg)
		return string(out)
	}
	assert.NotContains(t, deps("./wasm"), "go.starlark.net", "app.wasm links no Starlark")
	assert.NotContains(t, deps("./wasm"), "spacetime/core/algo/python\n")
	assert.Contains(t, deps("./wasm/write"), "go.starlark.net", "write.wasm does")
	// the client as last built, if it was: its function names name
	// their packages
	if wasm, err := os.ReadFile(filepath.Join("..", "..", "web", "app.wasm")); err == nil {
		assert.False(t, strings.Contains(string(wasm), "go.starlark.net/"), "web/app.wasm links Starlark: rebuild it (make build)")
	}
}

// The static site has the Write view: its page, its loader (relative to
// the page, with the site's root found in the browser) and its client.
func TestTheStaticSiteHasTheWriteView(t *testing.T) {
	dist := t.TempDir()
	require.NoError(t, writeStatic(fakeWeb(t), dist))
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dist, name))
		require.NoError(t, err, name)
		return string(b)
	}
	page := read("write.html")
	assert.Contains(t, page, `src="./write.js"`)
	assert.Contains(t, page, `href="./web/write.wasm"`)
	assert.Contains(t, page, `<div class="prerender"><svg`)
	assert.Contains(t, page, `http-equiv="Content-Security-Policy"`)
	loader := read("write.js")
	assert.Contains(t, loader, `fetchWithProgress("./web/write.wasm"`)
	assert.Contains(t, loader, `file === "write.html"`, "the site's root, found in the browser")
	assert.Contains(t, loader, `"./app-worker.js"`)
	assert.NotContains(t, read("index.html"), "write.js")
	assert.NotContains(t, read("index.html"), "write.wasm")
	assert.Equal(t, "WRITE", read("web/write.wasm"))
	assert.FileExists(t, filepath.Join(dist, "web", "write.wasm.br"))
}

// The site's version, which renews the browsers' caches, follows both
// clients.
func TestVersionFollowsTheWriteClient(t *testing.T) {
	dir := fakeWeb(t)
	a, err := newHandler(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "web", "write.wasm"), []byte("NEWER"), 0o644))
	b, err := newHandler(dir)
	require.NoError(t, err)
	assert.NotEqual(t, a.version, b.version)
}

// In Chromium: a lesson page's link to a learner's program lands on the
// Write view, whose client (write.wasm, not app.wasm) runs the program
// and draws it at the link's step.
func TestTheWriteViewRunsAProgramInTheBrowser(t *testing.T) {
	site(t)
	p := watchConsole(t, reusedTab(t))
	p.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(siteURL+"/?"+programLink(t)+"&k=20"))
	p.waitFrames(1)
	p.waitStill()
	assert.Equal(t, "/write", eval[string](p, "location.pathname"))
	loaded := eval[[]string](p, `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)`)
	assert.Contains(t, loaded, "/web/write.wasm")
	assert.Contains(t, loaded, "/write.js")
	assert.NotContains(t, loaded, "/web/app.wasm")
	assert.Contains(t, p.position(), "step 20")
	assert.Contains(t, p.text("title"), "(as code)")
	p.screenshot("write-view")
	p.noConsoleErrors()
}
