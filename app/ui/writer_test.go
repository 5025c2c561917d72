package ui

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
)

// tokenRing is the token ring's port, which runs token-ring-idle as code.
func tokenRing(t testing.TB) string {
	t.Helper()
	code, ok := ports.For("token-ring")
	require.True(t, ok)
	return code
}

// coded is the link of token-ring-idle run by code, at step k.
func coded(code string, k int) url.Values {
	q := lab.CodeQuery("token-ring-idle", code)
	q.Set("k", strconv.Itoa(k))
	return q
}

// mountWriter mounts pane 0's editor alone over a link.
func mountWriter(t testing.TB, q url.Values) *partRig {
	t.Helper()
	return mountPart(t, q, func(c *state) app.UI { return c.writerOf(0) })
}

// lineOf is the line (from 1) of the first line of code holding s.
func lineOf(t testing.TB, code, s string) int {
	t.Helper()
	for i, l := range strings.Split(code, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", s)
	return 0
}

// The editor shows the program the pane runs, with a number per line,
// and no lesson written in Go has one.
func TestTheWriterShowsTheProgram(t *testing.T) {
	code := tokenRing(t)
	r := mountWriter(t, coded(code, 5))
	p := r.page()
	area := p.id("write-code")
	assert.Equal(t, "textarea", area.tag)
	assert.Equal(t, code, area.attrs["value"])
	assert.Equal(t, "false", area.attrs["spellcheck"])
	assert.Equal(t, "soft", area.attrs["wrap"], "long lines wrap")
	lines := strings.Count(code, "\n") + 1
	assert.Len(t, p.classed("l"), lines, "a numbered copy of each line under the editor")
	assert.Equal(t, strconv.Itoa(lines), p.classed("l")[lines-1].attrs["data-n"])
	assert.Empty(t, p.classed("mark"), "nothing is wrong")
	assert.Equal(t, "Run ▶", p.id("write-run").text())

	st := newState(t, link("token-ring-idle", 5))
	assert.False(t, st.writes(0), "a lesson in Go has no editor")
	assert.True(t, r.st.writes(0))
}

// Run runs the lesson with the program as edited: the pane's run is
// replaced at the step on screen, and the link carries the new program.
func TestRunningAnEditReplacesTheRun(t *testing.T) {
	code := tokenRing(t)
	r := mountWriter(t, coded(code, 12))
	before := r.st.sess(0).Plan()
	edited := strings.Replace(code, `p.say("gets the token and passes it on after a tick")`, `p.say("takes the token for a tick")`, 1)
	require.NotEqual(t, code, edited)
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(edited)
		w.run(ctx)
	})
	s := r.st.sess(0)
	assert.NotSame(t, before, s.Plan(), "the run is replaced")
	assert.Equal(t, edited, s.Scenario().Code)
	assert.Equal(t, "token-ring-idle", s.Scenario().ID)
	assert.Equal(t, 12, s.Step(), "the step on screen stays")
	assert.Equal(t, lab.CodeQuery("token-ring-idle", edited).Get("code"), r.url().Get("code"), "the link carries the new program")
	assert.Equal(t, "12", r.url().Get("k"))
	said := false
	for k := 1; k <= s.Len(); k++ {
		s.Seek(k)
		said = said || strings.Contains(s.Caption(), "takes the token for a tick")
	}
	assert.True(t, said, "the new program's words are the captions")
	p := r.page()
	assert.Equal(t, edited, p.id("write-code").attrs["value"])
	assert.Nil(t, p.byID("write-error"))

	// a program whose run is shorter (it raises at the first TOKEN) is
	// shown at its end
	r.do(func(ctx app.Context) { r.st.page.Seek(0, s.Len()) })
	end := r.st.sess(0).Step()
	short := strings.Replace(edited, "token = (m.gen, m.hop)", "token = (m.gen, m.hops)", 1)
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(short)
		w.run(ctx)
	})
	s = r.st.sess(0)
	assert.Equal(t, short, s.Scenario().Code)
	assert.Less(t, s.Len(), end)
	assert.Equal(t, s.Len(), s.Step(), "past its end, the end")
}

