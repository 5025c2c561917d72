package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the page's routes: / holds one run (or several, as its
// link says), /compare opens a compare view, /write the Write view (the
// same Lab, served with the client that runs learners' programs: see
// write.go).
func Routes() {
	app.Route("/", func() app.Composer { return &Lab{} })
	app.Route("/compare", func() app.Composer { return &Lab{} })
	app.Route(WritePath, func() app.Composer { return &Lab{} })
}
