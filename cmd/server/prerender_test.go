package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/scenario"
	"spacetime/internal/hostile"
	"spacetime/internal/scenariotest"
)

// hugeLink is a short link that asks for a million steps of 64 processes.
func hugeLink(t *testing.T) string {
	t.Helper()
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 64, "workload": {"p": 0.5}, "until": {"steps": 1000000}}`))
	require.NoError(t, err)
	return "/?" + lab.EncodeQuery(lab.ScenarioQuery(s))
}

// fetchPage fetches a page from h and reads it.
func fetchPage(t *testing.T, h http.Handler, ctx context.Context, path string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

// The server prerenders a link within its bounds: a lesson's page comes
// with its picture, a link that asks for a million steps of 64 processes
// comes at once without it (the client draws it), as does a page that finds
// every prerender slot busy; a client that leaves stops the work, and a
// token in the link cannot name another request's page.
func TestPrerenderIsBounded(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	bg := context.Background()

	code, body := fetchPage(t, h, bg, "/?s=snapshot-bank&k=30")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `class="prerender"`, "a lesson comes with its picture")
	assert.NotContains(t, body, "prepared=", "the token stays inside the server")

	code, body = fetchPage(t, h, bg, "/?s=snapshot-long&k=100000")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `class="prerender"`, "the longest lesson comes with its picture")

	huge := hugeLink(t)
	require.Less(t, len(huge), 500, "the link is short")
	start := time.Now()
	code, body = fetchPage(t, h, bg, huge)
	took := time.Since(start)
	require.Equal(t, http.StatusOK, code)
	assert.NotContains(t, body, `class="prerender"`)
	assert.Contains(t, body, "Loading…", "the client opens the link itself")
	t.Logf("a link past the bounds answered in %s", took)

	code, body = fetchPage(t, h, bg, "/?s=nope")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "This link could not be opened", "a bad link still says what is wrong")

	t.Run("every slot busy", func(t *testing.T) {
		busy := newPrerenderer(1, defaultBounds, 10*time.Millisecond, h.version)
		busy.slots <- struct{}{}
		defer func() { <-busy.slots }()
		hb := &handler{Handler: h.Handler, web: h.web, version: h.version, prerender: busy}
		code, body := fetchPage(t, hb, bg, "/?s=snapshot-bank")
		require.Equal(t, http.StatusOK, code)
		assert.NotContains(t, body, `class="prerender"`, "before the lessons are measured, a lesson takes any link's slot")

		// once measured, a cheap lesson has slots of its own, which no
		// other link takes; the longest lesson is not cheap
		busy.measureLessons()
		_, body = fetchPage(t, hb, bg, "/?s=snapshot-bank")
		assert.Contains(t, body, `class="prerender"`)
		_, body = fetchPage(t, hb, bg, "/compare?s=central-crash&s.2=ricart-agrawala-crash&fifo.2=0")
		assert.Contains(t, body, `class="prerender"`)
		for _, path := range []string{"/?s=snapshot-long", "/?s=snapshot-bank&in=12d0", huge} {
			_, body = fetchPage(t, hb, bg, path)
			assert.NotContains(t, body, `class="prerender"`, path)
		}
	})
	t.Run("the client leaves", func(t *testing.T) {
		ctx, cancel := context.WithCancel(bg)
		cancel()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", huge, nil).WithContext(ctx))
		assert.Empty(t, rec.Body.String(), "nothing is sent to a client that has gone")
	})
	t.Run("a token from a link", func(t *testing.T) {
		q := url.Values{"s": {"snapshot-bank"}, "prepared": {strings.Repeat("0", 32)}}
		code, body := fetchPage(t, h, bg, "/?"+q.Encode())
		require.Equal(t, http.StatusOK, code)
		assert.Contains(t, body, `class="prerender"`, "the link's own token is dropped and the link opened")
	})
}

// A client that leaves frees its prerender slot within a step of the run,
// not after it.
func TestAClientThatLeavesFreesItsSlot(t *testing.T) {
	p := newPrerenderer(1, prerenderBounds{bytes: 1 << 40, work: 1 << 40, time: time.Minute, drawn: prerenderDrawn}, time.Second, "v")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		rec := httptest.NewRecorder()
		p.serve(rec, httptest.NewRequest("GET", hugeLink(t), nil).WithContext(ctx), http.NotFoundHandler())
	}()
	// the request holds its slot from before its run starts to after it ends
	require.Eventually(t, func() bool { return len(p.slots) == 1 }, 30*time.Second, time.Millisecond, "the request holds its slot")
	left := time.Now()
	cancel()
	<-done
	freed := time.Since(left)
	assert.Empty(t, p.slots, "the slot is free")
	// judged by the work done, not by the clock, which a busy machine
	// stretches: the whole run is a million steps of 64 processes (64 M
	// units); stopped at its next step, it has done a small part of that
	assert.Less(t, p.worked.Load(), int64(64_000_000/4), "the run stopped long before its end")
	t.Logf("the slot was free %s after the client left, after %d units of work", freed, p.worked.Load())
}

// A HEAD and a conditional GET whose page has not changed run nothing;
// each page has an ETag of its own, which another build changes.
func TestHeadAndConditionalRequestsRunNothing(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	huge := hugeLink(t)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("HEAD", huge, nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Zero(t, h.prerender.worked.Load(), "a HEAD runs nothing")
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)
	assert.Empty(t, rec.Header().Get("Content-Length"), "a HEAD does not say how long the page is: its GET may come with pictures")

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", huge, nil))
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, etag, rec.Header().Get("ETag"), "a HEAD and a GET of one page have one ETag")
	assert.Equal(t, strconv.Itoa(rec.Body.Len()), rec.Header().Get("Content-Length"))
	worked := h.prerender.worked.Load()
	assert.NotZero(t, worked)

	req := httptest.NewRequest("GET", huge, nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusNotModified, rec.Code)
	assert.Equal(t, worked, h.prerender.worked.Load(), "a page that has not changed runs nothing")

	tags := map[string]string{}
	for _, path := range []string{"/", "/?s=snapshot-bank", "/?s=snapshot-bank&k=3", "/compare", huge} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("HEAD", path, nil))
		tag := rec.Header().Get("ETag")
		for other, t2 := range tags {
			assert.NotEqual(t, t2, tag, "%s and %s", path, other)
		}
		tags[path] = tag
	}
	other := newPrerenderer(1, defaultBounds, time.Second, "another-build")
	assert.NotEqual(t, h.prerender.etag("/", ""), other.etag("/", ""), "another build, another ETag")
	assert.True(t, ifNoneMatch(`"x", `+strings.TrimPrefix(etag, "W/"), etag), "compared weakly, in a list")
	assert.False(t, ifNoneMatch(`W/"x"`, etag))
}

// The client's ETag names its encoding: a cache never takes one encoding
// for another.
func TestClientETagsNameTheEncoding(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	tags := map[string]bool{}
	for _, enc := range []string{"", "gzip", "br"} {
		req := httptest.NewRequest("GET", "/web/app.wasm", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, http.StatusOK, rec.Code)
		tag := rec.Header().Get("ETag")
		assert.False(t, tags[tag], "%s: %s", enc, tag)
		tags[tag] = true

		req.Header.Set("If-None-Match", tag)
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusNotModified, rec.Code, fmt.Sprintf("%q revalidates", enc))
	}
}

// A link whose pictures would cost too much to draw on the server comes
// without them, and the client opens it and draws it as it would any link.
func TestTheClientDrawsWhatTheServerDidNotPrerender(t *testing.T) {
	const path = "/?s=snapshot-long&k=50000&span=1000000&at=0"
	site(t)
	res, err := http.Get(siteURL + path)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.NotContains(t, string(body), `class="prerender"`, "sent without its pictures")

	p := open(t, path)
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	full, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	// the page computes the rest of the run after its first frame: on a
	// busy machine it may show a part of it first
	want := fmt.Sprintf("step 50000 / %d · time %d", full.Len(), full.At(50000).Now())
	p.waitFor(fmt.Sprintf(`document.getElementById("position").textContent.trim() === %q`, want), "the whole run computed")
	assert.Equal(t, want, p.position())
	assert.Equal(t, full.Trace().Records[49999].Caption, p.text("#caption"))
}

// A hostile link opens in the browser as far as the page computes within
// its bounds: the page says where the run stops and why, steps it as any
// run, and logs no error.
func TestAHostileLinkOpensAsFarAsThePageComputes(t *testing.T) {
	doc := hostile.Scenarios["messages pile up for a crashed process"]
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)
	q := lab.ScenarioQuery(s)
	q.Set("k", "1000000")
	start := time.Now()
	p := open(t, "/?"+lab.EncodeQuery(q))
	t.Logf("the page drew it %s after it was asked", time.Since(start).Round(time.Millisecond))
	p.do(chromedp.EmulateViewport(1280, 720))
	notice := p.text(".notice.stopped")
	assert.Contains(t, notice, "stops at step")
	assert.Contains(t, notice, "spacetime run")
	pos := p.position()
	require.Regexp(t, `^step (\d+) / (\d+) · time`, pos)
	var k, n int
	fmt.Sscanf(pos, "step %d / %d", &k, &n)
	assert.Equal(t, n, k, "the link's step, past the cut, is the last one")
	assert.Less(t, n, 1_000_000)
	before := time.Now()
	p.key(kb.ArrowLeft)
	t.Logf("a step back repainted in %s", time.Since(before).Round(time.Millisecond))
	assert.Equal(t, fmt.Sprintf("step %d / %d", n-1, n), strings.SplitN(p.position(), " ·", 2)[0])
	assert.Contains(t, p.text(".notice.stopped"), "stops at step", "the notice stays while the run is stepped")
	p.screenshot("hostile-link-1280x720")
	p.noConsoleErrors()
}

// A link whose query does not parse (a bad escape, a ";", more than
// 10,000 parameters) is neither dropped in part nor opened as the course
// index: the page says which parameter is wrong, over the default lesson.
func TestALinkThatDoesNotParseSaysWhy(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	for path, want := range map[string]string{
		"/?s=snapshot-long&k=%zz":                                   `link parameter "k": "%zz" is not a valid escape`,
		"/?s=snapshot-long;k=3":                                     `link parameter "s": the link has a ";" in "s=snapshot-long;k=3"`,
		"/?" + strings.Repeat("utm=1&", 10_000) + "s=snapshot-long": "the link has more than 10,000 parameters",
	} {
		for _, method := range []string{"GET", "HEAD"} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
			assert.Equal(t, http.StatusOK, rec.Code, clip(path))
			if method == "HEAD" {
				assert.Empty(t, rec.Body.String())
				continue
			}
			page := html.UnescapeString(rec.Body.String())
			assert.Contains(t, page, "This link could not be opened: "+want, clip(path))
			assert.NotContains(t, page, "the course, claim by claim", "%s: not the index", clip(path))
		}
	}
	assert.Zero(t, h.prerender.worked.Load(), "nothing of the links was run")
}
