package diagram_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/conformance"
)

// relayRun is the conformance fixture's ring with the given script.
func relayRun(t *testing.T, n int, script ...engine.Timed) *engine.Run {
	t.Helper()
	cfg := conformance.RelayConfig(n, 2)
	cfg.Script = script
	r, err := engine.New(cfg)
	require.NoError(t, err)
	return r
}

func fault(at sim.Time, name string, set func(*faults.Args)) engine.Timed {
	a := faults.NoArgs()
	set(&a)
	return engine.Timed{At: at, Action: engine.Fault(name, a)}
}

// stepAt is the first step at or after time t.
func stepAt(r *engine.Run, t sim.Time) int {
	for i, rec := range r.Trace().Records {
		if rec.Time >= t {
			return i
		}
	}
	return r.Len()
}

// The topology view places a ring's processes around a circle in the
// ring's order, draws its links, and moves the messages in flight along
// them; a click finds a process, a link or a message.
func TestTopologyViewOfARing(t *testing.T) {
	r := relayRun(t, 4)
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	topo := conformance.Relay.Picture.Topology(r.At(0).View())
	k := stepAt(r, 4) // the token is on its way from 1 to 2
	st := r.At(k)
	require.Len(t, st.View().InFlight(0, 1), 1)
	sc := ix.Topology(k, conformance.Relay, topo, diagram.TopologyOptions{Width: 320, Height: 240})
	var pos [4][2]float64
	for i := range 4 {
		x, y, ok := sc.NodeAt(sim.NodeID(i))
		require.True(t, ok)
		pos[i] = [2]float64{x, y}
		assert.Equal(t, diagram.HitProcess, sc.Hit(x, y).Kind)
		assert.Equal(t, sim.NodeID(i), sc.Hit(x, y).Node)
	}
	assert.Less(t, pos[0][1], pos[2][1], "process 1 at the top, 3 at the bottom")
	assert.Greater(t, pos[1][0], pos[3][0], "clockwise: 2 on the right, 4 on the left")
	links := 0
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpLine && sh.Flags&diagram.FlagArrow != 0 {
			links++
		}
	}
	assert.Equal(t, 4, links, "a directed link from each to the next")
	x, y, ok := sc.LinkAt(1, 2)
	require.True(t, ok)
	hit := sc.Hit(x, y)
	assert.Equal(t, diagram.HitLink, hit.Kind)
	assert.Equal(t, sim.NodeID(1), hit.Node)
	assert.Equal(t, sim.NodeID(2), hit.Peer)
	// the token is a gold coin between 1 and 2
	var token *diagram.Shape
	for i, sh := range sc.Shapes {
		if sh.Op == diagram.OpCircle && sh.Color == diagram.TokenColor && sh.Flags == 0 {
			token = &sc.Shapes[i]
		}
	}
	require.NotNil(t, token, "the token travels visibly")
	tx, ty := token.X1, token.Y1
	assert.True(t, between(tx, pos[0][0], pos[1][0]) && between(ty, pos[0][1], pos[1][1]), "on its way from 1 to 2")
	mh := sc.Hit(tx, ty)
	assert.Equal(t, diagram.HitMessage, mh.Kind, "a click on it finds it")
	assert.Equal(t, st.View().InFlight(0, 1)[0], mh.Msg)
}

func between(v, a, b float64) bool { return v >= math.Min(a, b)-8 && v <= math.Max(a, b)+8 }

// A cut link and a crashed process are drawn as such in the topology view.
func TestTopologyViewShowsFaults(t *testing.T) {
	r := relayRun(t, 4,
		fault(5, "cut", func(a *faults.Args) { a.Node = 2; a.Target = 3; *a = a.With("oneway", faults.ParamFlag.Bool(true)) }),
		fault(6, "crash", func(a *faults.Args) { a.Node = 1 }))
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	topo := conformance.Relay.Picture.Topology(r.At(0).View())
	red := func(k int) (lines, crosses, rings int) {
		for _, sh := range ix.Topology(k, conformance.Relay, topo, diagram.TopologyOptions{Width: 320, Height: 240}).Shapes {
			if sh.Color != diagram.CrashColor {
				continue
			}
			switch sh.Op {
			case diagram.OpLine:
				lines++
			case diagram.OpCross:
				crosses++
			case diagram.OpCircle:
				rings++
			}
		}
		return
	}
	l, c, g := red(stepAt(r, 5))
	assert.Zero(t, l+c+g, "nothing red before the faults")
	l, c, g = red(r.Len())
	assert.Equal(t, 1, l, "the cut link, dashed red")
	assert.Equal(t, 2, c, "a cross on the cut link and on the crashed process")
	assert.Equal(t, 1, g, "the crashed process is ringed red")
}

