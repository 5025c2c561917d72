package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/benchlog"
)

// browser starts the server and Chromium and measures the page; and the
// floor's page, served by the same server from floorDir, if there is one.
func browser(rep *Report, server, chromium, floorDir string) error {
	if _, err := os.Stat(chromium); err != nil {
		return fmt.Errorf("no Chromium at %s (apt-get install chromium): %v", chromium, err)
	}
	url, stop, err := startServer(server, ".")
	if err != nil {
		return err
	}
	defer stop()
	floorURL := ""
	if floorDir != "" {
		u, stopFloor, err := startServer(server, floorDir)
		if err != nil {
			return fmt.Errorf("the floor's server: %w", err)
		}
		defer stopFloor()
		floorURL = u
	}
	ctx, closeBrowser, err := startBrowser(chromium)
	if err != nil {
		return err
	}
	defer closeBrowser()
	var errs []error
	for _, m := range []struct {
		name string
		f    func(context.Context, string, *Report) error
	}{
		{"first diagram", func(ctx context.Context, url string, rep *Report) error {
			if floorURL == "" {
				return errors.New("no floor client to measure against")
			}
			return loads(ctx, url, floorURL, rep)
		}},
		{"step", stepLatency},
		{"seek and heap", seekAndHeap},
		{"frame", frameScript},
		{"log import", importInPage},
		{"schedule search", searchInPage},
	} {
		fmt.Fprintf(os.Stderr, "bench:   %s…\n", m.name)
		if err := m.f(ctx, url, rep); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m.name, err))
		}
	}
	return errors.Join(errs...)
}

// startBrowser starts headless Chromium with the window the figures are
// measured in.
func startBrowser(chromium string) (context.Context, func(), error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true), chromedp.WindowSize(1300, 1000))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	stop := func() { cancel(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, nil, err
	}
	return ctx, stop, nil
}

// startServer runs the server on a free port of 127.0.0.1, serving dir's
// web/, and waits for it.
func startServer(bin, dir string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-addr", addr, "-dir", dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("%v (make build makes it)", err)
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	url := "http://" + addr
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err := http.Get(url + "/web/spacetime.js"); err == nil {
			res.Body.Close()
			return url, stop, nil
		}
	}
	stop()
	return "", nil, errors.New("the server did not answer within 15 s")
}

// tab opens a page in a new tab and waits for its first canvas frame.
func tab(parent context.Context, url string, opts ...chromedp.ContextOption) (context.Context, func(), error) {
	ctx, cancel := chromedp.NewContext(parent, opts...)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	done := func() { cancelT(); cancel() }
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		done()
		return nil, nil, err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(window.spacetimeFrames || 0) >= 1`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		done()
		return nil, nil, err
	}
	return ctx, done, nil
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// measure runs a JS action (a function of nothing) and returns the time from
// just before it to the end of the next canvas frame painted: paint is true
// to include the wait for the animation frame, false for script time only.
func measure(ctx context.Context, action string, toPaint bool) (float64, error) {
	result := "window.spacetimeLastDrawCall - t0 + window.spacetimeLastFrameMs"
	if toPaint {
		result = "window.spacetimeLastPaintEnd - t0"
	}
	v, err := measureParts(ctx, action, "["+result+"]")
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// measureParts is measure returning the JS array expression result.
func measureParts(ctx context.Context, action, result string) ([]float64, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`new Promise(resolve => {
		const before = window.spacetimeFrames;
		const t0 = performance.now();
		(%s)();
		const wait = () => window.spacetimeFrames > before ? resolve(%s) : setTimeout(wait, 0);
		wait();
	})`, action, result), chromedp.EvalAwaitPromise))
}

const pressRight = `() => window.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}))`
const pressLeft = `() => window.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft", bubbles: true}))`

// stepLatency presses → through the bank lesson and through the six runs
// of a compare view: key press to frame painted.
func stepLatency(ctx context.Context, url string, rep *Report) error {
	var err error
	if rep.StepMS, err = medianStep(ctx, url+"/?s=snapshot-bank&k=0"); err != nil {
		return err
	}
	rep.StepCompareMS, err = medianStep(ctx, url+sixRuns)
	return err
}

