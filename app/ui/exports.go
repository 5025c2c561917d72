package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Exports are the side column's buttons that save the run in the focused
// pane.
type Exports struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}
