package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/sim"
	"spacetime/internal/scenariotest"
)

// The browser tests drive the real page in headless Chromium (Debian's
// chromium package) against the server on 127.0.0.1, as a learner would:
// they press keys, click the diagram and read what the page shows.

var (
	siteURL    string
	browserCtx context.Context
	consoleMu  sync.Mutex
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browserCtx != nil {
		chromedp.Cancel(browserCtx)
	}
	os.Exit(code)
}

// chromiumPath finds Debian's chromium. Without it the browser tests are
// skipped on a developer's machine and fail in CI (CI=true), where .ci/run
// installs it.
func chromiumPath(t *testing.T) string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed (apt-get install chromium); skipping the browser tests")
	return ""
}

var startOnce sync.Once
var startErr error

// site starts the server and the browser once for all browser tests, and
// lets the test that calls it run beside the other browser tests.
func site(t *testing.T) {
	t.Helper()
	path := chromiumPath(t)
	alongside(t)
	startOnce.Do(func() {
		h, err := newHandler(filepath.Join("..", ".."))
		if err != nil {
			startErr = fmt.Errorf("%v (make test builds it first)", err)
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			startErr = err
			return
		}
		// served as main serves it: with its limits and security policy
		go newServer("", h).Serve(ln)
		siteURL = "http://" + ln.Addr().String()
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox,
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-quic", true),
			// the client's wasm is compiled once, by the baseline compiler:
			// optimizing it in the background on every page load took a
			// third of the tests' time on two cores
			chromedp.Flag("js-flags", "--no-wasm-tier-up --no-wasm-dynamic-tiering"),
			chromedp.WindowSize(1300, 1000),
		)
		alloc, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		browserCtx, _ = chromedp.NewContext(alloc)
		startErr = chromedp.Do(browserCtx)
	})
	require.NoError(t, startErr)
}

// testParallel is how many tests go test runs at once (-parallel).
func testParallel() int {
	if f := flag.Lookup("test.parallel"); f != nil {
		if n, ok := f.Value.(flag.Getter).Get().(int); ok {
			return n
		}
	}
	return 1
}

// alongsideTests are the tests alongside has let run beside the others.
var alongsideTests sync.Map

// alongside lets a browser test run beside the others (t.Parallel), once:
// a test spends much of its time waiting on the page, and two of them
// keep two cores busier (go test -parallel 1 runs them one at a time). A
// subtest runs within its test.
func alongside(t *testing.T) {
	if strings.Contains(t.Name(), "/") {
		return
	}
	if _, done := alongsideTests.LoadOrStore(t, true); !done {
		t.Parallel()
	}
}

// page is one browser tab on the site, with the console errors it logged.
type page struct {
	t      *testing.T
	ctx    context.Context
	errors *[]string
}

// newTab opens a tab of the shared browser on the test site, closed when
// the test ends.
func newTab(t *testing.T) context.Context {
	t.Helper()
	site(t)
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	require.NoError(t, chromedp.Do(ctx)) // open the tab before listening
	return ctx
}

// tabs are the tabs that open and reusedTab hand test after test: a page
// opened where a page ran before starts in a renderer that has the client
// compiled (0.6 s here, against 1.2 s in a new tab), and a navigation is a
// new document, so nothing of the last page is left but what tabs of the
// shared browser share anyway (the service worker and its cache; the page
// keeps nothing in storage). There are as many as the browser tests run at
// once (-parallel, two cores' worth by default): each test has one to
// itself until it ends. Tests that change the tab itself beyond its window
// size (a script for every page, requests held, frames of another site)
// open one of their own with newTab.
var tabs struct {
	once sync.Once
	free chan context.Context
	err  error
	// held is the tab each running test has, by its *testing.T
	held sync.Map
}

