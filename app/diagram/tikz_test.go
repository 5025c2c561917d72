package diagram_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/logimport"
)

// tikzOf is the LaTeX figure of a run's first k steps.
func tikzOf(r *engine.Run, k int) string {
	spec := r.Config().Spec
	return string(diagram.NewIndex(r.Trace(), diagram.AxisTime, spec).TikZ(k, spec, diagram.TikZOptions{Title: "a test"}))
}

// count counts the lines of a figure that match a pattern.
func count(tex, pattern string) int {
	return len(regexp.MustCompile(`(?m)`+pattern).FindAllString(tex, -1))
}

// TestTikZDrawsTheRunByMeaning reads the figure of the bank's snapshot as
// messagepassing's commands: a process each, a \send for every received
// message, a dashed arrow for every one still on its way, the cut, the
// legend of kinds.
func TestTikZDrawsTheRunByMeaning(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	for _, k := range []int{0, r.Len() / 2, r.Len()} {
		tex := tikzOf(r, k)
		for _, name := range []string{"A", "B", "C"} {
			assert.Contains(t, tex, `\newprocess{`+name+`}`, "k=%d", k)
			assert.Equal(t, 1, count(tex, `\\processlength\{`+name+`\}`), "k=%d: %s's line, never down", k, name)
		}
		received, inFlight := 0, 0
		for _, m := range r.Trace().MsgsBefore(k) {
			switch {
			case m.ReceivedAt(k):
				received++
				// its send at its send step, its receipt at the receiver's
				assert.Regexp(t, regexp.MustCompile(`\\send(withname(at)?)?\{`+r.Trace().Names[m.From]+`\}\{[0-9.]+\}\{`+r.Trace().Names[m.To]+`\}`), tex)
			case m.InFlightAt(k):
				inFlight++
			}
		}
		assert.Equal(t, received, count(tex, `\\send(withname(at)?)?\{`), "k=%d: one \\send per received message", k)
		assert.Equal(t, inFlight, count(tex, `^\\draw\[->, [^]]*dashed\] \(\$\(`), "k=%d: one dashed arrow per message on its way", k)
		assert.Contains(t, tex, `\begin{messagepassing}`)
		assert.Contains(t, tex, `\end{document}`)
		assert.Contains(t, tex, "% a test\n", "the title is a comment")
	}
	end := tikzOf(r, r.Len())
	assert.Equal(t, 1, count(end, `\\node\[[^]]*\] at \(\$\(\w+\)\+\([0-9.]+,-?0\.(45|35)\)\$\) \{cut 1\}`), "the snapshot's cut, labelled")
	assert.Contains(t, end, "\\draw[stG, thick] ($(A)", "a complete cut is solid")
	assert.Contains(t, end, `{\$`, "the amounts transferred label their messages, escaped")
	assert.Contains(t, end, "node[right, text=black] {transfer}", "the legend names the kinds")
	assert.Contains(t, end, "node[right, text=black] {marker}")
	assert.NotContains(t, tikzOf(r, 0), "cut 1")
}

// TestTikZCrashesAndLosses: a crash is messagepassing's \crash, a process
// down draws no line until it recovers, a lost message ends in a cross.
func TestTikZCrashesAndLosses(t *testing.T) {
	r, k := faultedBank(t)
	tex := tikzOf(r, k+2) // lost, then B down
	assert.Equal(t, 1, count(tex, `\\crash\{B\}`), "B's crash")
	// the figure's own coordinates have a space, which no process's name
	// has: a process named crash1 or lost1 keeps its line
	assert.Regexp(t, `\\crash\{B\}\{[0-9.]+\}\{crash \d+\}`, tex)
	assert.Equal(t, 1, count(tex, `\\processlength\{B\}`), "B's line up to its crash")
	assert.Zero(t, count(tex, `\\restart\{B\}`), "and none after: B is still down")
	assert.Equal(t, 1, count(tex, `coordinate \(lost \d+\)`), "the lost message")
	assert.Equal(t, 1, count(tex, `\(lost \d+\) \+\(-0.08,-0.08\)`), "ends in a cross")

	tr := builtinRun(t, "token-ring-crash")
	tex = tikzOf(tr, tr.Len())
	assert.Positive(t, count(tex, `\\crash\{`), "the lesson's crash")
}

// TestTikZNamesTeXCannotRead: names that are not TeX names are written as
// text beside coordinates TeX can read, and every caption's special
// characters are escaped.
func TestTikZNamesTeXCannotRead(t *testing.T) {
	log := "node_1 {\"node_1\":1}\nstart & go\nx$y {\"x$y\":1}\nstart 50%\nnode_1 {\"node_1\":2}\nsend → x$y\nx$y {\"node_1\":2, \"x$y\":2}\nreceived {it}\n"
	ss, err := logimport.FromLog([]byte(log), "odd.log")
	require.NoError(t, err)
	r, err := ss[0].Run()
	require.NoError(t, err)
	tex := tikzOf(r, r.Len())
	assert.Contains(t, tex, `\textprocess{p1}{node\_1}`)
	assert.Contains(t, tex, `\textprocess{p2}{x\$y}`)
	assert.Contains(t, tex, `\providecommand{\textprocess}`)
	assert.Equal(t, 1, count(tex, `\\send(withname)?\{p1\}\{[0-9.]+\}\{p2\}`))
}

