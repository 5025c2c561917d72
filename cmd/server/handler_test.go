package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWeb makes a web/ directory with a client and its compressed copies.
func fakeWeb(t *testing.T) string {
	dir := t.TempDir()
	web := filepath.Join(dir, "web")
	require.NoError(t, os.MkdirAll(web, 0o755))
	for name, body := range map[string]string{
		"app.wasm": "RAW", "app.wasm.br": "BROTLI", "app.wasm.gz": "GZIP",
		"spacetime.js": "js", "spacetime.css": "css",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(web, name), []byte(body), 0o644))
	}
	return dir
}

func get(t *testing.T, h http.Handler, path, encoding string) *http.Response {
	req := httptest.NewRequest("GET", path, nil)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestAppWasmIsServedPrecompressed(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	for _, tc := range []struct{ accept, encoding, body string }{
		{"gzip, deflate, br", "br", "BROTLI"},
		{"gzip", "gzip", "GZIP"},
		{"", "", "RAW"},
	} {
		res := get(t, h, "/web/app.wasm", tc.accept)
		body, _ := io.ReadAll(res.Body)
		assert.Equal(t, tc.body, string(body), tc.accept)
		assert.Equal(t, tc.encoding, res.Header.Get("Content-Encoding"), tc.accept)
		assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"), tc.accept)
		assert.Equal(t, "3", res.Header.Get("X-Uncompressed-Length"), "the loader's progress needs the raw size")
	}
}

func TestStaleCompressedCopyIsNotServed(t *testing.T) {
	dir := fakeWeb(t)
	raw := filepath.Join(dir, "web", "app.wasm")
	st, err := os.Stat(raw)
	require.NoError(t, err)
	later := st.ModTime().Add(time.Second)
	require.NoError(t, os.Chtimes(raw, later, later))
	h, err := newHandler(dir)
	require.NoError(t, err)
	body, _ := io.ReadAll(get(t, h, "/web/app.wasm", "br").Body)
	assert.Equal(t, "RAW", string(body), "a rebuilt app.wasm wins over an old .br")
}

func TestVersionFollowsTheClient(t *testing.T) {
	dir := fakeWeb(t)
	a, err := newHandler(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("NEW"), 0o644))
	b, err := newHandler(dir)
	require.NoError(t, err)
	assert.NotEqual(t, a.version, b.version)
}

func TestMissingClientSaysHowToBuildIt(t *testing.T) {
	_, err := newHandler(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "make build")
}

func TestPagesComeFromTheNetworkFirst(t *testing.T) {
	sw := serviceWorker()
	assert.Contains(t, sw, `request.mode === "navigate"`)
	assert.Contains(t, sw, `ignoreSearch: true`)
	assert.True(t, strings.Index(sw, "await fetch(request)") < strings.Index(sw, "caches.match(request, {ignoreSearch"))
}

// A link's view is prerendered, diagram included, so that it is on screen
// before the client loads.
func TestDeepLinkIsPrerendered(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	res := get(t, h, "/?v=1&s=snapshot-bank&k=30", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	body, _ := io.ReadAll(res.Body)
	page := string(body)
	assert.Contains(t, page, `<div class="prerender"><svg`)
	assert.Contains(t, page, "step 30 / 59")
	assert.Contains(t, page, "B receives $1 from C; balance $116")
	assert.NotContains(t, page, `checked="false"`)
}

// Only web/ is served: not the sources, not .git.
func TestOnlyTheWebDirectoryIsServed(t *testing.T) {
	dir := fakeWeb(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module secret"), 0o644))
	h, err := newHandler(dir)
	require.NoError(t, err)
	for _, path := range []string{"/web/../go.mod", "/web/%2e%2e/go.mod", "/web/..%2fgo.mod"} {
		req := httptest.NewRequest("GET", "http://x/", nil)
		req.URL.Path, req.URL.RawPath = "", ""
		req.RequestURI = path
		u, err := url.ParseRequestURI(path)
		require.NoError(t, err)
		req.URL = u
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.NotContains(t, rec.Body.String(), "module secret", path)
	}
	body, _ := io.ReadAll(get(t, h, "/web/spacetime.js", "").Body)
	assert.Equal(t, "js", string(body))
}

func TestAcceptEncodingQualities(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	res := get(t, h, "/web/app.wasm", "br;q=0, gzip")
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"), "q=0 refuses brotli")
}

func TestTheClientIsPrecachedLater(t *testing.T) {
	sw := serviceWorker()
	assert.NotContains(t, sw, "await cache.addAll(resourcesToCache);")
	assert.Contains(t, sw, `setTimeout(() => cache.addAll(resourcesToCache.filter((u) => u.endsWith(".wasm")))`)
}
