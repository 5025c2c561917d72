package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// pagesHost serves a static site below a path as GitHub Pages does: a
// directory is its index.html, and a name without an extension may be a
// page (/compare is compare.html). It knows nothing of Spacetime.
func pagesHost(prefix, dir string) http.Handler {
	return http.StripPrefix(prefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Join(dir, filepath.FromSlash(r.URL.Path))
		if info, err := os.Stat(name); err == nil && info.IsDir() {
			name = filepath.Join(name, "index.html")
		} else if err != nil {
			name += ".html"
		}
		if _, err := os.Stat(name); err != nil {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, name)
	}))
}

// make static writes a site that any static host serves from any path:
// every lesson's page comes with its picture and opens as its link does,
// the client steps it, compare links open, and once visited the site
// works offline, deep links included.
func TestStaticSiteFromASubPath(t *testing.T) {
	site(t)
	dist := t.TempDir()
	require.NoError(t, writeStatic(filepath.Join("..", ".."), dist))
	for _, l := range scenario.BuiltinList() {
		page, err := os.ReadFile(filepath.Join(dist, l.ID+".html"))
		require.NoError(t, err, "a page for %s", l.ID)
		assert.True(t, strings.Contains(string(page), `class="prerender"`), "%s comes with its picture", l.ID)
		assert.Regexp(t, `<option (value="`+l.ID+`" selected|selected value="`+l.ID+`")>`, string(page[:min(len(page), 20000)]), "%s is the lesson chosen", l.ID)
	}
	for _, name := range []string{"index.html", "compare.html", "app.js", "app-worker.js", "manifest.webmanifest", "wasm_exec.js", "web/app.wasm", "web/app.wasm.br", "web/app.wasm.gz", "web/spacetime.js", "web/deck.html"} {
		assert.FileExists(t, filepath.Join(dist, name))
	}
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	require.NoError(t, err)
	assert.NotContains(t, string(index), `="/`, "nothing is fetched from the host's root")
	assert.NotContains(t, string(index), "og:url", "no link preview without an address")
	for _, want := range []string{`<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src &#39;self&#39; &#39;wasm-unsafe-eval&#39; &#39;sha256-`, `<meta name="referrer" content="no-referrer">`} {
		assert.Contains(t, string(index[:2000]), want, "a static host may set no headers: the page carries its policy")
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: pagesHost("/spacetime", dist)}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/spacetime/"

	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 120*time.Second)
	defer cancelT()
	require.NoError(t, chromedp.Do(ctx)) // open the tab before listening
	violations := watch(t, ctx)
	p := watchConsole(t, ctx)
	opened := func(url string) {
		t.Helper()
		p.do(chromedp.Navigate(url))
		p.waitFrames(1)
	}
	js := func(expr string) string { t.Helper(); return eval[string](p, expr) }

	// a lesson's page opens that lesson, at the site's root with its link
	opened(base + "snapshot-nonfifo.html") // a lesson's page
	assert.Equal(t, "/spacetime/", js(`location.pathname`))
	assert.Contains(t, js(`location.search`), "s=snapshot-nonfifo")
	assert.Equal(t, "snapshot-nonfifo", js(`document.getElementById("scenario").value`))
	p.noConsoleErrors()
	before := p.position()
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitFor(`document.getElementById("position").textContent.trim() !== `+strconv.Quote(before), "→ steps the lesson")

	// a deep link, and a compare link, from the sub-path
	opened(base + "?s=snapshot-bank&k=12") // a deep link
	assert.True(t, strings.HasPrefix(p.position(), "step 12 /"), p.position())
	opened(base + "compare?s=central-crash&s.2=ricart-agrawala-crash") // a compare link
	assert.Equal(t, "/spacetime/compare", js(`location.pathname`))
	assert.Greater(t, eval[int](p, `document.querySelectorAll("canvas.diagram").length`), 1, "the comparison's runs side by side")

	p.noConsoleErrors()
	assert.Empty(t, violations.violations(t, ctx), "the page's own policy refuses nothing it does")

	// offline once the worker has cached the client
	waitForCachedClient(t, ctx, "/spacetime/web/app.wasm")
	srv.Close()
	opened(base + "?s=snapshot-bank&k=30") // a deep link offline
	assert.True(t, strings.HasPrefix(p.position(), "step 30 /"), p.position())
	opened(base + "token-ring-crash.html") // a lesson's page offline, never visited
	assert.Equal(t, "token-ring-crash", js(`document.getElementById("scenario").value`))
}