// A message still on its way is drawn dashed to the present and ends
// between lanes: never on a lane it crosses, where it would read as
// delivered there.
func TestTikZMessagesOnTheirWayEndOffLanes(t *testing.T) {
	onTheirWay := regexp.MustCompile(`\\draw\[->, [^]]*dashed\] \(\$\((\w+)\)\+\([0-9.]+,0\)\$\) -- \(\$\((\w+)\)!([0-9.]+)!\((\w+)\)`)
	seen := 0
	for _, id := range scenario.BuiltinIDs() {
		r := builtinRun(t, id)
		names := r.Trace().Names
		for _, k := range []int{r.Len() / 3, r.Len() / 2} {
			for _, m := range onTheirWay.FindAllStringSubmatch(tikzOf(r, k), -1) {
				from, to := slices.Index(names, m[2]), slices.Index(names, m[4])
				if from < 0 || to < 0 {
					continue // names TeX cannot read
				}
				f, err := strconv.ParseFloat(m[3], 64)
				require.NoError(t, err)
				lanes := math.Abs(float64(to - from))
				d := f * lanes
				if lanes >= 2 {
					seen++
				}
				assert.True(t, math.Round(d) < 1 || math.Abs(d-math.Round(d)) >= 0.29, "%s at %d: %s's message to %s ends on a lane (%.2f lanes down)", id, k, m[2], m[4], d)
			}
		}
	}
	assert.Positive(t, seen, "messages on their way across two lanes or more are tried")
}

// A figure draws the window the page shows: the last DefaultSpan of a
// long run by default, clipped at its left edge, or the window asked for;
// a short run whole.
func TestTikZDrawsThePagesWindow(t *testing.T) {
	r := builtinRun(t, "snapshot-long")
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	tex := string(ix.TikZ(r.Len(), r.Config().Spec, diagram.TikZOptions{}))
	assert.Less(t, len(tex), 40_000, "the last window of 100,000 steps, not the whole run")
	assert.Contains(t, tex, `\clip (-0.05,0) rectangle`)
	from, to := ix.Window(r.Len(), diagram.Options{})
	assert.Greater(t, from, 0.0)
	received := 0
	for _, m := range r.Trace().Msgs {
		if m.ReceivedAt(r.Len()) && m.RecvTime >= sim.Time(from) && m.SendTime <= sim.Time(to) {
			received++
		}
	}
	assert.InDelta(t, received, count(tex, `\\send(withname(at)?)?\{`), float64(received)/10+2, "the messages of the window")

	// a window asked for: its ticks, nothing before
	tex = string(ix.TikZ(r.Len(), r.Config().Spec, diagram.TikZOptions{From: 1000, To: 1100}))
	assert.Contains(t, tex, "node[below] {1000}")
	assert.NotContains(t, tex, "node[below] {990}")
	assert.Contains(t, tex, "node[below] {1080}")
	assert.NotContains(t, tex, "(8332", "nothing sent after it")

	short := builtinRun(t, "snapshot-bank")
	assert.NotContains(t, tikzOf(short, short.Len()), `\clip`, "a short run whole, unclipped")
}

// needPDFLaTeX is pdflatex's path, where it is installed with the
// messagepassing package (.ci/run installs them); else the test is
// skipped.
func needPDFLaTeX(t *testing.T) string {
	t.Helper()
	pdflatex, err := exec.LookPath("pdflatex")
	if err == nil {
		err = exec.Command("kpsewhich", "messagepassing.sty", "tikz.sty").Run()
	}
	if err != nil {
		t.Skip("pdflatex with the messagepassing package is not installed (Debian: texlive-latex-base texlive-science texlive-pictures)")
	}
	return pdflatex
}

