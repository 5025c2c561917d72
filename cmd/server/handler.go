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
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/app/ui"
	"spacetime/internal/precompress"
)

// handler is the whole site: the lesson page (/, /compare) and the Write
// view (/write), each a page of go-app's with a client of its own.
type handler struct {
	// Handler is the lesson page's go-app handler, which also serves
	// what both pages share (styles, wasm_exec.js, the manifest, the
	// service worker).
	*app.Handler
	// write is the Write view's: its page and its loader (/write.js),
	// which loads write.wasm (writeResources).
	write   *app.Handler
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
		if h.sendElsewhere(w, r) {
			return
		}
		h.prerender.serve(w, r, h.Handler)
	case ui.WritePath:
		h.prerender.serve(w, r, h.write)
	case writeLoader:
		// go-app's loader as the Write view's handler makes it: it
		// loads write.wasm
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/app.js"
		h.write.ServeHTTP(w, r2)
	case "/web/app.wasm", "/web/write.wasm":
		// straight to the client's own handler, whose ETag names the
		// encoding sent (go-app gives every file the build's)
		h.web.ServeHTTP(w, r)
	case "/app.wasm", "/goapp.wasm":
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/web/app.wasm"
		h.web.ServeHTTP(w, r2)
	default:
		h.Handler.ServeHTTP(w, r)
	}
}

// sendElsewhere redirects a lesson page's link whose scenario another
// page's client runs (a learner's program: the Write view) to that page,
// with the same link; it reports whether it did. The lesson page's client
// does the same (app/ui, write.go), for a static site and for a link it
// is given in the page.
func (h *handler) sendElsewhere(w http.ResponseWriter, r *http.Request) bool {
	q, err := lab.ParseLinkQuery(r.URL.RawQuery)
	if err != nil {
		return false // the page says what is wrong with it
	}
	page := lab.ElsewherePage(q)
	if page == "" || page == r.URL.Path {
		return false
	}
	u := url.URL{Path: page, RawQuery: r.URL.RawQuery}
	http.Redirect(w, r, u.String(), http.StatusFound)
	return true
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
	h.Handler.Domain, h.write.Domain = u.Host, u.Host
	return nil
}

// versioned lists the files besides the clients (app.wasm, write.wasm) whose contents
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
	var raw [][]byte
	for _, c := range clients {
		raw = append(raw, web.clients[c.path].Raw)
	}
	version, err := webVersion(dir, raw...)
	if err != nil {
		return nil, err
	}
	web.version = version
	ui.Routes()
	p := newPrerenderer(prerenderSlots, defaultBounds, prerenderWait, version)
	// measured before the server answers anything, so that the first
	// pages do not share the machine with it (0.2 s here)
	p.measureLessons()
	return &handler{
		Handler: pageHandler(web, version), write: pageHandler(writeResources{web}, version),
		web: web, version: version, prerender: p,
	}, nil
}

// servedSite resolves go-app's resources and serves web/ (webDir, and the
// static site's staticResources).
type servedSite interface {
	app.ResourceResolver
	http.Handler
}

// pageHandler is go-app's handler for a page whose resources res resolves:
// its client is res.Resolve("/web/app.wasm"), which go-app writes into the
// loader (app.js) and the page preloads. Both pages have the same
// version, the site's, so that one service worker (the lesson page's,
// which knows the Write view: serviceWorker) keeps them both.
func pageHandler(res servedSite, version string) *app.Handler {
	return &app.Handler{
		Name:        "Spacetime",
		ShortName:   "Spacetime",
		Title:       "Spacetime: a laboratory for distributed snapshots and coordination",
		Description: "Step through Chandy–Lamport snapshots and other distributed algorithms on a space-time diagram; rewind, inject faults and see why they work.",
		Icon:        app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles:      []string{"/web/spacetime.css"},
		Scripts:     []string{"/web/spacetime.js"},
		Resources:   res,
		// start fetching the client while the page's scripts load, not after
		RawHeaders:              []string{`<link rel="preload" href="` + res.Resolve("/web/app.wasm") + `" as="fetch" type="application/wasm" crossorigin="anonymous">`},
		Version:                 version,
		ThemeColor:              "#1f2933",
		BackgroundColor:         "#ffffff",
		LoadingLabel:            "Loading Spacetime… {progress}%",
		WasmContentLengthHeader: "X-Uncompressed-Length",
		ServiceWorkerTemplate:   serviceWorker(),
	}
}

// clients are the page's clients, by the path each is served at: the
// lesson page's (wasm), and the Write view's (wasm/write), which also runs
// learners' programs and is sent on /write only, so that the lesson page's
// download does not grow by the interpreter.
var clients = []struct{ path, file string }{
	{"/web/app.wasm", "app.wasm"},
	{"/web/write.wasm", "write.wasm"},
}

// writeLoader is the Write view's go-app loader (its app.js).
const writeLoader = "/write.js"

// writeResources resolves the Write view's resources: its loader and its
// client are its own, everything else (styles, wasm_exec.js, the
// manifest, the service worker) the lesson page's, so that the two pages
// share one service worker, registered at the site's root.
type writeResources struct{ servedSite }

func (w writeResources) Resolve(loc string) string {
	switch loc {
	case "/app.js":
		loc = writeLoader
	case "/web/app.wasm":
		loc = "/web/write.wasm"
	}
	return w.servedSite.Resolve(loc)
}

