//go:build js && wasm

// Command write is the Write view's client, built as web/write.wasm: the
// lesson page's client (wasm) and the interpreter of learners' programs
// (core/algo/python), which the server sends on /write only.
package main

import (
	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/internal/wasmgc"
	"spacetime/wasm/client"
)

func main() {
	// a learner's program allocates far more a step than the built-in
	// algorithms: the collector is set for it (the lesson page's client
	// keeps Go's default)
	wasmgc.Tune()
	all.Add(python.Spec)
	client.Run()
}
