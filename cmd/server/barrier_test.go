package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/barrier"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The dataflow graph follows the alignment: while Op buffers S2's records
// the link from the blocked input is drawn held back, and the lesson's
// figures say what was buffered.
func TestTopologyShowsTheBlockedInput(t *testing.T) {
	_, r := scenariotest.Run(t, "barrier-alignment")
	spec := r.Config().Spec
	blocked := -1
	for k := 1; k <= r.Len() && blocked < 0; k++ {
		if len(algotest.Overlays(spec, r.At(k).View(), barrier.RoleHeld)) > 0 {
			blocked = k
		}
	}
	require.Positive(t, blocked, "Op aligns at some step")
	orange := diagram.Palette[diagram.PauseColor]
	p := open(t, fmt.Sprintf("/?s=barrier-alignment&k=%d", blocked-1))
	w, _ := p.sizeOf("topology")
	require.Positive(t, w, "the dataflow graph is drawn beside the lanes")
	before := p.countOn("topology", orange)
	p.key(kb.ArrowRight)
	assert.Contains(t, p.text("#caption"), "aligns checkpoint")
	assert.Greater(t, p.countOn("topology", orange), before+40, "the blocked input is drawn held back")
	p.screenshot("barrier-topology")
	p.noConsoleErrors()
}

// The recovery lesson with alignment switched off counts records twice,
// and the invariant says which.
func TestAlignmentOffCountsTwice(t *testing.T) {
	p := open(t, "/?s=barrier-recovery")
	p.key(kb.End)
	assert.Contains(t, p.text("#invariants"), "each record is counted exactly once: holds")
	p.click("#switch-alignment", true)
	p.key(kb.End)
	assert.Contains(t, p.text("#invariants"), "a6 is counted twice")
	assert.Contains(t, p.text("#changes"), "barrier alignment: off here, on in the lesson as written")
	p.noConsoleErrors()
}
