package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"spacetime/internal/precompress"
)

// floorSite makes a copy of web/ whose client is the floor (cmd/bench/floor)
// instead of Spacetime's, built as make builds Spacetime's, for the same
// server to serve: the page, its scripts and styles, the headers and the
// compression are Spacetime's, and only the client differs.
func floorSite() (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "spacetime-floor")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	web := filepath.Join(dir, "web")
	if err := os.MkdirAll(web, 0o755); err != nil {
		cleanup()
		return "", nil, err
	}
	entries, err := os.ReadDir("web")
	if err != nil {
		cleanup()
		return "", nil, err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), "app.wasm") {
			continue
		}
		if err := copyFile(filepath.Join("web", e.Name()), filepath.Join(web, e.Name())); err != nil {
			cleanup()
			return "", nil, err
		}
	}
	wasm := filepath.Join(web, "app.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./cmd/bench/floor")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("building the floor client: %v", err)
	}
	if _, err := precompress.Write(wasm); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// loads measures the first diagram of Spacetime's page and of the floor's,
// alternating so that both share the machine's moods: cold, in a fresh
// browser context each time (no cache, no service worker); warm, the
// same page opened again in its tab once its service worker has cached
// the client; and returning, the page opened in a fresh tab of that
// browser context after that, as a student comes back to a lesson another
// day (the tab's renderer has nothing of the last visit: what is kept is
// what the browser kept, the worker's cache and the compiled client).
func loads(ctx context.Context, spacetime, floor string, rep *Report) error {
	type site struct {
		key, url  string
		cold      []float64
		warm      []float64
		returning []float64
		static    []float64
	}
	sites := []*site{{key: "spacetime", url: spacetime}, {key: "floor", url: floor}}
	for i := range 5 {
		for _, s := range sites {
			warm := i < 3
			l, err := coldAndWarm(ctx, s.url+"/?s=snapshot-bank", warm) // the floor ignores the query
			if err != nil {
				return fmt.Errorf("%s: %w", s.key, err)
			}
			s.cold, s.static = append(s.cold, l.cold), append(s.static, l.static)
			if warm {
				s.warm, s.returning = append(s.warm, l.again), append(s.returning, l.returning)
			}
		}
	}
	rep.FirstDiagramMS = map[string]float64{"prerendered": median(sites[0].static), "canvas": median(sites[0].cold), "canvas, warm": median(sites[0].warm), "canvas, returning": median(sites[0].returning)}
	rep.Floor.FirstDiagramMS = map[string]float64{"canvas": median(sites[1].cold), "canvas, warm": median(sites[1].warm), "canvas, returning": median(sites[1].returning)}
	return nil
}

// firstMarks reads navigation start to the prerendered picture and to the
// client's first canvas frame.
const firstMarks = `["spacetime-first-diagram-static", "spacetime-first-diagram"].map(n => (performance.getEntriesByName(n)[0] || {startTime: -1}).startTime)`

// pageLoads are one site's first diagrams, in ms from navigation start:
// the prerendered picture and the canvas, cold; the canvas opened again in
// its tab; and in a fresh tab of its browser context.
type pageLoads struct{ static, cold, again, returning float64 }

// coldAndWarm opens url in a fresh browser context and, if warm, again in
// that tab after its service worker has had time to cache the client,
// and then in a fresh tab of that context.
func coldAndWarm(ctx context.Context, url string, warm bool) (pageLoads, error) {
	tctx, done, err := tab(ctx, url, chromedp.WithNewBrowserContext())
	if err != nil {
		return pageLoads{}, err
	}
	defer done()
	marks, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](firstMarks))
	if err != nil {
		return pageLoads{}, err
	}
	l := pageLoads{static: marks[0], cold: marks[1]}
	if !warm {
		return l, nil
	}
	// the worker caches the client a few seconds after the page's own
	// download (see cmd/server's serviceWorker)
	time.Sleep(6 * time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return pageLoads{}, err
	}
	if l.again, err = canvasMark(tctx); err != nil {
		return pageLoads{}, err
	}
	// a fresh tab in the same browser context, the first one closed (its
	// context, which made the browser context, is cancelled last)
	rctx, cancel := chromedp.NewContext(tctx)
	defer cancel()
	if err := chromedp.Do(rctx); err != nil {
		return pageLoads{}, err
	}
	if err := chromedp.Do(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.Close, cdp.Empty{})
		return err
	})); err != nil {
		return pageLoads{}, err
	}
	if err := chromedp.Do(rctx, chromedp.Navigate(url)); err != nil {
		return pageLoads{}, err
	}
	if l.returning, err = canvasMark(rctx); err != nil {
		return pageLoads{}, err
	}
	return l, nil
}

// canvasMark waits for the first canvas frame of the page the tab is
// opening, and reads when it was drawn.
func canvasMark(ctx context.Context) (float64, error) {
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		return 0, err
	}
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](firstMarks))
	if err != nil {
		return 0, err
	}
	if marks[1] < 0 {
		return 0, errors.New("the page opened again drew no diagram")
	}
	return marks[1], nil
}
