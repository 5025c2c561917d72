package ui

import (
	"time"

	"spacetime/core/engine"
)

// What a page in a browser computes for one link, one file or one click at
// most: the longest lesson keeps 29 MB, as the engine reckons it, and takes
// about 1.5 s under WebAssembly; the longest log a page opens (100,000
// events, logimport.MaxLogEvents) keeps 62 MB, and one of more hosts more
// (their clocks). A run past either bound is shown as far as it got, and
// the page says so; a lesson as the course wrote it has only the first.
const (
	clientBytes = 96 << 20
	clientTime  = 4 * time.Second
	// clientClockEvery is how many steps pass between reads of the clock,
	// which costs more than a step in the browser.
	clientClockEvery = 1024
)

// ClientBounds is a fresh budget for a run the page opens or extends (see
// lab.Bounds), which the client's main sets. A lesson's run is bounded in
// memory only: the course measured what it costs (the longest fits
// clientBytes, TestTheLongestLogAndLessonFitTheClientsBounds), and a
// machine slower than clientTime allows for it must still show it whole.
func ClientBounds(lesson bool) *engine.Budget {
	if lesson {
		return &engine.Budget{Bytes: clientBytes}
	}
	deadline := time.Now().Add(clientTime)
	steps := 0
	return &engine.Budget{Bytes: clientBytes, Cancelled: func() bool {
		steps++
		return steps%clientClockEvery == 0 && time.Now().After(deadline)
	}}
}
