package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the server says over a real connection, where net/http adds what
// a handler leaves out (a HEAD's length, an answer to OPTIONS *).

// rawClient asks without taking anything on the client's behalf: it does
// not ask for gzip or inflate what comes.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 20 * time.Second}

func ask(t *testing.T, method, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := rawClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, body
}

// A page is sent compressed as the browser asks, brotli first, and
// inflates to the page sent as it is; a HEAD answers with the GET's
// headers but for the length, which it does not know (its GET may come
// with pictures), and no body.
func TestPagesAreCompressedAndHeadSaysWhatGetSends(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	base := "http://" + testServer(t, h, 10*time.Second)
	const page = "/?s=snapshot-bank&k=20"
	res, plain := ask(t, "GET", base+page, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Empty(t, res.Header.Get("Content-Encoding"))
	assert.Contains(t, string(plain), "<svg")
	for accept, want := range map[string]string{"br, gzip": "br", "gzip, deflate": "gzip", "br;q=0, gzip": "gzip", "identity": ""} {
		get, body := ask(t, "GET", base+page, map[string]string{"Accept-Encoding": accept})
		require.Equal(t, http.StatusOK, get.StatusCode, accept)
		assert.Equal(t, want, get.Header.Get("Content-Encoding"), accept)
		assert.Equal(t, "Accept-Encoding", get.Header.Get("Vary"), accept)
		assert.Equal(t, strconv.Itoa(len(body)), get.Header.Get("Content-Length"), accept)
		// the same page, but for the order of its attributes, which go-app
		// writes from a map
		inflated := inflate(t, want, body)
		assert.Len(t, inflated, len(plain), accept)
		assert.Contains(t, inflated, "step 20 / 59", accept)
		if want != "" {
			assert.Less(t, len(body), len(plain)/4, "%s: compressed", accept)
		}

		head, nothing := ask(t, "HEAD", base+page, map[string]string{"Accept-Encoding": accept})
		require.Equal(t, http.StatusOK, head.StatusCode, accept)
		assert.Empty(t, nothing)
		assert.Equal(t, int64(-1), head.ContentLength, "%s: a HEAD does not say a length", accept)
		for _, name := range []string{"Content-Type", "Content-Encoding", "Vary", "ETag", "Cache-Control", "Content-Security-Policy"} {
			assert.Equal(t, get.Header.Values(name), head.Header.Values(name), "%s: HEAD's %s is GET's", accept, name)
		}
	}
}

// A Range of many small ranges is refused before anything is read or
// sent; one or two ranges are answered (where ranges are: go-app sends
// its scripts whole).
func TestManyRangesAreRefused(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	base := "http://" + testServer(t, h, 10*time.Second)
	many := make([]string, 75000)
	for i := range many {
		many[i] = strconv.Itoa(i%3) + "-" + strconv.Itoa(i%3)
	}
	for _, path := range []string{"/web/app.wasm", "/web/spacetime.js", "/app.js"} {
		res, body := ask(t, "GET", base+path, map[string]string{"Range": "bytes=" + strings.Join(many, ",")})
		assert.Equal(t, http.StatusRequestedRangeNotSatisfiable, res.StatusCode, path)
		assert.Contains(t, string(body), "at most 8 ranges, this one asks for 75000", path)

		if path == "/app.js" {
			continue
		}
		res, body = ask(t, "GET", base+path, map[string]string{"Range": "bytes=0-0,1-1"})
		assert.Equal(t, http.StatusPartialContent, res.StatusCode, path)
		assert.Less(t, len(body), 1000, path)
	}
}

// OPTIONS * is refused as every method but GET and HEAD is, saying which
// the site answers, instead of net/http's bare 200.
func TestOptionsStarIsNotAllowed(t *testing.T) {
	h, err := newHandler(fakeWeb(t))
	require.NoError(t, err)
	conn, err := net.Dial("tcp", testServer(t, h, 10*time.Second))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
	assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"))
}
