package main

import (
	"errors"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"spacetime/app/lab"
	"spacetime/app/ui"
	"spacetime/core/engine"
)

// Prerender bounds: a link may ask for a million steps of 64 processes
// (seconds and a gigabyte of work). The server opens a page's link within
// prerenderWork process-steps (about 0.1 s and 50 MB here; snapshot-long,
// the largest lesson, takes 300,000), at most prerenderSlots at once, and
// gives up when the client leaves. A link past the budget, or one that
// finds every slot busy for prerenderWait, gets the page without its
// pictures: the client opens the link itself.
const (
	prerenderWork = 2_000_000
	prerenderWait = time.Second
)

// prerenderSlots is how many prerenders may run at once: one per core.
var prerenderSlots = max(runtime.GOMAXPROCS(0), 1)

// prerenderer opens page links for go-app's prerender, within the bounds.
type prerenderer struct {
	slots chan struct{}
	work  int64
	wait  time.Duration
	// worked counts the process-steps all prerenders took.
	worked atomic.Int64
}

func newPrerenderer(slots int, work int64, wait time.Duration) *prerenderer {
	return &prerenderer{slots: make(chan struct{}, slots), work: work, wait: wait}
}

// serve opens the page r links to within the bounds, hands it to the
// prerendering component under a token in the URL, and serves the page
// through next (go-app's handler).
func (p *prerenderer) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	q := r.URL.Query()
	q.Del(ui.PreparedParam) // only the server names prepared pages
	var prep ui.Prepared
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
		ctx := r.Context()
		budget := &engine.Budget{Work: p.work, Cancelled: func() bool { return ctx.Err() != nil }}
		page, err := lab.PageFromQueryWithin(q, r.URL.Path == "/compare", budget)
		p.worked.Add(budget.Used())
		if ctx.Err() != nil {
			return // the client has gone: nobody to send the page to
		}
		if !errors.Is(err, lab.ErrTooMuchWork) {
			prep = ui.Prepared{Page: page, Err: err}
		}
	case <-time.After(p.wait):
		// every slot is busy: the page goes without its pictures
	case <-r.Context().Done():
		return
	}
	token, forget := ui.Prepare(prep)
	defer forget()
	q.Set(ui.PreparedParam, token)
	r2 := r.Clone(r.Context())
	u := *r.URL
	u.RawQuery = q.Encode()
	r2.URL = &u
	next.ServeHTTP(w, r2)
}
