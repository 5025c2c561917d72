package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// onScreen says, for a page, whether nothing scrolls and the elements
// named are wholly inside the window; it returns what is not.
const onScreen = `((ids) => {
	const out = [];
	const de = document.documentElement;
	if (de.scrollHeight > innerHeight + 1) out.push("the page scrolls down (" + de.scrollHeight + " > " + innerHeight + ")");
	if (de.scrollWidth > innerWidth + 1) out.push("the page scrolls sideways (" + de.scrollWidth + " > " + innerWidth + ")");
	for (const id of ids) {
		const el = document.getElementById(id);
		if (!el) { out.push(id + " is missing"); continue; }
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) out.push(id + " is not shown");
		if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
			out.push(id + " is outside the window: " + JSON.stringify([r.left, r.top, r.right, r.bottom]));
	}
	return out;
})`

// view opens a link in a tab with a window of the given size and waits
// until the client has drawn the diagram at that size.
func view(t *testing.T, p *page, w, h int64, path string) {
	t.Helper()
	p.do(chromedp.EmulateViewport(w, h), chromedp.Navigate(siteURL+path))
	p.waitFrames(1)
	p.waitFor(`(() => { const c = document.getElementById("diagram"); return c && c.width === Math.round(c.clientWidth * (devicePixelRatio || 1)) && c.height === Math.round(c.clientHeight * (devicePixelRatio || 1)); })()`,
		"the diagram is painted at the size of its stage")
	p.waitStill()
}

// For a projector's and a wide screen's windows, lessons at their key
// steps show the diagram, the step controls, the caption and the verdict
// without scrolling; seven lanes included.
func TestTheLessonsPointIsOnOneScreen(t *testing.T) {
	lessons := []string{"token-ring-crash&k=11", "snapshot-nonfifo&k=47", "maekawa-deadlock&k=19", "coordination-lock-herd&k=58", "lease-fencing&k=20"}
	p := &page{t: t, ctx: reusedTab(t), errors: &[]string{}}
	check := func(w, h int64, l string) {
		t.Helper()
		view(t, p, w, h, "/?s="+l)
		bad := eval[[]string](p, onScreen+`(["diagram", "forward", "back", "play", "caption", "verdict"])`)
		assert.Empty(t, bad, "%dx%d %s", w, h, l)
		_, ch := p.canvasSize()
		assert.Greater(t, ch, float64(h)*0.45, "%dx%d %s: the diagram takes most of the height", w, h, l)
	}
	// every lesson on the projector; the header keeps its height and its
	// controls their places from lesson to lesson
	var layouts []string
	for _, l := range lessons {
		check(1280, 720, l)
		p.screenshot("present-" + strings.Split(l, "&")[0])
		layouts = append(layouts, eval[string](p, `["text-size", "theme", "add-view", "load"].map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.width].join(","); }).join(" ") + " " + document.querySelector("header.top").getBoundingClientRect().height`))
	}
	for i := range layouts {
		assert.Equal(t, layouts[0], layouts[i], "the header does not reflow: %s", lessons[i])
	}
	// the most lanes and the longest caption on the other screens
	for _, size := range [][2]int64{{1366, 768}, {1920, 1080}} {
		for _, l := range []string{"maekawa-deadlock&k=19", "coordination-lock-herd&k=58"} {
			check(size[0], size[1], l)
		}
	}
}

// Stepping keeps the diagram where it is: the caption has room for two
// lines, so a longer caption does not push the diagram up and down (nor
// make the page lay it out twice a step).
func TestTheDiagramKeepsItsHeightAsItSteps(t *testing.T) {
	p := &page{t: t, ctx: reusedTab(t), errors: &[]string{}}
	view(t, p, 1280, 720, "/?s=snapshot-bank&k=0")
	heights, captions := map[float64]int{}, map[float64]int{}
	for range 45 {
		p.key(kb.ArrowRight)
		_, h := p.canvasSize()
		heights[h]++
		captions[eval[float64](p, `document.getElementById("caption").clientHeight`)]++
	}
	assert.Len(t, heights, 1, "the diagram's heights over 45 steps: %v", heights)
	assert.Len(t, captions, 1, "the caption's heights over 45 steps (one line and two): %v", captions)
	assert.True(t, strings.HasPrefix(p.position(), "step 45 / 59"), p.position())
}

