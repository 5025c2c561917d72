package main

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the server says over a real connection, where net/http adds what
// a handler leaves out (a HEAD's length).

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
