package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"spacetime/app/lab"
	"spacetime/app/ui"
	"spacetime/core/algo/python"
	"spacetime/core/engine"
	"spacetime/core/scenario"
)

// Prerender bounds. A link may ask for a million steps of 64 processes, or
// a run whose every step sends a thousand messages: seconds and gigabytes.
// The server opens a page's link within prerenderBytes of memory (as the
// engine reckons it), prerenderWork units of work and prerenderTime (a
// page of built-in lessons only, lessonTime), draws
// its pictures only when they visit at most prerenderDrawn events and
// messages, runs at most prerenderSlots at once, and gives up within a
// step of the client leaving. A link past a bound, or one that finds
// every slot busy for prerenderWait, gets the page without its pictures:
// the client opens the link itself, within its own bounds.
const (
	prerenderBytes = 32 << 20
	prerenderWork  = 20_000_000
	prerenderTime  = 400 * time.Millisecond
	// lessonTime bounds a page of built-in lessons only, whose cost is
	// known (the longest takes 0.2 s here): on a busy machine it still
	// comes with its pictures.
	lessonTime     = 2 * time.Second
	prerenderWait  = 250 * time.Millisecond
	prerenderDrawn = 12_000
	// maxPageBytes bounds a page sent with its pictures; one larger (which
	// the bound on drawing should prevent) is sent without them.
	maxPageBytes = 4 << 20
	// lessonBytes is the most memory a page of built-in lessons may keep
	// (their runs, as measured when the server starts) to be opened in a
	// lesson slot rather than one of the slots any link may take.
	lessonBytes = 4 << 20
)

// lessonWaitFactor is how much longer than any link a page of cheap
// lessons waits for a slot before it goes without its pictures.
const lessonWaitFactor = 4

// lessonSlots is how many pages of cheap built-in lessons may be opened at
// once, besides prerenderSlots: hostile links that fill every slot any
// link may take leave the lessons, which cost a few milliseconds each,
// their own.
var lessonSlots = 2 * prerenderSlots

// prerenderSlots is how many prerenders may run at once: one per core.
var prerenderSlots = max(runtime.GOMAXPROCS(0), 1)

// prerenderer opens page links for go-app's prerender, within the bounds.
type prerenderer struct {
	// slots are for any link, lessons for the pages of cheap lessons.
	slots, lessons chan struct{}
	// lessonCost is the memory each built-in lesson's run keeps, once
	// measured (nil until then: every link takes a slot of any link).
	lessonCost atomic.Pointer[map[string]int64]
	// bounds is what one page may take.
	bounds prerenderBounds
	wait   time.Duration
	// version is the build's, for the pages' ETags.
	version string
	// worked counts the work all prerenders took, and stopped those that
	// a bound or a leaving client stopped.
	worked  atomic.Int64
	stopped atomic.Int64
}

// prerenderBounds is what one prerender may take.
type prerenderBounds struct {
	bytes, work int64
	// time bounds any link, lessonTime a page of built-in lessons only
	time, lessonTime time.Duration
	drawn            int
}

// defaultBounds are the server's.
var defaultBounds = prerenderBounds{bytes: prerenderBytes, work: prerenderWork, time: prerenderTime, lessonTime: lessonTime, drawn: prerenderDrawn}

func newPrerenderer(slots int, bounds prerenderBounds, wait time.Duration, version string) *prerenderer {
	return &prerenderer{slots: make(chan struct{}, slots), lessons: make(chan struct{}, lessonSlots), bounds: bounds, wait: wait, version: version}
}

// measureLessons gives the prerenderer what each built-in lesson costs.
func (p *prerenderer) measureLessons() { p.lessonCost.Store(lessonCosts()) }

// lessonCosts is the memory each built-in lesson's run keeps, measured by
// running each once, the first time it is asked for (the lessons are the
// build's: once a process).
var lessonCosts = sync.OnceValue(func() *map[string]int64 {
	costs := map[string]int64{}
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		if err != nil {
			continue
		}
		p, err := s.Compile()
		if err != nil {
			continue
		}
		b := &engine.Budget{}
		if _, err := p.RunWithin(b); err == nil {
			costs[id] = b.Kept()
		}
	}
	// the runs are garbage now: collected here, not while the first pages
	// are being served
	runtime.GC()
	return &costs
})

