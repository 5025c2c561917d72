package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
)

// A learner drags the sender's point of a consistent cut back before a
// transfer it sent, whose receipt stays inside: the cut turns
// inconsistent, and the state at the cut counts the money twice.
func TestDragACutPoint(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	tr := r.Trace()
	m := tr.Msgs[2] // A sends $9 to C at tick 9; C receives it at 12
	require.Equal(t, int64(9), m.Value)
	p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d&cut=12.5,12.5,12.5", r.Len()))
	assert.Contains(t, p.text("#cut-verdict"), "The cut you drew is consistent")
	assert.Contains(t, p.text("#cut-verdict"), "Its money adds up to $300, all there is.")

	w, h := p.canvasSize()
	cut := []float64{12.5, 12.5, 12.5}
	scene := diagram.Layout(tr, r.Len(), r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale(), Cut: cut})
	rect := eval[map[string]float64](p, `(() => { const r = document.getElementById("diagram").getBoundingClientRect(); return {x: r.left, y: r.top}; })()`)
	x0, y := rect["x"]+scene.XOf(12.5), rect["y"]+scene.ProcessY(m.From)
	x1 := rect["x"] + scene.XOf(8.6)
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y, chromedp.ButtonLeft))
	for i := 1; i <= 5; i++ {
		p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*float64(i)/5, y, chromedp.ButtonLeft))
	}
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y, chromedp.ButtonLeft))
	p.waitFor(`document.querySelector("#cut-verdict").textContent.includes("inconsistent")`, "the cut follows the drag")
	assert.Contains(t, p.text("#cut-verdict"), "transfer $9 A→C")
	assert.Contains(t, p.text("#cut-verdict"), "Its money adds up to $309, but the system holds $300")
	assert.Contains(t, p.text("#panels"), "State at your cut")
	assert.Contains(t, eval[string](p, "location.search"), "cut=8.", "A's point is where the drag left it")
	p.screenshot("cut-drag")
	p.noConsoleErrors()
}

// The cut tool from the keyboard alone: C turns it on, and each process's
// menu (its name in the Processes panel) puts its point at the present.
// A's and B's points before A sends $9 to C, C's after C receives it: the
// cut is inconsistent, and says which message.
func TestACutFromTheKeyboard(t *testing.T) {
	_, r := bankRun(t, "snapshot-bank")
	m := r.Trace().Msgs[2] // A sends $9 to C at tick 9; C receives it at 12
	require.Equal(t, int64(9), m.Value)
	p := open(t, fmt.Sprintf("/?s=snapshot-bank&k=%d", m.SendStep))
	p.do(chromedp.KeyEvent("c"))
	p.waitFor(`!!document.querySelector("#cut-verdict")`, "the cut tool is on")
	assert.Contains(t, p.text("#cut-verdict"), `choose "Cut here" in a process's menu (0 of 3 placed)`)
	cutHere := func(proc int) {
		t.Helper()
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById("proc-%d").focus()`, proc)))
		p.do(chromedp.KeyEvent(kb.Enter))
		p.waitFor(`!!document.activeElement && document.activeElement.id.startsWith("menu-cut-here")`, "the menu opens on its cut")
		before := p.frames()
		p.do(chromedp.KeyEvent(kb.Enter))
		p.settle(before)
	}
	cutHere(0)
	cutHere(1)
	assert.Contains(t, p.text("#cut-verdict"), "(2 of 3 placed)")
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	p.key(kb.End)
	cutHere(2)
	p.waitFor(`document.querySelector("#cut-verdict").textContent.includes("inconsistent")`, "the cut is read")
	assert.Contains(t, p.text("#cut-verdict"), "transfer $9 A→C")
	p.screenshot("cut-keyboard")
	p.noConsoleErrors()
}
