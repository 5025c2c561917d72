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

	"spacetime/internal/precompress"
)

// fakeWeb makes a web/ directory with the clients and their compressed
// copies: app.wasm is "RAW", write.wasm "WRITE".
func fakeWeb(t *testing.T) string {
	dir := t.TempDir()
	web := filepath.Join(dir, "web")
	require.NoError(t, os.MkdirAll(filepath.Join(web, "sub"), 0o755))
	for name, body := range map[string]string{
		"app.wasm": "RAW", "write.wasm": "WRITE", "spacetime.js": "js", "spacetime.css": "css", "sub/icon.svg": "<svg/>",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(web, name), []byte(body), 0o644))
	}
	for _, c := range clients {
		_, err := precompress.Write(filepath.Join(web, c.file))
		require.NoError(t, err)
	}
	return dir
}

// inflate decodes a response body sent with a Content-Encoding.
func inflate(t *testing.T, encoding string, body []byte) string {
	t.Helper()
	if encoding == "" {
		return string(body)
	}
	for _, e := range precompress.Encodings {
		if e.Name == encoding {
			raw, err := e.Decompress(body, 1<<30)
			require.NoError(t, err, encoding)
			return string(raw)
		}
	}
	t.Fatalf("unknown encoding %q", encoding)
	return ""
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
	dir := fakeWeb(t)
	h, err := newHandler(dir)
	require.NoError(t, err)
	for _, tc := range []struct{ accept, encoding, file string }{
		{"gzip, deflate, br", "br", "app.wasm.br"},
		{"gzip", "gzip", "app.wasm.gz"},
		{"", "", "app.wasm"},
	} {
		res := get(t, h, "/web/app.wasm", tc.accept)
		body, _ := io.ReadAll(res.Body)
		disk, err := os.ReadFile(filepath.Join(dir, "web", tc.file))
		require.NoError(t, err)
		assert.Equal(t, disk, body, tc.accept)
		assert.Equal(t, "RAW", inflate(t, tc.encoding, body), tc.accept)
		assert.Equal(t, tc.encoding, res.Header.Get("Content-Encoding"), tc.accept)
		assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"), tc.accept)
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), tc.accept)
		assert.Equal(t, "3", res.Header.Get("X-Uncompressed-Length"), "the loader's progress needs the raw size")
	}
}

// The compressed copies are checked by their content, not their times (a
// plain cp reorders those): a good copy that looks older than app.wasm is
// served, and a stale or missing one is rebuilt at start.
func TestCompressedCopiesAreCheckedByContent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, web string)
		accept  string
		rebuilt bool
	}{
		{"older brotli copy with the right content", func(t *testing.T, web string) {
			old := time.Now().Add(-time.Hour)
			require.NoError(t, os.Chtimes(filepath.Join(web, "app.wasm.br"), old, old))
		}, "br", false},
		{"brotli copy of another client", func(t *testing.T, web string) {
			stale, err := precompress.Encodings[0].Compress([]byte("OLD"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(web, "app.wasm.br"), stale, 0o644))
			later := time.Now().Add(time.Hour) // it even looks newer than app.wasm
			require.NoError(t, os.Chtimes(filepath.Join(web, "app.wasm.br"), later, later))
		}, "br", true},
		{"corrupt brotli copy", func(t *testing.T, web string) {
			require.NoError(t, os.WriteFile(filepath.Join(web, "app.wasm.br"), []byte("BROTLI"), 0o644))
		}, "br", true},
		{"missing gzip copy", func(t *testing.T, web string) {
			require.NoError(t, os.Remove(filepath.Join(web, "app.wasm.gz")))
		}, "gzip", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeWeb(t)
			web := filepath.Join(dir, "web")
			tc.prepare(t, web)
			copyName := filepath.Join(web, "app.wasm"+map[string]string{"br": ".br", "gzip": ".gz"}[tc.accept])
			before, _ := os.ReadFile(copyName)
			h, err := newHandler(dir)
			require.NoError(t, err)
			res := get(t, h, "/web/app.wasm", tc.accept)
			body, _ := io.ReadAll(res.Body)
			assert.Equal(t, tc.accept, res.Header.Get("Content-Encoding"), "sent compressed")
			assert.Equal(t, "RAW", inflate(t, tc.accept, body), "the bytes sent are app.wasm's")
			after, err := os.ReadFile(copyName)
			require.NoError(t, err)
			assert.Equal(t, after, body, "the copy on disk is the one sent")
			assert.Equal(t, tc.rebuilt, string(before) != string(after), "rebuilt on disk")
		})
	}
}

// What is sent is what was read at start: a client replaced on disk later is
// not mixed into the running version.
func TestClientIsServedAsReadAtStart(t *testing.T) {
	dir := fakeWeb(t)
	h, err := newHandler(dir)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("NEWER"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "web", "app.wasm.br"), []byte("junk"), 0o644))
	for _, accept := range []string{"", "br", "gzip"} {
		res := get(t, h, "/web/app.wasm", accept)
		body, _ := io.ReadAll(res.Body)
		assert.Equal(t, "RAW", inflate(t, accept, body), accept)
	}
}

// Ranges and conditional requests work on the body sent.
func TestClientRangesAndConditionals(t *testing.T) {
	dir := fakeWeb(t)
	h, err := newHandler(dir)
	require.NoError(t, err)
	br, err := os.ReadFile(filepath.Join(dir, "web", "app.wasm.br"))
	require.NoError(t, err)
	for _, tc := range []struct {
		name, accept string
		headers      map[string]string
		status       int
		body         string
	}{
		{"a range of the raw client", "", map[string]string{"Range": "bytes=1-2"}, http.StatusPartialContent, "AW"},
		{"a range of the brotli copy", "br", map[string]string{"Range": "bytes=0-1"}, http.StatusPartialContent, string(br[:2])},
		{"not modified since", "br", map[string]string{"If-Modified-Since": time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}, http.StatusNotModified, ""},
		{"modified since", "br", map[string]string{"If-Modified-Since": time.Unix(0, 0).UTC().Format(http.TimeFormat)}, http.StatusOK, string(br)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/web/app.wasm", nil)
			req.Header.Set("Accept-Encoding", tc.accept)
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.body, rec.Body.String())
		})
	}
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

// A page is named after its lesson, and carries no empty link-preview
// address unless the server is told its public one.
func TestPagesAreNamedAfterTheirLessons(t *testing.T) {
	h, err := newHandler(filepath.Join("..", ".."))
	require.NoError(t, err)
	get := func(path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(t, http.StatusOK, rec.Code)
		return rec.Body.String()
	}
	body := get("/?s=token-ring-crash")
	assert.Contains(t, body, "<title>Token ring: the holder crashes and the token is lost · Spacetime</title>")
	assert.Contains(t, body, `content="3 gets the token and enters the critical section`)
	assert.NotContains(t, body, `"https://"`, "no empty preview address")
	require.NoError(t, h.publicAt("https://spacetime.example.org"))
	assert.Contains(t, get("/?s=snapshot-bank"), `https://spacetime.example.org`)
	assert.Error(t, h.publicAt("http://x"), "https only")
	assert.Error(t, h.publicAt("https://x/sub"), "a host, no path")
}