// serviceWorker is go-app's worker with three changes. A deep link carries
// the whole view in its query string, and the server prerenders that view:
// so a page is fetched from the network first, and only offline taken from
// the cache, matched ignoring the query (the client then shows the right
// view). The Write view, whose client is not the lesson page's, shares the
// worker (its page registers the same one, at the site's root): it is
// kept, page, loader and client, when first used, and offline never
// answered with the lesson page. And the lesson page's client (app.wasm)
// is precached a few seconds after the rest, not while the first visit is
// downloading it too.
func serviceWorker() string {
	const fetchFromCache = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`
	const pagesFromNetwork = `// the pages with a client of their own (the Write view) and what they
// load, by their paths in the worker's scope: kept as they are first used
const keptOnUse = [{{.KeptOnUse}}];

// where a request is in the worker's scope ("" for its root), or null
function inScope(request) {
  const url = new URL(request.url), scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) {
    return null;
  }
  return url.pathname.slice(scope.pathname.length);
}

// keep puts a copy of a response into this version's cache, under its
// address without the query
async function keep(request, response) {
  if (request.method !== "GET" || response.status !== 200) {
    return;
  }
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  try {
    const cache = await caches.open(cacheName);
    await cache.put(url.toString(), response);
  } catch (err) {
    console.error("keeping", url.toString(), "failed:", err);
  }
}

async function fetchWithCache(request) {
  const kept = keptOnUse.includes(inScope(request));
  if (request.mode === "navigate") {
    try {
      const response = await fetch(request);
      if (kept) {
        keep(request, response.clone());
      }
      return response;
    } catch (err) {
      // any page of the site but those with a client of their own is the
      // same client, which opens what the address says: offline, a page
      // not cached is the root's
      const page = await caches.match(request, {ignoreSearch: true}) || (!kept && await caches.match(self.registration.scope));
      if (page) {
        return page;
      }
      throw err;
    }
  }
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  const response = await fetch(request);
  if (kept) {
    keep(request, response.clone());
  }
  return response;
}`
	const precacheAll = "await cache.addAll(resourcesToCache);"
	const precacheClientLater = `await cache.addAll(resourcesToCache.filter((u) => !u.endsWith(".wasm")));
  // the client is cached a few seconds later, so that on a first visit this
  // download does not compete with the page's own
  setTimeout(() => cache.addAll(resourcesToCache.filter((u) => u.endsWith(".wasm"))).catch(() => {}), 4000);`
	for _, part := range []string{fetchFromCache, precacheAll} {
		if !strings.Contains(app.DefaultAppWorkerJS, part) {
			panic("go-app's service worker changed: review serviceWorker")
		}
	}
	fetchPagesFromNetwork := strings.Replace(pagesFromNetwork, "{{.KeptOnUse}}", keptOnUse(), 1)
	sw := strings.Replace(app.DefaultAppWorkerJS, fetchFromCache, fetchPagesFromNetwork, 1)
	return strings.Replace(sw, precacheAll, precacheClientLater, 1)
}

// keptOnUse lists, as JavaScript strings, the paths (in the service
// worker's scope, without the leading slash) of the Write view's page, its
// static site's page file, its loader and its client.
func keptOnUse() string {
	page := strings.TrimPrefix(ui.WritePath, "/")
	paths := []string{page, page + ".html", strings.TrimPrefix(writeLoader, "/"), strings.TrimPrefix(clients[1].path, "/")}
	return `"` + strings.Join(paths, `", "`) + `"`
}

// webVersion hashes the clients' files: the clients as they are served
// (read once at start), then the others.
func webVersion(dir string, clients ...[]byte) (string, error) {
	sum := sha256.New()
	for _, wasm := range clients {
		sum.Write(wasm)
	}
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
// clients (clients: app.wasm, write.wasm) from memory as they were read
// and checked at start, precompressed (brotli or gzip) when the browser
// accepts it: what is sent always matches the version computed from them.
type webDir struct {
	fs http.Handler
	// clients are the clients by the path they are served at.
	clients map[string]*precompress.File
	// version is the build's, for the client's ETags.
	version string
}

// newWebDir serves root/web.
func newWebDir(root string) (webDir, error) {
	d := webDir{clients: map[string]*precompress.File{}}
	for _, c := range clients {
		wasm, err := loadClient(filepath.Join(root, "web", c.file))
		if err != nil {
			return webDir{}, err
		}
		d.clients[c.path] = wasm
	}
	// only web/ is served: the rest of the directory (sources, .git) is not
	files := http.FileServer(filesOnly{http.Dir(filepath.Join(root, "web"))})
	d.fs = http.StripPrefix("/web/", files)
	return d, nil
}

// loadClient reads a client and its compressed copies, rebuilding any copy
// that does not inflate to the client (a plain cp can leave an old copy
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
	if wasm, ok := d.clients[r.URL.Path]; ok {
		d.serveClient(w, r, wasm)
		return
	}
	d.fs.ServeHTTP(w, r)
}

// serveClient sends a client in the best encoding the browser accepts.
// Ranges and conditional requests work on whichever body is sent.
func (d webDir) serveClient(w http.ResponseWriter, r *http.Request, wasm *precompress.File) {
	w.Header().Add("Vary", "Accept-Encoding")
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("Cache-Control", "no-cache")
	// the loader's progress bar needs the raw size, which a compressed
	// response's Content-Length is not
	w.Header().Set("X-Uncompressed-Length", strconv.Itoa(len(wasm.Raw)))
	body, encoding := wasm.Raw, "identity"
	accept := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	for _, enc := range precompress.Encodings {
		if accept[enc.Name] {
			w.Header().Set("Content-Encoding", enc.Name)
			body, encoding = wasm.Copies[enc.Name], enc.Name
			break
		}
	}
	// each encoding is a representation of its own, with its own tag
	w.Header().Set("ETag", `"`+d.version+"-"+encoding+`"`)
	http.ServeContent(w, r, path.Base(r.URL.Path), wasm.ModTime, bytes.NewReader(body))
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