// A pending timer runs under its lane to its due time and says how long
// it has left; one that fired ends where it fired.
func TestTimersAreDrawn(t *testing.T) {
	r := relayRun(t, 3)
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	k := stepAt(r, 4)
	sc := ix.Layout(k, conformance.Relay, diagram.Options{Width: 900, Height: 300})
	var countdowns []string
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "timer ") {
			countdowns = append(countdowns, sh.Text)
		}
	}
	now := r.Trace().Records[k-1].Time
	assert.Contains(t, countdowns, "timer long in "+strconv.Itoa(int(40-now)), "process 1's long timer is due at 40")
	assert.Contains(t, countdowns, "timer short in "+strconv.Itoa(int(10-now)))
	assert.NotContains(t, countdowns, "timer pass in 0", "the pass timer fired at 3")
	lines := 0
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpLine && sh.Color == diagram.ControlColor && sh.Y1 == sh.Y2 && sh.Y1 == sc.ProcessY(0)+9 {
			lines++
		}
	}
	assert.GreaterOrEqual(t, lines, 4, "timers under process 1's lane")
	legend := ix.Legend(conformance.Relay, k, diagram.LegendOptions{})
	found := false
	for _, e := range legend {
		found = found || strings.HasPrefix(e.Label, "timer armed")
	}
	assert.True(t, found, "the legend explains timers once one is armed")
}

// A skewed clock is shown by its lane's name; a network-wide fault at the
// top of the diagram; a network's copy of a message is dashed; a delay
// holds a message back on its way.
func TestFaultMarks(t *testing.T) {
	r := relayRun(t, 3,
		fault(2, "skew", func(a *faults.Args) { a.Node = 1; *a = a.With("by", faults.ParamOffset.Num(7)) }),
		fault(4, "fifo", func(a *faults.Args) { *a = a.With("on", faults.ParamFlag.Bool(false)) }))
	// duplicate the token while it is on its way
	k := stepAt(r, 5)
	for ; k < r.Len() && r.At(k).View().InFlightTotal("token").Count == 0; k++ {
	}
	require.Less(t, k, r.Len(), "the token is sent")
	var token int
	v := r.At(k).View()
	for i := range v.N() {
		for _, id := range v.InFlight(sim.NodeID(i), sim.NodeID((i+1)%v.N())) {
			if v.Envelope(id).Kind == "token" {
				token = id
			}
		}
	}
	a := faults.OfMessage(token)
	require.NoError(t, r.Insert(k, engine.Fault("duplicate", a)))
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	sc := ix.Layout(k+1, conformance.Relay, diagram.Options{Width: 900, Height: 300})
	texts := map[string]bool{}
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpText {
			texts[sh.Text] = true
		}
	}
	assert.True(t, texts["◷+7"], "process 2's clock runs 7 ahead")
	assert.True(t, texts["+7"], "the skew's mark says by how much")
	assert.True(t, texts["FIFO off"], "the network's fault is marked at the top")
	var dup *trace.Msg
	for i, m := range r.Trace().Msgs {
		if m.Duplicate() {
			dup = &r.Trace().Msgs[i]
		}
	}
	require.NotNil(t, dup)
	assert.Equal(t, token, dup.Original)
	assert.NotZero(t, lineFor(t, sc, messageLines(sc), dup.ID).Flags&diagram.FlagDashed, "the copy is dashed")
	assert.Zero(t, lineFor(t, sc, messageLines(sc), token).Flags&diagram.FlagDashed, "the original is not")
}

