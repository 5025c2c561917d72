package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// roles is an algorithm's annotation roles, one per style, as a mutual
// exclusion or lease algorithm would name them.
var roles = &sim.Spec{ID: "roles", Picture: sim.PictureSpec{Roles: []sim.RoleSpec{
	{Name: "critical-section", Style: sim.StyleBar, Tone: sim.Gold, Legend: "in the critical section"},
	{Name: "waiting", Style: sim.StyleOutline, Tone: sim.Orange, Legend: "waiting for the section"},
	{Name: "terminated", Style: sim.StyleBand, Tone: sim.Green, Legend: "the computation has terminated"},
	{Name: "wait-for", Style: sim.StyleArrow, Tone: sim.Red, Legend: "waits for"},
	{Name: "rejected-write", Style: sim.StyleGlyph, Glyph: sim.GlyphTriangle, Tone: sim.Red, Legend: "write rejected"},
	{Name: "checker-only", Style: sim.StyleHidden},
	{Name: "recovery-line", Style: sim.StyleLine, Tone: sim.Red, Legend: "recovery line"},
},
}}

// rec is a step of a made-up trace with annotations.
func rec(step int, t sim.Time, node sim.NodeID, as ...sim.Annotation) trace.Record {
	r := trace.Record{Step: step, Time: t, Node: node, Kind: trace.Command, Msg: -1}
	if len(as) > 0 {
		r.Extra = &trace.Extra{Annotations: as}
	}
	return r
}

func shapesOf(tr *trace.Trace, k int, keep func(diagram.Shape) bool) []diagram.Shape {
	var out []diagram.Shape
	for _, sh := range diagram.Layout(tr, k, roles, diagram.Options{Width: 600, Height: 240}).Shapes {
		if keep(sh) {
			out = append(out, sh)
		}
	}
	return out
}

func isRect(c diagram.Color) func(diagram.Shape) bool {
	return func(sh diagram.Shape) bool { return sh.Op == diagram.OpRect && sh.Color == c }
}

// An interval of a bar role is a thick bar from its Begin to its End, or
// to now while it is open; a waiting interval is drawn apart, hollow.
func TestIntervalsAreDrawnInTheirRolesStyle(t *testing.T) {
	tr := &trace.Trace{Names: []string{"A", "B"}, Records: []trace.Record{
		rec(0, 1, 0, sim.Opens("waiting", 1, "wants")),
		rec(1, 2, 0, sim.Closes("waiting", 1), sim.Opens("critical-section", 1, "CS")),
		rec(2, 4, 0, sim.Closes("critical-section", 1)),
		rec(3, 6, 1, sim.Opens("critical-section", 2, "CS")),
		rec(4, 9, 0),
	}}
	gold, orange := isRect(diagram.TokenColor), isRect(diagram.PauseColor)
	assert.Len(t, shapesOf(tr, 1, orange), 1, "an open waiting interval reaches now")
	wait := shapesOf(tr, 5, orange)
	require.Len(t, wait, 1)
	assert.NotZero(t, wait[0].Flags&diagram.FlagHollow, "waiting is hollow, unlike a critical section")
	bars := shapesOf(tr, 5, gold)
	require.Len(t, bars, 2, "A's closed bar and B's open one")
	assert.Less(t, bars[0].Y1, bars[1].Y1, "on A's lane, then B's")
	assert.Zero(t, bars[0].Flags&diagram.FlagHollow)
	assert.InDelta(t, wait[0].X1+wait[0].X2, bars[0].X1, 1e-9, "the wait ends where the section begins")
	assert.Empty(t, shapesOf(tr, 5, func(sh diagram.Shape) bool { return sh.Text == "" && sh.Op == diagram.OpText }))
}