// A program that does not compile leaves the last good run on screen and
// says where it is wrong: in the gutter, under the editor and in the
// pane's notice.
func TestASyntaxErrorKeepsTheLastGoodRun(t *testing.T) {
	code := tokenRing(t)
	r := mountWriter(t, coded(code, 7))
	before := r.st.sess(0).Plan()
	link := r.url().Encode()
	broken := strings.Replace(code, "def on_recover(p):", "def on_recover(p)", 1)
	line := lineOf(t, broken, "def on_recover(p)")
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(broken)
		w.run(ctx)
	})
	assert.Same(t, before, r.st.sess(0).Plan(), "the run on screen stays")
	assert.Equal(t, 7, r.st.sess(0).Step())
	assert.Equal(t, link, r.url().Encode(), "the link still names the program that ran")
	w := r.st.panes[0].write
	assert.Equal(t, line, w.line)
	assert.Equal(t, len("def on_recover(p)")+1, w.col)
	where := fmt.Sprintf("line %d, column %d", line, w.col)
	p := r.page()
	assert.Contains(t, p.id("write-error").text(), where)
	marks := p.classed("mark")
	require.Len(t, marks, 1)
	assert.True(t, marks[0].hasClass("problem"))
	assert.Equal(t, strconv.Itoa(line), marks[0].attrs["data-n"])
	assert.Equal(t, broken, p.id("write-code").attrs["value"], "the edit is kept")
	assert.Contains(t, r.st.panes[0].notice, "Your program did not run: "+where)
	assert.Contains(t, r.st.panes[0].notice, "the last program that ran")

	// mended, it runs, and the marks go
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(code)
		w.run(ctx)
	})
	assert.NotSame(t, before, r.st.sess(0).Plan(), "the run is replaced")
	assert.Empty(t, r.page().classed("mark"))
	assert.Nil(t, r.page().byID("write-error"))
}

// A handler that raises stops the run at its step: the editor marks its
// line and names the process, the handler, the message and the step, and
// takes the diagram there.
func TestARuntimeErrorIsShownAtItsLine(t *testing.T) {
	code := tokenRing(t)
	r := mountWriter(t, coded(code, 0))
	broken := strings.Replace(code, "token = (m.gen, m.hop)", "token = (m.gen, m.hops)", 1)
	line := lineOf(t, broken, "m.hops")
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(broken)
		w.run(ctx)
	})
	s := r.st.sess(0)
	require.Equal(t, broken, s.Scenario().Code, "a program that compiles runs")
	f := s.Failure()
	require.NotNil(t, f)
	p := r.page()
	text := p.id("write-failure").words()
	assert.Contains(t, text, fmt.Sprintf("The run stopped at step %d:", f.Step+1))
	assert.Contains(t, text, fmt.Sprintf("line %d,", line))
	assert.Contains(t, text, "hops")
	assert.Contains(t, text, "in on_message of 2, taking TOKEN from 1", "the process, the handler and the message")
	marks := p.classed("mark")
	require.Len(t, marks, 1)
	assert.True(t, marks[0].hasClass("failed"))
	assert.Equal(t, strconv.Itoa(line), marks[0].attrs["data-n"])
	assert.Contains(t, r.st.panes[0].notice, fmt.Sprintf("stopped at step %d", f.Step+1))

	assert.Equal(t, fmt.Sprintf("Show step %d", f.Step+1), p.id("write-failure-step").text())
	r.do(func(ctx app.Context) { r.st.writerOf(0).showFailure(ctx) })
	assert.Equal(t, f.Step+1, r.st.sess(0).Step())
	assert.Equal(t, strconv.Itoa(f.Step+1), r.url().Get("k"))
}

