package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/ui"
)

// handler is the whole site.
type handler struct {
	*app.Handler
	version string
}

// versioned lists the files whose contents make up the version: a change to
// any of them renews the browsers' caches.
var versioned = []string{"app.wasm", "spacetime.js", "spacetime.css"}

func newHandler(dir string) (*handler, error) {
	if err := checkWeb(dir); err != nil {
		return nil, err
	}
	version, err := webVersion(dir)
	if err != nil {
		return nil, err
	}
	ui.Routes()
	h := &app.Handler{
		Name:        "Spacetime",
		ShortName:   "Spacetime",
		Title:       "Spacetime: a laboratory for distributed snapshots and coordination",
		Description: "Step through Chandy–Lamport snapshots and other distributed algorithms on a space-time diagram; rewind, inject faults and see why they work.",
		Icon:        app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles:      []string{"/web/spacetime.css"},
		Scripts:     []string{"/web/spacetime.js"},
		Resources:   newWebDir(dir),
		// start fetching the client while the page's scripts load, not after
		RawHeaders:              []string{`<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`},
		Version:                 version,
		ThemeColor:              "#1f2933",
		BackgroundColor:         "#ffffff",
		LoadingLabel:            "Loading Spacetime… {progress}%",
		WasmContentLengthHeader: "X-Uncompressed-Length",
		ServiceWorkerTemplate:   serviceWorker(),
	}
	return &handler{Handler: h, version: version}, nil
}

// serviceWorker is go-app's worker with two changes. A deep link carries
// the whole view in its query string, and the server prerenders that view:
// so a page is fetched from the network first, and only offline taken from
// the cache, matched ignoring the query (the client then shows the right
// view). And the client (app.wasm) is precached a few seconds after the
// rest, not while the first visit is downloading it too.
func serviceWorker() string {
	const cacheFirst = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);`
	const pagesFromNetwork = `async function fetchWithCache(request) {
  if (request.mode === "navigate") {
    try {
      return await fetch(request);
    } catch (err) {
      const page = await caches.match(request, {ignoreSearch: true});
      if (page) {
        return page;
      }
      throw err;
    }
  }
  const cachedResponse = await caches.match(request);`
	const precacheAll = "await cache.addAll(resourcesToCache);"
	const precacheClientLater = `await cache.addAll(resourcesToCache.filter((u) => !u.endsWith(".wasm")));
  // the client is cached a few seconds later, so that on a first visit this
  // download does not compete with the page's own
  setTimeout(() => cache.addAll(resourcesToCache.filter((u) => u.endsWith(".wasm"))).catch(() => {}), 4000);`
	for _, part := range []string{cacheFirst, precacheAll} {
		if !strings.Contains(app.DefaultAppWorkerJS, part) {
			panic("go-app's service worker changed: review serviceWorker")
		}
	}
	sw := strings.Replace(app.DefaultAppWorkerJS, cacheFirst, pagesFromNetwork, 1)
	return strings.Replace(sw, precacheAll, precacheClientLater, 1)
}

// webVersion hashes the client's files.
func webVersion(dir string) (string, error) {
	sum := sha256.New()
	for _, name := range versioned {
		f, err := os.Open(filepath.Join(dir, "web", name))
		if err != nil {
			return "", err
		}
		_, err = io.Copy(sum, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(sum.Sum(nil))[:16], nil
}

// webDir serves web/ and resolves go-app's resource paths; it sends
// app.wasm precompressed (brotli or gzip) when the browser accepts it.
type webDir struct {
	root string
	fs   http.Handler
}

func newWebDir(root string) webDir {
	// only web/ is served: the rest of the directory (sources, .git) is not
	return webDir{root: root, fs: http.StripPrefix("/web/", http.FileServer(http.Dir(filepath.Join(root, "web"))))}
}

// Resolve maps a resource location to its URL path.
func (d webDir) Resolve(loc string) string {
	switch {
	case loc == "" || loc == "/":
		return "/"
	case strings.HasPrefix(loc, "http://"), strings.HasPrefix(loc, "https://"):
		return loc
	case strings.HasPrefix(loc, "web/"):
		return "/" + loc
	}
	return loc
}

func (d webDir) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/web/") || strings.Contains(r.URL.Path, "..") {
		http.NotFound(w, r)
		return
	}
	if r.URL.Path == "/web/app.wasm" {
		w.Header().Add("Vary", "Accept-Encoding")
		raw, err := os.Stat(filepath.Join(d.root, "web", "app.wasm"))
		if err == nil {
			w.Header().Set("X-Uncompressed-Length", strconv.FormatInt(raw.Size(), 10))
		}
		accept := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		for _, enc := range []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !accept[enc.name] {
				continue
			}
			f, err := os.Open(filepath.Join(d.root, "web", "app.wasm"+enc.ext))
			if err != nil {
				continue
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil || raw == nil || st.ModTime().Before(raw.ModTime()) {
				continue // a compressed copy older than app.wasm is stale
			}
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Encoding", enc.name)
			http.ServeContent(w, r, "app.wasm", st.ModTime(), f)
			return
		}
	}
	d.fs.ServeHTTP(w, r)
}

// acceptedEncodings reads an Accept-Encoding header: the codings the client
// takes, leaving out those it refuses with q=0.
func acceptedEncodings(header string) map[string]bool {
	ok := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, found := strings.CutPrefix(strings.TrimSpace(params), "q="); found {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if name != "" && q > 0 {
			ok[strings.ToLower(name)] = true
		}
	}
	return ok
}
