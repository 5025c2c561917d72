package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// target is one kind of ordinary request and how to tell its answer is
// right.
type target struct {
	name     string
	path     string
	encoding string // Accept-Encoding sent
	check    func(res *http.Response, body []byte) error
}

// ordinaryTargets are what learners ask for: the page, the client and a
// link to a view.
var ordinaryTargets = []target{
	{name: "page / (the course's index)", path: "/", check: func(res *http.Response, body []byte) error {
		return contains(body, `<main class="claims">`)
	}},
	{name: "a lesson /?s=snapshot-bank", path: "/?s=snapshot-bank", check: func(res *http.Response, body []byte) error {
		return contains(body, `<div class="prerender">`)
	}},
	{name: "wasm /web/app.wasm (br)", path: "/web/app.wasm", encoding: "br", check: func(res *http.Response, body []byte) error {
		if enc := res.Header.Get("Content-Encoding"); enc != "br" {
			return fmt.Errorf("Content-Encoding %q, want br", enc)
		}
		if res.Header.Get("X-Uncompressed-Length") == "" {
			return errors.New("no X-Uncompressed-Length")
		}
		if res.ContentLength >= 0 && int64(len(body)) != res.ContentLength {
			return fmt.Errorf("%d bytes of %d", len(body), res.ContentLength)
		}
		return nil
	}},
	{name: "deep link /?s=snapshot-bank&k=30", path: "/?s=snapshot-bank&k=30", check: func(res *http.Response, body []byte) error {
		return contains(body, "step 30 / ")
	}},
}

func contains(body []byte, want string) error {
	if !strings.Contains(string(body), want) {
		return fmt.Errorf("the page lacks %q", want)
	}
	return nil
}

// targetResult is what one target's run measured.
type targetResult struct {
	target    string
	sent      int
	errors    int
	timeouts  int // among the errors
	elapsed   time.Duration
	latencies []time.Duration // of every request, failed ones included
	samples   []string        // the first few errors
}

// runTarget sends the target's requests, cfg.concurrency at a time, until
// cfg.requests are done or cfg.duration has passed (requests in flight
// then still finish, within their timeout).
func runTarget(ctx context.Context, cfg config, base string, t target) targetResult {
	client := newClient(cfg.timeout, cfg.concurrency)
	defer client.CloseIdleConnections()
	jobs := make(chan struct{})
	go func() {
		defer close(jobs)
		deadline := time.After(cfg.duration)
		for range cfg.requests {
			select {
			case jobs <- struct{}{}:
			case <-deadline:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	var mu sync.Mutex
	res := targetResult{target: t.name}
	start := time.Now()
	var wg sync.WaitGroup
	for range cfg.concurrency {
		wg.Go(func() {
			for range jobs {
				took, err := fetch(ctx, client, base, t)
				mu.Lock()
				res.sent++
				res.latencies = append(res.latencies, took)
				if err != nil {
					res.errors++
					if isTimeout(err) {
						res.timeouts++
					}
					if len(res.samples) < 3 {
						res.samples = append(res.samples, err.Error())
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// fetch sends one ordinary request and checks its answer.
func fetch(ctx context.Context, client *http.Client, base string, t target) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+t.path, nil)
	if err != nil {
		return 0, err
	}
	if t.encoding != "" {
		req.Header.Set("Accept-Encoding", t.encoding)
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return time.Since(start), err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	took := time.Since(start)
	switch {
	case err != nil:
		return took, err
	case res.StatusCode != http.StatusOK:
		return took, fmt.Errorf("status %s", res.Status)
	}
	return took, t.check(res, body)
}

// newClient is a client with its own connections: the hostile requests do
// not share the ordinary ones'. It sends Accept-Encoding as the request
// says, and decodes nothing.
func newClient(timeout time.Duration, conns int) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil, // only ever this machine
			DisableCompression:  true,
			MaxIdleConnsPerHost: conns,
			DialContext:         (&net.Dialer{Timeout: timeout}).DialContext,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// isTimeout says an error is a request that ran out of time.
func isTimeout(err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout())
}

// healthCheck asks for the page once the hostile load is over: the server
// must still answer.
func healthCheck(ctx context.Context, cfg config, base string) error {
	client := newClient(cfg.timeout, 1)
	defer client.CloseIdleConnections()
	_, err := fetch(ctx, client, base, ordinaryTargets[0])
	return err
}
