package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Header is the page's header: the title, the lesson picker and finder,
// the looks, the compare picker and the load button.
type Header struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}
