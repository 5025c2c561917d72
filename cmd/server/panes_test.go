package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/app/lab"
)

// clickOn clicks canvas id at its coordinates (x, y) and, when the click
// changes a picture, waits for the repaint.
func (p *page) clickOn(id string, x, y float64, repaints bool) {
	p.t.Helper()
	rect := eval[map[string]float64](p, fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return {x: r.left, y: r.top}; })()`, id))
	before := p.frames()
	p.do(chromedp.MouseClickXY(rect["x"]+x, rect["y"]+y))
	if repaints {
		p.settle(before)
	}
}

// sizeOf is canvas id's size in CSS pixels.
func (p *page) sizeOf(id string) (float64, float64) {
	s := eval[map[string]float64](p, fmt.Sprintf(`(() => { const c = document.getElementById(%q); return {w: c.clientWidth, h: c.clientHeight}; })()`, id))
	return s["w"], s["h"]
}

// countOn counts canvas id's pixels of a CSS hex colour (#rrggbb).
func (p *page) countOn(id, hex string) int {
	return eval[int](p, fmt.Sprintf(`(() => {
		const c = document.getElementById(%q), g = c.getContext("2d");
		const d = g.getImageData(0, 0, c.width, c.height).data;
		const r = parseInt("%s".slice(1,3),16), gr = parseInt("%s".slice(3,5),16), b = parseInt("%s".slice(5,7),16);
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]-r) < 8 && Math.abs(d[i+1]-gr) < 8 && Math.abs(d[i+2]-b) < 8) n++;
		return n;
	})()`, id, hex, hex, hex))
}

// query is the page's link as it stands.
func (p *page) query() url.Values {
	q, err := url.ParseQuery(strings.TrimPrefix(eval[string](p, "location.search"), "?"))
	require.NoError(p.t, err)
	return q
}

// The learner cuts a link by clicking it in the process graph: the menu
// offers to cut it, the link says so, and both views draw the cut.
func TestCutALinkByClicking(t *testing.T) {
	p := open(t, "/?v=2&s=snapshot-bank&k=45")
	w, h := p.sizeOf("topology")
	require.Positive(t, w, "the bank's process graph is drawn beside the lanes")
	sess, err := lab.FromQuery(url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "k": {"45"}})
	require.NoError(t, err)
	topo := sess.Diagram().TopologyScene(w, h)
	x, y, ok := topo.LinkAt(0, 1)
	require.True(t, ok, "A and B are linked")
	require.Equal(t, diagram.HitLink, topo.Hit(x, y).Kind)
	redBefore := p.countOn("topology", diagram.Palette[diagram.CrashColor])

	p.clickOn("topology", x, y, false)
	p.do(chromedp.WaitVisible(chromedp.CSS("#link-menu")))
	assert.Contains(t, p.text("#link-menu"), "Link A–B: A→B up, B→A up")
	p.click("#menu-cut", true)
	q := p.query()
	assert.Equal(t, "45l1.2", q.Get("in"), "the cut is the learner's input, in the link")
	assert.Contains(t, p.text("#caption"), "the link A↔B is cut")
	assert.Greater(t, p.countOn("topology", diagram.Palette[diagram.CrashColor]), redBefore+20, "the cut link is drawn red and dashed")

	// heal it from the same menu
	p.clickOn("topology", x, y, false)
	p.do(chromedp.WaitVisible(chromedp.CSS("#link-menu")))
	assert.Contains(t, p.text("#link-menu"), "A→B cut, B→A cut")
	p.click("#menu-heal", true)
	assert.Equal(t, "45l1.2,46h1.2", p.query().Get("in"))
	assert.Contains(t, p.text("#caption"), "heals")
	p.screenshot("cut-link")
	p.noConsoleErrors()
}

// A compare view: two lessons side by side, stepped together in time
// order on a shared axis.
func TestCompareViewStepsTogether(t *testing.T) {
	p := open(t, "/compare")
	require.Contains(t, p.text("#pane"), "Run 1")
	require.Contains(t, p.text("#pane-2"), "Run 2")
	assert.True(t, eval[bool](p, `document.getElementById("together").checked`))
	for range 12 {
		p.key(kb.ArrowRight)
	}
	want, err := lab.PageFromQuery(url.Values{}, true)
	require.NoError(t, err)
	for range 12 {
		want.Forward(0)
	}
	q := p.query()
	assert.Equal(t, strconv.Itoa(want.Views[0].Step()), q.Get("k"), "the first run's step")
	assert.Equal(t, strconv.Itoa(want.Views[1].Step()), q.Get("k.2"), "the second run's step")
	assert.Equal(t, "snapshot-nonfifo", q.Get("s.2"))
	assert.Equal(t, fmt.Sprintf("event %d / %d, in time order", want.Position(0), want.Len(0)), p.text("#position"))
	// both panes were drawn on the same axis: their now lines are at the
	// same time
	assert.Equal(t, fmt.Sprintf("time %d", want.Views[0].Now()), p.text("#pane-position")[strings.LastIndex(p.text("#pane-position"), "time"):])
	p.key(kb.End)
	assert.Contains(t, p.text("#run-verdict-2"), "fails at step", "the second run's snapshot breaks")
	p.screenshot("compare")

	// apart, each pane has its own controls again
	p.click("#together", true)
	assert.Equal(t, "apart", p.query().Get("steps"))
	p.do(chromedp.WaitVisible(chromedp.CSS("#forward-2")))
	p.noConsoleErrors()
}

// Keys go to the pane that has focus.
func TestKeysGoToTheFocusedPane(t *testing.T) {
	p := open(t, "/?v=2&s=snapshot-bank&k=5&s.2=snapshot-nonfifo&k.2=5&steps=apart")
	p.click("#caption-2", false) // into the second pane
	p.key(kb.ArrowRight)
	q := p.query()
	assert.Equal(t, "6", q.Get("k.2"), "the focused pane steps")
	assert.Equal(t, "5", q.Get("k"), "the other stays")
	p.click("#caption", false)
	p.key(kb.ArrowRight)
	p.key(kb.ArrowRight)
	q = p.query()
	assert.Equal(t, "7", q.Get("k"))
	assert.Equal(t, "6", q.Get("k.2"))
	assert.True(t, eval[bool](p, `document.getElementById("pane").classList.contains("active")`))
	p.noConsoleErrors()
}

// A link made before processes were counted from 1 opens exactly as it did:
// the same picture as today's link for the same view.
func TestAnOldLinkOpensUnchanged(t *testing.T) {
	old := open(t, "/?v=1&s=snapshot-bank&in=20c1,30ksnapshot.2.0.0&k=45")
	assert.Contains(t, old.text("#processes"), "crashed")
	picture := old.picture()
	today := open(t, "/?v=2&s=snapshot-bank&in=20c2,30ksnapshot.3.0.0&k=45")
	assert.Equal(t, picture, today.picture(), "B crashed and C started a snapshot, in both")
	assert.Contains(t, today.text("#caption"), "")
	old.noConsoleErrors()
}
