package main

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/ui"
)

// policySite is the handler as the server runs it: the policy around the
// site.
func policySite(t *testing.T) http.Handler {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	return newServer("", h).Handler
}

func do(h http.Handler, method, path string) *http.Response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader("")))
	return rec.Result()
}

// Every response, whatever serves it, carries the security headers; any
// page may frame the site.
func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	h := policySite(t)
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/", http.StatusOK},
		{"GET", "/compare", http.StatusOK},
		{"GET", "/?s=snapshot-bank&k=30", http.StatusOK},
		{"HEAD", "/", http.StatusOK},
		{"GET", "/web/app.wasm", http.StatusOK},
		{"GET", "/web/spacetime.js", http.StatusOK},
		{"GET", "/app.js", http.StatusOK},
		{"GET", "/wasm_exec.js", http.StatusOK},
		{"GET", "/app-worker.js", http.StatusOK},
		{"GET", "/manifest.webmanifest", http.StatusOK},
		{"GET", "/no-such-page", http.StatusNotFound},
		{"GET", "/web/", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
	} {
		res := do(h, tc.method, tc.path)
		name := tc.method + " " + tc.path
		assert.Equal(t, tc.status, res.StatusCode, name)
		csp := res.Header.Get("Content-Security-Policy")
		assert.Contains(t, csp, "frame-ancestors * file:", name)
		assert.Contains(t, csp, "'wasm-unsafe-eval'", name)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), name)
		// its own agent cluster, so that a deck on another origin of the
		// same site keeps drawing while a lesson loads in its frame
		assert.Equal(t, "?1", res.Header.Get("Origin-Agent-Cluster"), name)
		assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"), name)
		assert.Empty(t, res.Header.Values("X-Frame-Options"), "%s: the page is embedded in slides", name)
	}
}

// The page's inline scripts are allowed by their hashes and no other inline
// script is.
func TestPolicyAllowsTheInlineScriptsByHash(t *testing.T) {
	require.NotEmpty(t, ui.InlineScripts)
	csp := contentSecurityPolicy(ui.InlineScripts)
	var scriptSrc string
	for d := range strings.SplitSeq(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" {
			scriptSrc = d
		}
	}
	require.NotEmpty(t, scriptSrc, csp)
	assert.NotContains(t, scriptSrc, "'unsafe-inline'")
	assert.NotContains(t, scriptSrc, "'unsafe-eval'")
	for _, s := range ui.InlineScripts {
		sum := sha256.Sum256([]byte(s))
		assert.Contains(t, scriptSrc, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", s)
	}
	// the prerendered page carries exactly these scripts, inline
	body, _ := io.ReadAll(do(policySite(t), "GET", "/?s=snapshot-bank&k=30").Body)
	for _, s := range ui.InlineScripts {
		assert.Contains(t, string(body), "<script>"+s+"</script>")
	}
	assert.Equal(t, len(ui.InlineScripts), strings.Count(string(body), "<script>"), "every inline script is in ui.InlineScripts")
}

// Only GET and HEAD are served; the rest is refused with 405 and says what
// is allowed.
func TestOnlyGetAndHeadAreServed(t *testing.T) {
	h := policySite(t)
	for _, tc := range []struct {
		method string
		status int
	}{
		{"GET", http.StatusOK},
		{"HEAD", http.StatusOK},
		{"POST", http.StatusMethodNotAllowed},
		{"PUT", http.StatusMethodNotAllowed},
		{"DELETE", http.StatusMethodNotAllowed},
		{"PATCH", http.StatusMethodNotAllowed},
		{"OPTIONS", http.StatusMethodNotAllowed},
		{"TRACE", http.StatusMethodNotAllowed},
		{"PROPFIND", http.StatusMethodNotAllowed},
	} {
		for _, path := range []string{"/", "/web/app.wasm", "/web/spacetime.js"} {
			res := do(h, tc.method, path)
			name := tc.method + " " + path
			body, _ := io.ReadAll(res.Body)
			assert.Equal(t, tc.status, res.StatusCode, name)
			if tc.status != http.StatusMethodNotAllowed {
				assert.Empty(t, res.Header.Get("Allow"), name)
				continue
			}
			assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"), name)
			assert.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain"), name)
			assert.Contains(t, string(body), "method not allowed", name)
			assert.Less(t, len(body), 200, "%s: a short answer, not the page", name)
		}
	}
}

// web/ and the directories in it are not listed.
func TestWebDirectoriesAreNotListed(t *testing.T) {
	h := policySite(t)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/web/", http.StatusNotFound},
		{"/web/sub/", http.StatusNotFound},
		{"/web/sub", http.StatusNotFound},
		{"/web/sub/icon.svg", http.StatusOK},
		{"/web/spacetime.css", http.StatusOK},
	} {
		res := do(h, "GET", tc.path)
		body, _ := io.ReadAll(res.Body)
		assert.Equal(t, tc.status, res.StatusCode, tc.path)
		assert.NotContains(t, string(body), "spacetime.js", "%s lists no files", tc.path)
		assert.NotContains(t, string(body), "<pre>", "%s lists no files", tc.path)
	}
}