// reusedTab is a reused tab for a test, as a new tab would be: the window
// of the browser's size, the pointer outside it. A test asking again has
// the same tab.
func reusedTab(t *testing.T) context.Context {
	t.Helper()
	site(t)
	tabs.once.Do(func() {
		n := max(1, testParallel())
		tabs.free = make(chan context.Context, n)
		for range n {
			tab, _ := chromedp.NewContext(browserCtx)
			if err := chromedp.Do(tab); err != nil {
				tabs.err = err
			}
			tabs.free <- tab
		}
	})
	require.NoError(t, tabs.err)
	held, ok := tabs.held.Load(t)
	if !ok {
		held = <-tabs.free
		tabs.held.Store(t, held)
		t.Cleanup(func() {
			tabs.held.Delete(t)
			tabs.free <- held.(context.Context)
		})
	}
	ctx, cancel := context.WithTimeout(held.(context.Context), 90*time.Second)
	t.Cleanup(cancel)
	// a test before may have emulated another window, and left the pointer
	// over something that the next page would find hovered
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{})
		return err
	}), chromedp.MouseEvent(chromedp.MouseMoved, -1, -1)))
	return ctx
}

// open opens path in the reused tab and waits for the first diagram frame.
func open(t *testing.T, path string) *page {
	t.Helper()
	p := watchConsole(t, reusedTab(t))
	p.do(chromedp.Navigate(siteURL + path))
	p.waitFrames(1)
	p.waitStill()
	return p
}

// waitStill waits until the page has not painted for a moment: a page that
// loads quickly may still lay itself out again for its final size, and an
// input may repaint in steps (one pane, then the next, then the panels
// beside them); a test that counts frames or reads what an input changed
// starts once they have stopped.
func (p *page) waitStill() {
	p.t.Helper()
	p.waitFor(`performance.now() - window.spacetimeLastPaintEnd > 60`, "the page settles")
}

// watchConsole makes a page of an open tab, keeping the errors its console logs
// from now on.
func watchConsole(t *testing.T, ctx context.Context) *page {
	errs := &[]string{}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == "error" || m.Type == chromedp.ConsoleException {
				consoleMu.Lock()
				*errs = append(*errs, m.Text)
				consoleMu.Unlock()
			}
		}
	}()
	return &page{t: t, ctx: ctx, errors: errs}
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.ctx, actions...))
}

func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	require.NoError(p.t, err, js)
	return v
}

// waitFrames waits until the canvas has been painted at least n times:
// for a minute and a half, since a page's first frame on a machine busy
// with the other packages' tests has taken over the poll's usual 30 s.
func (p *page) waitFrames(n int) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](fmt.Sprintf("(window.spacetimeFrames || 0) >= %d", n), chromedp.WithPollingTimeout(90*time.Second)))
	require.NoError(p.t, err, "the diagram was never drawn")
}

// waitFor waits until the JavaScript condition cond holds: for an input
// that need not change the picture (the painter sends an unchanged one
// again to no canvas), the page's answer is in the document instead.
func (p *page) waitFor(cond, why string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](cond))
	require.NoError(p.t, err, why)
}

func (p *page) frames() int { return eval[int](p, "window.spacetimeFrames || 0") }

// settle waits for the page to repaint after an input.
func (p *page) settle(before int) {
	p.t.Helper()
	p.waitFrames(before + 1)
	p.waitStill()
}

func (p *page) text(sel string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.TextContent(chromedp.CSS(sel)))
	require.NoError(p.t, err, sel)
	return strings.TrimSpace(v)
}

// picture is the canvas as a PNG data URL: two equal pictures are equal strings.
func (p *page) picture() string {
	return eval[string](p, `document.getElementById("diagram").toDataURL()`)
}

// key presses a key and waits for the repaint.
func (p *page) key(k string) {
	p.t.Helper()
	before := p.frames()
	p.do(chromedp.KeyEvent(k))
	p.settle(before)
}

// click clicks an element and, when the click changes the diagram, waits
// for the repaint.
func (p *page) click(sel string, repaints bool) {
	p.t.Helper()
	before := p.frames()
	p.do(chromedp.Click(chromedp.CSS(sel)))
	if repaints {
		p.settle(before)
	}
}

