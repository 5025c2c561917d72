package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// violationWatch collects what a tab reports of the Content Security
// Policy: the console's messages about it and the page's
// securitypolicyviolation events.
type violationWatch struct {
	mu       sync.Mutex
	messages []string
	// marks are the barriers (settle) the console has reported.
	marks map[string]bool
}

// consoleMark starts the text of the barriers settle writes to the console.
const consoleMark = "spacetime-test-console-mark "

// watchViolations opens a tab that records the policy's refusals from its
// first document on.
func watchViolations(t *testing.T) (context.Context, *violationWatch) {
	t.Helper()
	ctx := newTab(t)
	return ctx, watch(t, ctx)
}

// watch records the refusals of the policy in the target of ctx, from its
// next document on.
func watch(t *testing.T, ctx context.Context) *violationWatch {
	t.Helper()
	recordViolations(t, ctx)
	return consoleViolations(ctx)
}

// consoleViolations keeps the refusals the console of ctx's target reports
// while ctx lasts.
func consoleViolations(ctx context.Context) *violationWatch {
	w := &violationWatch{marks: map[string]bool{}}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			w.mu.Lock()
			switch {
			case strings.HasPrefix(m.Text, consoleMark):
				w.marks[m.Text] = true
			case strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "Content-Security-Policy"):
				w.messages = append(w.messages, m.String())
			}
			w.mu.Unlock()
		}
	}()
	return w
}

// recordViolations has every next document of ctx's target keep the
// policy's refusals in window.cspViolations.
func recordViolations(t *testing.T, ctx context.Context) {
	t.Helper()
	// the script the browser runs first in every document, before the page's
	_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.cspViolations = [];
		document.addEventListener("securitypolicyviolation", (e) => {
			window.cspViolations.push(e.violatedDirective + " refused " + (e.blockedURI || "inline") + (e.sample ? " (" + e.sample + ")" : ""));
		}, true);`})
	require.NoError(t, err)
}

// settle waits until the console has reported every message the page
// wrote before now: the page writes a mark after the tasks already queued
// (a refusal's event among them), and the console reports its messages in
// order, so once the mark is seen no earlier refusal is still on its way.
func (w *violationWatch) settle(t *testing.T, ctx context.Context) {
	t.Helper()
	mark := fmt.Sprintf("%s%d", consoleMark, time.Now().UnixNano())
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(
		`new Promise((done) => setTimeout(() => { console.log(%q); done(true); }))`, mark), chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.marks[mark]
	}, 30*time.Second, 10*time.Millisecond, "the console reports the mark")
}

// violations are the refusals seen so far, from the console and the page.
func (w *violationWatch) violations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	events, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.cspViolations || []`))
	require.NoError(t, err)
	w.mu.Lock()
	defer w.mu.Unlock()
	return append(append([]string{}, w.messages...), events...)
}

