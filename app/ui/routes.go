package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the page's routes: / holds one run (or several, as its
// link says), /compare opens a compare view.
func Routes() {
	app.Route("/", func() app.Composer { return &Lab{} })
	app.Route("/compare", func() app.Composer { return &Lab{} })
}
