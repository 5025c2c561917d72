package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// These benchmarks measure the page in headless Chromium and print figures;
// they gate nothing. Run them with
//
//	go test ./cmd/server -run '^$' -bench . -benchtime 1x

// BenchmarkFirstDiagram reports the median, over 5 cold loads (a fresh
// browser context each: empty cache, no service worker), of the time from
// navigation start to the diagram on screen: first the server's prerendered
// picture (static-ms), then the client's interactive canvas (canvas-ms).
func BenchmarkFirstDiagram(b *testing.B) {
	t := &testing.T{}
	site(t)
	for range b.N {
		var ms, static []float64
		for range 5 {
			ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
			ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
			if err := chromedp.Do(ctx, chromedp.Navigate(siteURL+"/")); err != nil {
				b.Fatal(err)
			}
			v, err := chromedp.Run(ctx, chromedp.Poll[float64](`(performance.getEntriesByName("spacetime-first-diagram")[0] || {}).startTime`))
			if err != nil {
				b.Fatal(err)
			}
			st, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByName("spacetime-first-diagram-static")[0].startTime`))
			if err != nil {
				b.Fatal(err)
			}
			ms, static = append(ms, v), append(static, st)
			cancelT()
			cancel()
		}
		sort.Float64s(ms)
		sort.Float64s(static)
		b.ReportMetric(static[len(static)/2], "static-ms")
		b.ReportMetric(ms[len(ms)/2], "canvas-ms")
		b.ReportMetric(ms[len(ms)-1], "canvas-worst-ms")
	}
}

// BenchmarkSeek100k opens the 100,000-step lesson and jumps to random steps
// with the scrubber, reporting the median and worst script time from the
// input event to the frame painted (layout in Go, then paint in JS).
func BenchmarkSeek100k(b *testing.B) {
	t := &testing.T{}
	site(t)
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(siteURL+"/?s=snapshot-long"+os.Getenv("SEEKQ"))); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`, chromedp.WithPollingTimeout(4*time.Minute))); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "load-100k-ms")
	rng := rand.New(rand.NewPCG(1, 2))
	for range b.N {
		var ms, goMs, paintMs []float64
		for range 40 {
			k := rng.IntN(100001)
			v, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`new Promise(resolve => {
				const before = window.spacetimeFrames, s = document.getElementById("scrubber");
				const t0 = performance.now();
				s.value = %d; s.dispatchEvent(new Event("input", {bubbles: true}));
				const wait = () => window.spacetimeFrames > before
					? resolve([window.spacetimeLastDrawCall - t0, window.spacetimeLastFrameMs])
					: setTimeout(wait, 1);
				wait();
			})`, k), chromedp.EvalAwaitPromise))
			if err != nil {
				b.Fatal(err)
			}
			ms, goMs, paintMs = append(ms, v[0]+v[1]), append(goMs, v[0]), append(paintMs, v[1])
		}
		for _, s := range [][]float64{ms, goMs, paintMs} {
			sort.Float64s(s)
		}
		b.ReportMetric(ms[len(ms)/2], "seek-median-ms")
		b.ReportMetric(ms[len(ms)-1], "seek-worst-ms")
		b.ReportMetric(goMs[len(goMs)/2], "go-median-ms")
		b.ReportMetric(paintMs[len(paintMs)/2], "paint-median-ms")
	}
}
