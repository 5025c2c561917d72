package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/check"
	"spacetime/core/engine"
	"spacetime/core/sim"
)

// Cut is the learner's own cut, when the cut tool is on: a point on each
// process line (in units of the diagram's axis). The events of a process
// before its point are inside the cut. The page says whether the cut is
// consistent and points at every message received inside it but sent
// outside it.
type Cut struct {
	s  *Session
	on bool
	// points holds one point per process; NaN while not placed.
	points []float64
	// read is what was last read from the run at the cut.
	read cutReading
}

// Cut is the session's cut tool.
func (s *Session) Cut() *Cut { return &s.cut }

// On reports whether the cut tool is on.
func (c *Cut) On() bool { return c.on }

// Points are the cut's points, one per process (NaN: not placed), while
// the tool is on. Do not modify them.
func (c *Cut) Points() []float64 { return c.points }

// Toggle turns the cut tool on (with no points placed) or off.
func (c *Cut) Toggle() {
	if c.on {
		c.on, c.points = false, nil
		return
	}
	c.on, c.points = true, make([]float64, len(c.s.scn.Names))
	for i := range c.points {
		c.points[i] = math.NaN()
	}
}

// Place puts process id's point of the cut at t on the axis.
func (c *Cut) Place(id sim.NodeID, t float64) {
	if !c.on || int(id) >= len(c.points) {
		return
	}
	// within what a link can say, so that the page never writes a link it
	// cannot open
	c.points[id] = math.Min(math.Max(t, -MaxAt), MaxAt)
}

// PlaceNow puts process id's point of the cut at the present of the
// step on screen, so that its events so far are inside the cut: how the
// keyboard places a cut (from a process's menu), as a click on its line
// at the present line does.
func (c *Cut) PlaceNow(id sim.NodeID) { c.Place(id, c.s.index().Now(c.s.step)) }

// Verdict says whether every process has its point, and, if so, which
// messages make the cut inconsistent (none: it is consistent), judged on
// the events on screen.
func (c *Cut) Verdict() (complete bool, bad []int) {
	r, ok := c.reading()
	if !ok {
		return false, nil
	}
	return true, r.bad
}

// cutReading is what the cut tool reads from the run at a complete cut.
// The page asks for the highlight, the text and the panel at every frame,
// and each reads the whole history: it is kept while the run, the step on
// screen and the points are the same.
type cutReading struct {
	run           *engine.Run
	version, step int
	points        string
	bad           []int
	// steps are the cut's steps; holds, total and initial (the Measure at
	// the cut and at the start) are read from them when first asked for
	// (held), as a drag only redraws the messages that are bad.
	steps          []int
	held           bool
	holds          cutHolds
	total, initial int64
}

// reading reads a complete cut, or reports false while a point is missing.
func (c *Cut) reading() (*cutReading, bool) {
	s := c.s
	if !c.on {
		return nil, false
	}
	for _, p := range c.points {
		if math.IsNaN(p) {
			return nil, false
		}
	}
	key := encodeCut(c.points)
	r := &c.read
	if r.run == s.run && r.version == s.run.Version() && r.step == s.step && r.points == key {
		return r, true
	}
	steps := c.steps()
	*r = cutReading{run: s.run, version: s.run.Version(), step: s.step, points: key, steps: steps, bad: check.Inconsistent(s.State().View(), steps)}
	return r, true
}

// holdings reads a complete cut with what each process and channel
// holds at it, or reports false while a point is missing.
func (c *Cut) holdings() (*cutReading, bool) {
	r, ok := c.reading()
	if ok && !r.held {
		r.holds = c.holdsAt(r.steps)
		r.total, r.initial = c.totals(r.holds)
		r.held = true
	}
	return r, ok
}

// steps turns the points into the first step of each process that lies
// at or after its point (-1 when all its events so far are before it).
func (c *Cut) steps() []int {
	s := c.s
	s.fresh()
	ix := s.index()
	steps := make([]int, len(c.points))
	for i := range steps {
		steps[i] = -1
	}
	for k, r := range s.run.Trace().Records[:s.step] {
		if r.Node < 0 {
			continue // a step of the whole network (FIFO switched, a partition) is on no process line
		}
		if steps[r.Node] < 0 && ix.At(k) >= c.points[r.Node] {
			steps[r.Node] = k
		}
	}
	return steps
}

