package diagram

import (
	"math"
	"sort"

	"spacetime/core/sim"
)

// TopologyOptions shape the topology view.
type TopologyOptions struct {
	Width, Height float64
	// Highlight lists messages to point at.
	Highlight []int
	// Scale is as the diagram's Options.Scale.
	Scale float64
	// Overlays are the algorithm's overlays at the step on screen
	// (Spec.Picture.Overlays): the graph draws its states, waits and held links.
	Overlays []sim.Overlay
}

// TopologyHeight is the height the topology view of n processes of the
// algorithm is drawn at: room for the graph, and for a table of cells
// (a row a process) when the algorithm draws one.
func TopologyHeight(spec *sim.Spec, n int) float64 {
	graph := min(max(120+22*float64(n), 240), 420)
	if !hasStyle(spec, sim.StyleCells) {
		return graph
	}
	return max(200, graph-40) + float64(n)*cellRow + cellGap
}

// edgeHit is a drawn link, kept for hit-testing.
type edgeHit struct {
	from, to       sim.NodeID
	x1, y1, x2, y2 float64
}

// Topology lays out the process graph of the first k steps of the indexed
// run: the processes placed as the topology says (a ring in its order, a
// tree in layers, a graph around a circle or, if it flows one way, in
// layers), its links (cut ones dashed and crossed, blocked ones thick with a
// bar across), each process's health and state line, and the messages in
// flight moving along their links, as far along as the space-time diagram
// draws them.
func (ix *Index) Topology(k int, spec *sim.Spec, topo *sim.Topology, opt TopologyOptions) *Scene {
	tr := ix.tr
	k = min(max(k, 0), tr.Len())
	n := len(tr.Names)
	u := opt.Scale
	if u <= 0 {
		u = 1
	}
	opt.Width, opt.Height = opt.Width/u, opt.Height/u
	s := &Scene{Width: opt.Width, Height: opt.Height, T0: 0, T1: 1}
	l := &layout{ix: ix, tr: tr, k: k, spec: spec, xs: ix.xs, s: s, now: ix.Now(k), opt: Options{Width: opt.Width, Height: opt.Height}}
	// the overlays by style: a state line under a process, arrows beside
	// links for who waits for whom, links held back
	states := map[sim.NodeID]string{}
	var waits, held, rows []sim.Overlay
	for _, o := range opt.Overlays {
		rs, ok := l.role(o.Role)
		if !ok || o.Node < 0 || int(o.Node) >= n {
			continue
		}
		switch rs.Style {
		case sim.StyleState:
			states[o.Node] = o.Text
		case sim.StyleWait:
			waits = append(waits, o)
		case sim.StyleHeld:
			held = append(held, o)
		case sim.StyleCells:
			rows = append(rows, o)
		}
	}
	height := opt.Height
	if len(rows) > 0 {
		// the rows of cells in a table under the graph, as tall as the
		// view can give them while the graph keeps 60% of it
		height -= min(float64(len(rows))*cellRow+cellGap, height*0.4)
	}
	tableTop := height
	if hasStates(spec) {
		height -= labelGap // room under the lowest circle for its state line
	}
	// every circle wide enough for the longest name ("client4")
	R := nodeRadius
	for _, name := range tr.Names {
		R = max(R, TextWidth(name, true)/2+5)
	}
	s.nodeR = R
	pos := placeNodes(topo, n, opt.Width, height, R)
	s.nodes = pos
	down, paused := ix.healthAt(k)
	cut := ix.cutAt(k)
	// links
	drawn := map[[2]sim.NodeID]bool{}
	for _, e := range topo.Edges {
		a, b := e[0], e[1]
		if a < 0 || b < 0 || int(a) >= n || int(b) >= n || a == b || drawn[[2]sim.NodeID{a, b}] {
			continue
		}
		drawn[[2]sim.NodeID{a, b}] = true
		p, q := pos[a], pos[b]
		x1, y1, x2, y2 := shorten(p[0], p[1], q[0], q[1], R+2)
		cause, isCut := cut[[2]sim.NodeID{a, b}]
		if back, ok := cut[[2]sim.NodeID{b, a}]; !isCut && ok && !topo.Directed {
			cause, isCut = back, true
		}
		l.tag = tagOf(WhatLink).at(a)
		sh := Shape{Op: OpLine, X1: x1, Y1: y1, X2: x2, Y2: y2, Color: LaneColor, Width: 1.5}
		if topo.Directed {
			sh.Flags |= FlagArrow
			sh.Color = Faint
			sh.Width = 1.5
		}
		if isCut {
			sh.Color, sh.Flags = CrashColor, sh.Flags|FlagDashed
		}
		l.add(sh)
		if isCut {
			l.add(Shape{Op: OpCross, X1: (x1 + x2) / 2, Y1: (y1 + y2) / 2, X2: 6, Color: CrashColor, Width: 2, Tag: tagOf(WhatFault).at(a).as(cause)})
		}
		s.edges = append(s.edges, edgeHit{from: a, to: b, x1: x1, y1: y1, x2: x2, y2: y2})
	}
	// waits, over the links: who waits for whom
	for _, w := range waits {
		a, b := w.Node, w.Peer
		if b < 0 || int(b) >= n || a == b {
			continue
		}
		rs, _ := l.role(w.Role)
		p, q := pos[a], pos[b]
		x1, y1, x2, y2 := shorten(p[0], p[1], q[0], q[1], R+3)
		nx, ny := normal(x1, y1, x2, y2) // beside the link, so both directions show
		l.add(Shape{Op: OpLine, X1: x1 - nx*4, Y1: y1 - ny*4, X2: x2 - nx*4, Y2: y2 - ny*4, Color: ToneColor(rs.Tone), Width: 2.5, Flags: FlagArrow, Tag: tagOf(WhatWait).at(a)})
	}
	// links held back, over the links: the receiver takes nothing from them
	for _, e := range held {
		a, b := e.Node, e.Peer
		if b < 0 || int(b) >= n || a == b {
			continue
		}
		rs, _ := l.role(e.Role)
		l.tag = tagOf(WhatLink).at(a).as("blocked")
		s.Shapes = append(s.Shapes, l.stamp(heldLink(pos[a], pos[b], R, ToneColor(rs.Tone)))...)
	}
	// processes
	for i := range n {
		p := pos[i]
		stroke := Ink
		switch {
		case down[i] != "":
			stroke = CrashColor
		case paused[i] != "":
			stroke = PauseColor
		}
		l.tag = tagOf(WhatProcess).at(sim.NodeID(i))
		l.add(Shape{Op: OpCircle, X1: p[0], Y1: p[1], X2: R, Color: stroke, Width: 2, Flags: FlagHollow})
		// labels keep off the circles
		l.obstacles = append(l.obstacles, box{p[0] - R, p[1] - R, p[0] + R, p[1] + R})
		l.text(Shape{X1: p[0], Y1: p[1] + 4, Color: Ink, Align: AlignCenter, Flags: FlagBold, Text: tr.Names[i]}, prioFixed, 0)
		if down[i] != "" {
			l.add(Shape{Op: OpCross, X1: p[0] + R*0.7, Y1: p[1] - R*0.7, X2: 6, Color: CrashColor, Width: 3, Tag: tagOf(WhatFault).at(sim.NodeID(i)).as(down[i])})
		}
		if paused[i] != "" {
			l.add(Shape{Op: OpRect, X1: p[0] + R*0.6, Y1: p[1] - R - 4, X2: 4, Y2: 14, Color: PauseColor, Tag: tagOf(WhatFault).at(sim.NodeID(i)).as(paused[i])})
		}
		if text := states[sim.NodeID(i)]; text != "" {
			l.text(Shape{X1: p[0], Y1: p[1] + R + labelGap, Color: NowColor, Align: AlignCenter, Text: text}, prioMark, -float64(i), point{p[0], p[1] - R - 6})
		}
	}
	l.cellRows(rows, tableTop, opt.Width, opt.Height)
	// tokens held, as a coin on the holder's circle
	for _, sp := range ix.heldAt(k, l) {
		p := pos[sp.node]
		if rs, ok := l.role(sp.role); ok {
			l.tag = tagOf(WhatToken).at(sp.node).as(sp.role)
			l.s.Shapes = append(l.s.Shapes, l.stamp(l.coin(p[0]-R*0.75, p[1]-R*0.75, ToneColor(rs.Tone)))...)
		}
	}
	// messages in flight, on their way
	highlight := map[int]bool{}
	for _, id := range opt.Highlight {
		highlight[id] = true
	}
	last := len(tr.MsgsBefore(k))
	// the newest of those in flight, as the diagram draws them (maxEarlier)
	first := max(sort.Search(len(ix.reach), func(i int) bool { return ix.reach[i] >= k }), last-maxEarlier)
	queued := map[[2]sim.NodeID]int{}
	var dots []Shape
	var labels []label
	for i := first; i < last; i++ {
		m := &tr.Msgs[i]
		if !m.InFlightAt(k) {
			continue
		}
		ch := [2]sim.NodeID{m.From, m.To}
		f := l.progress(m, l.due(m), queued[ch])
		queued[ch]++
		if m.Duplicate() {
			f = max(f-0.12, 0.1) // just behind its original
		}
		p, q := pos[m.From], pos[m.To]
		x1, y1, x2, y2 := shorten(p[0], p[1], q[0], q[1], R)
		// a message rides slightly to the right of its link, so that the
		// two directions of one link do not overlap
		nx, ny := normal(x1, y1, x2, y2)
		x, y := x1+(x2-x1)*f+nx*5, y1+(y2-y1)*f+ny*5
		color, _, _ := l.style(m.Kind)
		role := sim.RoleMessage
		if spec != nil {
			if ks, ok := spec.Kind(m.Kind); ok {
				role = ks.Role
			}
		}
		if highlight[m.ID] {
			dots = append(dots, Shape{Op: OpCircle, X1: x, Y1: y, X2: 9, Color: HighlightColor, Tag: tagOf(WhatHighlight).of(m.ID)})
		}
		l.tag = tagOf(WhatMessage).of(m.ID).as(m.Kind)
		if role == sim.RoleToken {
			dots = append(dots, l.stamp(l.coin(x, y, color))...)
		} else {
			dots = append(dots, Shape{Op: OpCircle, X1: x, Y1: y, X2: 5, Color: color, Tag: l.tag})
		}
		if m.Label != "" {
			labels = append(labels, label{sh: Shape{Op: OpText, X1: x + 8, Y1: y - 6, Color: color, Align: AlignLeft, Text: m.Label, Tag: tagOf(WhatMessageLabel).of(m.ID).as(m.Kind)},
				prio: prioMessage, order: float64(m.SendStep)})
		}
		s.arrows = append(s.arrows, arrow{msg: m.ID, x1: x, y1: y, x2: x, y2: y, inFlight: true})
	}
	if len(s.arrows) > topologyLabels {
		labels = nil // the lanes beside carry the labels; a crowded graph shows dots
	}
	s.Shapes = append(s.Shapes, dots...)
	l.labels = append(l.labels, labels...)
	l.placeLabels()
	s.scale(u)
	return s
}

