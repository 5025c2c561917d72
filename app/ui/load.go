package ui

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/logimport"
	"spacetime/core/scenario"
)

// Importer is the load panel (a file, or a pasted scenario or log) and the
// file dropped on the page.
type Importer struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}

func (c *PaneView) switchScenario(ctx app.Context, id string) {
	p, err := builtinPlan(id)
	if err != nil {
		c.problem = err.Error()
		return
	}
	c.load(ctx, p)
}

// builtinPlan is a built-in lesson, compiled.
func builtinPlan(id string) (*scenario.Plan, error) {
	s, err := scenario.Builtin(id)
	if err != nil {
		return nil, err
	}
	return s.Compile()
}

// load opens a scenario in the pane in place of the one it shows, at the
// step its lesson block says it opens at (a log at its end), else at 0.
func (c *PaneView) load(ctx app.Context, p *scenario.Plan) { c.loadAt(ctx, p, true) }

// loadAt is load, at step 0 unless opening is set. The run is computed
// in a burst (see lab.Burst): the 100,000-step lesson opens in 0.7 s
// rather than 0.9 s.
func (c *PaneView) loadAt(ctx app.Context, plan *scenario.Plan, opening bool) {
	s := plan.Head()
	c.replace(ctx, plan, func(sess *lab.Session) {
		if opening && s.Lesson != nil && s.Lesson.Opens > 0 {
			sess.Seek(sess.OpeningStep())
		}
	})
}

// replace opens a scenario in the pane in place of the one it shows, at
// the step seek moves the new session to (the Write view's Run keeps the
// step on screen); it reports whether it opened.
func (c *PaneView) replace(ctx app.Context, plan *scenario.Plan, seek func(*lab.Session)) bool {
	i := c.Pane
	var sess *lab.Session
	var err error
	s := plan.Head()
	lab.Burst(func() bool {
		if sess, err = lab.OpenPlan(plan, nil); err == nil {
			seek(sess)
		}
		return err == nil
	})
	if err != nil {
		c.problem = "This scenario could not be opened: " + err.Error()
		return false
	}
	old := c.sess(i)
	sess.Axis = old.Axis
	c.page.Views[i] = sess
	p := c.panes[i]
	p.reset()
	c.problem = ""
	if int(p.commandNode) >= len(s.Names) {
		p.commandNode = 0
	}
	c.changed(ctx)
	return true
}

// reset forgets the pane's inputs and starts its scenario over.
func (c *PaneView) reset(ctx app.Context) { i := c.Pane; c.loadAt(ctx, c.sess(i).Plan(), false) }

// toggleLoader opens or closes the Load panel. It opens on the text it
// had, or else on the focused pane's scenario file, unless that is too
// large to be opened again from the panel.
func (c *Importer) toggleLoader() {
	c.loading = !c.loading
	if c.loading && c.loadText == "" {
		c.loadText = string(c.sess(c.focus).ScenarioFile().Bytes())
	}
}

func (c *Importer) loadPasted(ctx app.Context) { c.openText(ctx, pastedText, c.loadText) }

// openText opens a scenario file's text in the focused pane and closes
// the Load panel, or says why what (the pasted scenario, a file's name)
// was not loaded and keeps the view; it reports whether it opened.
func (c *Importer) openText(ctx app.Context, what, text string) bool {
	if logimport.IsLog(text) {
		if what == pastedText {
			what = pastedLog
		}
		return c.openLog(ctx, what, text)
	}
	if len(text) > lab.MaxPacked {
		c.problem = fmt.Sprintf("%s was not loaded: a scenario file is at most %d bytes (1 MiB), and it has %d", what, lab.MaxPacked, len(text))
		return false
	}
	s, err := scenario.Parse([]byte(text))
	var p *scenario.Plan
	if err == nil {
		p, err = s.Compile()
	}
	if err != nil {
		if c.goElsewhereWith(err, lab.EncodeQuery(lab.RawScenarioQuery([]byte(text)))) {
			return true // another page's client runs it (a learner's program)
		}
		c.problem = what + " was not loaded: " + err.Error()
		return false
	}
	c.loading = false
	c.paneOf(c.focus).load(ctx, p)
	return true
}