// slotsFor is the slots a link's page is opened in: the lessons' when it
// opens only built-in lessons that together keep little, else any link's.
func (p *prerenderer) slotsFor(q url.Values, compare bool) chan struct{} {
	costs := p.lessonCost.Load()
	ids, ok := lab.Lessons(q, compare)
	if costs == nil || !ok {
		return p.slots
	}
	total := int64(0)
	for _, id := range ids {
		c, known := (*costs)[id]
		if !known {
			return p.slots
		}
		total += c
	}
	if total > lessonBytes {
		return p.slots
	}
	return p.lessons
}

// serve answers a request for a page. A conditional request whose ETag
// still holds gets 304 and a HEAD the page's headers, both without running
// anything. Otherwise it opens the page r links to within the bounds,
// hands it to the prerendering component under a token in the URL,
// renders the page through next (go-app's handler) into memory, frees
// the slot, and only then sends the page: a slow reader holds no slot.
func (p *prerenderer) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	q, linkErr := lab.ParseLinkQuery(r.URL.RawQuery)
	query := r.URL.RawQuery
	if linkErr == nil {
		q.Del(ui.PreparedParam) // only the server names prepared pages
		query = q.Encode()
	}
	etag := p.etag(r.URL.Path, query)
	// a page is sent compressed when the browser takes it (send)
	w.Header().Add("Vary", "Accept-Encoding")
	if ifNoneMatch(r.Header.Get("If-None-Match"), etag) {
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	var page *bufferedPage
	switch {
	case linkErr != nil:
		// the page reads the same query and says what is wrong with it,
		// over the default lesson: nothing of the link is opened
		page = p.render(r, query, ui.Prepared{}, next)
		page.head = r.Method == http.MethodHead
	case r.Method == http.MethodHead:
		page = p.render(r, query, ui.Prepared{}, next)
		page.head = true
	default:
		var ok bool
		if page, ok = p.prerender(r, q, next); !ok {
			return // the client has gone: nobody to send the page to
		}
	}
	page.send(w, etag, pageEncodingFor(r.Header.Get("Accept-Encoding")))
}

// prerender opens and renders the page within a slot and the bounds; ok
// is false when the client left.
func (p *prerenderer) prerender(r *http.Request, q url.Values, next http.Handler) (page *bufferedPage, ok bool) {
	ctx := r.Context()
	slots := p.slotsFor(q, r.URL.Path == "/compare")
	wait := p.wait
	if slots == p.lessons {
		// a lesson costs milliseconds and no other link takes its slots:
		// on a busy machine its picture is worth a longer wait
		wait *= lessonWaitFactor
	}
	select {
	case slots <- struct{}{}:
	case <-time.After(wait):
		// every slot is busy: the page goes without its pictures
		return p.render(r, q.Encode(), ui.Prepared{}, next), true
	case <-ctx.Done():
		return nil, false
	}
	defer func() { <-slots }()
	prep, ok := p.open(ctx, q, r.URL.Path)
	if !ok {
		return nil, false
	}
	page = p.render(r, q.Encode(), prep, next)
	if prep.Page != nil && page.body.Len() > maxPageBytes {
		page = p.render(r, q.Encode(), ui.Prepared{}, next)
	}
	return page, true
}

