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
// browser context each time (no cache, no service worker); and warm, the
// same page opened again in its context once its service worker has
// cached the client, as a student comes back to a lesson.
func loads(ctx context.Context, spacetime, floor string, rep *Report) error {
	type site struct {
		key, url string
		cold     []float64
		warm     []float64
		static   []float64
	}
	sites := []*site{{key: "spacetime", url: spacetime}, {key: "floor", url: floor}}
	for i := range 5 {
		for _, s := range sites {
			warm := i < 3
			c, w, static, err := coldAndWarm(ctx, s.url+"/?s=snapshot-bank", warm) // the floor ignores the query
			if err != nil {
				return fmt.Errorf("%s: %w", s.key, err)
			}
			s.cold, s.static = append(s.cold, c), append(s.static, static)
			if warm {
				s.warm = append(s.warm, w)
			}
		}
	}
	rep.FirstDiagramMS = map[string]float64{"prerendered": median(sites[0].static), "canvas": median(sites[0].cold), "canvas, warm": median(sites[0].warm)}
	rep.Floor.FirstDiagramMS = map[string]float64{"canvas": median(sites[1].cold), "canvas, warm": median(sites[1].warm)}
	return nil
}

// firstMarks reads navigation start to the prerendered picture and to the
// client's first canvas frame.
const firstMarks = `["spacetime-first-diagram-static", "spacetime-first-diagram"].map(n => (performance.getEntriesByName(n)[0] || {startTime: -1}).startTime)`

// coldAndWarm opens url in a fresh browser context and, if warm, again in
// that context after its service worker has had time to cache the client.
func coldAndWarm(ctx context.Context, url string, warm bool) (cold, again, static float64, err error) {
	tctx, done, err := tab(ctx, url, chromedp.WithNewBrowserContext())
	if err != nil {
		return 0, 0, 0, err
	}
	defer done()
	marks, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](firstMarks))
	if err != nil {
		return 0, 0, 0, err
	}
	if !warm {
		return marks[1], 0, marks[0], nil
	}
	// the worker caches the client a few seconds after the page's own
	// download (see cmd/server's serviceWorker)
	time.Sleep(6 * time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return 0, 0, 0, err
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		return 0, 0, 0, err
	}
	second, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](firstMarks))
	if err != nil {
		return 0, 0, 0, err
	}
	if second[1] < 0 {
		return 0, 0, 0, errors.New("the page opened again drew no diagram")
	}
	return marks[1], second[1], marks[0], nil
}