// Several intervals open on one process at once are all drawn, one above
// the other: a client that believes it holds a lease the service expired.
func TestSeveralIntervalsOnOneProcess(t *testing.T) {
	tr := &trace.Trace{Names: []string{"A"}, Records: []trace.Record{
		rec(0, 1, 0, sim.Opens("critical-section", 1, "first")),
		rec(1, 2, 0, sim.Opens("critical-section", 2, "second")),
		rec(2, 5, 0, sim.Closes("critical-section", 1)),
		rec(3, 7, 0),
	}}
	bars := shapesOf(tr, 4, isRect(diagram.TokenColor))
	require.Len(t, bars, 2, "two enter marks draw two bars")
	assert.NotEqual(t, bars[0].Y1, bars[1].Y1, "stacked, not on top of each other")
	// the same interval begun twice: the second begins where the first ends
	tr.Records = append(tr.Records, rec(4, 8, 0, sim.Opens("critical-section", 2, "again")))
	assert.Len(t, shapesOf(tr, 5, isRect(diagram.TokenColor)), 3)
}

func TestBandsArrowsGlyphsAndHiddenRoles(t *testing.T) {
	tr := &trace.Trace{Names: []string{"A", "B", "C"}, Records: []trace.Record{
		rec(0, 1, 0, sim.At("wait-for", 0, "waits").To(2)),
		rec(1, 2, 1, sim.At("rejected-write", 0, "token 33 < 34")),
		rec(2, 3, 2, sim.Opens("terminated", 0, "terminated"), sim.At("checker-only", 0, "")),
		rec(3, 6, 1),
	}}
	bands := shapesOf(tr, 4, isRect(diagram.GreenColor))
	require.Len(t, bands, 1)
	assert.NotZero(t, bands[0].Flags&diagram.FlagFaint)
	assert.Greater(t, bands[0].Y2, 100.0, "a band spans every lane")
	arrows := shapesOf(tr, 4, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.CrashColor })
	require.Len(t, arrows, 1, "an arrow to the peer")
	assert.NotZero(t, arrows[0].Flags&diagram.FlagArrow)
	assert.Greater(t, arrows[0].Y2, arrows[0].Y1, "from A down to C")
	tri := shapesOf(tr, 4, func(sh diagram.Shape) bool { return sh.Op == diagram.OpTriangle })
	require.Len(t, tri, 1)
	assert.Len(t, shapesOf(tr, 4, func(sh diagram.Shape) bool { return sh.Text == "token 33 < 34" }), 1)
}

// A crash during a pause ends the pause band where the crash begins.
func TestACrashDuringAPauseKeepsThePause(t *testing.T) {
	health := func(step int, t sim.Time, state sim.Health, tag string) trace.Record {
		return trace.Record{Step: step, Time: t, Node: 0, Kind: trace.Fault, Msg: -1, Extra: &trace.Extra{Tag: tag,
			Changes: []trace.Change{{What: trace.ChangeHealth, Node: 0, Peer: -1, Msg: -1, Value: int64(state)}}}}
	}
	tr := &trace.Trace{Names: []string{"A", "B"}, Records: []trace.Record{
		rec(0, 0, 0),
		health(1, 2, sim.Paused, "pause"),
		health(2, 5, sim.Crashed, "crash"),
		rec(3, 9, 1),
	}}
	bands := shapesOf(tr, 4, isRect(diagram.PauseColor))
	var band *diagram.Shape
	for i := range bands {
		if bands[i].Y2 == 10 {
			band = &bands[i]
		}
	}
	require.NotNil(t, band, "the pause band is still drawn")
	down := shapesOf(tr, 4, func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpLine && sh.Color == diagram.CrashColor && sh.Flags&diagram.FlagDashed != 0
	})
	require.Len(t, down, 1)
	assert.InDelta(t, band.X1+band.X2, down[0].X1, 1e-9, "the pause ends where the crash begins")
}

