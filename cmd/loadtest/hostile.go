package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"spacetime/internal/hostile"
)

// hostileKind is one kind of hostile request, sent again and again, one at
// a time, through the hostile phase.
type hostileKind struct {
	name   string
	method string
	path   string
	body   string
}

// hostileRequests are the hostile kinds: every hostile link (internal/
// hostile), absurd zooms and inputs among them, and a POST.
func hostileRequests() ([]hostileKind, error) {
	links, err := hostile.Links()
	if err != nil {
		return nil, err
	}
	var kinds []hostileKind
	for _, l := range links {
		kinds = append(kinds, hostileKind{name: l.Name, method: "GET", path: l.Path})
	}
	return append(kinds, hostileKind{name: "POST /", method: "POST", path: "/", body: "x=1"}), nil
}

// hostileResult is what one hostile kind's requests got.
type hostileResult struct {
	kind      string
	sent      int
	statuses  map[string]int // "200", "405", "timeout", "error"
	latencies []time.Duration
}

// slowResult is what the slow-header connections saw.
type slowResult struct {
	opened    int
	refused   int
	cut       int             // closed by the server
	held      []time.Duration // how long each cut one was held open
	openAtEnd int
	hold      time.Duration
}

// hostileLoad is the hostile phase's goroutines.
type hostileLoad struct {
	done      chan struct{}
	wg        sync.WaitGroup
	results   []*hostileResult
	slowWG    sync.WaitGroup
	slowMu    sync.Mutex
	slow      slowResult
	slowConns []net.Conn
}

// startHostile starts one goroutine per hostile kind and the slow-header
// connections.
func startHostile(ctx context.Context, cfg config, base string, kinds []hostileKind) *hostileLoad {
	h := &hostileLoad{done: make(chan struct{})}
	client := newClient(cfg.timeout, len(kinds))
	for _, k := range kinds {
		r := &hostileResult{kind: k.name, statuses: map[string]int{}}
		h.results = append(h.results, r)
		h.wg.Go(func() { h.send(ctx, client, base, k, r, cfg.hostileMax) })
	}
	addr := strings.TrimPrefix(base, "http://")
	for range cfg.slowloris {
		h.slowWG.Go(func() { h.slowHeaders(addr, cfg.slowEvery) })
	}
	return h
}

// send sends one kind's requests one after the other until the phase
// ends or max are sent.
func (h *hostileLoad) send(ctx context.Context, client *http.Client, base string, k hostileKind, r *hostileResult, max int) {
	for r.sent < max {
		select {
		case <-h.done:
			return
		default:
		}
		req, err := http.NewRequestWithContext(ctx, k.method, base+k.path, strings.NewReader(k.body))
		if err != nil {
			r.statuses["error"]++
			return
		}
		if k.body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		start := time.Now()
		res, err := client.Do(req)
		status := ""
		if err == nil {
			_, err = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			status = strconv.Itoa(res.StatusCode)
		}
		r.sent++
		r.latencies = append(r.latencies, time.Since(start))
		switch {
		case err != nil && isTimeout(err):
			r.statuses["timeout"]++
		case err != nil:
			r.statuses["error"]++
		default:
			r.statuses[status]++
		}
	}
}

// slowHeaders opens a connection and sends a request's headers a line at a
// time, every every, until the server closes it or the phase ends.
func (h *hostileLoad) slowHeaders(addr string, every time.Duration) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	h.slowMu.Lock()
	if err != nil {
		h.slow.refused++
		h.slowMu.Unlock()
		return
	}
	h.slow.opened++
	h.slowConns = append(h.slowConns, conn)
	h.slowMu.Unlock()
	start := time.Now()
	closed := make(chan struct{})
	go func() {
		// the server sends nothing to a request it never got whole: a read
		// ends when it closes the connection (or when stop closes it)
		io.Copy(io.Discard, conn)
		close(closed)
	}()
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n", addr)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-closed:
			h.slowMu.Lock()
			select {
			case <-h.done:
				// closed by stop, not by the server
			default:
				h.slow.cut++
				h.slow.held = append(h.slow.held, time.Since(start))
			}
			h.slowMu.Unlock()
			return
		case <-tick.C:
			fmt.Fprintf(conn, "X-Slow-%d: 1\r\n", i)
		}
	}
}

// stop ends the hostile phase: it waits up to hold for the server to cut
// off the slow connections, closes those still open, and waits for the
// hostile requests in flight (each within its timeout).
func (h *hostileLoad) stop(hold time.Duration) ([]*hostileResult, slowResult) {
	cut := make(chan struct{})
	go func() { h.slowWG.Wait(); close(cut) }()
	select {
	case <-cut:
	case <-time.After(hold):
	}
	h.slowMu.Lock()
	close(h.done)
	h.slow.hold = hold
	h.slow.openAtEnd = h.slow.opened - h.slow.cut
	for _, c := range h.slowConns {
		c.Close()
	}
	h.slowMu.Unlock()
	h.slowWG.Wait()
	h.wg.Wait()
	return h.results, h.slow
}
