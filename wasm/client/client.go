//go:build js && wasm

// Package client is what the page's clients share: the window's hooks for
// the benchmark harness, the bounds of what the page computes, the routes.
// Each client's main (wasm, the lesson page's; wasm/write, the Write
// view's) registers its algorithms and calls Run.
package client

import (
	"runtime"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/app/ui"
)

// Run starts the client in the browser.
func Run() {
	// spacetimeHeapMB reports the Go heap after a collection, for the
	// benchmark harness (make bench).
	app.Window().Set("spacetimeHeapMB", app.FuncOf(func(app.Value, []app.Value) any {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}))
	// spacetimeGCs counts the Go collections so far, for the benchmark
	// harness: a seek that took long with one under way is the collector's.
	app.Window().Set("spacetimeGCs", app.FuncOf(func(app.Value, []app.Value) any {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumGC
	}))
	// a link, a file or a click computes at most so much in the browser
	lab.Bounds = ui.ClientBounds
	ui.Routes()
	app.RunWhenOnBrowser()
}