// sixRuns is a compare view of six runs, the most a page holds: the same
// contention under the six mutual exclusions.
const sixRuns = "/compare?s=mutex-contention-high-central&s.2=mutex-contention-high-lamport-mutex&s.3=mutex-contention-high-ricart-agrawala&s.4=mutex-contention-high-token-ring&s.5=mutex-contention-high-suzuki-kasami&s.6=mutex-contention-high-maekawa&k=0"

// medianStep is the median of 40 presses of → in a page, each from the key
// press to the frame painted.
func medianStep(ctx context.Context, url string) (float64, error) {
	tctx, done, err := tab(ctx, url)
	if err != nil {
		return 0, err
	}
	defer done()
	var ms []float64
	for range 40 {
		v, err := measure(tctx, pressRight, true)
		if err != nil {
			return 0, err
		}
		ms = append(ms, v)
	}
	return median(ms), nil
}

// seekAndHeap loads the 100,000-step lesson, reads the Go heap, then jumps
// to random steps with the scrubber (script time to the frame painted).
func seekAndHeap(ctx context.Context, url string, rep *Report) error {
	tctx, done, err := tab(ctx, url+"/?s=snapshot-long")
	if err != nil {
		return err
	}
	defer done()
	heap, err := chromedp.Run(tctx, chromedp.Evaluate[float64](`window.spacetimeHeapMB()`))
	if err != nil {
		return err
	}
	rep.HeapMB = heap
	gcs := `window.spacetimeGCs ? window.spacetimeGCs() : 0` // a build before it has none
	before, err := chromedp.Run(tctx, chromedp.Evaluate[float64](gcs))
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var ms []float64
	for range 40 {
		k := rng.IntN(100_001)
		v, err := measure(tctx, fmt.Sprintf(`() => { const s = document.getElementById("scrubber"); s.value = %d; s.dispatchEvent(new Event("input", {bubbles: true})); }`, k), false)
		if err != nil {
			return err
		}
		ms = append(ms, v)
	}
	sort.Float64s(ms)
	if os.Getenv("BENCH_VERBOSE") != "" {
		fmt.Fprintln(os.Stderr, "seeks (ms):", ms)
	}
	after, err := chromedp.Run(tctx, chromedp.Evaluate[float64](gcs))
	if err != nil {
		return err
	}
	rep.SeekMS = map[string]float64{"median": ms[len(ms)/2], "worst": ms[len(ms)-1], "collections": after - before}
	return nil
}

// frameScript zooms the 100,000-step lesson out until about 10,000 events
// and messages are visible and times redrawing it: script time from the key
// press to the end of painting.
func frameScript(ctx context.Context, url string, rep *Report) error {
	long, err := layLong()
	if err != nil {
		return err
	}
	span, shapes := long.spanFor(10_000)
	rep.FrameShapes = shapes
	tctx, done, err := tab(ctx, fmt.Sprintf("%s/?s=snapshot-long&k=%d&span=%g", url, longStep, span))
	if err != nil {
		return err
	}
	defer done()
	var paint, layout []float64
	for i := range 20 {
		key := pressRight
		if i%2 == 1 {
			key = pressLeft
		}
		v, err := measureParts(tctx, key, "[window.spacetimeLastFrameMs, window.spacetimeLastDrawCall - t0]")
		if err != nil {
			return err
		}
		paint, layout = append(paint, v[0]), append(layout, v[1])
	}
	rep.FrameScriptMS, rep.FrameLayoutMS = median(paint), median(layout)
	floor, err := long.bareBatch(tctx, span)
	if err != nil {
		return fmt.Errorf("the bare batch: %w", err)
	}
	rep.Floor.FrameScriptMS = floor
	return nil
}