// blockedLink draws a link whose receiver holds its messages back: a thick
// orange stroke over the link, and a bar across it just before the
// receiver, where the messages stop.
// heldLink is a link held back: thick, with a bar across it near the end
// that holds it.
func heldLink(from, to [2]float64, r float64, color Color) []Shape {
	x1, y1, x2, y2 := shorten(from[0], from[1], to[0], to[1], r+2)
	nx, ny := normal(x1, y1, x2, y2)
	bx, by := x1+(x2-x1)*0.85, y1+(y2-y1)*0.85
	return []Shape{
		{Op: OpLine, X1: x1, Y1: y1, X2: x2, Y2: y2, Color: color, Width: blockedWidth},
		{Op: OpLine, X1: bx - nx*blockedBar, Y1: by - ny*blockedBar, X2: bx + nx*blockedBar, Y2: by + ny*blockedBar, Color: color, Width: blockedWidth},
	}
}

// cellRows draws the StyleCells overlays as a table between top and
// bottom: a row for each, its process's name, then its cells, each
// coloured by its group (tinted when settled, outlined when tentative).
// A row longer than the width shows its end, after an ellipsis.
func (l *layout) cellRows(rows []sim.Overlay, top, width, bottom float64) {
	if len(rows) == 0 {
		return
	}
	rowH := min(cellRow, (bottom-top-cellGap)/float64(len(rows)))
	nameW := 0.0
	for _, o := range rows {
		nameW = max(nameW, TextWidth(l.tr.Names[o.Node], true))
	}
	x0 := cellGap + nameW + 6
	fit := max(int((width-x0-cellGap)/(cellWidth+2)), 1)
	for r, o := range rows {
		y := top + cellGap + float64(r)*rowH
		mid := y + rowH/2
		l.tag = tagOf(WhatProcess).at(o.Node)
		l.add(Shape{Op: OpText, X1: x0 - 6, Y1: mid + 4, Color: Ink, Align: AlignRight, Flags: FlagBold, Text: l.tr.Names[o.Node], Tag: l.tag})
		cells := o.Cells
		x := x0
		if len(cells) > fit {
			cells = cells[len(cells)-fit+1:]
			l.add(Shape{Op: OpText, X1: x + cellWidth/2, Y1: mid + 4, Color: Faint, Align: AlignCenter, Text: "…", Tag: l.tag})
			x += cellWidth + 2
		}
		h := rowH - 3
		for _, c := range cells {
			color := ToneColor(CellTone(c.Group))
			if c.Tentative {
				for _, e := range [4][4]float64{{x, y, x + cellWidth, y}, {x + cellWidth, y, x + cellWidth, y + h}, {x + cellWidth, y + h, x, y + h}, {x, y + h, x, y}} {
					l.add(Shape{Op: OpLine, X1: e[0], Y1: e[1], X2: e[2], Y2: e[3], Color: color, Width: 1.5, Tag: l.tag})
				}
			} else {
				l.add(Shape{Op: OpRect, X1: x, Y1: y, X2: cellWidth, Y2: h, Color: color, Tag: l.tag})
			}
			l.add(Shape{Op: OpText, X1: x + cellWidth/2, Y1: y + h/2 + 4, Color: Ink, Align: AlignCenter, Text: c.Text, Tag: l.tag})
			x += cellWidth + 2
		}
	}
}

