// Package wasmgc sets the garbage collector as the Write view's client
// runs it. In the browser the collector runs on the page's one thread,
// between the simulator's steps (natively it has cores of its own): at
// Go's default it took a quarter of a run's time, and a learner's program,
// which allocates far more a step than the built-in algorithms, runs 1.1
// to 1.3 times faster collecting a fifth as often, once the heap has grown
// (its first runs grow the tab's memory, which costs as much). The Write
// view's client (wasm/write) and the benchmark of learners' programs in
// wasm (cmd/throughput -programs) set it alike; the lesson page's client
// keeps Go's default.
package wasmgc

import "runtime/debug"

// Percent is the heap's growth between collections, against what was
// live after the last (Go's GOGC; its default is 100).
const Percent = 400

// Limit is the heap past which the collector runs as often as it must:
// a tab holds at most about this much, whatever Percent would allow. The
// page's runs keep at most 96 MB as the engine reckons them.
const Limit = 384 << 20

// Tune sets the collector to Percent and Limit.
func Tune() {
	debug.SetGCPercent(Percent)
	debug.SetMemoryLimit(Limit)
}
