package diagram

import (
	"math"
	"sort"

	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Index is what laying out any step of a run needs to know about the whole
// run, computed once per run (and axis) so that a frame only visits what is
// visible: every step's x, the stretches of time during which something
// holds (a process down or paused, a link cut, an interval an algorithm
// annotated, a timer armed), and the few steps that carry annotations or
// faults.
type Index struct {
	tr   *trace.Trace
	axis Axis
	// xs is every step's position on the axis; upTo[k] is the largest of
	// the first k (the "now" of step k).
	xs, upTo []float64
	// monotone says xs never decreases (simulated time), so windows can be
	// found by binary search.
	monotone bool
	// reach[i] is the latest step any of messages 0..i is drawn to (its
	// receipt or loss; MaxInt while it is never received).
	reach []int
	// spans are the stretches, in the order they open.
	spans []span
	// noted lists the steps with point annotations, faulted the steps of
	// faults, wake-ups and skipped inputs, and cutNoted the noted steps
	// that note a cut or a message of a cut: a frame draws the cuts from
	// these alone (a log notes every step, and has no cut).
	noted, faulted, cutNoted []int
	// halo gives the first annotation about each message that has one.
	halo map[int]haloNote
	// clocks list, by process, the changes of its wall clock, and delays,
	// by message, the arrival time each delay set, in step order.
	clocks map[sim.NodeID][]clockChange
	delays map[int][]change
	end    float64
	// points gives the first step of each process's point annotation of a
	// role and group, built on first use (only lines need it).
	points map[sim.LinePoint]int
}

// spanKind is what a span stands for.
type spanKind uint8

const (
	spanDown spanKind = iota + 1
	spanPaused
	spanRole
	spanTimer
	spanLink
)

// span is a stretch of a run during which something holds. from is the
// step that opened it (-1: from the start), to the step that closed it
// (-1 while it is still open at the end of the trace).
type span struct {
	kind       spanKind
	node, peer sim.NodeID
	role       string
	group      int
	text       string
	from, to   int
	due        sim.Time
	// track is the span's row on its lane, so that intervals open at once
	// on one process are drawn one above the other.
	track int
}

// haloNote is an annotation about a message: its role, and the step that
// made it.
type haloNote struct {
	role string
	step int
}

// change is a value set at a step.
type change struct {
	step  int
	value int64
}

// NewIndex indexes a run of spec's algorithm (nil if unknown) for one
// axis. Build a new one whenever the trace changes.
func NewIndex(tr *trace.Trace, axis Axis, spec *sim.Spec) *Index {
	if axis == "" {
		axis = AxisTime
	}
	recs := tr.Records
	ix := &Index{tr: tr, axis: axis, xs: make([]float64, len(recs)), upTo: make([]float64, len(recs)+1),
		halo: map[int]haloNote{}, clocks: map[sim.NodeID][]clockChange{}, delays: map[int][]change{}}
	if axis == AxisLamport {
		for i, r := range recs {
			ix.xs[i] = float64(r.Lamport)
		}
	} else {
		ix.monotone = true
		for i := 0; i < len(recs); {
			j := i
			for j < len(recs) && recs[j].Time == recs[i].Time {
				j++
			}
			for s := i; s < j; s++ {
				ix.xs[s] = float64(recs[s].Time) + float64(s-i)/float64(j-i)
			}
			i = j
		}
	}
	ix.end = 1
	for i, x := range ix.xs {
		ix.upTo[i+1] = max(ix.upTo[i], x)
		ix.end = max(ix.end, x)
	}
	ix.end++
	ix.reach = make([]int, len(tr.Msgs))
	latest := -1
	for i := range tr.Msgs {
		m := &tr.Msgs[i]
		end := math.MaxInt
		switch {
		case m.RecvStep >= 0:
			end = m.RecvStep
		case m.DropStep >= 0:
			end = m.DropStep
		}
		latest = max(latest, end)
		ix.reach[i] = latest
	}
	ix.indexSpans(spec)
	return ix
}

// spanKey identifies what a span is of, to close it later.
type spanKey struct {
	kind       spanKind
	node, peer sim.NodeID
	role       string
	group      int
}

// indexSpans walks the trace once and pairs what opens with what closes.
// Intervals open at once on one process get a track each, one above the
// other, except a held token, which is drawn on the line itself.
func (ix *Index) indexSpans(spec *sim.Spec) {
	onLine := map[string]bool{}
	ofCuts := map[string]bool{} // the roles layout.cuts draws
	if spec != nil {
		for _, r := range spec.Picture.Roles {
			onLine[r.Name] = r.Style == sim.StyleToken
			if r.Style == sim.StyleCut || r.Style == sim.StyleHalo && r.Of != "" {
				ofCuts[r.Name] = true
			}
		}
	}
	open := map[spanKey]int{} // key → index in ix.spans
	tracks := map[sim.NodeID][]bool{}
	take := func(node sim.NodeID) int {
		t := tracks[node]
		for i, used := range t {
			if !used {
				t[i] = true
				return i
			}
		}
		tracks[node] = append(t, true)
		return len(t)
	}
	begin := func(k spanKey, sp span) {
		sp.kind, sp.node, sp.peer, sp.role, sp.group, sp.to = k.kind, k.node, k.peer, k.role, k.group, -1
		if k.kind == spanRole && !onLine[k.role] {
			sp.track = take(k.node)
		}
		open[k] = len(ix.spans)
		ix.spans = append(ix.spans, sp)
	}
	finish := func(k spanKey, step int) {
		i, ok := open[k]
		if !ok {
			return
		}
		ix.spans[i].to = step
		if k.kind == spanRole && !onLine[k.role] {
			tracks[k.node][ix.spans[i].track] = false
		}
		delete(open, k)
	}
	for _, id := range ix.tr.Down {
		begin(spanKey{kind: spanDown, node: id, peer: sim.None}, span{from: -1, text: leaving(sim.Crashed)})
	}
	for s := range ix.tr.Records {
		r := &ix.tr.Records[s]
		switch r.Kind {
		case trace.Fault, trace.Wake, trace.Skip:
			ix.faulted = append(ix.faulted, s)
		case trace.Timer:
			finish(spanKey{kind: spanTimer, node: r.Node, peer: sim.None, role: r.Tag()}, s)
		}
		for _, c := range r.Changes() {
			switch c.What {
			case trace.ChangeHealth:
				finish(spanKey{kind: spanDown, node: c.Node, peer: sim.None}, s)
				finish(spanKey{kind: spanPaused, node: c.Node, peer: sim.None}, s)
				switch h := sim.Health(c.Value); h {
				case sim.Crashed:
					begin(spanKey{kind: spanDown, node: c.Node, peer: sim.None}, span{from: s, text: causeOf(r, h)})
				case sim.Paused:
					begin(spanKey{kind: spanPaused, node: c.Node, peer: sim.None}, span{from: s, text: causeOf(r, h)})
				}
			case trace.ChangeLink:
				k := spanKey{kind: spanLink, node: c.Node, peer: c.Peer}
				finish(k, s)
				if c.Value == 0 {
					begin(k, span{from: s, text: r.Tag()}) // the fault that cut it
				}
			case trace.ChangeSkew, trace.ChangeRate:
				ix.clocks[c.Node] = append(ix.clocks[c.Node], clockChange{step: s, at: r.Time, what: c.What, value: c.Value})
			case trace.ChangeDelay:
				ix.delays[c.Msg] = append(ix.delays[c.Msg], change{step: s, value: c.Value})
			}
		}
		for _, t := range r.Timers() {
			k := spanKey{kind: spanTimer, node: r.Node, peer: sim.None, role: t.Tag}
			finish(k, s)
			if !t.Cancelled {
				begin(k, span{from: s, due: t.Due, text: t.Tag})
			}
		}
		noted, ofCut := false, false
		for _, a := range r.Annotations() {
			switch a.Phase {
			case sim.Begin:
				k := spanKey{kind: spanRole, node: r.Node, peer: sim.None, role: a.Role, group: a.Group}
				finish(k, s)
				begin(k, span{from: s, text: a.Text})
				ix.spans[len(ix.spans)-1].peer = a.Peer
			case sim.End:
				finish(spanKey{kind: spanRole, node: r.Node, peer: sim.None, role: a.Role, group: a.Group}, s)
			}
			if a.Msg >= 0 {
				if _, ok := ix.halo[a.Msg]; !ok {
					ix.halo[a.Msg] = haloNote{role: a.Role, step: s}
				}
			}
			noted = noted || a.Phase == sim.Point || a.Peer >= 0
			ofCut = ofCut || len(ofCuts) > 0 && ofCuts[a.Role] // no lookup when no role is
		}
		if noted {
			ix.noted = append(ix.noted, s)
			if ofCut {
				ix.cutNoted = append(ix.cutNoted, s)
			}
		}
	}
}

// Trace is the indexed trace.
func (ix *Index) Trace() *trace.Trace { return ix.tr }

// Axis is the indexed axis.
func (ix *Index) Axis() Axis { return ix.axis }

// firstStepAt is the first step whose axis value is t or more: no earlier
// step is visible in a window that starts at t. On the Lamport axis, where
// values do not grow with the step, the running maximum (which does) finds it.
func (ix *Index) firstStepAt(t float64) int {
	if ix.monotone {
		return sort.SearchFloat64s(ix.xs, t)
	}
	return sort.Search(len(ix.xs), func(i int) bool { return ix.upTo[i+1] >= t })
}

// pointStep is the first step at which process p.Node made a point
// annotation of p.Role and p.Group, or -1.
func (ix *Index) pointStep(p sim.LinePoint) int {
	if ix.points == nil {
		ix.points = map[sim.LinePoint]int{}
		for _, s := range ix.noted {
			r := &ix.tr.Records[s]
			for _, a := range r.Annotations() {
				k := sim.LinePoint{Node: r.Node, Role: a.Role, Group: a.Group}
				if _, ok := ix.points[k]; !ok && a.Phase == sim.Point {
					ix.points[k] = s
				}
			}
		}
	}
	if s, ok := ix.points[p]; ok {
		return s
	}
	return -1
}

// stepsBefore returns the indexed steps (noted or faulted) below k.
func stepsBefore(steps []int, k int) []int {
	return steps[:sort.SearchInts(steps, k)]
}

// At is step k's position on the axis.
func (ix *Index) At(k int) float64 { return ix.xs[k] }

// Now is the axis value of the present after the first k steps.
func (ix *Index) Now(k int) float64 { return ix.upTo[min(max(k, 0), len(ix.xs))] + 0.5 }

// End is the axis value just past the run's last step.
func (ix *Index) End() float64 { return ix.end }

// valueAt is the last value a change list set before step k (0 if none).
func valueAt(cs []change, k int) (int64, bool) {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].step >= k })
	if i == 0 {
		return 0, false
	}
	return cs[i-1].value, true
}