// cellTones colour the cells of a row by their group, in turn.
var cellTones = [...]sim.Tone{sim.Blue, sim.Green, sim.Orange, sim.Purple, sim.Teal, sim.Gold, sim.Cyan, sim.Red}

// CellTone is the tone of a cell of group g, wherever cells are drawn
// (the process graph's table, a panel's strip).
func CellTone(g int) sim.Tone { return cellTones[((g%len(cellTones))+len(cellTones))%len(cellTones)] }

// The table of cells: a row's height, a cell's width, and the margin.
const (
	cellRow   = 20.0
	cellWidth = 20.0
	cellGap   = 6.0
)

// hasStates says the algorithm writes processes' states under them in
// the process graph: the graph leaves room for the lowest one's.
func hasStates(spec *sim.Spec) bool { return hasStyle(spec, sim.StyleState) }

// hasStyle says the algorithm has a role of the style.
func hasStyle(spec *sim.Spec, style sim.Style) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Picture.Roles {
		if r.Style == style {
			return true
		}
	}
	return false
}

// blockedWidth is the stroke of a blocked link (a link's is 2 at most), and
// blockedBar the half-length of the bar across it.
const (
	blockedWidth = 4.0
	blockedBar   = 9.0
)

// labelGap is how far below a process's centre its state line is written.
const labelGap = 14.0

