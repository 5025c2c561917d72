package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/internal/scenariotest"
)

// A learner writes every event's vector clock under its dot, clicks one
// event and shift-clicks another: the page says they are concurrent and
// why, and the link keeps both.
func TestCompareTwoEventsByTheirVectors(t *testing.T) {
	_, r := scenariotest.Run(t, "vector-clock-concurrent")
	p := open(t, fmt.Sprintf("/?s=vector-clock-concurrent&k=%d", r.Len()))
	before := p.frames()
	p.do(chromedp.SetValue(chromedp.CSS("#stamps"), "vector")) // it fires the change
	p.settle(before)
	p.waitFor(`location.search.includes("stamps=vector")`, "the stamps are in the link")

	w, h := p.canvasSize()
	scene := diagram.Layout(r.Trace(), r.Len(), r.Config().Spec, diagram.Options{Width: w, Height: h, Scale: p.scale(), Stamps: diagram.StampsVector})
	ax, ay, ok := scene.EventPoint(3) // P1's local event
	require.True(t, ok)
	bx, by, ok := scene.EventPoint(r.Len() - 1) // P3's last
	require.True(t, ok)
	p.clickCanvas(ax, ay, true)
	assert.Contains(t, p.text("#notice"), "Step 4 (P1, vector [2,0,0])")
	rect := eval[map[string]float64](p, `(() => { const r = document.getElementById("diagram").getBoundingClientRect(); return {x: r.left, y: r.top}; })()`)
	before = p.frames()
	p.do(chromedp.MouseClickXY(rect["x"]+bx, rect["y"]+by, chromedp.ButtonModifiers(chromedp.ModifierShift)))
	p.settle(before)
	assert.Contains(t, p.text("#notice"), "a and b are concurrent: step 4 (P1, [2,0,0]) and step 10 (P3, [0,4,4])")
	assert.Contains(t, eval[string](p, "location.search"), "sel2=")
	p.screenshot("two-events")
	p.noConsoleErrors()
}
