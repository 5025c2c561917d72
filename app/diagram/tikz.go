package diagram

// A run as a LaTeX figure for lecture notes, drawn with the messagepassing
// package (texlive-science): its processes, messages, crashes,
// checkpoints, annotations and snapshots' cuts, by meaning rather than
// from the shapes on screen, so that the figure is one a reader of the
// notes can edit.

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"spacetime/core/sim"
)

// TikZOptions shapes a LaTeX figure.
type TikZOptions struct {
	// Width is the width of the time axis in centimetres (TikZWidth if
	// 0): the run's time is scaled to it, at most a centimetre a unit.
	Width float64
	// Title is written as a comment at the top of the document.
	Title string
	// Highlight lists messages drawn thick (the ones a failed invariant
	// points at).
	Highlight []int
	// From and To are the window of the axis drawn, as the page shows
	// it (Scene.T0 and T1); when To is not past From, the window a
	// diagram shows by default (Index.Window): the whole run when it is
	// short, else its last DefaultSpan before the step.
	From, To float64
}

// tikzMaxWidth bounds the figure's width: wider is no page's.
const tikzMaxWidth = 100.0

// TikZWidth is the time axis's width, in centimetres, when none is asked
// for: the figure with its names and the notes that stand past the axis's
// end fits an article's text width (345 pt, 12.1 cm), as a test checks
// for lessons with long names and notes (at 10 cm two do not).
const TikZWidth = 8.0

