package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/python/ports"
)

// The browser tests of the Write view: a learner edits a program beside
// its diagram, runs it, breaks it, searches it and shares it.

// editor is the program in the Write view's editor.
func (p *page) editor() string { return eval[string](p, `document.getElementById("write-code").value`) }

// caretAfter puts the editor's caret just after the first occurrence of
// text, as a learner clicking there would.
func (p *page) caretAfter(text string) {
	p.t.Helper()
	code := p.editor()
	at := strings.Index(code, text)
	require.GreaterOrEqual(p.t, at, 0, "%q is in the program", text)
	n := len([]rune(code[:at+len(text)])) // the program is ASCII: runes are UTF-16 units
	p.do(chromedp.Focus(chromedp.CSS("#write-code")))
	eval[bool](p, fmt.Sprintf(`(() => { const e = document.getElementById("write-code"); e.setSelectionRange(%d, %d); return true; })()`, n, n))
}

// paste replaces the editor's program with code, as a learner pasting a
// program over it: the editor hears an input.
func (p *page) paste(code string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.CSS("#write-code")))
	eval[bool](p, `(() => { const e = document.getElementById("write-code"); e.select(); return document.execCommand("insertText", false, `+jsString(code)+`); })()`)
	require.Equal(p.t, code, p.editor())
}

