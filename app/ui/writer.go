package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Writer is the Write view's editor: the program that runs the pane (a
// lesson run as code, or a learner's own), beside its diagram. Run (or
// Ctrl+Enter, Cmd+Enter in the editor) runs the lesson again with the
// program as edited; a program that does not compile leaves the last good
// run on screen and says where it is wrong, and a run that stopped because
// a handler raised says where, and in which process, handler and event.
//
// It is a plain textarea laid over a copy of its text, a line to an
// element, whose numbers make the gutter: long lines wrap, each line's
// number stands by its first row, and the two scroll as one. No editor to
// download, and the page's text size.
type Writer struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// writing is a pane's editor: the program as the learner edits it, and
// why it last did not run.
type writing struct {
	// text is the program in the editor, edited from base, the program
	// the pane ran when editing began: once the pane runs another (a
	// link, another lesson), the editor shows that one.
	text, base string
	// problem is why the edited program did not run (it does not
	// compile), at line and col (0: no place in it); "" when it ran.
	problem   string
	line, col int
	// escaped says Escape was pressed in the editor: the next Tab leaves
	// it rather than indenting (the keyboard is not trapped).
	escaped bool
}

// writes says the pane shows its editor: the first pane of a page not
// embedded in a slide, when its scenario runs a program.
func (c *state) writes(i int) bool {
	return i == 0 && !c.embed && !c.gridded() && c.sess(i).Scenario().Code != ""
}

// draft is the pane's editor, holding the program the pane runs unless
// the learner edited it since.
func (c *Writer) draft() *writing {
	w := &c.panes[c.Pane].write
	if code := c.sess(c.Pane).Scenario().Code; w.base != code {
		*w = writing{text: code, base: code}
	}
	return w
}

// edit takes the editor's text as the learner typed it.
func (c *Writer) edit(text string) { c.draft().text = text }

// run runs the pane's scenario with the program in the editor: the run
// is replaced (at the step on screen, or the end if the new run is
// shorter), the learner's inputs replayed on it, and the link follows;
// a program that does not compile keeps the run on screen and says why,
// at its line.
func (c *Writer) run(ctx app.Context) {
	i := c.Pane
	w := c.draft()
	c.stopPlaying(i)
	s := c.sess(i)
	kept, err := s.Rewrite(w.text)
	if err != nil {
		w.problem, w.line, w.col = placed(err)
		c.panes[i].notice = "Your program did not run: " + w.problem + ". The diagram shows the last program that ran."
		c.focusProblem(ctx)
		return
	}
	*w = writing{text: w.text, base: s.Scenario().Code}
	c.panes[i].reset()
	c.problem = ""
	if kept != nil {
		c.panes[i].notice = "Your program ran; " + kept.Error() + "."
	}
	if f := s.Failure(); f != nil {
		c.panes[i].notice = "Your program ran, and stopped at step " + strconv.Itoa(f.Step+1) + ": " + failureText(f.Err)
		c.caretAt(ctx, f.Err)
	}
	c.changed(ctx)
}

// showFailure takes the diagram to the step at which the run stopped.
func (c *Writer) showFailure(ctx app.Context) {
	i := c.Pane
	if f := c.sess(i).Failure(); f != nil {
		c.controlsOf(i).step(ctx, func() { c.page.Seek(i, f.Step+1) })
		c.caretAt(ctx, f.Err)
	}
}

// caretAt puts the editor's caret at a run's error, at its line.
func (c *Writer) caretAt(ctx app.Context, err error) {
	if _, line, col := placed(err); line > 0 {
		c.caret(ctx, line, col)
	}
}

// placed is the words of a program's error and its place in the program
// (0, 0: none). The place is read through Place (the interpreter's Error
// has it), so that the page that shows it need not link the interpreter.
func placed(err error) (words string, line, col int) {
	var at interface {
		error
		Place() (int, int)
	}
	if errors.As(err, &at) {
		line, col = at.Place()
		return at.Error(), line, col
	}
	return err.Error(), 0, 0
}

// failureText is a failed step's error in words: its line and column,
// what went wrong, and where (process, handler and event).
func failureText(err error) string {
	words, _, _ := placed(err)
	return words
}

// focusProblem puts the editor's caret where the program is wrong.
func (c *Writer) focusProblem(ctx app.Context) {
	if w := c.draft(); w.line > 0 {
		c.caret(ctx, w.line, w.col)
	}
}

// caret puts the editor's caret at a line and column of its text, which
// scrolls that line into view, once the page has rendered.
func (c *Writer) caret(ctx app.Context, line, col int) {
	at := offsetOf(c.draft().text, line, col)
	p := c.panes[c.Pane]
	ctx.Defer(func(app.Context) {
		el := app.Window().GetElementByID(p.id("write-code"))
		if !el.Truthy() {
			return
		}
		el.Call("focus", map[string]any{"preventScroll": true})
		el.Call("setSelectionRange", at, at)
		// the line a third of the way down
		editor := app.Window().GetElementByID(p.id("write-editor"))
		row := app.Window().GetElementByID(p.id("write-gutter"))
		if editor.Truthy() && row.Truthy() && line <= row.Get("children").Length() {
			top := row.Get("children").Index(line - 1).Get("offsetTop").Float()
			editor.Set("scrollTop", max(0, top-editor.Get("clientHeight").Float()/3))
		}
	})
}