// Text says what the cut tool shows, for the page.
func (c *Cut) Text() string {
	s := c.s
	if !c.on {
		return ""
	}
	placed := 0
	for _, p := range c.points {
		if !math.IsNaN(p) {
			placed++
		}
	}
	complete, bad := c.Verdict()
	switch {
	case !complete:
		return fmt.Sprintf("Cut tool: click each process line where the cut should cross it, or step to a moment and choose \"Cut here\" in a process's menu (%d of %d placed). Events left of a line's mark are inside the cut.", placed, len(c.points))
	case len(bad) == 0:
		return "The cut you drew is consistent: every message received inside it was also sent inside it. It is a state the system could have been in." + c.crossing() + c.sum()
	}
	names := listed(bad, "; ", s.Diagram().Describe)
	return fmt.Sprintf("The cut you drew is inconsistent: %d message(s) received inside it were sent outside it (highlighted): %s. It records an effect without its cause.",
		len(bad), names) + c.sum()
}

// crossing names the messages a consistent cut holds the sending of but
// not the receipt: in flight at the cut, which consistency allows. Seed
// 003's proof of consistency runs the other way (an event inside, every
// event after it inside), and such a cut is where it fails.
func (c *Cut) crossing() string {
	r, ok := c.holdings()
	if !ok || len(r.holds.channels) == 0 {
		return ""
	}
	var ids []int
	for _, ch := range sortedChannels(r.holds.channels) {
		ids = append(ids, r.holds.channels[ch]...)
	}
	return fmt.Sprintf(" It holds the sending, not the receipt, of %s: in flight at the cut, as consistency allows. (Seed 003's proof runs the wrong way: a cut must hold the cause of every effect it holds, not every effect of a cause.)",
		listed(ids, "; ", c.s.Diagram().Describe))
}

// mostListed is how many messages a sentence or a cell names; a cut
// through a long run may cross thousands.
const mostListed = 6

// listed names the first messages of ids, and says how many more there are.
func listed(ids []int, sep string, name func(int) string) string {
	var names []string
	for _, id := range ids[:min(len(ids), mostListed)] {
		names = append(names, name(id))
	}
	if more := len(ids) - mostListed; more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(names, sep)
}

// sum says what the Measure adds up to at a complete cut.
func (c *Cut) sum() string {
	s := c.s
	r, ok := c.holdings()
	m := s.Spec().Figures.Measure
	if !ok || m == nil {
		return ""
	}
	total, initial := r.total, r.initial
	if total == initial {
		return fmt.Sprintf(" Its %s adds up to %s, all there is.", m.Name, m.Format(total))
	}
	if total > initial {
		return fmt.Sprintf(" Its %s adds up to %s, but the system holds %s: %s counted where it arrived that has not yet left where it was sent from.", m.Name, m.Format(total), m.Format(initial), m.Name)
	}
	return fmt.Sprintf(" Its %s adds up to %s, but the system holds %s: what the network lost is missing.", m.Name, m.Format(total), m.Format(initial))
}

// encodeCut writes the cut's points for a link: "12.5,_,30".
func encodeCut(points []float64) string {
	parts := make([]string, len(points))
	for i, p := range points {
		if math.IsNaN(p) {
			parts[i] = "_"
		} else {
			parts[i] = strconv.FormatFloat(p, 'g', 8, 64)
		}
	}
	return strings.Join(parts, ",")
}