// bareBatch is the painting floor: the same scene (laid out natively, as
// the page lays it out) painted in the same tab by the least a canvas
// needs, one path per kind of shape and no styles, halos or dashes, from
// one Float32Array with no Go in the loop; the median of 21 paints.
func (l longLesson) bareBatch(ctx context.Context, span float64) (float64, error) {
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const c = document.getElementById("diagram"); return [c.clientWidth, c.clientHeight, devicePixelRatio || 1]; })()`))
	if err != nil {
		return 0, err
	}
	scene := l.ix.Layout(longStep, l.spec, diagram.Options{Width: size[0], Height: size[1], Span: span})
	buf, texts := scene.Encode(nil, nil)
	data, err := json.Marshal(map[string]any{"buf": buf, "texts": texts, "w": size[0], "h": size[1], "dpr": size[2]})
	if err != nil {
		return 0, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(bareBatchJS, diagram.Stride, diagram.OpLine, diagram.OpCircle, diagram.OpRect, diagram.OpText, data)))
}

// bareBatchJS paints the encoded scene (stride, then the line, circle,
// rectangle and text ops, then the scene) and returns the median time.
const bareBatchJS = `((S, LINE, CIRCLE, RECT, TEXT, scene) => {
	const b = new Float32Array(scene.buf), texts = scene.texts;
	const cv = document.createElement("canvas");
	cv.width = Math.round(scene.w * scene.dpr); cv.height = Math.round(scene.h * scene.dpr);
	const g = cv.getContext("2d");
	const ms = [];
	for (let round = 0; round < 21; round++) {
		const t0 = performance.now();
		g.setTransform(scene.dpr, 0, 0, scene.dpr, 0, 0);
		g.fillStyle = "#fff"; g.fillRect(0, 0, scene.w, scene.h);
		g.strokeStyle = "#333"; g.fillStyle = "#333"; g.lineWidth = 1; g.font = "12px system-ui, sans-serif";
		g.beginPath();
		for (let k = 0; k + S <= b.length; k += S) if (b[k] === LINE) { g.moveTo(b[k + 1], b[k + 2]); g.lineTo(b[k + 3], b[k + 4]); }
		g.stroke();
		g.beginPath();
		for (let k = 0; k + S <= b.length; k += S) if (b[k] === CIRCLE) { g.moveTo(b[k + 1] + b[k + 3], b[k + 2]); g.arc(b[k + 1], b[k + 2], b[k + 3], 0, 2 * Math.PI); }
		g.fill();
		for (let k = 0; k + S <= b.length; k += S) if (b[k] === RECT) g.fillRect(b[k + 1], b[k + 2], b[k + 3], b[k + 4]);
		for (let k = 0; k + S <= b.length; k += S) if (b[k] === TEXT) g.fillText(texts[b[k + 9]], b[k + 1], b[k + 2]);
		ms.push(performance.now() - t0);
	}
	ms.sort((x, y) => x - y);
	return ms[10];
})(%d, %d, %d, %d, %d, %s)`

// longLesson is the 100,000-step lesson laid out natively, as the page
// lays it out.
type longLesson struct {
	ix   *diagram.Index
	spec *sim.Spec
}

// longStep is the step the frame is measured at, near the lesson's end.
const longStep = 99_990

func layLong() (longLesson, error) {
	s, err := scenario.Builtin("snapshot-long")
	if err != nil {
		return longLesson{}, err
	}
	p, err := s.Compile()
	if err != nil {
		return longLesson{}, err
	}
	r, err := p.Run()
	if err != nil {
		return longLesson{}, err
	}
	return longLesson{ix: diagram.NewIndex(r.Trace(), diagram.AxisTime, p.Spec()), spec: p.Spec()}, nil
}

// spanFor finds the zoom at which the end of the lesson shows about want
// events and messages, counting them in the same layout.
func (l longLesson) spanFor(want int) (float64, int) {
	count := func(span float64) int {
		events, messages := l.ix.Layout(longStep, l.spec, diagram.Options{Width: 1268, Height: 350, Span: span}).Visible()
		return events + messages
	}
	lo, hi := 10.0, 100_000.0
	for range 30 {
		mid := (lo + hi) / 2
		if count(mid) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, count(hi)
}

// importInPage: the time from choosing a ShiViz log in the Load panel to
// the page showing its last step, for snapshot-long's first 10,000 and
// 100,000 steps; the median of 3, each in a fresh tab and browser context,
// as a student opens a log (a fresh heap that has to grow, code the
// browser has not optimized yet), and ("page, again") the same log
// opened again in that tab after going back to a lesson.
func importInPage(ctx context.Context, url string, rep *Report) error {
	logs, err := benchlog.Long(benchlog.Sizes)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "spacetime-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if rep.ImportMS == nil {
		rep.ImportMS = map[string]map[string]float64{}
	}
	rep.ImportMS["page"] = map[string]float64{}
	rep.ImportMS["page, again"] = map[string]float64{}
	for i, n := range benchlog.Sizes {
		file := filepath.Join(dir, fmt.Sprintf("long-%d.log", n))
		if err := os.WriteFile(file, logs[i], 0o644); err != nil {
			return err
		}
		var first, again []float64
		for range 3 {
			t, err := importTwice(ctx, url, file, n)
			if err != nil {
				return err
			}
			first, again = append(first, t[0]), append(again, t[1])
		}
		rep.ImportMS["page"][strconv.Itoa(n)] = median(first)
		rep.ImportMS["page, again"][strconv.Itoa(n)] = median(again)
	}
	return nil
}

// importTwice opens the log of n events in a fresh tab, goes back to a
// lesson and opens it again, and times both.
func importTwice(ctx context.Context, url, file string, n int) ([2]float64, error) {
	var ms [2]float64
	tctx, done, err := tab(ctx, url+"/?s=snapshot-bank", chromedp.WithNewBrowserContext())
	if err != nil {
		return ms, err
	}
	defer done()
	for i := range ms {
		if i > 0 {
			// the page's own router, as the course index's links use it
			// (the lesson picker is a pane's now, not the header's)
			back := `goappNav("/?s=snapshot-bank")`
			if _, err := chromedp.Run(tctx, chromedp.Evaluate[any](back)); err != nil {
				return ms, err
			}
			if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`!document.getElementById("position").textContent.startsWith("step %d / %d")`, n, n))); err != nil {
				return ms, err
			}
			time.Sleep(time.Second) // a learner's pause: the page is idle
		}
		if ms[i], err = importOnce(tctx, file, n); err != nil {
			return ms, err
		}
	}
	return ms, nil
}

// importOnce opens the log of n events from the Load panel and times it.
func importOnce(tctx context.Context, file string, n int) (float64, error) {
	if err := chromedp.Do(tctx, chromedp.Click("#load")); err != nil {
		return 0, err
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.getElementById("scenario-file")`)); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles("#scenario-file", []string{file})); err != nil {
		return 0, err
	}
	shown := fmt.Sprintf(`document.getElementById("position").textContent.startsWith("step %d / %d") || !!document.querySelector(".problem")`, n, n)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](shown, chromedp.WithPollingInterval(5*time.Millisecond))); err != nil {
		return 0, err
	}
	elapsed := float64(time.Since(start).Microseconds()) / 1000
	if problem, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(document.querySelector(".problem") || {}).textContent || ""`)); problem != "" {
		return 0, errors.New(problem)
	}
	return elapsed, nil
}

// searchInPage times the page's search of three lessons, from the key
// press to the finding on screen: one that finds its violation and one
// that tries every schedule within its bound. The states come from the
// page's sentence.
func searchInPage(ctx context.Context, url string, rep *Report) error {
	if rep.Searches == nil {
		rep.Searches = map[string]map[string]SearchFigure{}
	}
	rep.Searches["page"] = map[string]SearchFigure{}
	for _, lesson := range []string{"maekawa-deadlock", "snapshot-bank", "raft-figure8-three"} {
		tctx, cancel, err := tab(ctx, url+"/?s="+lesson)
		if err != nil {
			return err
		}
		res, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`new Promise(done => {
			const t0 = performance.now();
			document.getElementById("search").click();
			const poll = () => {
				const n = document.getElementById("notice");
				const text = n ? n.textContent : "";
				const m = text.match(/(\d+) states/);
				if (m) { done([performance.now() - t0, +m[1], text.startsWith("Found") ? 1 : 0]); return; }
				setTimeout(poll, 5);
			};
			poll();
		})`, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", lesson, err)
		}
		outcome := "bounded"
		if res[2] == 1 {
			outcome = "found"
		}
		rep.Searches["page"][lesson] = SearchFigure{Outcome: outcome, States: int(res[1]), MS: res[0], PerSecond: res[1] / (res[0] / 1000)}
	}
	return nil
}