// With the security policy the page starts its client and works, and the
// browser refuses nothing it does: loading the lesson and the compare view,
// stepping, the service worker, a download from a blob: URL.
func TestPageRunsUnderTheSecurityPolicy(t *testing.T) {
	downloads := t.TempDir()
	tab := newTab(t)
	recordViolations(t, tab)
	for _, tc := range []struct {
		name      string
		path      string
		act       func(t *testing.T, p *page)
		violation bool // the case checks that a refusal is seen
		index     bool // the course's index: links, no diagram until one is followed
	}{
		{"the course's index, a claim opened", "/", func(t *testing.T, p *page) {
			p.waitFor(`!!window.goappNav`, "the client")
			p.click(".claims a", false)
			p.waitFrames(1)
		}, false, true},
		{"the lesson, stepped", "/?s=snapshot-bank", func(t *testing.T, p *page) {
			p.click("#forward", true)
			p.waitFor(`document.getElementById("position").textContent.startsWith("step 1 /")`, "a step")
		}, false, false},
		{"a deep link, stepped", "/?s=snapshot-bank&k=30", func(t *testing.T, p *page) {
			p.click("#forward", true)
			p.waitFor(`document.getElementById("position").textContent.startsWith("step 31 /")`, "a step")
		}, false, false},
		{"the compare view, stepped", "/compare", func(t *testing.T, p *page) {
			require.True(t, strings.HasPrefix(p.text("#position"), "event 0 /"), p.text("#position"))
			p.click("#forward", true)
			p.waitFor(`/^event [1-9][0-9]* \//.test(document.getElementById("position").textContent)`, "a step of the two runs")
		}, false, false},
		{"the service worker", "/?s=snapshot-bank", func(t *testing.T, p *page) {
			_, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise))
			require.NoError(t, err, "the service worker starts")
		}, false, false},
		{"an export downloaded from a blob: URL", "/?s=snapshot-bank&k=45", func(t *testing.T, p *page) {
			_, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads,
			})
			require.NoError(t, err)
			defer chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDefault})
			p.click("#export-json", false)
			require.Eventually(t, func() bool {
				data, err := os.ReadFile(filepath.Join(downloads, "snapshot-bank-step45.json"))
				return err == nil && strings.Contains(string(data), `"records"`)
			}, 30*time.Second, 100*time.Millisecond, "the export is saved")
		}, false, false},
		{"an inline script the policy does not list is refused", "/?s=snapshot-bank", func(t *testing.T, p *page) {
			p.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.createElement("script"); s.textContent = "window.injected = true"; document.body.appendChild(s); })()`))
			p.waitFor(`window.cspViolations.length > 0`, "the refusal is reported")
			assert.False(t, eval[bool](p, `!!window.injected`), "the script did not run")
		}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// the cases share a tab, each page a new document
			ctx, cancel := context.WithCancel(tab)
			defer cancel()
			w := consoleViolations(ctx)
			p := &page{t: t, ctx: ctx, errors: &[]string{}}
			p.do(chromedp.Navigate(siteURL + tc.path))
			if !tc.index {
				p.waitFrames(1) // the client runs: it painted the canvas
			}
			tc.act(t, p)
			if !tc.index {
				// the static diagram's inline script ran (allowed by its hash)
				assert.True(t, eval[bool](p, `performance.getEntriesByName("spacetime-first-diagram-static").length > 0`))
			}
			if tc.violation {
				assert.NotEmpty(t, w.violations(t, ctx))
				return
			}
			w.settle(t, ctx)
			assert.Empty(t, w.violations(t, ctx), "Content Security Policy violations")
		})
	}
}

// Any page may frame the site, as a lecturer's slides do: on another
// origin, or opened from disk.
func TestPageCanBeFramedFromAnywhere(t *testing.T) {
	slide := func() string {
		return fmt.Sprintf(`<!doctype html><title>slides</title><iframe id="lab" width="900" height="600" src="%s/?s=snapshot-bank&k=20&embed=1"></iframe>`, siteURL)
	}
	for _, tc := range []struct {
		name   string
		slides func(t *testing.T) string // the slides' URL
	}{
		{"slides on another origin", func(t *testing.T) string {
			srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, slide()) }))
			t.Cleanup(srv.Close)
			require.NotEqual(t, siteURL, srv.URL)
			return srv.URL
		}},
		{"slides opened from disk", func(t *testing.T) string {
			name := filepath.Join(t.TempDir(), "slides.html")
			require.NoError(t, os.WriteFile(name, []byte(slide()), 0o644))
			return "file://" + name
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, w := watchViolations(t)
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(tc.slides(t))))
			frame := framedSite(t, ctx, true)
			// the framed client runs: its canvas is painted
			var err error
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				// a poll started while the frame reloads fails: poll again
				if _, err = chromedp.Run(frame.ctx, chromedp.Poll[bool](`!!window.cspViolations && (window.spacetimeFrames || 0) >= 1`, frame.in...)); err == nil {
					break
				}
			}
			require.NoError(t, err, "the framed page runs")
			if frame.watch != nil {
				assert.Empty(t, frame.watch.violations(t, frame.ctx), "the framed page refuses nothing")
			} else {
				inFrame, err := chromedp.Run(frame.ctx, chromedp.Poll[[]string](`window.cspViolations`, frame.in...))
				require.NoError(t, err)
				assert.Empty(t, inFrame, "the framed page refuses nothing")
			}
			assert.Empty(t, w.violations(t, ctx), "frame-ancestors lets the slides frame the site")
		})
	}
}

// frame is where to evaluate in a framed page, and its own watch when it
// is a target of its own.
type frame struct {
	ctx   context.Context
	in    []chromedp.PollOption
	watch *violationWatch
}

// framedSite finds the iframe that shows the site in the tab: a frame of
// the tab, or, when the slides are on another site (file: is), the
// browser's own target for it, which, when watched, is watched for
// refusals and loaded again.
func framedSite(t *testing.T, ctx context.Context, watched bool) frame {
	t.Helper()
	var found frame
	require.Eventually(t, func() bool {
		targets, err := chromedp.Targets(ctx)
		if err != nil {
			return false
		}
		// this tab's frame: the browser's other tabs may be framing the
		// site at the same time (the browser tests run side by side)
		tab := chromedp.FromContext(ctx).Target.TargetID
		for _, ti := range targets {
			if ti.Type == "iframe" && strings.HasPrefix(ti.URL, siteURL) && string(ti.ParentFrameID) == string(tab) {
				fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(ti.TargetID))
				t.Cleanup(cancel)
				found = frame{ctx: fctx}
				if watched {
					// the tab's watch does not reach into this frame:
					// watch it and load it again
					found.watch = watch(t, fctx)
					require.NoError(t, chromedp.Do(fctx, chromedp.Evaluate[chromedp.Void](`location.reload()`)))
				}
				return true
			}
		}
		tree, err := chromedp.Call(ctx, cdppage.GetFrameTree, struct{}{})
		if err != nil || tree.FrameTree == nil {
			return false
		}
		for _, f := range tree.FrameTree.ChildFrames {
			if strings.HasPrefix(f.Frame.URL, siteURL) {
				nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#lab")))
				if err != nil || len(nodes) != 1 {
					return false
				}
				found = frame{ctx: ctx, in: []chromedp.PollOption{chromedp.WithPollingInFrame(nodes[0])}}
				return true
			}
		}
		return false
	}, 30*time.Second, 100*time.Millisecond, "a frame shows the site")
	return found
}
