package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the page's routes; the browser side and the server both
// call it (the server answers only routed paths).
func Routes() {
	app.Route("/", func() app.Composer { return &Lab{} })
}