// A deadlock's wait-for cycle is drawn over the process graph: an arrow
// from each waiting process to the one it waits for.
func TestTopologyViewDrawsWaits(t *testing.T) {
	r := relayRun(t, 4)
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	topo := conformance.Relay.Picture.Topology(r.At(0).View())
	arrows := func(overlays []sim.Overlay) int {
		sc := ix.Topology(0, conformance.Relay, topo, diagram.TopologyOptions{Width: 320, Height: 240, Overlays: overlays})
		n := 0
		for _, sh := range sc.Shapes {
			if sh.Op == diagram.OpLine && sh.Color == diagram.CrashColor && sh.Flags&diagram.FlagArrow != 0 {
				n++
			}
		}
		return n
	}
	assert.Equal(t, 0, arrows(nil))
	waits := func(pairs ...[2]sim.NodeID) []sim.Overlay {
		var out []sim.Overlay
		for _, p := range pairs {
			out = append(out, sim.Overlay{Role: "awaits", Node: p[0], Peer: p[1]})
		}
		return out
	}
	assert.Equal(t, 2, arrows(waits([2]sim.NodeID{0, 2}, [2]sim.NodeID{2, 0}, [2]sim.NodeID{1, 1}, [2]sim.NodeID{1, 9})), "one arrow per wait; none to itself or to no one")
	assert.Equal(t, 0, arrows([]sim.Overlay{{Role: "held", Node: 0, Peer: 2}, {Role: "undeclared", Node: 0, Peer: 2}}), "an overlay is drawn in its role's style")
}

// A topology may write a short line of state under each process, and mark
// the links whose receiver holds their messages back: drawn heavier than
// any link, with a bar across them by the receiver, where the messages
// stop.
func TestTopologyViewDrawsStateLinesAndBlockedLinks(t *testing.T) {
	r := relayRun(t, 4)
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	opt := diagram.TopologyOptions{Width: 320, Height: 240}
	topo := conformance.Relay.Picture.Topology(r.At(0).View())
	heaviest := 0.0
	for _, sh := range ix.Topology(0, conformance.Relay, topo, opt).Shapes {
		if sh.Op == diagram.OpLine {
			heaviest = math.Max(heaviest, sh.Width)
		}
	}
	opt.Overlays = []sim.Overlay{
		{Role: "tally", Node: 0, Text: "count 7"}, {Role: "tally", Node: 2, Text: "buffering a3 a4"}, // the rest have none
		{Role: "held", Node: 0, Peer: 1}, {Role: "held", Node: 2, Peer: 2}, {Role: "held", Node: 1, Peer: 9},
	}
	sc := ix.Topology(0, conformance.Relay, topo, opt)

	texts := map[string]diagram.Shape{}
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpText {
			texts[sh.Text] = sh
		}
	}
	for id, text := range map[sim.NodeID]string{0: "count 7", 2: "buffering a3 a4"} {
		x, y, ok := sc.NodeAt(id)
		require.True(t, ok)
		label, ok := texts[text]
		require.True(t, ok, "%q is written", text)
		assert.InDelta(t, x, label.X1, 1, "centred under its process")
		assert.Greater(t, label.Y1, y+10, "below its circle")
		assert.LessOrEqual(t, label.Y1, opt.Height, "inside the view")
	}
	assert.Len(t, texts, 4+2, "the four names and two state lines")

	// the blocked link 1→2: one heavy stroke along it, one across it
	x0, y0, _ := sc.NodeAt(0)
	x1, y1, _ := sc.NodeAt(1)
	dx, dy := (x1-x0)/math.Hypot(x1-x0, y1-y0), (y1-y0)/math.Hypot(x1-x0, y1-y0)
	var along, across []diagram.Shape
	for _, sh := range sc.Shapes {
		if sh.Op != diagram.OpLine || sh.Width <= heaviest {
			continue
		}
		l := math.Hypot(sh.X2-sh.X1, sh.Y2-sh.Y1)
		ux, uy := (sh.X2-sh.X1)/l, (sh.Y2-sh.Y1)/l
		switch {
		case math.Abs(ux*dy-uy*dx) < 0.01:
			along = append(along, sh)
		case math.Abs(ux*dx+uy*dy) < 0.01:
			across = append(across, sh)
		}
	}
	require.Len(t, along, 1, "one heavy stroke along the blocked link; none for a link to itself or to no one")
	require.Len(t, across, 1, "and a bar across it")
	bx, by := (across[0].X1+across[0].X2)/2, (across[0].Y1+across[0].Y2)/2
	assert.Less(t, math.Hypot(bx-x1, by-y1), math.Hypot(bx-x0, by-y0), "the bar is by the receiver")
	assert.True(t, between(bx, x0, x1) && between(by, y0, y1), "on the link")
}
