//go:build js && wasm

// Command wasm is the browser side of Spacetime, built as web/app.wasm. It
// links only the client (no server code), which keeps the download small.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/ui"
)

func main() {
	ui.Routes()
	app.RunWhenOnBrowser()
}