// offsetOf is the index, in UTF-16 units as the browser counts a
// textarea's text, of line and column (counted from 1, the column in
// bytes as the interpreter counts it).
func offsetOf(text string, line, col int) int {
	at := 0
	for l := 1; l < line; l++ {
		nl := strings.IndexByte(text[at:], '\n')
		if nl < 0 {
			break
		}
		at += nl + 1
	}
	end := min(at+max(col-1, 0), len(text))
	if nl := strings.IndexByte(text[at:end], '\n'); nl >= 0 {
		end = at + nl
	}
	return utf16Len(text[:end])
}

// utf16Len is the length of s in UTF-16 units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// key runs the program on Ctrl+Enter or Cmd+Enter, and makes Tab indent
// by four spaces (Escape, then Tab, leaves the editor).
func (c *Writer) key(ctx app.Context, e app.Event) {
	w := c.draft()
	k := e.Get("key").String()
	mod := e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()
	switch {
	case k == "Enter" && mod:
		e.PreventDefault()
		c.edit(ctx.JSSrc().Get("value").String())
		c.run(ctx)
		return
	case k == "Tab" && !mod && !e.Get("shiftKey").Bool() && !e.Get("altKey").Bool() && !w.escaped:
		e.PreventDefault()
		el := ctx.JSSrc()
		// insertText keeps the browser's undo, and fires input
		if !app.Window().Get("document").Call("execCommand", "insertText", false, indent).Bool() {
			el.Call("setRangeText", indent, el.Get("selectionStart"), el.Get("selectionEnd"), "end")
			c.edit(el.Get("value").String())
		}
	}
	w.escaped = k == "Escape"
	ctx.PreventUpdate()
}

// indent is what Tab types in the editor.
const indent = "    "

// typed takes what the learner typed, and renders the copy of the text
// under it again, so that the gutter's numbers follow the lines as they
// wrap.
func (c *Writer) typed(ctx app.Context) {
	c.edit(ctx.JSSrc().Get("value").String())
}

// Render draws the editor: its bar (Run), the gutter and the text, and
// under them why the program did not run or where its run stopped.
func (c *Writer) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	w := c.draft()
	f := c.sess(i).Failure()
	failed, failedAt := "", 0
	if f != nil {
		failed = failureText(f.Err)
		_, failedAt, _ = placed(f.Err)
	}
	return app.Section().ID(p.id("writer")).Class("writer").Attr("aria-label", "your program").Body(
		app.Div().Class("writer-bar").Body(
			app.Strong().Text("Your program"),
			app.Span().Class("hint").Text("Python: Ctrl+Enter runs it"),
			app.Button().ID(p.id("write-run")).Class("run").Title("Run the lesson with this program (Ctrl+Enter or Cmd+Enter in the editor)").Text("Run ▶").
				OnClick(func(ctx app.Context, e app.Event) { c.run(ctx) }, app.EventScope(p.n, i)),
		),
		app.Div().ID(p.id("write-editor")).Class("editor").Body(
			app.Div().Class("lines").Body(
				app.Div().ID(p.id("write-gutter")).Class("gutter").Attr("aria-hidden", "true").Body(gutter(w.text, w.line, failedAt)...),
				c.codeArea(w.text).
					Spellcheck(false).Wrap("soft").Attr("autocapitalize", "off").Attr("autocomplete", "off").
					Attr("aria-label", "the program, in Python").Attr("aria-describedby", p.id("write-problem")).
					OnInput(func(ctx app.Context, e app.Event) { c.typed(ctx) }, app.EventScope(p.n, i)).
					OnKeyDown(func(ctx app.Context, e app.Event) { c.key(ctx, e) }, app.EventScope(p.n, i)),
			),
		),
		app.Div().ID(p.id("write-problem")).Class("write-notes").Attr("role", "status").Body(
			app.If(w.problem != "", func() app.UI {
				return app.P().ID(p.id("write-error")).Class("write-error").Text("Not run: " + w.problem)
			}),
			app.If(failed != "", func() app.UI {
				return app.P().ID(p.id("write-failure")).Class("write-failure").Body(
					app.Text(fmt.Sprintf("The run stopped at step %d: %s ", f.Step+1, failed)),
					app.Button().ID(p.id("write-failure-step")).Class("link").Textf("Show step %d", f.Step+1).
						OnClick(func(ctx app.Context, e app.Event) { c.showFailure(ctx) }, app.EventScope(p.n, i)),
				)
			}),
		),
		app.If(c.answers(i), func() app.UI { return c.answerOf(i) }),
	)
}

// codeArea is the editor's textarea holding text: go-app sets its value,
// and the server's page, which a browser shows before the client runs,
// also holds the text as the textarea's content (a value attribute shows
// nothing in HTML).
func (c *Writer) codeArea(text string) app.HTMLTextarea {
	ta := app.Textarea().ID(c.panes[c.Pane].id("write-code")).Class("code").Text(attrText(text))
	if app.IsServer {
		ta = ta.Body(app.Text(text))
	}
	return ta
}

// gutter is the copy of the program under the editor, a line to an
// element, which wraps as the editor does: its number (data-n, drawn by
// the style sheet) stands by the line's first row. The line of the edited
// program's error and that of the run's failure are marked.
func gutter(text string, problem, failed int) []app.UI {
	lines := strings.Split(text, "\n")
	out := make([]app.UI, len(lines))
	for i, line := range lines {
		l := app.Div().Class("l").DataSet("n", i+1).Text(line)
		switch i + 1 {
		case problem:
			l = l.Class("mark problem").Title("the program is wrong here")
		case failed:
			l = l.Class("mark failed").Title("the run stopped here")
		}
		out[i] = l
	}
	return out
}