// TestTikZCompiles compiles a few lessons' figures with pdflatex, where it
// is installed (.ci/run installs it): the export must compile as it is.
func TestTikZCompiles(t *testing.T) {
	pdflatex := needPDFLaTeX(t)
	runs := map[string]*engine.Run{}
	for _, id := range []string{"snapshot-bank", "checkpoint-domino", "token-ring-crash", "lease-fencing", "log-kvstore"} {
		runs[id] = builtinRun(t, id)
	}
	runs["bank-with-faults"], _ = faultedBank(t)
	odd, err := logimport.FromLog([]byte("node_1 {\"node_1\":1}\nstart & go {x} 50% #1 ~ ^ \\ → α\nx$y {\"x$y\":1}\nstart\n"), "odd.log")
	require.NoError(t, err)
	runs["odd-names"], err = odd[0].Run()
	require.NoError(t, err)

	dir := t.TempDir()
	for id, r := range runs {
		t.Run(id, func(t *testing.T) {
			src := filepath.Join(dir, id+".tex")
			require.NoError(t, os.WriteFile(src, []byte(tikzOf(r, r.Len())), 0o644))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", id+".tex")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "pdflatex:\n%s", tail(string(out), 1500))
			info, err := os.Stat(filepath.Join(dir, id+".pdf"))
			require.NoError(t, err)
			assert.Positive(t, info.Size())
			assert.True(t, strings.Contains(string(out), "("+"1 page"), "one page, the figure's:\n%s", tail(string(out), 600))
			assert.False(t, strings.Contains(string(out), "Overfull"), "nothing sticks out:\n%s", tail(string(out), 600))

			// README's recipe: what lies between the figure's comments,
			// pasted into an article that loads messagepassing and xcolor,
			// compiles, and fits the article's text width
			tex := tikzOf(r, r.Len())
			from, to := strings.Index(tex, "% figure\n"), strings.Index(tex, "% end of figure")
			require.True(t, from >= 0 && to > from)
			article := "\\documentclass{article}\n\\usepackage{messagepassing}\n\\usepackage{xcolor}\n\\begin{document}\nSome notes.\n\n\\noindent\n" +
				tex[from:to] + "\nMore notes.\n\\end{document}\n"
			require.NoError(t, os.WriteFile(filepath.Join(dir, id+"-notes.tex"), []byte(article), 0o644))
			cmd = exec.CommandContext(ctx, pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", id+"-notes.tex")
			cmd.Dir = dir
			out, err = cmd.CombinedOutput()
			require.NoError(t, err, "the figure pasted into an article:\n%s", tail(string(out), 1500))
			assert.False(t, strings.Contains(string(out), "Overfull"), "the figure fits an article's text width:\n%s", tail(string(out), 600))
		})
	}
}

// TestTikZLabelsNeverOverlap compiles every lesson's figure (at its last
// step, in the window the page shows), pasted into plain articles as
// README says, and reads where pdflatex set each word (pdftotext -bbox):
// no word of one label lies over a word of another. Under -short (make
// test) a third of the lessons are set; make test-long sets them all.
func TestTikZLabelsNeverOverlap(t *testing.T) {
	pdflatex := needPDFLaTeX(t)
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed (Debian: poppler-utils)")
	}
	// the figures, a page each, in articles of at most 150 kB (TeX's
	// memory is the article's, not the page's)
	type article struct {
		ids  []string
		body strings.Builder
	}
	var articles []*article
	for i, id := range scenario.BuiltinIDs() {
		if testing.Short() && i%3 != 0 {
			continue // make test sets a third; make test-long every one
		}
		r := builtinRun(t, id)
		tex := tikzOf(r, r.Len())
		from, to := strings.Index(tex, "% figure\n"), strings.Index(tex, "% end of figure")
		require.True(t, from >= 0 && to > from, id)
		if len(articles) == 0 || articles[len(articles)-1].body.Len()+to-from > 150_000 {
			articles = append(articles, &article{})
		}
		a := articles[len(articles)-1]
		a.ids = append(a.ids, id)
		a.body.WriteString("\\noindent\n" + tex[from:to] + "\n\\clearpage\n")
	}
	dir := t.TempDir()
	word := regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>`)
	for i, a := range articles {
		name := fmt.Sprintf("figures-%d", i)
		doc := "\\documentclass{article}\n\\usepackage{messagepassing}\n\\usepackage{xcolor}\n\\begin{document}\n" + a.body.String() + "\\end{document}\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".tex"), []byte(doc), 0o644))
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", name+".tex")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "pdflatex, %v:\n%s", a.ids, tail(string(out), 1500))
		assert.NotContains(t, string(out), "Overfull", "%v: each figure fits an article's text width", a.ids)
		boxes, err := exec.CommandContext(ctx, pdftotext, "-bbox", filepath.Join(dir, name+".pdf"), "-").Output()
		cancel()
		require.NoError(t, err)
		pages := strings.Split(string(boxes), "<page ")[1:]
		require.Len(t, pages, len(a.ids), "a page a figure")
		for p, page := range pages {
			var words [][4]float64
			var texts []string
			for _, m := range word.FindAllStringSubmatch(page, -1) {
				var b [4]float64
				for j := range b {
					b[j], _ = strconv.ParseFloat(m[j+1], 64)
				}
				words, texts = append(words, b), append(texts, m[5])
			}
			assert.NotEmpty(t, words, a.ids[p])
			for j := range words {
				for k := j + 1; k < len(words); k++ {
					x, y := words[j], words[k]
					// a third of a point of overlap is a glyph's edge
					if min(x[2], y[2])-max(x[0], y[0]) > 0.3 && min(x[3], y[3])-max(x[1], y[1]) > 0.3 {
						t.Errorf("%s: %q lies over %q", a.ids[p], texts[j], texts[k])
					}
				}
			}
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return strings.TrimSpace(s)
}
