package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Once visited, the page works offline, deep links included: the service
// worker answers a link with its query from the cached page, and the client
// opens the view the link describes.
func TestDeepLinkOpensOffline(t *testing.T) {
	site(t)
	h, err := newHandler(filepath.Join("..", ".."))
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := newServer("", h)
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String()

	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url+"/?s=snapshot-bank&k=5")))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`))
	require.NoError(t, err)
	waitForCachedClient(t, ctx, "/web/app.wasm")

	srv.Close() // offline from here on
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url+"/?s=snapshot-bank&k=30")))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`, chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the page opens offline")
	pos, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#position")))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(pos, "step 30 /"), pos)
}

// waitForCachedClient waits until the page's service worker has cached the
// client at path (which it does a few seconds after the rest).
func waitForCachedClient(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	cached := false
	for deadline := time.Now().Add(30 * time.Second); !cached && time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		var err error
		cached, err = chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`caches.keys().then(async (keys) => {
			for (const k of keys) { if (await (await caches.open(k)).match(%q)) return true; }
			return false;
		})`, path), chromedp.EvalAwaitPromise))
		require.NoError(t, err)
	}
	require.True(t, cached, "the service worker caches the client (%s)", path)
}