// Embedded in a slide (an iframe on another site), at every frame size
// from 480×270 up, the page fits its frame: the diagram, compact
// controls, the caption and the verdict, no scrollbars.
func TestEmbedFitsEveryFrame(t *testing.T) {
	for _, size := range [][2]int64{{480, 270}, {800, 450}, {1920, 1080}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			slides := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(rw, `<!doctype html><title>slides</title><body style="margin:0"><iframe id="lab" style="border:0" width="%d" height="%d" src="%s/?s=token-ring-crash&k=11&embed=1"></iframe>`, size[0], size[1], siteURL)
			}))
			t.Cleanup(slides.Close)
			ctx := newTab(t)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0]+40, size[1]+40), chromedp.Navigate(slides.URL)))
			frame := framedSite(t, ctx, false)
			var bad []string
			var err error
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				// a poll started while the frame reloads fails: poll again
				bad, err = chromedp.Run(frame.ctx, chromedp.Poll[[]string](`(window.spacetimeFrames || 0) >= 1 && `+onScreen+`(["diagram", "forward", "caption", "verdict"])`, frame.in...))
				if err == nil {
					break
				}
			}
			require.NoError(t, err, "the framed page runs")
			assert.Empty(t, bad)
			(&page{t: t, ctx: ctx, errors: &[]string{}}).screenshot(fmt.Sprintf("embed-%dx%d", size[0], size[1]))
		})
	}
}

// A phone's window: the page does not scroll sideways, and its first
// screen holds the diagram, Step, the caption and the verdict, a tour's
// stop below them.
func TestPhoneDoesNotScrollSideways(t *testing.T) {
	p := &page{t: t, ctx: reusedTab(t), errors: &[]string{}}
	for _, l := range []string{"snapshot-bank&k=40", "barrier-alignment&k=48", "snapshot-bank&k=59&tour=4"} {
		view(t, p, 390, 844, "/?s="+l)
		assert.LessOrEqual(t, eval[float64](p, `document.documentElement.scrollWidth`), 391.0, l)
		assert.Empty(t, eval[[]string](p, `((ids) => ids.filter(id => document.getElementById(id).getBoundingClientRect().right > innerWidth + 1))(["diagram", "caption", "verdict", "forward"])`), l)
		assert.Empty(t, eval[[]string](p, `((ids) => ids.filter(id => document.getElementById(id).getBoundingClientRect().bottom > innerHeight))(["diagram", "forward", "caption", "verdict"])`), "%s: on the first screen", l)
	}
	p.screenshot("phone")
}