// clockChange is a step that set a process's clock off (a skew) or made
// it run at a rate.
type clockChange struct {
	step  int
	at    sim.Time
	what  trace.ChangeKind
	value int64
}

// Clock is process id's wall clock after the first k steps, and how far it
// reads ahead of the time then (behind when negative).
func (ix *Index) Clock(id sim.NodeID, k int) (sim.WallClock, sim.Time) {
	var c sim.WallClock
	for _, ch := range ix.clocks[id] {
		if ch.step >= k {
			break
		}
		if ch.what == trace.ChangeSkew {
			c = c.Skewed(ch.at, sim.Time(ch.value))
		} else {
			c = c.Rated(ch.at, ch.value)
		}
	}
	now := sim.Time(0)
	if k = min(k, ix.tr.Len()); k > 0 {
		now = ix.tr.Records[k-1].Time
	}
	return c, c.Reads(now) - now
}

// heldAt lists the token intervals (StyleToken roles) open after the first
// k steps: who holds a token now.
func (ix *Index) heldAt(k int, l *layout) []*span {
	var out []*span
	for i := range ix.spans {
		sp := &ix.spans[i]
		if sp.kind != spanRole || sp.from >= k || (sp.to >= 0 && sp.to < k) {
			continue
		}
		if rs, ok := l.role(sp.role); ok && rs.Style == sim.StyleToken {
			out = append(out, sp)
		}
	}
	return out
}

// causeOf names what left a process in health h at record r: the fault
// of the step, or the registry's fault that leaves a process so.
func causeOf(r *trace.Record, h sim.Health) string {
	if r.Kind == trace.Fault {
		return r.Tag()
	}
	return leaving(h)
}

// leaving is the registry's fault that leaves a process in health h (the
// crash for a process down from the start), or the health's name.
func leaving(h sim.Health) string {
	if f, ok := faults.Leaving(h); ok {
		return f.Name
	}
	return h.String()
}
