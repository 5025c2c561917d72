package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/ui"
	"spacetime/internal/precompress"
)

// handler is the whole site.
type handler struct {
	*app.Handler
	web     webDir
	version string
	// prerender bounds the work of the pages sent with their pictures.
	prerender *prerenderer
}

// ServeHTTP serves the page's routes through the prerender's bounds, and
// everything else (the client, scripts, icons) as go-app does.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/", "/compare":
		h.prerender.serve(w, r, h.Handler)
	case "/web/app.wasm", "/app.wasm", "/goapp.wasm":
		// straight to the client's own handler, whose ETag names the
		// encoding sent (go-app gives every file the build's)
		h.web.serveClient(w, r)
	default:
		h.Handler.ServeHTTP(w, r)
	}
}

// publicAt tells the site the address students reach it at, for the
// link previews of its pages; "" leaves them without one.
func (h *handler) publicAt(public string) error {
	if public == "" {
		return nil
	}
	u, err := url.Parse(public)
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return fmt.Errorf("-public-url: want https://host (the site's public address), got %q", public)
	}
	h.Handler.Domain = u.Host
	return nil
}

// versioned lists the files besides the client (app.wasm) whose contents
// make up the version: a change to any of them renews the browsers' caches.
var versioned = []string{"spacetime.js", "spacetime.css"}

// newHandler makes the site for the directory dir that holds web/. It reads
// the client and checks its compressed copies once, here.
func newHandler(dir string) (*handler, error) {
	if err := checkWeb(dir); err != nil {
		return nil, err
	}
	web, err := newWebDir(dir)
	if err != nil {
		return nil, err
	}
	version, err := webVersion(dir, web.wasm.Raw)
	if err != nil {
		return nil, err
	}
	web.version = version
	ui.Routes()
	h := &app.Handler{
		Name:        "Spacetime",
		ShortName:   "Spacetime",
		Title:       "Spacetime: a laboratory for distributed snapshots and coordination",
		Description: "Step through Chandy–Lamport snapshots and other distributed algorithms on a space-time diagram; rewind, inject faults and see why they work.",
		Icon:        app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles:      []string{"/web/spacetime.css"},
		Scripts:     []string{"/web/spacetime.js"},
		Resources:   web,
		// start fetching the client while the page's scripts load, not after
		RawHeaders:              []string{`<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`},
		Version:                 version,
		ThemeColor:              "#1f2933",
		BackgroundColor:         "#ffffff",
		LoadingLabel:            "Loading Spacetime… {progress}%",
		WasmContentLengthHeader: "X-Uncompressed-Length",
		ServiceWorkerTemplate:   serviceWorker(),
	}
	p := newPrerenderer(prerenderSlots, defaultBounds, prerenderWait, version)
	// measured before the server answers anything, so that the first
	// pages do not share the machine with it (0.2 s here)
	p.measureLessons()
	return &handler{Handler: h, web: web, version: version, prerender: p}, nil
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
      // any page of the site is the same client, which opens what the
      // address says: offline, a page not cached is the root's
      const page = await caches.match(request, {ignoreSearch: true}) || await caches.match(self.registration.scope);
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

// webVersion hashes the client's files: app.wasm as it is served (read once
// at start), then the others.
func webVersion(dir string, wasm []byte) (string, error) {
	sum := sha256.New()
	sum.Write(wasm)
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

// webDir serves web/ and resolves go-app's resource paths. It sends the
// client, app.wasm, from memory as it was read and checked at start,
// precompressed (brotli or gzip) when the browser accepts it: what is sent
// always matches the version computed from it.
type webDir struct {
	fs   http.Handler
	wasm *precompress.File
	// version is the build's, for the client's ETags.
	version string
}

// newWebDir serves root/web.
func newWebDir(root string) (webDir, error) {
	wasm, err := loadClient(filepath.Join(root, "web", "app.wasm"))
	if err != nil {
		return webDir{}, err
	}
	// only web/ is served: the rest of the directory (sources, .git) is not
	files := http.FileServer(filesOnly{http.Dir(filepath.Join(root, "web"))})
	return webDir{fs: http.StripPrefix("/web/", files), wasm: wasm}, nil
}

// loadClient reads app.wasm and its compressed copies, rebuilding any copy
// that does not inflate to app.wasm (a plain cp can leave an old copy
// looking newer, or a fresh one looking older).
func loadClient(name string) (*precompress.File, error) {
	wasm, rebuilt, err := precompress.Load(name)
	if err != nil {
		return nil, fmt.Errorf("reading the client: %w", err)
	}
	for _, r := range rebuilt {
		if r.WriteErr != nil {
			log.Printf("rebuilt %s, which was %s, in memory only: writing it failed: %v", r.Path, r.Reason, r.WriteErr)
		} else {
			log.Printf("rebuilt %s, which was %s", r.Path, r.Reason)
		}
	}
	return wasm, nil
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
		d.serveClient(w, r)
		return
	}
	d.fs.ServeHTTP(w, r)
}

// serveClient sends app.wasm in the best encoding the browser accepts.
// Ranges and conditional requests work on whichever body is sent.
func (d webDir) serveClient(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Encoding")
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("Cache-Control", "no-cache")
	// the loader's progress bar needs the raw size, which a compressed
	// response's Content-Length is not
	w.Header().Set("X-Uncompressed-Length", strconv.Itoa(len(d.wasm.Raw)))
	body, encoding := d.wasm.Raw, "identity"
	accept := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	for _, enc := range precompress.Encodings {
		if accept[enc.Name] {
			w.Header().Set("Content-Encoding", enc.Name)
			body, encoding = d.wasm.Copies[enc.Name], enc.Name
			break
		}
	}
	// each encoding is a representation of its own, with its own tag
	w.Header().Set("ETag", `"`+d.version+"-"+encoding+`"`)
	http.ServeContent(w, r, "app.wasm", d.wasm.ModTime, bytes.NewReader(body))
}

// filesOnly is a file system without directories, so that web/ and the
// directories in it are never listed: opening one is "not found".
type filesOnly struct{ http.FileSystem }

func (f filesOnly) Open(name string) (http.File, error) {
	file, err := f.FileSystem.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := file.Stat()
	if err != nil || st.IsDir() {
		file.Close()
		return nil, fs.ErrNotExist
	}
	return file, nil
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
