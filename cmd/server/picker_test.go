package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// The lesson picker reached from the keyboard: its arrow keys move the
// choice without leaving the lesson on screen, Enter opens the choice,
// and Escape (or leaving the picker) puts the lesson on screen back, so
// that a keyboard or a remote never lands in another lesson by accident.
func TestThePickersArrowsChooseAndEnterOpens(t *testing.T) {
	p := open(t, "/?s=snapshot-bank&k=20")
	lesson := func() string { return eval[string](p, `new URLSearchParams(location.search).get("s")`) }
	picked := func() string { return eval[string](p, `document.getElementById("scenario").value`) }
	p.do(chromedp.Focus(chromedp.CSS("#scenario")))

	for _, k := range []string{kb.ArrowDown, kb.ArrowRight, kb.ArrowDown} {
		p.do(chromedp.KeyEvent(k))
	}
	p.waitFor(`document.getElementById("scenario").value !== "snapshot-bank"`, "the arrows move the choice")
	choice := picked()
	p.waitStill()
	assert.Equal(t, "snapshot-bank", lesson(), "the arrows open nothing")
	assert.Contains(t, p.position(), "step 20 /", "the lesson on screen stays where it was")

	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor(`document.getElementById("scenario").value === "snapshot-bank"`, "Escape puts the lesson on screen back in the picker")
	assert.Equal(t, "snapshot-bank", lesson())

	p.do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
	p.waitFor(`document.getElementById("scenario").value !== "snapshot-bank"`, "the arrows move the choice again")
	assert.Equal(t, choice, picked())
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`new URLSearchParams(location.search).get("s") === `+jsString(choice), "Enter opens the choice")
	p.noConsoleErrors()
}