// A presenter's remote sends PageDown, PageUp, the arrows and Space: they
// drive the lesson whatever was clicked last.
func TestKeysDriveTheLessonWhateverWasClicked(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=5")
	stepIs := func(k int, why string) {
		t.Helper()
		p.waitFor(fmt.Sprintf(`document.getElementById("position").textContent.startsWith("step %d /")`, k), why)
	}
	// a key as a remote sends it; the page answers in its position (a step
	// need not change the picture)
	press := func(key string) { t.Helper(); p.do(chromedp.KeyEvent(key)) }
	// the lesson picker: chosen with the pointer, it hands the keys back
	p.do(chromedp.Click(chromedp.CSS("#scenario")))
	p.do(chromedp.SetValue(chromedp.CSS("#scenario"), "snapshot-nonfifo"))
	p.waitFor(`location.search.includes("s=snapshot-nonfifo")`, "the picker opens the lesson")
	k := stepOf(p)
	press(kb.PageDown)
	stepIs(k+1, "PageDown after the picker steps the lesson")
	press(kb.ArrowRight)
	stepIs(k+2, "→ after the picker steps the lesson")
	assert.Contains(t, eval[string](p, "location.search"), "s=snapshot-nonfifo", "and does not switch lessons")

	// a checkbox: Space plays, it does not flip the checkbox again
	p.click("#fifo", false)
	p.waitFor(`location.search.includes("fifo=")`, "the checkbox reruns the lesson on the other network")
	fifo := eval[bool](p, `document.getElementById("fifo").checked`)
	p.do(chromedp.KeyEvent(" "))
	p.waitFor(`document.getElementById("play").textContent.includes("Pause")`, "Space after the checkbox plays")
	assert.Equal(t, fifo, eval[bool](p, `document.getElementById("fifo").checked`), "Space did not flip FIFO")
	p.do(chromedp.KeyEvent(" "))
	p.waitFor(`document.getElementById("play").textContent.includes("Play")`, "Space pauses")

	// a button: Space plays rather than pressing Step again
	p.click("#home", false)
	stepIs(0, "Home")
	p.click("#forward", false)
	stepIs(1, "the button steps")
	p.do(chromedp.KeyEvent(" "))
	p.waitFor(`document.getElementById("play").textContent.includes("Pause")`, "Space after Step plays")
	p.do(chromedp.KeyEvent(" "))
	p.waitFor(`document.getElementById("play").textContent.includes("Play")`, "Space pauses")

	// the speed picker: → steps, the speed stays
	p.do(chromedp.Click(chromedp.CSS("#speed")))
	p.do(chromedp.SetValue(chromedp.CSS("#speed"), "8"))
	k = stepOf(p)
	press(kb.ArrowRight)
	stepIs(k+1, "→ after the speed picker steps")
	assert.Equal(t, "8", eval[string](p, `document.getElementById("speed").value`))
	press(kb.PageUp)
	stepIs(k, "PageUp steps back")
	p.noConsoleErrors()
}

// stepOf is the step the page shows.
func stepOf(p *page) int {
	var k int
	_, err := fmt.Sscanf(p.position(), "step %d /", &k)
	require.NoError(p.t, err, p.position())
	return k
}

// coldTab opens a tab in a fresh browser profile (no cache, no service
// worker) whose requests for the client are held until release is
// called: what a student on a slow first visit sees before the client
// runs.
func coldTab(t *testing.T, path string) (p *page, release func()) {
	t.Helper()
	site(t)
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	require.NoError(t, chromedp.Do(ctx))
	p = &page{t: t, ctx: ctx, errors: &[]string{}}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*app.wasm*"}}})
		return err
	})))
	var mu sync.Mutex
	var held []fetch.RequestID
	released := false
	let := func(id fetch.RequestID) {
		_ = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
			return err
		}))
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			mu.Lock()
			if released {
				mu.Unlock()
				go let(ev.RequestID)
				continue
			}
			held = append(held, ev.RequestID)
			mu.Unlock()
		}
	}()
	p.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(siteURL+path))
	return p, func() {
		mu.Lock()
		ids := held
		held, released = nil, true
		mu.Unlock()
		for _, id := range ids {
			let(id)
		}
	}
}