// openLog opens a ShiViz or GoVector log's executions: the first in the
// focused pane, the others in new panes beside it, as many as a page
// holds; a log that breaks a rule or a bound is refused with its line and
// the rule, and one with more executions than a log opens (see
// logimport.ImportLog) says which it left closed and why.
// Reading the log and running it are the two phases of a burst (see
// lab.Burst): a large log takes half as long, and the page's memory grows
// by what the run keeps rather than by the reading's garbage as well.
func (c *Importer) openLog(ctx app.Context, what, text string) bool {
	var imported *logimport.LogImport
	opened := lab.Burst(func() bool {
		var err error
		if imported, err = logimport.ImportLog(text, logName(what)); err != nil {
			c.problem = what + " was not opened: " + err.Error()
			return false
		}
		return true
	}, func() bool {
		runs := imported.Runs
		c.loading = false
		c.paneOf(c.focus).load(ctx, runs[0])
		if c.problem != "" {
			return false
		}
		shown := 1
		for _, s := range runs[1:] {
			if len(c.page.Views) == lab.MaxViews {
				break
			}
			c.header().addScenario(ctx, s)
			shown++
		}
		if shown > 1 && c.page.Together {
			// a log is a finished execution: its runs open whole, as one
			// alone does (stepping together starts them from the beginning)
			c.page.Seek(c.focus, c.page.Len(c.focus))
		}
		switch {
		case shown < len(runs):
			c.problem = fmt.Sprintf("%s has more executions than the page has room for: a page shows %d runs, so its first %d are open", what, lab.MaxViews, shown)
		case imported.Unopened != nil:
			c.problem = fmt.Sprintf("%s, %v", what, imported.Unopened) // "x.log, line 40: a log opens at most 6 executions …"
		}
		return true
	})
	if !opened {
		return false
	}
	var notes []string
	if imported.Skipped != nil {
		notes = append(notes, fmt.Sprintf("%s, %v.", what, imported.Skipped)) // "x.log, line 5: 3 lines match no event …"
	}
	if !c.sess(c.focus).ScenarioFile().Linkable() {
		notes = append(notes, "This log is too large for a link: the page's address does not hold it, so reloading the page does not open it again.")
	}
	if len(notes) > 0 {
		c.panes[c.focus].notice = strings.Join(notes, " ")
	}
	return true
}

// logName is what titles a log's runs: the file's name, or none for a
// pasted log.
func logName(what string) string {
	if what == pastedText || what == pastedLog {
		return ""
	}
	return what
}

// pastedText names what was pasted in the Load panel, in a problem, and
// pastedLog a pasted log.
const (
	pastedText = "This scenario"
	pastedLog  = "This log"
)

// loadFile opens a scenario file the learner picked or dropped on the
// page, in the focused pane; a file larger than a log may be
// (logimport.MaxLogBytes) is refused unread, a bad one is refused with
// what is wrong, and the view stays. While a large file is read and opened, the
// page says so.
func (c *Importer) loadFile(file app.Value) {
	name := file.Get("name").String()
	size := file.Get("size").Int()
	if size > logimport.MaxLogBytes {
		c.ctx.Dispatch(func(ctx app.Context) {
			c.problem = fmt.Sprintf("%s was not loaded: a log is at most %d bytes (16 MiB), and a scenario file at most %d (1 MiB); it has %d", name, logimport.MaxLogBytes, lab.MaxPacked, size)
		})
		return
	}
	large := size >= openingNoticeAt
	if large {
		showOpening(fmt.Sprintf("Opening %s (%.1f MB)…", name, float64(size)/1e6))
	}
	var read, fail app.Func
	release := func() { read.Release(); fail.Release() }
	read = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		// the file's bytes, copied as they are: reading it as a
		// JavaScript string would encode it again to cross into Go (a
		// tenth of a second for a large log)
		data := app.Window().Get("Uint8Array").New(args[0])
		b := make([]byte, data.Get("length").Int())
		app.CopyBytesToGo(b, data)
		text := fileText(b)
		open := func() {
			c.ctx.Dispatch(func(ctx app.Context) {
				defer showOpening("")
				if c.openText(ctx, name, text) {
					c.loadText = "" // the panel shows the file's scenario next time
				}
			})
		}
		if large {
			afterPaint(open) // the learner sees that the page is at work
		} else {
			open()
		}
		return nil
	})
	fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		why := "the browser did not give its bytes"
		if len(args) > 0 && args[0].Truthy() {
			why += ": " + args[0].Call("toString").String()
		}
		showOpening("")
		c.ctx.Dispatch(func(ctx app.Context) {
			c.problem = fmt.Sprintf("%s could not be read: %s", name, why)
		})
		return nil
	})
	file.Call("arrayBuffer").Call("then", read, fail)
}

// openingNoticeAt is the size of a file from which the page says it is
// opening it: a log of 10,000 events (0.8 MB) takes a second in a fresh
// tab, a time in which the page would otherwise seem stuck.
const openingNoticeAt = 256 << 10

// showOpening shows text in a box over the page, or hides the
// box when text is empty. The box is the page's own element, outside the
// components: showing it must not render the whole page again, which
// costs a tenth of a second in a fresh tab, before the wait it announces.
func showOpening(text string) {
	doc := app.Window().Get("document")
	box := doc.Call("getElementById", "opening")
	if !box.Truthy() {
		if text == "" {
			return
		}
		box = doc.Call("createElement", "div")
		box.Set("id", "opening")
		box.Set("className", "opening")
		box.Call("setAttribute", "role", "status")
		doc.Get("body").Call("appendChild", box)
	}
	box.Set("textContent", text)
	box.Set("hidden", text == "")
}