// TikZ writes the first k steps of the indexed run as a LaTeX document that
// compiles as it is with pdflatex into a page the figure's size; what lies
// between its "figure" comments, the colours and macros it uses
// included, can be pasted into notes that load messagepassing and xcolor.
// Times are the index's axis (simulated time or
// Lamport's clock). A message still on its way at step k is dashed up to
// the present; one the network lost ends in a cross.
func (ix *Index) TikZ(k int, spec *sim.Spec, opt TikZOptions) []byte {
	tr := ix.tr
	k = min(max(k, 0), tr.Len())
	w := opt.Width
	if w <= 0 || math.IsNaN(w) {
		w = TikZWidth
	}
	w = min(w, tikzMaxWidth)
	from, to := opt.From, opt.To
	if !(to > from) { // NaN too
		from, to = ix.Window(k, Options{})
	}
	now := ix.upTo[k] + 1
	from, to = max(from, 0), min(to, now)
	if !(to > from) {
		from, to = 0, now
	}
	unit := min(1, w/(to-from))
	// coordinates are centimetres (time times unit) from the window's
	// start, so that the package's marks keep their shape however long
	// the run; a window that leaves out part of the run clips to it
	t := &tikz{ix: ix, spec: spec, k: k, unit: unit, from: from, now: (to - from) * unit, clip: from > 0 || to < now, colors: map[Color]bool{}, kinds: map[string]string{}}
	t.taken = newBoxGrid(gridBox(box{x1: t.now + 4}).x1, gridBox(box{y0: -float64(len(tr.Names)) - 4}).y1)
	t.names()
	var body bytes.Buffer
	t.out = &body
	// the axis first: its texts are never left out, and the others keep
	// clear of them; the notes on events before the messages' labels,
	// which say less; the legend, under the axis, names the kinds drawn
	t.axis(unit)
	if t.clip {
		fmt.Fprintf(&body, "\\begin{scope}\n\\clip (-0.05,0) rectangle (%s,%s);\n", num(t.now+0.05), num(-float64(len(t.ids))-0.65))
	}
	t.lanes()
	t.spans()
	t.annotations()
	t.messages(opt.Highlight)
	if t.clip {
		body.WriteString("\\end{scope}\n")
	}
	t.legend(w)

	var b bytes.Buffer
	b.WriteString("% Drawn by Spacetime with the messagepassing package (texlive-science).\n")
	if opt.Title != "" {
		fmt.Fprintf(&b, "%% %s\n", oneLineComment(opt.Title))
	}
	fmt.Fprintf(&b, "%% The first %d steps of %d.\n", k, tr.Len())
	b.WriteString("\\documentclass{article}\n\\usepackage{messagepassing}\n\\usepackage{xcolor}\n")
	b.WriteString("\\newsavebox{\\spacetimefigure}\n\\begin{document}\n\\begin{lrbox}{\\spacetimefigure}\n% figure\n")
	// what the figure uses is defined inside it, so that it pastes whole
	for _, c := range slices.Sorted(maps.Keys(t.colors)) {
		fmt.Fprintf(&b, "\\definecolor{%s}{HTML}{%s}\n", colorName(c), strings.TrimPrefix(Palette[c], "#"))
	}
	if t.textNames {
		b.WriteString("% a process whose name is no TeX name: \\newprocess with the name as text\n")
		b.WriteString("\\providecommand{\\textprocess}[2]{\\addtocounter{processnb}{1}\\coordinate (#1) at (0, -\\value{processnb}); \\draw (#1) node[anchor=east] {#2};}\n")
	}
	// a text stands on a plate of paper that masks the lines under it,
	// as on screen
	b.WriteString("\\tikzset{spacetime plate/.style={fill=white, fill opacity=0.85, text opacity=1}}\n")
	if t.labelAt {
		b.WriteString("% \\sendwithname with the label's place along the arrow (where another text is not) and a plate\n")
		b.WriteString("\\providecommand{\\sendwithnameat}[6]{\\draw[->] (#1) +(#2, 0) -- ($ (#3) +(#4, 0) $) node[anchor=west, pos=#6, spacetime plate] {#5};}\n")
	}
	b.WriteString("\\begin{messagepassing}[y=0.9cm, every node/.style={font=\\scriptsize}, >={Stealth[length=4pt]}]\n")
	for i, name := range tr.Names {
		if t.ids[i] == name {
			fmt.Fprintf(&b, "\\newprocess{%s}\n", name)
		} else {
			fmt.Fprintf(&b, "\\textprocess{%s}{%s}\n", t.ids[i], texText(name))
		}
	}
	b.Write(body.Bytes())
	if t.leftOut > 0 {
		fmt.Fprintf(&b, "%% %d labels were left out for want of room, rather than drawn over others: export fewer steps, or a wider figure.\n", t.leftOut)
	}
	b.WriteString("\\end{messagepassing}\n% end of figure\n\\end{lrbox}\n")
	// the page is the figure's size and a margin, whatever the names' and
	// labels' widths
	b.WriteString("\\pdfpagewidth=\\dimexpr\\wd\\spacetimefigure+0.6cm\\relax\n\\pdfpageheight=\\dimexpr\\ht\\spacetimefigure+\\dp\\spacetimefigure+0.6cm\\relax\n")
	b.WriteString("\\shipout\\vbox{\\vskip\\dimexpr0.3cm-1in\\relax\\moveright\\dimexpr0.3cm-1in\\relax\\box\\spacetimefigure}\n\\end{document}\n")
	return b.Bytes()
}

// tikz holds what a figure is being written from.
type tikz struct {
	ix   *Index
	spec *sim.Spec
	k    int
	// unit is a unit of the axis in centimetres, from the window's start
	// on the axis, and now the window's end (the present, unless the
	// window ends before it) in centimetres; clip says the window leaves
	// out part of the run, which the figure clips to it.
	unit, from, now float64
	clip            bool
	out             *bytes.Buffer
	// ids are the processes' TikZ names: their own where TeX reads them
	// (textNames false), p1, p2… otherwise.
	ids       []string
	textNames bool
	// labelAt says a message is labelled (\sendwithnameat: messagepassing's
	// \sendwithname with the label's place and a plate)
	labelAt bool
	// colors are the palette colours the figure uses, defined up front.
	colors map[Color]bool
	// marks counts the named coordinates made (crashes, checkpoints).
	marks int
	// kinds gives the style of each kind of message drawn, in the order
	// of kindOrder, for the legend.
	kinds     map[string]string
	kindOrder []string
	// taken holds the boxes of the texts placed so far (see gridBox);
	// leftOut counts the texts left out for want of room.
	taken   *boxGrid
	leftOut int
}

