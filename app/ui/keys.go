package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// key handles the keyboard, for the pane that has focus (for every pane,
// when they step together): arrows and PageUp/PageDown step (presenter
// remotes send the latter), Space plays, Home and End jump, + − 0 F zoom
// and follow, Shift+arrows pan, C the cut tool, E selects the latest event
// (Shift+E compares it with the selected one), M opens the menu of a
// message in flight (the next one on each press), B finds the bug (starts
// or stops the search for a breaking schedule), Escape closes what is
// open.
func (c *Lab) key(ev app.Value) {
	if c.page == nil {
		return // the course's index: its links are the browser's
	}
	// keys with Ctrl, Cmd or Alt are the browser's (zoom, find, back)
	if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
		return
	}
	// A remote's PageDown and PageUp always step the lesson, whatever has
	// focus, text fields aside. Other keys typed into a field, moving the
	// scrubber or choosing in a picker belong to it, and Space or Enter on
	// a focused button or checkbox presses it. (A control used with the
	// pointer gives focus back at once: web/spacetime.js.)
	k := ev.Get("key").String()
	target := ev.Get("target")
	remote := k == "PageDown" || k == "PageUp"
	switch target.Get("tagName").String() {
	case "TEXTAREA":
		return
	case "SELECT":
		if !remote {
			return
		}
	case "INPUT":
		switch t := target.Get("type").String(); {
		case t == "checkbox":
			if k == " " || k == "Enter" {
				return
			}
		case t == "range":
			if !remote {
				return
			}
		default:
			return
		}
	case "BUTTON":
		if k == " " || k == "Enter" {
			return
		}
	}
	if c.page == nil || len(c.panes) == 0 {
		return
	}
	i := min(max(c.focus, 0), len(c.panes)-1)
	var act func(app.Context)
	if ev.Get("shiftKey").Bool() && (k == "ArrowRight" || k == "ArrowLeft") {
		dir := 1.0
		if k == "ArrowLeft" {
			dir = -1
		}
		k = "pan"
		act = func(ctx app.Context) { c.controlsOf(i).pan(ctx, dir*panStep) }
	}
	stepping := false
	switch k {
	case "pan":
	case "ArrowRight", "PageDown":
		act, stepping = func(ctx app.Context) { c.controlsOf(i).forward(ctx) }, true
		if c.tourOf(i).touring() {
			act = func(ctx app.Context) { c.tourOf(i).nextStop(ctx) }
		}
	case "ArrowLeft", "PageUp":
		act, stepping = func(ctx app.Context) { c.controlsOf(i).back(ctx) }, true
		if c.tourOf(i).touring() {
			act = func(ctx app.Context) { c.tourOf(i).prevStop(ctx) }
		}
	case "t", "T":
		act = func(ctx app.Context) { c.tourOf(i).toggleTour(ctx) }
	case "q", "Q":
		if c.several() {
			return
		}
		act = func(ctx app.Context) { c.quizOf(i).toggleQuiz(ctx) }
	case "1", "2", "3", "4":
		if _, asking := c.sess(i).Quiz().Asking(); !asking {
			return
		}
		n := int(k[0] - '1')
		act = func(ctx app.Context) { c.quizOf(i).answer(ctx, n) }
	case "Home":
		act, stepping = func(ctx app.Context) { c.controlsOf(i).home(ctx) }, true
	case "End":
		act, stepping = func(ctx app.Context) { c.controlsOf(i).end(ctx) }, true
	case " ", "Spacebar":
		act = func(ctx app.Context) { c.controlsOf(i).togglePlay(ctx) }
	case "Escape":
		act = func(ctx app.Context) {
			p := c.panes[i]
			if p.menu.kind == menuNone && p.notice == "" && c.tourOf(i).touring() {
				c.tourOf(i).goToStop(ctx, 0) // nothing else to close: the tour ends
				return
			}
			if p.menu.kind == menuNone && p.notice == "" && c.sess(i).Causality().Selected() < 0 && c.enlarged != 0 {
				c.enlarge(ctx, -1) // nothing else to close: back to every run
				return
			}
			p.menu.kind, p.notice = menuNone, ""
			c.sess(i).Causality().Select(-1)
			c.changed(ctx)
		}
	case "+", "=":
		act = func(ctx app.Context) { c.controlsOf(i).zoom(ctx, 1/zoomStep) }
	case "-", "_":
		act = func(ctx app.Context) { c.controlsOf(i).zoom(ctx, zoomStep) }
	case "0":
		act = func(ctx app.Context) { c.controlsOf(i).resetView(ctx) }
	case "f", "F":
		act = func(ctx app.Context) { c.controlsOf(i).follow(ctx) }
	case "c", "C":
		act = func(ctx app.Context) { c.cutToolOf(i).toggleCut(ctx) }
	case "m", "M":
		act = func(ctx app.Context) { c.paneOf(i).nextMessageMenu(ctx) }
	case "b", "B":
		act = func(ctx app.Context) { c.searchOf(i).toggleSearch(ctx); c.changed(ctx) }
	case "e", "E":
		compare := ev.Get("shiftKey").Bool()
		act = func(ctx app.Context) { c.paneOf(i).selectLatestEvent(ctx, compare) }
	default:
		return
	}
	ev.Call("preventDefault")
	c.ctx.Dispatch(func(ctx app.Context) {
		if stepping {
			c.stopPlaying(i)
		}
		act(ctx)
	})
}