// afterPaint runs f once the browser has painted the page as it is: a
// long computation begun before would keep what the page just said (that
// it is opening a file) from being seen. A tab the browser does not paint
// (hidden, or a frame out of view) runs f after a tenth of a second.
func afterPaint(f func()) {
	calls := 0
	var raf, run app.Func
	run = app.FuncOf(func(app.Value, []app.Value) any {
		// called twice: after the frame, and after the tenth of a second
		if calls++; calls == 1 {
			f()
		} else {
			run.Release()
		}
		return nil
	})
	raf = app.FuncOf(func(app.Value, []app.Value) any {
		raf.Release()
		app.Window().Call("setTimeout", run, 0) // after the frame is painted
		return nil
	})
	app.Window().Call("requestAnimationFrame", raf)
	app.Window().Call("setTimeout", run, 100)
}

// fileText is a file's bytes read as text: UTF-8 without its byte order
// mark, each run of bytes that are not UTF-8 replaced by one U+FFFD (the
// browser's own reading replaces each such byte). The text is the bytes
// themselves, not a copy (a large log's tab grows by its size once, not
// twice): b must not change after.
func fileText(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(b) {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// addView puts a built-in lesson in a new pane at the bottom of the page,
// stepping together with the others.
func (c *Header) addView(ctx app.Context, id string) {
	p, err := builtinPlan(id)
	if err != nil {
		c.problem = err.Error()
		return
	}
	c.addScenario(ctx, p)
}

// addScenario puts a scenario in a new pane at the bottom of the page,
// stepping together with the others.
func (c *Header) addScenario(ctx app.Context, p *scenario.Plan) {
	sess, err := lab.OpenPlan(p, nil)
	if err != nil {
		c.problem = err.Error()
		return
	}
	if err := c.page.Add(sess); err != nil {
		c.problem = err.Error()
		return
	}
	if len(c.page.Views) == 2 {
		c.page.Together = true
		for _, v := range c.page.Views {
			v.Seek(0) // stepping together starts from the beginning
		}
	}
	c.setPage(c.page)
	c.focus = len(c.panes) - 1
	c.changed(ctx)
}

// removeView takes the pane off the page.
func (c *PaneView) removeView(ctx app.Context) {
	i := c.Pane
	if !c.several() {
		return
	}
	c.panes[i].stopObserving()
	c.page.Remove(i)
	c.panes = append(c.panes[:i], c.panes[i+1:]...)
	// the panes take the element ids of their new places (the first
	// pane's ids are plain), to be observed and measured afresh
	for j, p := range c.panes {
		if p.n != j+1 {
			p.stopObserving()
			p.n, p.width, p.topoWidth = j+1, 0, 0
		}
	}
	c.nextPane = len(c.panes)
	c.focus = min(c.focus, len(c.panes)-1)
	c.changed(ctx)
}

// setTogether steps the panes together or apart.
func (c *Header) setTogether(ctx app.Context, on bool) {
	for _, p := range c.panes {
		p.playing = false
	}
	if on && !c.page.Together {
		// the shared window starts as the first pane's
		c.page.Window = c.sess(0).View
	}
	c.page.Together = on
	c.changed(ctx)
}

// axisOf reads an axis name.
func axisOf(name string) diagram.Axis {
	if name == string(diagram.AxisLamport) {
		return diagram.AxisLamport
	}
	return diagram.AxisTime
}

// Render draws the load panel: a file input, the text to paste into and
// the buttons to open it or close the panel.
func (c *Importer) Render() app.UI {
	shown := "the current scenario is shown as an example."
	if c.loadText == "" && c.sess(c.focus).ScenarioFile().Bytes() == nil {
		shown = fmt.Sprintf("the current scenario's file is larger than %d KiB, too large to show here (Export → scenario saves it).", lab.MaxPacked>>10)
	}
	return app.Div().Class("loader").Body(
		app.P().Text("Open a scenario file (JSON) or a ShiViz or GoVector log, drop one anywhere on the page, or paste one below. Their formats are described in the README; "+shown),
		app.Input().ID("scenario-file").Type("file").Accept(".json,.log,.txt,application/json,text/plain").Attr("aria-label", "open a scenario file or a log").
			OnChange(func(ctx app.Context, e app.Event) {
				if files := ctx.JSSrc().Get("files"); files.Truthy() && files.Length() > 0 {
					c.loadFile(files.Index(0))
				}
				ctx.JSSrc().Set("value", "") // the same file can be picked again
			}),
		app.Textarea().ID("scenario-text").Rows(14).Text(c.loadText).OnInput(func(ctx app.Context, e app.Event) {
			c.loadText = ctx.JSSrc().Get("value").String()
		}),
		app.Div().Body(
			app.Button().ID("load-apply").Text("Open this scenario").OnClick(func(ctx app.Context, e app.Event) { c.loadPasted(ctx) }),
			app.Button().Text("Cancel").OnClick(func(ctx app.Context, e app.Event) { c.loading = false }),
		),
	)
}