// runProgram presses Ctrl+Enter in the editor.
func (p *page) runProgram() {
	p.t.Helper()
	p.do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// keepsBoth is a token ring with a bug that no schedule of its own shows:
// a process that gets a TOKEN while it holds one keeps both, so only a
// message the network duplicates makes two tokens.
const keepsBoth = `# A token passed round a ring; a process that gets a TOKEN keeps every one it holds.
def init(p):
    p.state["tokens"] = 1 if p.id == 1 else 0
    if p.id == 1:
        p.after(1, "pass")

def on_timer(p, name):
    if name == "pass" and p.state["tokens"] > 0:
        p.state["tokens"] -= 1
        p.send(p.id % p.n + 1, "TOKEN")
        if p.state["tokens"] > 0:
            p.after(1, "pass")

def on_message(p, m):
    if m.kind == "TOKEN":
        p.state["tokens"] += 1
        p.after(1, "pass")

def invariant_one_token(states):
    return sum([s.get("tokens", 0) for s in states]) <= 1
`

// TestWriteViewALearnerBreaksAndSharesAProgram: the Write view opens on
// the starter program, runs what the learner types, shows a broken run
// and a program that does not compile, finds the schedule that breaks a
// subtler bug, and shares it all by its address.
func TestWriteViewALearnerBreaksAndSharesAProgram(t *testing.T) {
	p := open(t, "/write")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	require.Equal(t, ports.Starter(), p.editor(), "the starter program is in the editor")
	assert.Contains(t, p.text("#verdict"), "one token")
	assert.Contains(t, p.text("#invariants"), "one token: holds")
	p.click("#end", true)
	assert.True(t, strings.HasPrefix(p.position(), "step 60 / 60"), p.position())
	p.screenshot("write-start")

	// long lines wrap (README's example has comments past the editor's
	// width at 1280×720): nothing is cut, and each number stands by its
	// line's first row, as the copy under the editor wraps alike
	assert.True(t, eval[bool](p, `(() => { const e = document.getElementById("write-code"); return e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1; })()`), "no line is cut, and no row hides")
	assert.True(t, eval[bool](p, `(() => { const r = document.getElementById("write-gutter").children; return r[6].offsetHeight > 1.5 * r[7].offsetHeight; })()`), "line 7 wraps, and its number's row with it")
	// the caret at the program's end: the editor scrolls to it
	p.do(chromedp.Focus(chromedp.CSS("#write-code")))
	p.do(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.do(chromedp.SendKeys("#write-code", "\n# the end"))
	p.waitFor(`(() => { const ed = document.getElementById("write-editor"), r = document.getElementById("write-gutter").lastElementChild; return ed.scrollTop > 0 && r.offsetTop + r.offsetHeight <= ed.scrollTop + ed.clientHeight; })()`, "the editor scrolled to the caret")
	require.True(t, strings.HasSuffix(p.editor(), "\n# the end"))
	p.paste(ports.Starter())

	// the holder keeps the token when it passes it: the learner comments
	// the line out and runs the program
	before := p.frames()
	p.caretAfter(`if name == "pass" and p.state["has"]:` + "\n        ")
	p.do(chromedp.SendKeys("#write-code", "# "))
	require.Contains(t, p.editor(), `# p.state["has"] = False`)
	p.runProgram()
	p.settle(before)
	p.waitFor(`/one token: fails at step/.test(document.getElementById("invariants").textContent)`, "the broken invariant")
	assert.Contains(t, p.text("#verdict"), "one token: fails at step 6")
	assert.Contains(t, p.text("#invariants"), "one token: fails at step 6")
	failing := p.picture()

	// a colon forgotten: the program does not compile, the editor marks
	// its line, and the last good run stays on screen
	codeLeft := `document.getElementById("write-code").getBoundingClientRect().left`
	left := eval[float64](p, codeLeft)
	p.caretAfter("def on_timer(p, name):")
	p.do(chromedp.KeyEvent(kb.Backspace))
	require.Contains(t, p.editor(), "def on_timer(p, name)\n")
	p.runProgram()
	p.waitFor(`!!document.getElementById("write-error")`, "the program's error")
	p.waitStill()
	assert.Contains(t, p.text("#write-error"), "line 9")
	assert.Equal(t, "9", eval[string](p, `document.querySelector("#write-gutter .mark.problem").dataset.n`), "the gutter marks the line")
	assert.Equal(t, left, eval[float64](p, codeLeft), "the program does not move aside for the mark")
	assert.Contains(t, p.text("#notice"), "The diagram shows the last program that ran")
	assert.Contains(t, p.text("#verdict"), "one token: fails at step 6", "the last good run stays")
	assert.Equal(t, failing, p.picture(), "the last good run stays")
	assert.Equal(t, 9, eval[int](p, `(() => { const e = document.getElementById("write-code"); return e.value.slice(0, e.selectionStart).split("\n").length; })()`), "the caret is on the line")
	p.screenshot("write-failing")

	// a bug that needs a fault: run, it holds; Find the bug finds the
	// schedule that breaks it and shows its run
	before = p.frames()
	p.paste(keepsBoth)
	p.runProgram()
	p.settle(before)
	p.waitFor(`!document.getElementById("write-error")`, "the error is gone")
	assert.Contains(t, p.text("#verdict"), "holds")
	assert.Contains(t, p.text("#invariants"), "one token: holds")
	p.click("#home", true) // searched from the run's start
	p.click("#search", false)
	p.waitFor(`(document.getElementById("notice")||{}).textContent?.startsWith("Found:")`, "the search's finding")
	p.waitStill()
	found := regexp.MustCompile(`^Found: "one token" fails at step (\d+), `).FindStringSubmatch(p.text("#notice"))
	require.NotNil(t, found, p.text("#notice"))
	step := found[1]
	assert.True(t, strings.HasPrefix(p.position(), "step "+step+" /"), p.position())
	assert.Contains(t, p.text("#verdict"), "one token: fails at step "+step)
	assert.Contains(t, p.text("#invariants"), "one token: fails at step "+step)
	assert.Contains(t, eval[string](p, `location.search`), "in=", "the schedule is the link's inputs")
	assert.Contains(t, p.text("#legend"), "message duplicated by the network", "the fault it chose is drawn")
	p.screenshot("write-found")
	p.noConsoleErrors()

	// shared by its address: a fresh tab opens the same program, at the
	// same step of the same run
	link := eval[string](p, `location.href`)
	shown, verdict := p.picture(), p.text("#verdict")
	q := watchConsole(t, newTab(t))
	q.do(chromedp.EmulateViewport(1280, 720), chromedp.Navigate(link))
	q.waitFrames(1)
	q.waitStill()
	assert.Equal(t, "/write", eval[string](q, "location.pathname"))
	assert.Equal(t, keepsBoth, q.editor(), "the same program")
	assert.True(t, strings.HasPrefix(q.position(), "step "+step+" /"), q.position())
	assert.Equal(t, verdict, q.text("#verdict"))
	assert.Equal(t, shown, q.picture(), "the same run, drawn the same")
	q.noConsoleErrors()
}

// TestWriteViewAnExerciseIsChecked: from a lesson's tools, the exercise
// opens in the Write view with its skeleton; Check my answer finds the
// seed at which the skeleton fails, and shows that run at that step.
func TestWriteViewAnExerciseIsChecked(t *testing.T) {
	p := open(t, "/?s=snapshot-bank")
	p.do(chromedp.EmulateViewport(1280, 720))
	p.waitStill()
	// the link loads the Write view's page whole, as the browser follows it
	res, err := chromedp.RunResponse(p.ctx, chromedp.Click(chromedp.CSS("#open-exercise")))
	require.NoError(t, err)
	require.EqualValues(t, 200, res.Status)
	p.waitFrames(1)
	assert.Equal(t, "/write", eval[string](p, "location.pathname"))
	p.waitStill()
	skeleton, ok := ports.Skeleton("snapshot-bank")
	require.True(t, ok)
	assert.Equal(t, skeleton, p.editor(), "the skeleton is in the editor")

	p.click("#check-answer", false)
	p.waitFor(`/fails at seed/.test(document.getElementById("answer-said").textContent)`, "the check's answer")
	said := p.text("#answer-said")
	at := regexp.MustCompile(`Show seed (\d+) at step (\d+)`).FindStringSubmatch(p.text("#answer-show"))
	require.NotNil(t, at, said)
	assert.Contains(t, said, "fails at seed "+at[1])
	p.click("#answer-show", true)
	assert.True(t, strings.HasPrefix(p.position(), "step "+at[2]+" /"), p.position())
	assert.Contains(t, p.text("#answer-said"), "fails at seed "+at[1], "the check stands for the run it shows")
	p.screenshot("write-exercise")
	p.noConsoleErrors()
}