// The legend lists what the algorithm on screen draws, and nothing else.
func TestLegendShowsOnlyWhatIsOnScreen(t *testing.T) {
	tr := &trace.Trace{Names: []string{"A", "B"}, Records: []trace.Record{rec(0, 0, 0), rec(1, 1, 1)}}
	labels := func(entries []diagram.LegendEntry) []string {
		var out []string
		for _, e := range entries {
			out = append(out, e.Label)
		}
		return out
	}
	ix := diagram.NewIndex(tr, diagram.AxisTime, roles)
	got := labels(ix.Legend(roles, 2, diagram.LegendOptions{}))
	assert.Equal(t, []string{"in the critical section", "waiting for the section", "the computation has terminated", "waits for", "write rejected", "now (messages still in flight end here)"}, got)
	assert.NotContains(t, got, "state recorded; a snapshot's recording points make its cut", "no snapshot glyphs for another algorithm")
	// a fault appears once it has happened
	tr.Records = append(tr.Records, trace.Record{Step: 2, Time: 2, Node: 1, Kind: trace.Fault, Msg: -1, Extra: &trace.Extra{Tag: "crash"}})
	got = labels(diagram.NewIndex(tr, diagram.AxisTime, roles).Legend(roles, 3, diagram.LegendOptions{Selected: true}))
	assert.Contains(t, got, "crash (the line is dashed while the process is down)")
	assert.Contains(t, got, "causal past")
	assert.Contains(t, got, "concurrent with it (greyed)")
	assert.NotContains(t, got, "the event compared with it (dashed ring)", "no second event")
	assert.NotContains(t, got, "GC pause (a band while the process is paused)")
	got = labels(diagram.NewIndex(tr, diagram.AxisTime, roles).Legend(roles, 3, diagram.LegendOptions{Selected: true, Other: true}))
	assert.Contains(t, got, "the event compared with it (dashed ring)")
}

// A line goes through the steps whose annotations name its points, however
// long after them it is drawn, and leaves out a point not reached yet.
func TestLineThroughPastPoints(t *testing.T) {
	tr := &trace.Trace{Names: []string{"A", "B", "C"}, Records: []trace.Record{
		rec(0, 1, 0, sim.At("saved", 0, "")),
		rec(1, 2, 1, sim.At("saved", 0, "")),
		rec(2, 5, 1, sim.At("saved", 1, "")),
		rec(3, 9, 0, sim.At("saved", 1, "")),
		rec(4, 12, 2, sim.At("checker-only", 0, "")),
	}}
	line := sim.Overlay{Role: "recovery-line", Text: "recovery line", Points: []sim.LinePoint{
		{Node: 0, Role: "saved", Group: 0}, {Node: 1, Role: "saved", Group: 1}, {Node: 2, Role: "saved", Group: 7},
	}}
	sc := diagram.Layout(tr, 5, roles, diagram.Options{Width: 600, Height: 240, Overlays: []sim.Overlay{line}})
	label := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Text == "recovery line" })
	require.Len(t, label, 1)
	strokes := filter(sc, func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpLine && sh.Color == label[0].Color && sh.X1 == sh.X2
	})
	require.Len(t, strokes, 2, "one stroke through each point reached; C's is not there")
	assert.InDelta(t, sc.XOf(1), strokes[0].X1, 0.5, "A's point is its step at tick 1, not its later save")
	assert.InDelta(t, sc.XOf(5), strokes[1].X1, 0.5, "B's point is its second save, at tick 5")
	assert.Zero(t, strokes[0].Flags&diagram.FlagDashed, "a settled line is solid")

	line.Dashed = true
	sc = diagram.Layout(tr, 5, roles, diagram.Options{Width: 600, Height: 240, Overlays: []sim.Overlay{line}})
	for _, sh := range filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == label[0].Color }) {
		assert.NotZero(t, sh.Flags&diagram.FlagDashed, "a candidate line is dashed")
	}
	sc = diagram.Layout(tr, 2, roles, diagram.Options{Width: 600, Height: 240, Overlays: []sim.Overlay{line}})
	assert.Len(t, filter(sc, func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpLine && sh.Color == label[0].Color && sh.X1 == sh.X2
	}), 1,
		"before B's second save only A's point is drawn")
}
