//go:build js && wasm

// Command wasm is the browser side of Spacetime, built as web/app.wasm. It
// links only the client (no server code), and none of the algorithms that
// another client runs (all.Elsewhere: a learner's program, wasm/write),
// which keeps the lesson page's download small.
package main

import "spacetime/wasm/client"

func main() { client.Run() }