// A text's box is in the figure's coordinates: centimetres across, the
// lanes' units down (a lane is 1, 0.9 cm; lanes go down from y = -1).
// gridBox maps it into the units of the page's boxGrid (its y downward),
// by a power of two, so that boxes compare exactly as in the figure: a
// cell is then 0.625 cm wide and 0.625 of a lane high.
func gridBox(b box) box {
	const scale = 64
	return box{b.x0 * scale, -b.y1 * scale, b.x1 * scale, -b.y0 * scale}
}

// take keeps a text's box that is never left out (the axis's, the
// legend's).
func (t *tikz) take(b box) { t.taken.add(gridBox(b)) }

// The size of a \scriptsize text in the figure's coordinates: its line
// with TikZ's inner separation above and below, in lanes, and the
// separation, in centimetres. A text's width is the page's (TextWidth,
// DejaVu Sans at 12 px) scaled to 7 pt, and a fifth more: TeX's roman
// capitals are wider than DejaVu's (the page's lower case is wider than
// TeX's), and the estimate is to err on the wide side.
const (
	texLineHeight = 0.45 // lanes (0.4 cm)
	texInnerSep   = 0.08 // cm: TikZ's 0.333em
	texFontPt     = 7.0  // \scriptsize in a 10 pt document
	// texWidthRatio turns the page's widths at 12 px into centimetres
	// at texFontPt (72 points an inch, 2.54 cm).
	texWidthRatio = 1.2 * texFontPt / 12 / 72 * 2.54
)

// texWidth is a text's width as the figure sets it, with its node's inner
// separation, in centimetres.
func texWidth(text string) float64 {
	return TextWidth(text, false)*texWidthRatio + 2*texInnerSep
}

// place takes the first of the candidate boxes that overlaps no text
// placed so far and says which; -1 when none is free, and the text is
// left out (and counted) rather than drawn over another.
func (t *tikz) place(candidates ...box) int {
	for i, c := range candidates {
		if t.inside(c) && !t.taken.hits(gridBox(c)) {
			t.take(c)
			return i
		}
	}
	t.leftOut++
	return -1
}

// laneY is process i's line, in the figure's coordinates.
func laneY(i sim.NodeID) float64 { return -float64(i) - 1 }

// beside is the box of a text whose anchor is at (x, y): west (the text
// right of the point, centred on it), south (above it, centred) or north
// (below it, centred).
func beside(anchor string, x, y float64, text string) box {
	w, h := texWidth(text), texLineHeight
	switch anchor {
	case "west":
		return box{x, y - h/2, x + w, y + h/2}
	case "south":
		return box{x - w/2, y, x + w/2, y + h}
	case "north":
		return box{x - w/2, y - h, x + w/2, y}
	case "north west":
		return box{x, y - h, x + w, y}
	}
	return box{x - w/2, y - h/2, x + w/2, y + h/2}
}

// mark names a new coordinate of the figure ("lost 3"): with a space,
// which no process's TikZ name has, so that a process named lost3 keeps
// its own.
func (t *tikz) mark(what string) string {
	t.marks++
	return fmt.Sprintf("%s %d", what, t.marks)
}