// clickCanvas clicks the diagram at canvas coordinates (x, y) and, when the
// click changes the diagram, waits for the repaint.
func (p *page) clickCanvas(x, y float64, repaints bool) {
	p.t.Helper()
	rect := eval[map[string]float64](p, `(() => { const r = document.getElementById("diagram").getBoundingClientRect(); return {x: r.left, y: r.top}; })()`)
	before := p.frames()
	p.do(chromedp.MouseClickXY(rect["x"]+x, rect["y"]+y))
	if repaints {
		p.settle(before)
	}
}

// clickProcess clicks a process's name on the diagram of a lesson, which
// opens its menu.
func (p *page) clickProcess(lesson string, node sim.NodeID) {
	p.t.Helper()
	w, h := p.canvasSize()
	_, r := scenariotest.Run(p.t, lesson)
	scene := diagram.Layout(r.Trace(), 0, r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale()})
	p.clickCanvas(24, scene.ProcessY(node), false)
}

// canvasSize is the diagram's size in CSS pixels.
func (p *page) canvasSize() (float64, float64) {
	s := eval[map[string]float64](p, `(() => { const c = document.getElementById("diagram"); return {w: c.clientWidth, h: c.clientHeight}; })()`)
	return s["w"], s["h"]
}

func (p *page) position() string { return p.text("#position") }

// screenshot saves the page as out/NAME.png for a person to look at.
func (p *page) screenshot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	require.NoError(p.t, err)
	dir := filepath.Join("..", "..", "out")
	require.NoError(p.t, os.MkdirAll(dir, 0o755))
	require.NoError(p.t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}

// noConsoleErrors checks the page logged no error.
func (p *page) noConsoleErrors() {
	p.t.Helper()
	consoleMu.Lock()
	defer consoleMu.Unlock()
	require.Empty(p.t, *p.errors, "console errors")
}

// countColor counts canvas pixels of a CSS hex colour (#rrggbb) near a row.
func (p *page) countColor(hex string, y0, y1 float64) int {
	return eval[int](p, fmt.Sprintf(`(() => {
		const c = document.getElementById("diagram"), g = c.getContext("2d");
		const dpr = c.width / c.clientWidth;
		const y = Math.max(0, Math.floor(%f * dpr)), h = Math.max(1, Math.floor((%f - %f) * dpr));
		const d = g.getImageData(0, y, c.width, h).data;
		const r = parseInt("%s".slice(1,3),16), gr = parseInt("%s".slice(3,5),16), b = parseInt("%s".slice(5,7),16);
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]-r) < 8 && Math.abs(d[i+1]-gr) < 8 && Math.abs(d[i+2]-b) < 8) n++;
		return n;
	})()`, y0, y1, y0, hex, hex, hex))
}

var _ = kb.ArrowRight
var _ = base64.StdEncoding

// scale is the page's drawing scale: its text size, as its root's class
// says (text-L), the one a native layout must use to find what is where.
func (p *page) scale() float64 {
	p.t.Helper()
	size := eval[string](p, `(document.querySelector(".lab").className.match(/text-(\w+)/) || [])[1] || ""`)
	require.NotEmpty(p.t, size, "the page names its text size")
	return diagram.TextScale(size)
}

// enlarge shows run n of a compare view alone, with its settings and
// panels (from the grid, or from another run enlarged).
func (p *page) enlarge(n int) {
	p.t.Helper()
	id := "enlarge"
	if n > 1 {
		id += fmt.Sprintf("-%d", n)
	}
	if eval[bool](p, `!!document.getElementById("all-runs")`) {
		p.click("#all-runs", false)
		p.waitFor(`!!document.getElementById("`+id+`")`, "back to every run")
	}
	p.click("#"+id, false)
	panels := "panels"
	if n > 1 {
		panels += fmt.Sprintf("-%d", n)
	}
	p.waitFor(`!!document.getElementById("`+panels+`")`, "the run is enlarged")
}