// Before the client runs, the server's picture is on screen, not behind a
// curtain: a small progress pill in a corner. Keys pressed then are kept
// and take effect once the client is ready.
func TestThePictureShowsAndKeysCountWhileTheClientLoads(t *testing.T) {
	p, release := coldTab(t, "/?s=snapshot-bank&k=10")
	p.waitFor(`!!document.querySelector(".prerender svg")`, "the prerendered picture")
	shown := eval[map[string]float64](p, `(() => { const r = document.querySelector(".stage .prerender svg").getBoundingClientRect(); return {w: r.width, h: r.height, top: r.top, bottom: r.bottom}; })()`)
	assert.Greater(t, shown["w"], 600.0)
	assert.Greater(t, shown["h"], 300.0)
	assert.LessOrEqual(t, shown["bottom"], 720.0, "the picture is in the window")
	loader := eval[map[string]float64](p, `(() => { const l = document.getElementById("app-wasm-loader"); if (!l) return {w: 0, h: 0}; const r = l.getBoundingClientRect(); return {w: r.width, h: r.height}; })()`)
	assert.Less(t, loader["w"], 400.0, "the loader is a small pill, not a curtain")
	assert.Less(t, loader["h"], 80.0)
	assert.Empty(t, eval[[]string](p, onScreen+`(["caption", "verdict"])`), "the caption and verdict are on screen from the start")
	p.screenshot("loading")

	for range 3 {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	assert.Equal(t, 0, p.frames(), "the client is not running yet")
	release()
	p.waitFrames(1)
	p.waitFor(`document.getElementById("position").textContent.startsWith("step 13 /")`, "the three keys pressed while loading took effect")
	p.noConsoleErrors()
}

// A menu opened near the window's edge stays inside it: on the lowest
// lane, every item of the process menu can be reached.
func TestMenusStayInsideTheWindow(t *testing.T) {
	p := &page{t: t, ctx: reusedTab(t), errors: &[]string{}}
	view(t, p, 1280, 720, "/?s=snapshot-bank&k=20")
	p.clickProcess("snapshot-bank", 2)
	p.waitFor(`!!document.getElementById("process-menu")`, "the menu opens")
	r := eval[map[string]float64](p, `(() => { const r = document.getElementById("process-menu").getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom}; })()`)
	assert.GreaterOrEqual(t, r["t"], 0.0)
	assert.LessOrEqual(t, r["b"], 720.0, "the menu's foot is in the window")
	assert.LessOrEqual(t, r["r"], 1280.0)
	buttons := eval[int](p, `[...document.querySelectorAll("#process-menu button")].filter(b => { const r = b.getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0; }).length`)
	assert.Equal(t, eval[int](p, `document.querySelectorAll("#process-menu button").length`), buttons, "every item can be reached")
	p.screenshot("menu-lowest-lane")
}

// A label the diagram had no room for is read in a tip when the pointer
// rests on its message, and the tip stays inside the window.
func TestHoverShowsWhatTheLabelsLeaveOut(t *testing.T) {
	const lesson, k = "coordination-lock-herd", 58
	p := &page{t: t, ctx: reusedTab(t), errors: &[]string{}}
	view(t, p, 1280, 720, fmt.Sprintf("/?s=%s&k=%d", lesson, k))
	w, h := p.canvasSize()
	scn, err := scenario.Builtin(lesson)
	require.NoError(t, err)
	s, err := lab.Open(scn)
	require.NoError(t, err)
	s.Scale = p.scale()
	s.Seek(k)
	scene := s.Diagram().Scene(w, h)
	shown := map[int]bool{}
	for _, sh := range scene.Shapes {
		if id, ok := sh.Tag.Message(); ok && sh.Tag.What == diagram.WhatMessageLabel {
			shown[id] = true
		}
	}
	left := -1
	for _, m := range s.Run().Trace().Msgs {
		if m.SendStep < k && m.Label != "" && !shown[m.ID] && m.ReceivedAt(k) {
			left = m.ID
			break
		}
	}
	require.GreaterOrEqual(t, left, 0, "the lesson leaves some label out at step %d", k)
	x, y := clickable(t, scene, left)
	rect := eval[map[string]float64](p, `(() => { const r = document.getElementById("diagram").getBoundingClientRect(); return {x: r.left, y: r.top}; })()`)
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, rect["x"]+x, rect["y"]+y))
	p.waitFor(`(() => { const t = document.getElementById("tip"); return t && !t.hidden; })()`, "the tip shows")
	tip := p.text("#tip")
	assert.Contains(t, tip, s.Run().Trace().Msgs[left].Label)
	assert.Contains(t, tip, "received at")
	assert.Empty(t, eval[[]string](p, onScreen+`(["tip"])`))
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2)) // off the diagram
	p.waitFor(`document.getElementById("tip").hidden`, "the tip goes with the pointer")
	p.noConsoleErrors()
}