// The program's bounds end a call that would run away with an error that
// names the bound, at its line: at the top level the program is not run,
// in a handler the run stops; the page goes on either way.
func TestABoundedProgramLeavesThePageWorking(t *testing.T) {
	code := tokenRing(t)
	for _, tc := range []struct {
		name, body, says string
	}{
		{"a loop that never ends", "    n = 0\n    while True:\n        n += 1\n", "a loop that never ends"},
		{"a string too long", "    s = \"x\" * 1000000000\n", "1,000,000"},
		{"a list that doubles for ever", "    l = [1]\n    while True:\n        l = l + l\n", "1,000,000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// in a handler: the run stops at the first TOKEN
			runaway := strings.Replace(code, "def on_message(p, m):\n", "def on_message(p, m):\n"+tc.body, 1)
			require.NotEqual(t, code, runaway)
			first := lineOf(t, runaway, "def on_message(p, m):") + 1
			last := first + strings.Count(tc.body, "\n") - 1
			r := mountWriter(t, coded(code, 3))
			r.do(func(ctx app.Context) {
				w := r.st.writerOf(0)
				w.edit(runaway)
				w.run(ctx)
			})
			f := r.st.sess(0).Failure()
			require.NotNil(t, f, "the run stops")
			p := r.page()
			assert.Contains(t, p.id("write-failure").words(), tc.says)
			marks := p.classed("mark")
			require.Len(t, marks, 1)
			marked, err := strconv.Atoi(marks[0].attrs["data-n"])
			require.NoError(t, err)
			assert.True(t, first <= marked && marked <= last, "line %d, at the lines that ran away (%d to %d)", marked, first, last)
			assert.Equal(t, 3, r.st.sess(0).Step())
			r.do(func(ctx app.Context) { r.st.controlsOf(0).back(ctx) })
			assert.Equal(t, 2, r.st.sess(0).Step(), "and the page still steps")

			// at the top level: the program does not run
			top := code + "\ndef runaway():\n" + tc.body + "\nrunaway()\n"
			before := r.st.sess(0).Plan()
			r.do(func(ctx app.Context) {
				w := r.st.writerOf(0)
				w.edit(top)
				w.run(ctx)
			})
			assert.Same(t, before, r.st.sess(0).Plan(), "the last good run stays")
			w := r.st.panes[0].write
			assert.Contains(t, w.problem, tc.says)
			assert.Greater(t, w.line, strings.Count(code, "\n"), "at its line")
			assert.Contains(t, r.page().id("write-error").text(), fmt.Sprintf("line %d", w.line))
		})
	}
}

// Open as code links a lesson whose algorithm has a port to the Write
// view, run by the port: the link opens that lesson as code.
func TestOpenAsCodeLinksTheLessonRunByItsPort(t *testing.T) {
	r := mountPart(t, link("token-ring-idle", 4), func(c *state) app.UI { return c.toolsOf(0) })
	a := r.page().id("open-as-code")
	assert.Equal(t, "a", a.tag)
	href := a.attrs["href"]
	query, ok := strings.CutPrefix(href, "./write?")
	require.True(t, ok, href)
	q, err := url.ParseQuery(query)
	require.NoError(t, err)
	page, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	s := page.Views[0].Scenario()
	assert.Equal(t, "token-ring-idle", s.ID)
	assert.Equal(t, "python", s.Algorithm)
	assert.Equal(t, tokenRing(t), s.Code)
	again := page.Query()
	assert.Equal(t, "0", again.Get("k"))
	again.Del("k")
	assert.Equal(t, lab.EncodeQuery(q), lab.EncodeQuery(again), "the link writes itself again")

	for _, id := range []string{"snapshot-bank", "bully-best", "ricart-agrawala-defer", "lamport-clock-two"} {
		lesson, err := scenario.Builtin(id)
		require.NoError(t, err)
		_, has := ports.For(lesson.Algorithm)
		p := mountPart(t, link(id, 0), func(c *state) app.UI { return c.toolsOf(0) }).page()
		assert.Equal(t, has, p.byID("open-as-code") != nil, id)
	}
	// a lesson already run as code has no link to itself
	p := mountPart(t, coded(tokenRing(t), 0), func(c *state) app.UI { return c.toolsOf(0) }).page()
	assert.Nil(t, p.byID("open-as-code"))
}