// texName says n is a name both TikZ and TeX's math mode read as it is:
// an ASCII letter, then ASCII letters and digits. (A regular expression
// compiled at the package's start cost the page's start as much.)
func texName(n string) bool {
	for i, r := range []byte(n) {
		letter := 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return n != ""
}

func (t *tikz) names() {
	names := t.ix.tr.Names
	t.ids = make([]string, len(names))
	for i, n := range names {
		t.ids[i] = n
		if !texName(n) {
			t.textNames = true
		}
	}
	if t.textNames {
		for i := range names {
			t.ids[i] = fmt.Sprintf("p%d", i+1)
		}
	}
}

// color names a palette colour for the figure and remembers to define it.
func (t *tikz) color(c Color) string {
	t.colors[c] = true
	return colorName(c)
}

func colorName(c Color) string { return fmt.Sprintf("st%c", 'A'+rune(c)) }

// x is step s's place, in centimetres from the start.
func (t *tikz) x(s int) float64 { return (t.ix.xs[s] - t.from) * t.unit }

// inside says whether a text's box lies within the window's width, where
// the figure does not clip it.
func (t *tikz) inside(b box) bool { return !t.clip || b.x0 >= 0 && b.x1 <= t.now }

// lanes draws each process's line while it is up, and a cross where it
// crashes.
func (t *tikz) lanes() {
	tr := t.ix.tr
	downs := make([][]span, len(tr.Names))
	for _, sp := range t.ix.spans {
		if sp.kind == spanDown && sp.from < t.k {
			downs[sp.node] = append(downs[sp.node], sp)
		}
	}
	for i, id := range t.ids {
		from := 0.0
		first := true
		for _, sp := range downs[i] {
			if sp.from >= 0 {
				at := t.x(sp.from)
				t.segment(id, from, at, first)
				fmt.Fprintf(t.out, "\\begin{scope}[color=%s, thick]\\crash{%s}{%s}{%s}\\end{scope}\n", t.color(CrashColor), id, num(at), t.mark("crash"))
			}
			first = false
			if sp.to < 0 || sp.to >= t.k {
				from = -1
				break
			}
			from = t.x(sp.to)
		}
		if from >= 0 {
			t.segment(id, from, t.now, first)
		}
	}
}

// segment draws a stretch of a process's line: messagepassing's own
// commands, \processlength from the start and \restart after a crash.
func (t *tikz) segment(id string, from, to float64, first bool) {
	if to <= from {
		return
	}
	if first && from == 0 {
		fmt.Fprintf(t.out, "\\processlength{%s}{%s}\n", id, num(to))
		return
	}
	fmt.Fprintf(t.out, "\\restart{%s}{%s}{%s}\n", id, num(from), num(to-from))
}

// spans draws pauses and the algorithm's intervals as bars on the lines.
func (t *tikz) spans() {
	for _, sp := range t.ix.spans {
		if sp.from >= t.k || sp.node < 0 || int(sp.node) >= len(t.ids) {
			continue
		}
		from := 0.0
		if sp.from >= 0 {
			from = t.x(sp.from)
		}
		to := t.now
		if sp.to >= 0 && sp.to < t.k {
			to = t.x(sp.to)
		}
		if to < 0 || from > t.now {
			continue // outside the window
		}
		var style, text string
		switch sp.kind {
		case spanPaused:
			style, text = fmt.Sprintf("%s, line width=3pt, opacity=0.5", t.color(PauseColor)), "paused"
		case spanRole:
			rs, ok := t.role(sp.role)
			if !ok || !rs.Style.Intervals() || rs.Style == sim.StyleBand {
				continue
			}
			style, text = fmt.Sprintf("%s, line width=2.5pt, opacity=0.45", t.color(ToneColor(rs.Tone))), sp.text
		default:
			continue
		}
		y := 0.12 * float64(sp.track+1)
		fmt.Fprintf(t.out, "\\draw[%s] ($(%s)+(%s,%s)$) -- ($(%s)+(%s,%s)$)", style, t.ids[sp.node], num(from), num(y), t.ids[sp.node], num(to), num(y))
		if text != "" && t.place(beside("south", (from+to)/2, laneY(sp.node)+y, text)) >= 0 {
			fmt.Fprintf(t.out, " node[midway, above, opacity=1, spacetime plate] {%s}", texText(text))
		}
		t.out.WriteString(";\n")
	}
}

// role is how the algorithm draws an annotation role.
func (t *tikz) role(name string) (sim.RoleSpec, bool) {
	if t.spec == nil {
		return sim.RoleSpec{}, false
	}
	return t.spec.Role(name)
}

// messages draws every message sent in the first k steps with
// messagepassing's \sendwithname, in its kind's colour and stroke.
func (t *tikz) messages(highlight []int) {
	tr := t.ix.tr
	for i := range tr.Msgs {
		m := &tr.Msgs[i]
		if m.SendStep >= t.k {
			break
		}
		color, width, flags := RoleStyle(sim.RoleMessage)
		if t.spec != nil {
			if ks, ok := t.spec.Kind(m.Kind); ok {
				color, width, flags = KindStyle(ks)
			}
		}
		style := []string{t.color(color), fmt.Sprintf("line width=%.2fpt", width*0.4)}
		if slices.Contains(highlight, m.ID) {
			style[1] = fmt.Sprintf("line width=%.2fpt", width*0.4+1.2)
		}
		if flags&FlagDashed != 0 || m.Duplicate() {
			style = append(style, "dashed")
		}
		from, to := t.ids[m.From], t.ids[m.To]
		sx := t.x(m.SendStep)
		// the label on screen: what the message carries ("$9", "M1"),
		// its kind told by colour and stroke (see the legend)
		label := texText(m.Label)
		switch {
		case m.ReceivedAt(t.k):
			rx := t.x(m.RecvStep)
			if rx < 0 || sx > t.now {
				continue // outside the window
			}
			send := fmt.Sprintf("\\send{%s}{%s}{%s}{%s}", from, num(sx), to, num(rx))
			// the label where messagepassing's \sendwithname puts it (its
			// left end 0.3 of the way), or elsewhere along the arrow if
			// another text is there, or none
			if label != "" {
				if pos := t.alongArrow(m.Label, sx, laneY(m.From), rx, laneY(m.To), 0.3, 0.5, 0.7, 0.15); pos > 0 {
					t.labelAt = true
					send = fmt.Sprintf("\\sendwithnameat{%s}{%s}{%s}{%s}{%s}{%s}", from, num(sx), to, num(rx), label, num(pos))
				}
			}
			fmt.Fprintf(t.out, "\\begin{scope}[%s]%s\\end{scope}\n", strings.Join(style, ", "), send)
		case m.DroppedAt(t.k):
			// lost a third of the way, near its sender, as on screen
			end := max(t.x(m.DropStep), sx+0.4)
			if end < 0 || sx > t.now {
				continue // outside the window
			}
			lost := t.mark("lost")
			if label != "" && t.alongArrow(m.Label, sx, laneY(m.From), end, laneY(m.From)+0.3*(laneY(m.To)-laneY(m.From)), 0.4) < 0 {
				label = ""
			}
			fmt.Fprintf(t.out, "\\draw[%s] ($(%s)+(%s,0)$) -- ($(%s)!0.3!(%s)+(%s,0)$) coordinate (%s) node[pos=0.4, anchor=west] {%s};\n",
				strings.Join(style, ", "), from, num(sx), from, to, num(end), lost, label)
			fmt.Fprintf(t.out, "\\draw[%s, thick] (%s) +(-0.08,-0.08) -- +(0.08,0.08) (%s) +(-0.08,0.08) -- +(0.08,-0.08);\n", t.color(CrashColor), lost, lost)
		default:
			if sx > t.now {
				continue // sent after the window
			}
			// still on its way: dashed to the present, as far down as
			// its delay has run, and ending between lanes, never on one
			// it would read as delivered to
			f := 0.5
			if due := float64(m.Due); due > float64(m.SendTime) {
				f = min(max((t.now/t.unit-1-float64(m.SendTime))/(due-float64(m.SendTime)), 0.15), 0.85)
			}
			f = offLanes(f, math.Abs(float64(m.To-m.From)))
			if !slices.Contains(style, "dashed") {
				style = append(style, "dashed")
			}
			fmt.Fprintf(t.out, "\\draw[->, %s] ($(%s)+(%s,0)$) -- ($(%s)!%s!(%s)+(%s,0)$);\n",
				strings.Join(style, ", "), from, num(sx), from, num(f), to, num(t.now))
		}
		if t.kinds[m.Kind] == "" {
			t.kindOrder = append(t.kindOrder, m.Kind)
			t.kinds[m.Kind] = strings.Join(style[:1], ", ")
			if flags&FlagDashed != 0 {
				t.kinds[m.Kind] += ", dashed"
			}
		}
	}
}

// offLanes moves f, the part of the way down an arrow across lanes
// lanes ends at, off every lane it crosses: at least 0.3 of a lane short
// of the nearest, so that a message on its way never seems delivered.
func offLanes(f, lanes float64) float64 {
	if lanes <= 0 {
		return f
	}
	d := f * lanes
	if k := math.Round(d); k >= 1 && math.Abs(d-k) < 0.3 {
		d = k - 0.3
	}
	return d / lanes
}

// legend names the kinds of message drawn, each beside a stroke of its
// style, under the axis: a printed page has no hover. Its entries wrap
// into rows as wide as the axis, so that a run of many kinds keeps the
// figure's width.
func (t *tikz) legend(width float64) {
	y := -float64(len(t.ids)+1) - 0.5
	x := 0.0
	for _, kind := range t.kindOrder {
		w := 0.6 + texWidth(kind) + 0.3 // the stroke, the name, a gap
		if x > 0 && x+w > width {
			x, y = 0, y-0.45
		}
		fmt.Fprintf(t.out, "\\draw[->, %s] (%s,%s) -- +(0.6,0) node[right, text=black] {%s};\n", t.kinds[kind], num(x), num(y), texText(kind))
		t.take(beside("west", x+0.6, y, kind))
		x += w
	}
}

// alongArrow places a text whose left end is on the arrow from (x0, y0)
// to (x1, y1), at the first of the parts of the way that leaves it clear
// of the texts placed so far, and says which part (-1: none).
func (t *tikz) alongArrow(text string, x0, y0, x1, y1 float64, parts ...float64) float64 {
	candidates := make([]box, len(parts))
	for i, p := range parts {
		candidates[i] = beside("west", x0+p*(x1-x0), y0+p*(y1-y0), text)
	}
	if i := t.place(candidates...); i >= 0 {
		return parts[i]
	}
	return -1
}

// annotations draws what the algorithm noted on events: a checkpoint as
// messagepassing's \checkpointspecial, another glyph or label as
// \annotate, and the points of a cut role's group joined into the cut.
func (t *tikz) annotations() {
	tr := t.ix.tr
	type cutKey struct {
		role  string
		group int
	}
	cuts := map[cutKey][][2]float64{} // lane, x
	var order []cutKey
	for _, s := range stepsBefore(t.ix.noted, t.k) {
		r := &tr.Records[s]
		if r.Node < 0 || int(r.Node) >= len(t.ids) {
			continue
		}
		id, x := t.ids[r.Node], t.x(s)
		if x < -0.05 || x > t.now+0.05 {
			continue // outside the window
		}
		for _, a := range r.Annotations() {
			rs, ok := t.role(a.Role)
			if !ok {
				continue
			}
			switch rs.Style {
			case sim.StyleCut:
				key := cutKey{a.Role, a.Group}
				if _, ok := cuts[key]; !ok {
					order = append(order, key)
				}
				cuts[key] = append(cuts[key], [2]float64{float64(r.Node), x})
			case sim.StyleGlyph, sim.StyleLabel:
				text := texText(a.Text)
				y := laneY(r.Node)
				if rs.Style == sim.StyleGlyph && rs.Glyph == sim.GlyphSquare {
					// messagepassing writes a checkpoint's name under it
					if a.Text != "" && t.place(beside("north", x, y-0.11, a.Text)) < 0 {
						text = ""
					}
					fmt.Fprintf(t.out, "\\begin{scope}[color=%s, every node/.append style={spacetime plate}]\\checkpointspecial{%s}{%s}{%s}{%s}\\end{scope}\n", t.color(ToneColor(rs.Tone)), id, num(x), t.mark("checkpoint"), text)
				} else if text != "" && t.place(beside("south", x, y+0.11, a.Text)) >= 0 {
					fmt.Fprintf(t.out, "\\begin{scope}[color=%s, every node/.append style={spacetime plate}]\\annotatexplicit{%s}{%s}{%s}{%s}\\end{scope}\n", t.color(ToneColor(rs.Tone)), id, num(x), text, t.mark("note"))
				}
			}
		}
	}
	for _, key := range order {
		rs, _ := t.role(key.role)
		pts := cuts[key]
		slices.SortFunc(pts, func(a, b [2]float64) int { return int(a[0] - b[0]) })
		style := t.color(ToneColor(rs.Tone)) + ", thick"
		if len(pts) < len(tr.Names) {
			style += ", dashed" // not every process has recorded yet
		}
		var path []string
		for i, p := range pts {
			id := t.ids[int(p[0])]
			top, bottom := "0.45", "-0.45"
			if i == 0 {
				top = "0.35"
			}
			path = append(path, fmt.Sprintf("($(%s)+(%s,%s)$) -- ($(%s)+(%s,%s)$)", id, num(p[1]), top, id, num(p[1]), bottom))
		}
		fmt.Fprintf(t.out, "\\draw[%s] %s;\n", style, strings.Join(path, " -- "))
		// named under its last point, or else over its first
		name := fmt.Sprintf("cut %d", key.group)
		first, last := pts[0], pts[len(pts)-1]
		firstID, lastID := t.ids[int(first[0])], t.ids[int(last[0])]
		switch t.place(beside("north west", last[1], laneY(sim.NodeID(last[0]))-0.45, name), beside("south", first[1], laneY(sim.NodeID(first[0]))+0.35, name)) {
		case 0:
			fmt.Fprintf(t.out, "\\node[%s, anchor=north west, inner sep=1pt, spacetime plate] at ($(%s)+(%s,-0.45)$) {%s};\n", t.color(ToneColor(rs.Tone)), lastID, num(last[1]), name)
		case 1:
			fmt.Fprintf(t.out, "\\node[%s, anchor=south, inner sep=1pt, spacetime plate] at ($(%s)+(%s,0.35)$) {%s};\n", t.color(ToneColor(rs.Tone)), firstID, num(first[1]), name)
		}
	}
}

// axis writes the time axis under the lanes, its ticks a round number of
// units apart.
func (t *tikz) axis(unit float64) {
	y := -float64(len(t.ids)+1) + 0.3
	step := niceStep(0.9 / unit) // a tick about every centimetre or more
	title := "time"
	if t.ix.axis == AxisLamport {
		title = "Lamport time"
	}
	fmt.Fprintf(t.out, "\\draw[->, %s] (0,%s) -- (%s,%s) node[right] {%s};\n", t.color(NowColor), num(y), num(t.now), num(y), title)
	t.take(beside("west", t.now, y, title))
	for v := math.Ceil(t.from/step) * step; (v-t.from)*unit < t.now-0.01; v += step {
		x := (v - t.from) * unit
		fmt.Fprintf(t.out, "\\draw[%s] (%s,%s) -- +(0,-0.08) node[below] {%s};\n", t.color(NowColor), num(x), num(y), num(v))
		t.take(beside("north", x, y-0.09, num(v)))
	}
}

// num writes a coordinate briefly.
func num(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// texSymbols are the characters beyond ASCII that captions use, in TeX.
var texSymbols = map[rune]string{
	'→': `$\rightarrow$`, '←': `$\leftarrow$`, '↔': `$\leftrightarrow$`, '·': `$\cdot$`, '≤': `$\leq$`, '≥': `$\geq$`,
	'≠': `$\neq$`, '×': `$\times$`, '…': `\dots{}`, '–': `--`, '—': `---`, '∞': `$\infty$`, '∅': `$\emptyset$`,
	'✓': `ok`, '✗': `x`, '‖': `$\|$`, '⊥': `$\bot$`, '≈': `$\approx$`, '∈': `$\in$`, '∉': `$\notin$`, '↯': `!`,
	'é': `\'e`, 'è': "\\`e", 'ü': `\"u`, 'ö': `\"o`, 'ä': `\"a`, 'ñ': `\~n`,
}

// texText writes a text so that TeX prints it as it is: its special
// characters escaped, the symbols captions use in TeX's words, and what
// pdflatex cannot print as "?".
func texText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '{', '}', '$', '%', '&', '#', '_':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '^':
			b.WriteString(`\^{}`)
		case '~':
			b.WriteString(`\~{}`)
		case '<':
			b.WriteString(`\textless{}`)
		case '>':
			b.WriteString(`\textgreater{}`)
		case '|':
			b.WriteString(`\textbar{}`)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			switch {
			case r >= ' ' && r < 0x7f:
				b.WriteRune(r)
			case texSymbols[r] != "":
				b.WriteString(texSymbols[r])
			default:
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// oneLineComment keeps a text on one line of a TeX comment.
func oneLineComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			return ' '
		}
		return r
	}, s)
}
