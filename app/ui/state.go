package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
)

// state is what every part of the page shares: the runs, their panes'
// state and the page-wide settings. The Lab holds it; each part holds a
// pointer to it (parts.go).
type state struct {
	page  *lab.Page
	panes []*pane
	// focus is the pane the keyboard acts on (the last one clicked or
	// focused).
	focus int
	// nextPane numbers new panes, for their element ids.
	nextPane int
	// enlarged is the compare view's run shown alone, counted from 1; 0
	// shows them all.
	enlarged int
	// rev counts the Lab's renders; the parts take it as a field so that
	// a render of the Lab renders them too (parts.go).
	rev int

	// problem is bad input the learner should read (a link or scenario that
	// could not be opened); the view keeps what it had.
	problem string
	embed   bool
	// compare says the page was opened as /compare.
	compare bool
	// write says the page was opened as /write, the Write view (writing).
	write bool
	// index says the page shows the course's index (courseIndex) and no
	// run: page and panes are empty.
	index bool
	speed int

	loading  bool
	loadText string
	// pngScale is how many pixels of a PNG export a CSS pixel of the
	// diagram is (pngScales).
	pngScale int
	// winWidth is the window's width as last reported (0 before), which
	// picks the default text size.
	winWidth float64
	// find is what was typed into the finder; findMiss says Enter found
	// no lesson for it.
	find     string
	findMiss bool
	// tip is the text of the tip shown beside the pointer ("" for none),
	// tipAt what it was last asked about.
	tip   string
	tipAt tipAt

	// ctx is the Lab's context once mounted, on which the painting and
	// the listeners dispatch.
	ctx     app.Context
	mounted bool
	// onSize is the canvases' size observer (web/spacetime.js).
	onSize app.Func
	// onMessage listens to the slides that frame the page (slides.go).
	onMessage app.Func
	// announced is the state last told to the slides that frame the page.
	announced lab.SlideState
	// prepared is the token of what the server opened for this page (on
	// the server; "" otherwise), under which it names the page (namePage).
	prepared string
}