// A lecturer finds a lesson by typing: "/" brings the keyboard to the
// finder, the picker narrows as words are typed, Enter opens the first
// match and the remote's keys step it at once; a word that finds nothing
// is marked and opens nothing.
func TestFindALessonByTyping(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=5")
	// "/" as a keyboard sends it: one keydown that would type the
	// character unless the page prevents it (chromedp.KeyEvent would send
	// the character apart)
	slash := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			ev := input.DispatchKeyEventParams{Type: typ, Key: "/", Code: "Slash", WindowsVirtualKeyCode: 191}
			if typ == input.DispatchKeyEventTypeKeyDown {
				ev.Text = "/"
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, ev); err != nil {
				return err
			}
		}
		return nil
	})
	p.do(slash)
	p.waitFor(`document.activeElement && document.activeElement.id === "find"`, `"/" focuses the finder`)
	assert.Empty(t, eval[string](p, `document.getElementById("find").value`), `the "/" is not typed`)
	p.do(chromedp.KeyEvent("nothing like this"))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.getElementById("find").classList.contains("miss")`, "a query with no match is marked")
	assert.Contains(t, eval[string](p, "location.search"), "s=snapshot-bank", "and opens nothing")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor(`document.getElementById("find").value === "" && document.activeElement.id !== "find"`, "Escape clears the finder and leaves it")
	p.do(slash)
	p.waitFor(`document.activeElement && document.activeElement.id === "find"`, `"/" focuses the finder again`)
	p.do(chromedp.KeyEvent("token ring crash"))
	p.waitFor(`document.querySelectorAll("#scenario option").length === 2`, "the picker narrows to the match and the lesson shown")
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`location.search.includes("s=token-ring-crash")`, "Enter opens the first match")
	assert.Empty(t, eval[string](p, `document.getElementById("find").value`), "the finder is cleared")
	k := stepOf(p)
	p.do(chromedp.KeyEvent(kb.PageDown))
	p.waitFor(fmt.Sprintf(`document.getElementById("position").textContent.startsWith("step %d /")`, k+1), "PageDown steps the lesson found")
	assert.Greater(t, eval[int](p, `document.querySelectorAll("#scenario option").length`), 50, "the picker lists every lesson again")
	p.noConsoleErrors()
}

// The label placer measures texts by an estimate (diagram.TextWidth); the
// browser's own font must never draw one wider, or texts the placer kept
// apart would touch on screen. Every text of every lesson, at every 100th
// step, measured on a canvas in the page's font.
func TestTextsAreNoWiderThanThePlacerThinks(t *testing.T) {
	type text struct {
		Text string  `json:"text"`
		Bold bool    `json:"bold"`
		Want float64 `json:"want"`
	}
	const size = "L"
	scale := diagram.TextScale(size)
	seen := map[text]bool{}
	var texts []text
	for _, id := range scenario.BuiltinIDs() {
		scn, err := scenario.Builtin(id)
		require.NoError(t, err)
		s, err := lab.Open(scn)
		require.NoError(t, err)
		s.Scale = scale
		for k := 0; k <= s.Len(); k += 100 {
			s.Seek(k)
			for _, sh := range s.Diagram().Scene(880, 420).Shapes {
				if sh.Op != diagram.OpText {
					continue
				}
				bold := sh.Flags&diagram.FlagBold != 0
				tx := text{Text: sh.Text, Bold: bold, Want: diagram.TextWidth(sh.Text, bold) * scale}
				if !seen[tx] {
					seen[tx] = true
					texts = append(texts, tx)
				}
			}
		}
	}
	require.NotEmpty(t, texts)
	p := open(t, "/?s=snapshot-bank&text="+size)
	js, err := json.Marshal(texts)
	require.NoError(t, err)
	font := eval[float64](p, `parseFloat(getComputedStyle(document.querySelector(".lab")).getPropertyValue("--fs")) || 0`)
	require.Positive(t, font)
	wider := eval[[]string](p, fmt.Sprintf(`(() => {
		const g = document.createElement("canvas").getContext("2d"), out = [];
		for (const t of %s) {
			g.font = (t.bold ? "bold " : "") + %g + "px system-ui, sans-serif";
			const w = g.measureText(t.text).width;
			if (w > t.want + 0.5) out.push(JSON.stringify(t.text) + ": " + w.toFixed(1) + " px drawn, " + t.want.toFixed(1) + " px thought");
		}
		return out;
	})()`, js, 12*scale))
	assert.Empty(t, wider, "of %d texts", len(texts))
	t.Logf("%d texts measured", len(texts))
}
