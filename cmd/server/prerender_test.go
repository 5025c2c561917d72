package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/engine"
	"spacetime/core/scenario"
)

// hugeLink is a short link that asks for a million steps of 64 processes.
func hugeLink(t *testing.T) string {
	t.Helper()
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 64, "workload": {"p": 0.5}, "until": {"steps": 1000000}}`))
	require.NoError(t, err)
	sess, err := lab.OpenWithin(s, &engine.Budget{Work: 1})
	require.NoError(t, err)
	return "/?" + lab.EncodeQuery(sess.Query())
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

// The server prerenders a link within its budget: a lesson's page comes
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

	huge := hugeLink(t)
	require.Less(t, len(huge), 500, "the link is short")
	start := time.Now()
	code, body = fetchPage(t, h, bg, huge)
	took := time.Since(start)
	require.Equal(t, http.StatusOK, code)
	assert.NotContains(t, body, `class="prerender"`)
	assert.Contains(t, body, "Loading…", "the client opens the link itself")
	t.Logf("a link past the budget answered in %s", took)

	code, body = fetchPage(t, h, bg, "/?s=nope")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "This link could not be opened", "a bad link still says what is wrong")

	t.Run("every slot busy", func(t *testing.T) {
		busy := newPrerenderer(1, prerenderWork, 10*time.Millisecond)
		busy.slots <- struct{}{}
		defer func() { <-busy.slots }()
		hb := &handler{Handler: h.Handler, version: h.version, prerender: busy}
		code, body := fetchPage(t, hb, bg, "/?s=snapshot-bank")
		require.Equal(t, http.StatusOK, code)
		assert.NotContains(t, body, `class="prerender"`)
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

// A client that leaves stops a prerender's run while it works, not only
// before it starts.
func TestPrerenderStopsWhenTheClientLeaves(t *testing.T) {
	p := newPrerenderer(1, 1<<40, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		rec := httptest.NewRecorder()
		p.serve(rec, httptest.NewRequest("GET", hugeLink(t), nil).WithContext(ctx), http.NotFoundHandler())
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	<-done
	assert.Less(t, p.worked.Load(), int64(64_000_000)/2, "the run stopped long before its end")
	t.Logf("%d of the link's 64,000,000 process-steps were taken", p.worked.Load())
}

// A link past the prerender's budget comes without its pictures, and the
// client opens it and draws it as it would any link.
func TestTheClientDrawsWhatTheServerDidNotPrerender(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 32, "seed": 7, "workload": {"p": 0.5}, "until": {"steps": 70000}}`))
	require.NoError(t, err)
	require.Greater(t, int64(32*70000), int64(prerenderWork), "the link is past the budget")
	sess, err := lab.OpenWithin(s, &engine.Budget{Work: 1})
	require.NoError(t, err)
	q := sess.Query()
	q.Set("k", "500")
	path := "/?" + lab.EncodeQuery(q)

	site(t)
	res, err := http.Get(siteURL + path)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.NotContains(t, string(body), `class="prerender"`, "sent without its pictures")

	p := open(t, path)
	full, err := s.Run()
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("step 500 / %d · time %d", full.Len(), full.At(500).Now()), p.position())
	assert.Equal(t, full.Trace().Records[499].Caption, p.text("#caption"))
}