// open opens the page a link names on the page at path (/, /compare or
// /write) within the bounds: what the page's component draws, or nothing
// (no pictures) when it would take too much; ok is false when the client
// left.
func (p *prerenderer) open(client context.Context, q url.Values, path string) (prep ui.Prepared, ok bool) {
	compare := path == "/compare"
	// the budget asks before every step; the flag it reads is set when the
	// client leaves or the time is up
	if path != ui.WritePath && lab.IsCourseIndex(q, compare) {
		return prep, true // the index is links: nothing to open
	}
	if path == ui.WritePath {
		q = lab.WriteDefault(q) // as the client opens it
	}
	limit := p.bounds.time
	if _, lessons := lab.Lessons(q, compare); lessons {
		limit = max(limit, p.bounds.lessonTime)
	}
	ctx, cancel := context.WithTimeout(client, limit)
	defer cancel()
	var stop atomic.Bool
	context.AfterFunc(ctx, func() { stop.Store(true) })
	budget := &engine.Budget{Work: p.bounds.work, Bytes: p.bounds.bytes, Cancelled: stop.Load}
	page, err := lab.PageFromQueryWithin(q, compare, budget)
	p.worked.Add(budget.Used())
	if budget.Exhausted() {
		p.stopped.Add(1)
	}
	switch {
	case client.Err() != nil:
		return prep, false
	case errors.Is(err, lab.ErrTooMuchWork), page != nil && page.DrawCost() > p.bounds.drawn:
		return prep, true // the page goes without its pictures
	case errors.Is(err, python.ErrNotShipped):
		return prep, true // a learner's program: the page runs it
	}
	return ui.Prepared{Page: page, Err: err}, true
}

// render runs go-app's handler for the page of a query (without a
// prepared token) with what was prepared for it, into memory.
func (p *prerenderer) render(r *http.Request, query string, prep ui.Prepared, next http.Handler) *bufferedPage {
	token, finish := ui.Prepare(prep)
	r2 := r.Clone(r.Context())
	u := *r.URL
	u.RawQuery = ui.PreparedParam + "=" + token
	if query != "" {
		u.RawQuery = query + "&" + u.RawQuery
	}
	r2.URL = &u
	r2.Header.Del("If-None-Match") // answered above, against the page's own ETag
	page := &bufferedPage{header: http.Header{}, status: http.StatusOK}
	next.ServeHTTP(page, r2)
	named := finish(page.body.Bytes())
	page.body.Reset()
	page.body.Write(named)
	page.dropEmptyOpenGraph()
	return page
}

// emptyOpenGraph matches the link-preview tags go-app writes with no
// address in them ("https://", or "https:///." in a static site's page), as it does when the server is not told
// its public address (-public-url): a preview is better without them.
var emptyOpenGraph = regexp.MustCompile(`<meta (?:content="https://(?:/\.)?" property="og:\w+"|property="og:\w+" content="https://(?:/\.)?")>\n?`)

// dropEmptyOpenGraph removes the page's empty link-preview tags.
func (b *bufferedPage) dropEmptyOpenGraph() {
	if out := emptyOpenGraph.ReplaceAll(b.body.Bytes(), nil); len(out) != b.body.Len() {
		b.body.Reset()
		b.body.Write(out)
	}
}

// etag is a page's entity tag: the build and the link, so that a page
// differs from every other page and from itself in another build. It is
// weak: the same link may come with its pictures or, under load, without.
func (p *prerenderer) etag(path, query string) string {
	sum := sha256.Sum256([]byte(p.version + "\x00" + path + "?" + query))
	return `W/"` + p.version + "-" + hex.EncodeToString(sum[:8]) + `"`
}

// ifNoneMatch reports whether an If-None-Match header names etag (or is
// "*"), compared weakly as RFC 9110 says for this header.
func ifNoneMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
			return true
		}
	}
	return false
}

// bufferedPage is a response rendered into memory, sent once the slot it
// was rendered in is free.
type bufferedPage struct {
	header http.Header
	status int
	body   bytes.Buffer
	// head says it answers a HEAD: its headers are GET's, but for the
	// length, which a GET with its pictures would not share, and it sends
	// no body.
	head bool
}

func (b *bufferedPage) Header() http.Header         { return b.header }
func (b *bufferedPage) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *bufferedPage) WriteHeader(status int)      { b.status = status }

// send writes the page, with its own ETag in place of the build's, in the
// encoding given (nil: as it is).
func (b *bufferedPage) send(w http.ResponseWriter, etag string, enc *pageEncoding) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	body := b.body.Bytes()
	if b.status == http.StatusOK {
		h.Set("ETag", etag)
		if enc != nil {
			h.Set("Content-Encoding", enc.name)
			if !b.head {
				body = enc.compress(body)
			}
		}
	} else {
		h.Del("ETag") // only a page has the page's tag
	}
	if b.head {
		h.Del("Content-Length")
		w.WriteHeader(b.status)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(b.status)
	w.Write(body)
}