// decodeCut reads what encodeCut wrote, for n processes.
func decodeCut(text string, n int) ([]float64, error) {
	parts := strings.Split(text, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d points, one per process, got %d", n, len(parts))
	}
	points := make([]float64, n)
	for i, p := range parts {
		if p == "_" {
			points[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a point of the axis", clip(p))
		}
		if math.Abs(v) > MaxAt {
			return nil, fmt.Errorf("want points of the axis from %g to %g, got %q", -MaxAt, MaxAt, clip(p))
		}
		points[i] = v
	}
	return points, nil
}

// cutHolds are what each process and channel holds at a complete cut:
// the processes' states as of their points, and the messages sent inside
// the cut but not received inside it.
type cutHolds struct {
	// fields and amounts are each process's state and Measure as of its
	// point (read at once: a state the run hands out is reused).
	fields   [][]sim.Field
	amounts  []int64
	channels map[[2]sim.NodeID][]int
}

func (c *Cut) holdsAt(cut []int) cutHolds {
	s := c.s
	h := cutHolds{fields: make([][]sim.Field, len(cut)), amounts: make([]int64, len(cut)), channels: map[[2]sim.NodeID][]int{}}
	m := s.Spec().Figures.Measure
	for id, step := range cut {
		if step < 0 {
			step = s.step
		}
		n := s.run.At(step).View().Node(sim.NodeID(id))
		h.fields[id] = n.Inspect()
		if m != nil {
			h.amounts[id] = m.OfNode(n)
		}
	}
	inside := func(p sim.NodeID, step int) bool { return step >= 0 && step < s.step && (cut[p] < 0 || step < cut[p]) }
	for _, m := range s.run.Trace().MsgsBefore(s.step) {
		if m.DropStep >= 0 && m.DropStep < s.step {
			continue // lost: in no channel
		}
		if inside(m.From, m.SendStep) && !inside(m.To, m.RecvStep) {
			key := [2]sim.NodeID{m.From, m.To}
			h.channels[key] = append(h.channels[key], m.ID)
		}
	}
	return h
}

// Panel is the global state at the learner's cut, once every point is
// placed: each process's state as of its point, each channel's messages
// (sent inside the cut, received outside it), and, for an algorithm with
// a Measure, what each holds and the total.
func (c *Cut) Panel() (sim.Panel, bool) {
	s := c.s
	r, complete := c.holdings()
	if !complete {
		return sim.Panel{}, false
	}
	m := s.Spec().Figures.Measure
	h := r.holds
	p := sim.Panel{Title: "State at your cut", Note: "each process as of its point; each channel: sent inside the cut, received outside it", Columns: []string{"process or channel", "state"}}
	if m != nil {
		p.Columns = append(p.Columns, m.Name)
	}
	for id, fs := range h.fields {
		var fields []string
		for _, f := range fs {
			fields = append(fields, f.Name+" "+f.Value)
		}
		row := []string{s.scn.Names[id], strings.Join(fields, "; ")}
		if m != nil {
			row = append(row, m.Format(h.amounts[id]))
		}
		p.Rows = append(p.Rows, sim.Row{Cells: row})
	}
	for _, key := range sortedChannels(h.channels) {
		var amount int64
		for _, id := range h.channels[key] {
			if m != nil {
				amount += m.OfMessage(s.run.Trace().Msgs[id].Message)
			}
		}
		msgs := listed(h.channels[key], ", ", func(id int) string { return s.run.Trace().Msgs[id].Describe() })
		row := []string{s.scn.Names[key[0]] + "→" + s.scn.Names[key[1]], msgs}
		if m != nil {
			row = append(row, m.Format(amount))
		}
		p.Rows = append(p.Rows, sim.Row{Cells: row})
	}
	if m != nil {
		row := sim.Row{Cells: []string{"total", fmt.Sprintf("the system holds %s", m.Format(r.initial)), m.Format(r.total)}}
		if r.total != r.initial {
			row.CellEmphasis = []string{"", "", "bad"}
		}
		p.Rows = append(p.Rows, row)
	}
	return p, true
}

// totals adds the Measure up at the cut, beside what the run started
// with (nothing without a Measure).
func (c *Cut) totals(h cutHolds) (total, initial int64) {
	s := c.s
	m := s.Spec().Figures.Measure
	if m == nil {
		return 0, 0
	}
	for _, a := range h.amounts {
		total += a
	}
	for _, ids := range h.channels {
		for _, id := range ids {
			total += m.OfMessage(s.run.Trace().Msgs[id].Message)
		}
	}
	start := s.run.At(0).View()
	for i := range start.N() {
		initial += m.OfNode(start.Node(sim.NodeID(i)))
	}
	return total, initial
}

func sortedChannels(ch map[[2]sim.NodeID][]int) [][2]sim.NodeID {
	keys := make([][2]sim.NodeID, 0, len(ch))
	for k := range ch {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]sim.NodeID) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	})
	return keys
}