// The caret goes to an error's line and column, counted as the browser
// counts a textarea's text.
func TestOffsetOfALineAndColumn(t *testing.T) {
	text := "ab\n→c d\n\nxyz"
	assert.Equal(t, 0, offsetOf(text, 1, 1))
	assert.Equal(t, 1, offsetOf(text, 1, 2))
	assert.Equal(t, 3, offsetOf(text, 2, 1))
	assert.Equal(t, 4, offsetOf(text, 2, 4), "→ is 3 bytes, 1 unit")
	assert.Equal(t, 7, offsetOf(text, 2, 99), "a column past the line's end is its end")
	assert.Equal(t, 9, offsetOf(text, 4, 1))
	assert.Equal(t, 9, offsetOf(text, 9, 1), "a line past the end is the last")
}

// An exercise's lesson links to the Write view with its skeleton; there,
// Check my answer runs the program on 200 seeds and says the seed and
// step at which it fails, and shows that run at that step.
func TestCheckMyAnswer(t *testing.T) {
	lesson := newState(t, link("snapshot-bank", 5))
	href := lesson.toolsOf(0).exerciseHref()
	require.True(t, strings.HasPrefix(href, "./write?"), href)
	assert.Empty(t, newState(t, link("snapshot-nonfifo", 5)).toolsOf(0).exerciseHref(), "not an exercise")

	q, err := url.ParseQuery(strings.TrimPrefix(href, "./write?"))
	require.NoError(t, err)
	r := mountPart(t, q, func(c *state) app.UI { return c.writerOf(0) })
	require.True(t, r.st.answers(0))
	require.NotNil(t, r.page().byID("check-answer"))
	r.do(func(ctx app.Context) {
		a := r.st.answerOf(0)
		a.check(ctx)
		for r.st.panes[0].answer.checker != nil {
			a.more(ctx)
		}
	})
	a := r.st.panes[0].answer
	require.NotNil(t, a.failure, "the skeleton's hole finishes no snapshot: %s", a.said)
	assert.Contains(t, a.said, "fails at seed 1")
	assert.Contains(t, r.page().id("answer-said").text(), "fails at seed 1")
	r.do(func(ctx app.Context) { r.st.answerOf(0).showFailure(ctx) })
	assert.Equal(t, a.failure.Step, r.st.sess(0).Step(), "the failing run at its step")
	assert.Equal(t, uint64(1), r.st.sess(0).Scenario().Seed)
	assert.Equal(t, a.said, r.st.panes[0].answer.said, "the answer stands for the same program")

	// filled with the marker rule, it holds on every seed
	code := r.st.sess(0).Scenario().Code
	hole := code[strings.Index(code, "    # EXERCISE"):]
	hole = hole[:strings.Index(hole, "    pass\n")+len("    pass\n")]
	answer := strings.Replace(code, hole, "    k, q = m.snapshot, m.sender\n    r = round_of(p, k)\n    if not r[\"recorded\"]:\n        record(p, k)\n    if q not in r[\"closed\"]:\n        r[\"closed\"].append(q)\n", 1)
	r.do(func(ctx app.Context) {
		w := r.st.writerOf(0)
		w.edit(answer)
		w.run(ctx)
		ch := r.st.answerOf(0)
		ch.check(ctx)
		for r.st.panes[0].answer.checker != nil {
			ch.more(ctx)
		}
	})
	assert.Contains(t, r.st.panes[0].answer.said, "held in 200 of 200 runs")
	assert.Nil(t, r.st.panes[0].answer.failure)
}
