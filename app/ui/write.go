package ui

import (
	"errors"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/core/algo/all"
)

// The Write view (/write) is where a learner writes and runs a program of
// their own. It is the same Lab as the lesson page, served with a client
// of its own (wasm/write) that links the algorithms the lesson page's
// client leaves out to stay small (all.Elsewhere: a learner's program).
// Each client opens the other's page by loading it, never in place.

// WritePath is the Write view's route.
const WritePath = "/write"

// isWritePath says a page's path is the Write view's (a static site serves
// it below its own path, as /compare).
func isWritePath(path string) bool { return strings.HasSuffix(path, WritePath) }

// writing says the page is the Write view, where a learner edits and runs
// a program of their own.
func (c *state) writing() bool { return c.write }

// route is the route of the page at path: "/write", "/compare" or "/".
func route(path string) string {
	switch {
	case isWritePath(path):
		return WritePath
	case strings.HasSuffix(path, "/compare"):
		return "/compare"
	}
	return "/"
}

// loadOwnClient loads the page at u from the server, when this client
// cannot run what the page is for (the lesson page's client routed to the
// Write view by a link inside it): the page then comes with its own client.
// It reports whether it did.
func (c *state) loadOwnClient(u *url.URL) bool {
	if app.IsServer || all.PageHere(route(u.Path)) {
		return false
	}
	app.Window().Get("location").Call("replace", u.String())
	return true
}

// goElsewhere loads the page whose client runs what the page's link names,
// when err says this client does not link its algorithm and another page's
// does (all.ElsewhereError): the lesson page, given a learner's program,
// opens the Write view with the same link, in place of its own address.
// It reports whether it did.
func (c *state) goElsewhere(err error) bool {
	u, ok := elsewhere(err)
	if ok {
		app.Window().Get("location").Call("replace", u.String())
	}
	return ok
}

// goElsewhereWith is goElsewhere for a scenario that is not the page's
// link (a file loaded or dropped), which the other page opens from query;
// Back returns to this page.
func (c *state) goElsewhereWith(err error, query string) bool {
	u, ok := elsewhere(err)
	if ok {
		u.RawQuery, u.Fragment = query, ""
		app.Window().Get("location").Call("assign", u.String())
	}
	return ok
}

// elsewhere is the address of the page, beside this one, whose client runs
// the algorithm err says this one lacks; ok is false when err says nothing
// of the kind, or names this very page (whose client should have it: the
// page then says what is wrong).
func elsewhere(err error) (u *url.URL, ok bool) {
	var e *all.ElsewhereError
	if app.IsServer || !errors.As(err, &e) {
		return nil, false
	}
	here := *app.Window().URL()
	if route(here.Path) == e.Page {
		return nil, false
	}
	here.Path = elsewherePath(here.Path, e.Page)
	return &here, true
}

// elsewherePath is the path of page (a route) on the site of a page at
// path: beside it, in the same directory (a static site may be below a
// path of its own).
func elsewherePath(path, page string) string {
	return path[:strings.LastIndex(path, "/")+1] + strings.TrimPrefix(page, "/")
}
