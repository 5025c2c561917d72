package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"spacetime/internal/hostile"
)

// boundedResult is what one hostile link got, sent alone.
type boundedResult struct {
	name     string
	status   string
	latency  time.Duration
	bytes    int
	pictures bool
	// refused says the link is one the server must refuse, and said says
	// the page said why.
	refused, said bool
	rss           int64 // the server's memory just after
}

// burstResult is what fifty hostile links sent at once got.
type burstResult struct {
	sent, ok int
	slowest  time.Duration
	peakRSS  int64 // sampled every 10 ms while they were answered
}

// leaveResult is what a lesson got right after two heavy links' clients
// left while their pages were being prerendered.
type leaveResult struct {
	latency  time.Duration
	pictures bool
	err      error
}

// boundedPhase sends each hostile link alone, then fifty at once, then
// checks that clients that leave free their slots: a lesson asked for 50
// ms after two such clients left gets its pictures at once.
func boundedPhase(ctx context.Context, cfg config, base string, srv *serverProcess) ([]boundedResult, burstResult, leaveResult, error) {
	links, err := hostile.Links()
	if err != nil {
		return nil, burstResult{}, leaveResult{}, err
	}
	client := newClient(cfg.timeout, 64)
	var alone []boundedResult
	for _, l := range links {
		res := getPage(ctx, client, base+l.Path)
		res.name, res.refused = l.Name, l.Refused
		if srv != nil {
			res.rss = srv.rss()
		}
		alone = append(alone, res)
	}

	var burst burstResult
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := make(chan struct{})
	if srv != nil {
		go func() {
			for {
				rss := srv.rss()
				mu.Lock()
				burst.peakRSS = max(burst.peakRSS, rss)
				mu.Unlock()
				select {
				case <-done:
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}()
	}
	for i := range 50 {
		wg.Go(func() {
			res := getPage(ctx, client, base+links[i%len(links)].Path)
			mu.Lock()
			defer mu.Unlock()
			burst.sent++
			if res.status == "200" {
				burst.ok++
			}
			burst.slowest = max(burst.slowest, res.latency)
		})
	}
	wg.Wait()
	close(done)

	return alone, burst, leave(ctx, client, base, links), nil
}

// leave sends the two slowest links to prerender, with clients that give
// up after 100 ms, then asks for a lesson 50 ms later.
func leave(ctx context.Context, client *http.Client, base string, links []hostile.Link) leaveResult {
	var wg sync.WaitGroup
	for _, l := range links[:2] {
		wg.Go(func() {
			c, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(c, "GET", base+l.Path, nil)
			if res, err := client.Do(req); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		})
	}
	wg.Wait()
	time.Sleep(50 * time.Millisecond)
	res := getPage(ctx, client, base+"/?s=snapshot-bank&k=30")
	out := leaveResult{latency: res.latency, pictures: res.pictures}
	if res.status != "200" {
		out.err = fmt.Errorf("status %s", res.status)
	}
	return out
}

// getPage fetches a page and reads what came.
func getPage(ctx context.Context, client *http.Client, url string) boundedResult {
	var res boundedResult
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		res.status = "error"
		return res
	}
	start := time.Now()
	r, err := client.Do(req)
	if err != nil {
		res.status, res.latency = "error", time.Since(start)
		if isTimeout(err) {
			res.status = "timeout"
		}
		return res
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	res.latency = time.Since(start)
	res.status = http.StatusText(r.StatusCode)
	if r.StatusCode == http.StatusOK {
		res.status = "200"
	}
	res.bytes = len(body)
	res.pictures = strings.Contains(string(body), `class="prerender"`)
	res.said = strings.Contains(string(body), "This link could not be opened")
	return res
}