// topologyLabels is how many messages in flight the topology view labels.
const topologyLabels = 4

// nodeRadius is the least radius of a process in the topology view.
const nodeRadius = 18.0

// healthAt says which processes are down and which paused after k steps.
func (ix *Index) healthAt(k int) (down, paused []string) {
	n := len(ix.tr.Names)
	down, paused = make([]string, n), make([]string, n)
	for i := range ix.spans {
		sp := &ix.spans[i]
		if sp.from >= k || (sp.to >= 0 && sp.to < k) {
			continue
		}
		switch sp.kind {
		case spanDown:
			down[sp.node] = sp.text
		case spanPaused:
			paused[sp.node] = sp.text
		}
	}
	return down, paused
}

// cutAt lists the links cut after k steps, with the fault that cut each.
func (ix *Index) cutAt(k int) map[[2]sim.NodeID]string {
	cut := map[[2]sim.NodeID]string{}
	for i := range ix.spans {
		sp := &ix.spans[i]
		if sp.kind == spanLink && sp.from < k && (sp.to < 0 || sp.to >= k) {
			cut[[2]sim.NodeID{sp.node, sp.peer}] = sp.text
		}
	}
	return cut
}

// placeNodes gives each process its place in the view.
func placeNodes(topo *sim.Topology, n int, w, h, radius float64) [][2]float64 {
	if layers, ok := topo.Layers(n); ok {
		return placeLayers(layers, n, w, h)
	}
	order := make([]sim.NodeID, 0, n)
	seen := make([]bool, n)
	if topo.Kind == sim.Ring {
		for _, id := range topo.Order {
			if id >= 0 && int(id) < n && !seen[id] {
				order, seen[id] = append(order, id), true
			}
		}
	}
	for i := range n {
		if !seen[i] {
			order = append(order, sim.NodeID(i))
		}
	}
	pos := make([][2]float64, n)
	cx, cy := w/2, h/2
	// an ellipse as wide as the view allows, so that wide names keep apart
	rx, ry := max(w/2-radius-10, 20), max(h/2-radius-14, 20)
	for i, id := range order {
		a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(len(order))
		pos[id] = [2]float64{cx + rx*math.Cos(a), cy + ry*math.Sin(a)}
	}
	return pos
}

// placeLayers lays layers out left to right, each spread top to bottom.
func placeLayers(layers [][]sim.NodeID, n int, w, h float64) [][2]float64 {
	pos := make([][2]float64, n)
	for li, layer := range layers {
		x := w * (float64(li) + 0.5) / float64(len(layers))
		for j, id := range layer {
			pos[id] = [2]float64{x, h * (float64(j) + 0.5) / float64(len(layer))}
		}
	}
	return pos
}

// shorten trims a segment by r at both ends (so links stop at the circles).
func shorten(x1, y1, x2, y2, r float64) (float64, float64, float64, float64) {
	dx, dy := x2-x1, y2-y1
	d := math.Hypot(dx, dy)
	if d <= 2*r {
		return x1, y1, x2, y2
	}
	ux, uy := dx/d, dy/d
	return x1 + ux*r, y1 + uy*r, x2 - ux*r, y2 - uy*r
}

// normal is the unit vector to the right of a segment's direction.
func normal(x1, y1, x2, y2 float64) (float64, float64) {
	dx, dy := x2-x1, y2-y1
	d := math.Hypot(dx, dy)
	if d == 0 {
		return 0, 0
	}
	return -dy / d, dx / d
}
