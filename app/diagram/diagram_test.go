package diagram_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/golden"
	"spacetime/internal/scenariotest"
)

// The size the command line exports a three-process diagram at.
const (
	width  = 1200.0
	height = 350.0
)

// dropAction and faultAction are the learner's faults.
func dropAction(id int) engine.Action {
	a := faults.OfMessage(id)
	return engine.Fault("drop", a)
}

func faultAction(name string, node sim.NodeID, ticks sim.Time) engine.Action {
	a := faults.NoArgs()
	a.Node = node
	a = a.With("for", faults.ParamTicks.Num(int64(ticks)))
	return engine.Fault(name, a)
}

func builtinRun(t testing.TB, id string) *engine.Run {
	t.Helper()
	_, r := scenariotest.Run(t, id)
	return r
}

var (
	longOnce sync.Once
	long     *engine.Run
	longErr  error
)

// longRun is snapshot-long's run, made once: tests must not change it.
func longRun(t testing.TB) *engine.Run {
	t.Helper()
	longOnce.Do(func() {
		s, err := scenario.Builtin("snapshot-long")
		if err != nil {
			longErr = err
			return
		}
		long, longErr = scenariotest.Plan(t, s).Run()
	})
	require.NoError(t, longErr)
	return long
}

func layout(r *engine.Run, k int, opt diagram.Options) *diagram.Scene {
	if opt.Width == 0 {
		opt.Width, opt.Height = width, height
	}
	return diagram.Layout(r.Trace(), k, r.Config().Spec, opt)
}

// filter returns the shapes for which keep is true.
func filter(sc *diagram.Scene, keep func(diagram.Shape) bool) []diagram.Shape {
	var out []diagram.Shape
	for _, sh := range sc.Shapes {
		if keep(sh) {
			out = append(out, sh)
		}
	}
	return out
}

func isMessageColor(c diagram.Color) bool {
	return c == diagram.MessageColor || c == diagram.MarkerColor || c == diagram.TokenColor || c == diagram.ControlColor
}

// messageLines are the shapes that draw a message (not its halo).
func messageLines(sc *diagram.Scene) []diagram.Shape {
	return filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && isMessageColor(sh.Color) })
}

// nowX is the x of the "now" line.
func nowX(t *testing.T, sc *diagram.Scene) float64 {
	t.Helper()
	now := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.NowColor })
	require.Len(t, now, 1, "one now line")
	assert.Equal(t, now[0].X1, now[0].X2, "the now line is vertical")
	assert.NotZero(t, now[0].Flags&diagram.FlagDashed, "the now line is dashed")
	return now[0].X1
}

// lineFor finds the drawn line of message id among lines, matched by the
// end points the scene reports for it.
func lineFor(t *testing.T, sc *diagram.Scene, lines []diagram.Shape, id int) diagram.Shape {
	t.Helper()
	x1, y1, ok := sc.MessageAt(id, 0)
	require.True(t, ok, "message %d is drawn", id)
	x2, y2, _ := sc.MessageAt(id, 1)
	for _, sh := range lines {
		if near(sh.X1, x1) && near(sh.Y1, y1) && near(sh.X2, x2) && near(sh.Y2, y2) {
			return sh
		}
	}
	require.Failf(t, "no line", "message %d: no line from (%.1f,%.1f) to (%.1f,%.1f)", id, x1, y1, x2, y2)
	return diagram.Shape{}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func countKind(msgs []trace.Msg, kind string) int {
	n := 0
	for _, m := range msgs {
		if m.Kind == kind {
			n++
		}
	}
	return n
}

// someSteps are prefixes of the snapshot-bank run worth looking at: the
// start, before the snapshot, each process recording, the end.
func someSteps(r *engine.Run) []int {
	return []int{0, 1, 3, 10, 37, 38, 43, 46, 50, r.Len() - 1, r.Len()}
}

func TestLanesAndNames(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	names := r.Trace().Names
	require.Equal(t, []string{"A", "B", "C"}, names)
	for _, k := range someSteps(r) {
		sc := layout(r, k, diagram.Options{})
		assert.Equal(t, width, sc.Width)
		assert.Equal(t, height, sc.Height)
		lanes := filter(sc, func(sh diagram.Shape) bool {
			return sh.Op == diagram.OpLine && sh.Color == diagram.LaneColor && sh.Y1 == sh.Y2
		})
		require.Len(t, lanes, len(names), "k=%d: one lane per process", k)
		for i, name := range names {
			labels := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Text == name })
			require.Len(t, labels, 1, "k=%d: process %s is named once", k, name)
			y := sc.ProcessY(sim.NodeID(i))
			assert.Equal(t, y, lanes[i].Y1, "k=%d: lane %s is at ProcessY", k, name)
			assert.InDelta(t, y, labels[0].Y1, 10, "k=%d: the name sits beside its lane", k)
			assert.Less(t, labels[0].X1, lanes[i].X1+1, "k=%d: the name is left of its lane", k)
			if i > 0 {
				assert.Greater(t, y, sc.ProcessY(sim.NodeID(i-1)), "lanes go down in process order")
			}
			assert.Greater(t, y, 0.0)
			assert.Less(t, y, height)
		}
	}
	assert.Zero(t, layout(r, 0, diagram.Options{}).ProcessY(7), "no lane for a process that does not exist")
}

// Lanes closer than a line of text (seven processes in a grid cell of a
// compare view of six) name every second or third one, from the first,
// so that no name is printed over another; roomy lanes name every one.
func TestCloseLanesNameEveryOther(t *testing.T) {
	r := builtinRun(t, "mutex-contention-high-maekawa")
	names := r.Trace().Names
	require.Len(t, names, 7)
	named := func(h float64) []int {
		sc := layout(r, r.Len(), diagram.Options{Width: 400, Height: h, Scale: diagram.TextScale("S")})
		var out []int
		var boxes []diagram.TextBox
		all := sc.TextBoxes() // one per text, in the order drawn
		texts := 0
		for _, sh := range sc.Shapes {
			if sh.Op != diagram.OpText {
				continue
			}
			texts++
			if n, ok := sh.Tag.Process(); ok && sh.Tag.What == diagram.WhatName && sh.Text == names[n] {
				out = append(out, int(n))
				box := all[texts-1]
				for _, b := range boxes {
					assert.False(t, b.Overlaps(box), "height %v: the names of lanes %v overlap", h, out)
				}
				boxes = append(boxes, box)
			}
		}
		return out
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, named(400), "roomy lanes are all named")
	for _, h := range []float64{70, 90, 110, 130, 150} {
		got := named(h)
		require.GreaterOrEqual(t, len(got), 2, "height %v: the first and one near the last", h)
		assert.Equal(t, 0, got[0], "height %v: the first lane is named", h)
		for i := 2; i < len(got); i++ {
			assert.Equal(t, got[1]-got[0], got[i]-got[i-1], "height %v: names evenly spaced: %v", h, got)
		}
		assert.GreaterOrEqual(t, got[len(got)-1], 7-got[1], "height %v: named to the last lanes: %v", h, got)
	}
}

// Long process names (a log's hosts) are drawn whole left of their lanes,
// which start after them: the margin grows with the longest name, up to a
// third of the drawing, and a name longer still is shortened in its
// middle, keeping its start and its end, with the whole in its tip; nothing
// is cut by the drawing's left edge.
func TestLongLaneNamesFitTheMargin(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s.Names = []string{"A", "Balancer", "client-testGetEveryNSeconds"}
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	var sc *diagram.Scene
	names := func(w float64) map[int]string {
		sc = layout(r, r.Len(), diagram.Options{Width: w, Height: 300, Scale: diagram.TextScale("L")})
		boxes := sc.TextBoxes()
		n, drawn := 0, map[int]string{}
		for _, sh := range sc.Shapes {
			if sh.Op != diagram.OpText {
				continue
			}
			b := boxes[n]
			n++
			if p, ok := sh.Tag.Process(); ok && sh.Tag.What == diagram.WhatName {
				drawn[int(p)] = sh.Text
				assert.GreaterOrEqual(t, b.X0, 0.0, "width %v: %q is inside the drawing", w, sh.Text)
				assert.LessOrEqual(t, b.X1, sc.XOf(sc.T0)+0.5, "width %v: %q ends before its lane starts", w, sh.Text)
			}
		}
		return drawn
	}
	assert.Equal(t, map[int]string{0: "A", 1: "Balancer", 2: "client-testGetEveryNSeconds"}, names(1200), "every name whole on a wide diagram")
	_, short := sc.NameShortenedAt(10, sc.ProcessY(2))
	assert.False(t, short, "a whole name needs no tip")
	narrow := names(300)
	assert.Equal(t, "Balancer", narrow[1], "a name of 8 letters is whole in a narrow one")
	head, tail, cut := strings.Cut(narrow[2], "…")
	assert.True(t, cut && strings.HasPrefix(s.Names[2], head) && strings.HasSuffix(s.Names[2], tail) && tail != "", "the longest is shortened in its middle: %q", narrow[2])
	assert.GreaterOrEqual(t, len([]rune(narrow[2])), 8, "with as much of it as a third of the drawing holds: %q", narrow[2])
	id, short := sc.NameShortenedAt(10, sc.ProcessY(2))
	assert.True(t, short && id == 2, "its whole name is the lane's tip")
	_, short = sc.NameShortenedAt(10, sc.ProcessY(1))
	assert.False(t, short, "a whole name needs no tip")
}

// TestEveryMessageIsDrawn checks every prefix of the run: each message sent
// so far has exactly one line in its kind's style, received ones end on the
// receiver's lane at the delivery's dot, in-flight ones at the now line.
func TestEveryMessageIsDrawn(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	tr := r.Trace()
	require.Greater(t, countKind(tr.Msgs, "marker"), 0)
	require.Greater(t, countKind(tr.Msgs, "transfer"), 0)
	for k := 0; k <= r.Len(); k++ {
		sc := layout(r, k, diagram.Options{})
		sent := tr.MsgsBefore(k)
		lines := messageLines(sc)
		arrows := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Flags&diagram.FlagArrow != 0 })
		lost := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCross && sh.Color == diagram.CrashColor })
		require.Len(t, lines, len(sent), "k=%d: one line per message sent", k)
		assert.Equal(t, len(sent), len(arrows)+len(lost), "k=%d: arrows plus lost messages", k)
		markers := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.MarkerColor })
		assert.Len(t, markers, countKind(sent, "marker"), "k=%d: markers", k)
		transfers := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.MessageColor })
		assert.Len(t, transfers, countKind(sent, "transfer"), "k=%d: transfers", k)

		now := nowX(t, sc)
		for _, m := range sent {
			line := lineFor(t, sc, lines, m.ID)
			assert.Equal(t, sc.ProcessY(m.From), line.Y1, "k=%d msg %d starts on the sender's lane", k, m.ID)
			assert.NotZero(t, line.Flags&diagram.FlagArrow, "k=%d msg %d has a head", k, m.ID)
			switch m.Kind {
			case "marker":
				assert.Equal(t, diagram.MarkerColor, line.Color, "k=%d msg %d", k, m.ID)
				assert.NotZero(t, line.Flags&diagram.FlagDashed, "k=%d: markers are dashed", k)
			case "transfer":
				assert.Equal(t, diagram.MessageColor, line.Color, "k=%d msg %d", k, m.ID)
				assert.Zero(t, line.Flags&diagram.FlagDashed, "k=%d: transfers are solid", k)
			}
			if m.InFlightAt(k) {
				assert.InDelta(t, now, line.X2, 1e-9, "k=%d: in-flight msg %d reaches the now line", k, m.ID)
				assert.NotEqual(t, sc.ProcessY(m.To), line.Y2, "k=%d: in-flight msg %d has not arrived", k, m.ID)
				lo, hi := min(line.Y1, sc.ProcessY(m.To)), max(line.Y1, sc.ProcessY(m.To))
				assert.True(t, line.Y2 > lo && line.Y2 < hi, "k=%d: in-flight msg %d points towards its receiver", k, m.ID)
			} else {
				require.True(t, m.ReceivedAt(k), "k=%d msg %d", k, m.ID)
				assert.Equal(t, sc.ProcessY(m.To), line.Y2, "k=%d: msg %d ends on the receiver's lane", k, m.ID)
				assert.Less(t, line.X2, now, "k=%d: msg %d arrived before now", k, m.ID)
				assert.Greater(t, line.X2, line.X1, "k=%d: msg %d arrives after it is sent", k, m.ID)
				dots := filter(sc, func(sh diagram.Shape) bool {
					return sh.Op == diagram.OpCircle && near(sh.X1, line.X2) && near(sh.Y1, line.Y2)
				})
				assert.Len(t, dots, 1, "k=%d: msg %d ends at its delivery's dot", k, m.ID)
			}
		}
		_, _, ok := sc.MessageAt(len(sent), 0.5)
		assert.False(t, ok, "k=%d: a message not yet sent is not drawn", k)
	}
}

func TestOneDotPerEvent(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	for _, k := range someSteps(r) {
		sc := layout(r, k, diagram.Options{})
		dots := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle })
		require.Len(t, dots, k, "k=%d: snapshot-bank has no faults, so every step is a dot", k)
		for s, d := range dots {
			assert.Equal(t, sc.ProcessY(r.Trace().Records[s].Node), d.Y1, "k=%d: step %d's dot is on its process's lane", k, s)
			if s > 0 {
				assert.GreaterOrEqual(t, d.X1, dots[s-1].X1, "k=%d: steps go left to right", k)
			}
		}
	}
}

// TestSnapshotCut checks the course's worked example as drawn: each branch's
// recording is a diamond with its balance, joined into a cut line that is
// dashed until every branch has recorded.
func TestSnapshotCut(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	tr := r.Trace()
	recordAt := map[sim.NodeID]int{}
	for s, rec := range tr.Records {
		for _, a := range rec.Annotations() {
			if a.Role == chandylamport.RoleRecorded {
				recordAt[rec.Node] = s
			}
		}
	}
	require.Len(t, recordAt, 3)

	tests := []struct {
		name    string
		k       int
		texts   []string
		dashed  bool
		nodes   []sim.NodeID
		noLabel bool
	}{
		{"before the snapshot", recordAt[0], nil, false, nil, true},
		{"A records", recordAt[0] + 1, []string{"$126"}, true, []sim.NodeID{0}, false},
		{"C records", recordAt[2] + 1, []string{"$126", "$20"}, true, []sim.NodeID{0, 2}, false},
		{"B records", recordAt[1] + 1, []string{"$126", "$127", "$20"}, false, []sim.NodeID{0, 1, 2}, false},
		{"the end", r.Len(), []string{"$126", "$127", "$20"}, false, []sim.NodeID{0, 1, 2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := layout(r, tc.k, diagram.Options{})
			diamonds := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpDiamond })
			require.Len(t, diamonds, len(tc.nodes))
			var onLanes []sim.NodeID
			for _, d := range diamonds {
				assert.Equal(t, diagram.CutColor, d.Color)
				for i := range tr.Names {
					if d.Y1 == sc.ProcessY(sim.NodeID(i)) {
						onLanes = append(onLanes, sim.NodeID(i))
					}
				}
			}
			assert.ElementsMatch(t, tc.nodes, onLanes, "a diamond on each recording process's lane")
			var texts []string
			for _, sh := range filter(sc, func(sh diagram.Shape) bool {
				return sh.Op == diagram.OpText && sh.Color == diagram.CutColor && strings.HasPrefix(sh.Text, "$")
			}) {
				texts = append(texts, sh.Text)
			}
			assert.ElementsMatch(t, tc.texts, texts, "the recorded balances")
			cut := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.CutColor })
			label := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "cut 1") })
			if tc.noLabel {
				assert.Empty(t, cut)
				assert.Empty(t, label)
				return
			}
			require.NotEmpty(t, cut)
			assert.Len(t, label, 1)
			for _, sh := range cut {
				assert.Equal(t, tc.dashed, sh.Flags&diagram.FlagDashed != 0, "the cut is dashed until complete")
			}
			// The cut line passes through every diamond: a vertical stroke
			// of the staircase crosses it.
			for _, d := range diamonds {
				touches := false
				for _, sh := range cut {
					if near(sh.X1, d.X1) && near(sh.X2, d.X1) && min(sh.Y1, sh.Y2) < d.Y1 && max(sh.Y1, sh.Y2) > d.Y1 {
						touches = true
					}
				}
				assert.True(t, touches, "the cut line passes through the diamond at (%.1f,%.1f)", d.X1, d.Y1)
			}
		})
	}
}

// TestChannelStateHalo checks that the messages recorded as a channel's
// state ($13 on C→B and $14 on B→A) are drawn with a halo.
func TestChannelStateHalo(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	tr := r.Trace()
	var channel []int
	var labels []string
	for _, rec := range tr.Records {
		for _, a := range rec.Annotations() {
			if a.Role == chandylamport.RoleChannel {
				require.Equal(t, rec.Msg, a.Msg, "the annotation is about the message delivered")
				channel = append(channel, rec.Msg)
				labels = append(labels, tr.Names[tr.Msgs[rec.Msg].From]+"->"+tr.Names[tr.Msgs[rec.Msg].To]+" "+tr.Msgs[rec.Msg].Label)
			}
		}
	}
	require.Equal(t, []string{"C->B $13", "B->A $14"}, labels)
	for _, k := range someSteps(r) {
		sc := layout(r, k, diagram.Options{})
		halos := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Color == diagram.ChannelColor })
		want := 0
		for _, id := range channel {
			if tr.Msgs[id].ReceivedAt(k) {
				want++
				halo := lineFor(t, sc, halos, id)
				line := lineFor(t, sc, messageLines(sc), id)
				assert.Greater(t, halo.Width, line.Width, "k=%d: the halo is wider than the arrow", k)
			}
		}
		assert.Len(t, halos, want, "k=%d", k)
	}
}

func TestHighlight(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	k := r.Len()
	tests := []struct {
		name      string
		highlight []int
		want      []int
	}{
		{"none", nil, nil},
		{"one transfer", []int{3}, []int{3}},
		{"a marker and an in-flight transfer", []int{18, 21}, []int{18, 21}},
		{"repeated ids draw one halo", []int{5, 5}, []int{5}},
		{"ids that do not exist are ignored", []int{-1, 9999, 7}, []int{7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := layout(r, k, diagram.Options{Highlight: tc.highlight})
			halos := filter(sc, func(sh diagram.Shape) bool { return sh.Color == diagram.HighlightColor })
			require.Len(t, halos, len(tc.want))
			for _, id := range tc.want {
				h := lineFor(t, sc, halos, id)
				assert.Equal(t, diagram.OpLine, h.Op)
				assert.Greater(t, h.Width, lineFor(t, sc, messageLines(sc), id).Width)
			}
			plain := layout(r, k, diagram.Options{})
			drawn := func(sc *diagram.Scene) []diagram.Shape {
				return filter(sc, func(sh diagram.Shape) bool { return sh.Op != diagram.OpText })
			}
			assert.Len(t, drawn(sc), len(drawn(plain))+len(tc.want), "a highlight only adds halos (and gives its messages' labels the first places)")
			for _, id := range tc.want {
				if m := r.Trace().Msgs[id]; m.Label != "" {
					assert.NotEmpty(t, filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Text == m.Label }), "message %d keeps its label", id)
				}
			}
		})
	}
	// A message not sent yet cannot be highlighted.
	sc := layout(r, 10, diagram.Options{Highlight: []int{30}})
	assert.Empty(t, filter(sc, func(sh diagram.Shape) bool { return sh.Color == diagram.HighlightColor }))
}

// TestDeterministicStepping steps forward and back: the picture at k does
// not depend on what was drawn before.
func TestDeterministicStepping(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	first := make([]*diagram.Scene, r.Len()+1)
	for k := 0; k <= r.Len(); k++ {
		first[k] = layout(r, k, diagram.Options{})
	}
	for k := r.Len(); k >= 0; k-- {
		again := layout(r, k, diagram.Options{})
		require.Equal(t, first[k].Shapes, again.Shapes, "k=%d", k)
		if k < r.Len() {
			next := layout(r, k+1, diagram.Options{})
			require.NotEqual(t, again.Shapes, next.Shapes, "k=%d: a step changes the picture", k)
			require.Equal(t, first[k].Shapes, layout(r, k, diagram.Options{}).Shapes, "k=%d after k+1", k)
		}
	}
	// The same scenario run twice draws the same picture.
	r2 := builtinRun(t, "snapshot-bank")
	for _, k := range someSteps(r) {
		require.Equal(t, first[k].Shapes, layout(r2, k, diagram.Options{}).Shapes, "k=%d in another run", k)
	}
	// k is clamped to the run.
	assert.Equal(t, first[0].Shapes, layout(r, -5, diagram.Options{}).Shapes)
	assert.Equal(t, first[r.Len()].Shapes, layout(r, r.Len()+100, diagram.Options{}).Shapes)
}

// TestStableScale checks that stepping fills the picture in without
// rescaling a short run: the dots drawn at k stay where they are at the end.
// Stepping frames the action without jumping about: the window grows in
// round steps as the present passes two thirds of it, so between those
// steps every event keeps its place, and a whole run rescales only a few
// times; the present is always in view.
func TestStableScale(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	dots := func(sc *diagram.Scene) []diagram.Shape {
		return filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle })
	}
	rescales := 0
	prev := dots(layout(r, 0, diagram.Options{}))
	prevT1 := layout(r, 0, diagram.Options{}).T1
	for k := 1; k <= r.Len(); k++ {
		sc := layout(r, k, diagram.Options{})
		got := dots(sc)
		require.Len(t, got, k)
		if sc.T1 != prevT1 {
			rescales++
			assert.Greater(t, sc.T1, prevT1, "k=%d: the window only grows", k)
		} else if len(prev) > 0 {
			assert.Equal(t, prev, got[:len(prev)], "k=%d: events keep their places between rescales", k)
		}
		now := sc.TimeAt(nowX(t, sc))
		assert.LessOrEqual(t, now, sc.T1, "k=%d: the present is in view", k)
		prev, prevT1 = got, sc.T1
	}
	assert.LessOrEqual(t, rescales, 4, "a run of %d steps rescales a few times", r.Len())
	assert.InDelta(t, float64(r.Trace().Records[r.Len()-1].Time), layout(r, r.Len(), diagram.Options{}).T1, 1, "the last step shows the whole run")
}

func TestHitInFlightMessage(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	tr := r.Trace()
	fractions := []float64{0.5, 0.3, 0.7, 0.2, 0.8}
	total := 0
	for _, k := range someSteps(r) {
		sc := layout(r, k, diagram.Options{})
		hitAtHalf, inFlight := 0, 0
		for _, m := range tr.MsgsBefore(k) {
			if !m.InFlightAt(k) {
				continue
			}
			inFlight++
			hit := false
			for i, f := range fractions {
				x, y, ok := sc.MessageAt(m.ID, f)
				require.True(t, ok)
				h := sc.Hit(x, y)
				if h.Kind == diagram.HitMessage && h.Msg == m.ID {
					assert.True(t, h.InFlight, "k=%d msg %d", k, m.ID)
					hit = true
					if i == 0 {
						hitAtHalf++
					}
					break
				}
			}
			assert.True(t, hit, "k=%d: in-flight msg %d can be clicked", k, m.ID)
		}
		assert.GreaterOrEqual(t, float64(hitAtHalf), 0.8*float64(inFlight), "k=%d: most in-flight messages are hit at their middle", k)
		total += inFlight
	}
	require.Greater(t, total, 10, "the steps chosen have messages in flight")

	// A click a little off the arrow still lands on it; far off it does not.
	sc := layout(r, r.Len(), diagram.Options{})
	x, y, _ := sc.MessageAt(21, 0.5)
	h := sc.Hit(x, y+3)
	assert.Equal(t, diagram.Hit{Kind: diagram.HitMessage, Msg: 21, InFlight: true}, h)
	assert.NotEqual(t, 21, sc.Hit(x, y+40).Msg)
}

func TestHitDeliveredMessage(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	sc := layout(r, r.Len(), diagram.Options{})
	right, delivered := 0, 0
	for _, m := range r.Trace().Msgs {
		if !m.ReceivedAt(r.Len()) {
			continue
		}
		delivered++
		x, y, ok := sc.MessageAt(m.ID, 0.5)
		require.True(t, ok)
		if h := sc.Hit(x, y); h.Kind == diagram.HitMessage && h.Msg == m.ID {
			assert.False(t, h.InFlight, "msg %d was delivered", m.ID)
			right++
		}
	}
	assert.GreaterOrEqual(t, float64(right), 0.75*float64(delivered), "a delivered message is hit at its middle")
}

func TestHitEvent(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	tr := r.Trace()
	for _, k := range []int{3, 10, r.Len()} {
		sc := layout(r, k, diagram.Options{})
		dots := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle })
		events := 0
		for _, d := range dots {
			h := sc.Hit(d.X1+1, d.Y1)
			switch h.Kind {
			case diagram.HitEvent:
				events++
				require.Less(t, h.Step, k)
				assert.Equal(t, sc.ProcessY(tr.Records[h.Step].Node), d.Y1, "k=%d: step %d is on the lane clicked", k, h.Step)
			case diagram.HitMessage:
				assert.True(t, h.InFlight, "k=%d: only an in-flight message takes precedence over an event", k)
			default:
				assert.Failf(t, "missed", "k=%d: a click on a dot hits %v", k, h)
			}
		}
		assert.GreaterOrEqual(t, float64(events), 0.7*float64(len(dots)), "k=%d", k)
	}
	// With nothing in flight, each init dot is its step.
	sc := layout(r, 3, diagram.Options{})
	for s := range 3 {
		dots := filter(sc, func(sh diagram.Shape) bool {
			return sh.Op == diagram.OpCircle && sh.Y1 == sc.ProcessY(tr.Records[s].Node)
		})
		require.Len(t, dots, 1)
		assert.Equal(t, diagram.Hit{Kind: diagram.HitEvent, Step: s}, sc.Hit(dots[0].X1, dots[0].Y1))
	}
}

// segDist is the distance from (px,py) to a line shape.
func segDist(px, py float64, sh diagram.Shape) float64 {
	dx, dy := sh.X2-sh.X1, sh.Y2-sh.Y1
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = min(max(((px-sh.X1)*dx+(py-sh.Y1)*dy)/l2, 0), 1)
	}
	return math.Hypot(px-(sh.X1+t*dx), py-(sh.Y1+t*dy))
}

func TestHitProcessAndNothing(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	for _, k := range []int{0, 10, r.Len()} {
		sc := layout(r, k, diagram.Options{})
		lines := messageLines(sc)
		dots := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle })
		for i := range r.Trace().Names {
			id := sim.NodeID(i)
			y := sc.ProcessY(id)
			// On the name, left of the plot.
			assert.Equal(t, diagram.Hit{Kind: diagram.HitProcess, Node: id}, sc.Hit(20, y), "k=%d: the name of %d", k, i)
			// On the lane, far from any event or message.
			found := 0
			for x := 0.0; x <= width; x += 3 {
				clear := true
				for _, d := range dots {
					if math.Hypot(x-d.X1, 2) < 15 {
						clear = false
					}
				}
				for _, l := range lines {
					if segDist(x, y+2, l) < 15 {
						clear = false
					}
				}
				if !clear {
					continue
				}
				found++
				assert.Equal(t, diagram.Hit{Kind: diagram.HitProcess, Node: id}, sc.Hit(x, y+2), "k=%d: lane %d at x=%.0f", k, i, x)
			}
			assert.Greater(t, found, 0, "k=%d: some of lane %d is free", k, i)
		}
		// Empty areas.
		for _, p := range [][2]float64{{2, 2}, {width - 2, height - 2}, {20, (sc.ProcessY(0) + sc.ProcessY(1)) / 2}, {-50, -50}} {
			assert.Equal(t, diagram.Hit{}, sc.Hit(p[0], p[1]), "k=%d: (%v,%v) is empty", k, p[0], p[1])
			assert.Equal(t, diagram.HitNothing, sc.Hit(p[0], p[1]).Kind)
		}
	}
}

func TestMessageAt(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	sc := layout(r, r.Len(), diagram.Options{})
	m := r.Trace().Msgs[0]
	x0, y0, ok := sc.MessageAt(m.ID, 0)
	require.True(t, ok)
	x1, y1, _ := sc.MessageAt(m.ID, 1)
	xm, ym, _ := sc.MessageAt(m.ID, 0.5)
	assert.InDelta(t, (x0+x1)/2, xm, 1e-9)
	assert.InDelta(t, (y0+y1)/2, ym, 1e-9)
	assert.Equal(t, sc.ProcessY(m.From), y0)
	assert.Equal(t, sc.ProcessY(m.To), y1)
	for _, id := range []int{-1, len(r.Trace().Msgs), 1 << 30} {
		_, _, ok := sc.MessageAt(id, 0.5)
		assert.False(t, ok, "message %d", id)
	}
}

func TestLamportAxis(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	count := func(sc *diagram.Scene, keep func(diagram.Shape) bool) int { return len(filter(sc, keep)) }
	kinds := map[string]func(diagram.Shape) bool{
		"messages": func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && isMessageColor(sh.Color) },
		"dots":     func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle },
		"diamonds": func(sh diagram.Shape) bool { return sh.Op == diagram.OpDiamond },
		"cut":      func(sh diagram.Shape) bool { return sh.Color == diagram.CutColor },
		"halos":    func(sh diagram.Shape) bool { return sh.Color == diagram.ChannelColor },
		"names":    func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Color == diagram.Ink },
		"now":      func(sh diagram.Shape) bool { return sh.Color == diagram.NowColor },
	}
	for _, k := range someSteps(r) {
		byTime := layout(r, k, diagram.Options{Axis: diagram.AxisTime})
		byDefault := layout(r, k, diagram.Options{})
		byLamport := layout(r, k, diagram.Options{Axis: diagram.AxisLamport})
		require.Equal(t, byDefault.Shapes, byTime.Shapes, "time is the default axis")
		// The axis's ticks differ; everything that stands for the run does not.
		assert.InDelta(t, len(byTime.Shapes), len(byLamport.Shapes), 4, "k=%d", k)
		for name, keep := range kinds {
			assert.Equal(t, count(byTime, keep), count(byLamport, keep), "k=%d: %s", k, name)
		}
		if k > 0 {
			assert.NotEqual(t, xsOf(byTime), xsOf(byLamport), "k=%d: the Lamport axis moves events", k)
		}
		assert.Equal(t, ysOf(byTime), ysOf(byLamport), "k=%d: lanes stay put", k)
		// Clock condition: every delivered message goes strictly right.
		for _, m := range r.Trace().MsgsBefore(k) {
			if m.ReceivedAt(k) {
				x1, _, _ := byLamport.MessageAt(m.ID, 0)
				x2, _, _ := byLamport.MessageAt(m.ID, 1)
				assert.Greater(t, x2, x1, "k=%d msg %d", k, m.ID)
			}
		}
	}
	end := layout(r, r.Len(), diagram.Options{Axis: diagram.AxisLamport})
	assert.NotEmpty(t, filter(end, func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "Lamport time")
	}))
	assert.Empty(t, filter(end, func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "time (ticks)")
	}))
	assert.NotEmpty(t, filter(layout(r, r.Len(), diagram.Options{}), func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "time (ticks)")
	}))
}

// dotCoords lists one coordinate (picked by of) of every event dot.
func dotCoords(sc *diagram.Scene, of func(diagram.Shape) float64) []float64 {
	var out []float64
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpCircle {
			out = append(out, of(sh))
		}
	}
	return out
}

func xsOf(sc *diagram.Scene) []float64 {
	return dotCoords(sc, func(sh diagram.Shape) float64 { return sh.X1 })
}

func ysOf(sc *diagram.Scene) []float64 {
	return dotCoords(sc, func(sh diagram.Shape) float64 { return sh.Y1 })
}

// TestLongRunWindow lays out a 100,000-step run: only a window around the
// present is drawn, and the present is on screen.
func TestLongRunWindow(t *testing.T) {
	r := longRun(t)
	require.Equal(t, 100_000, r.Len())
	tr := r.Trace()
	for _, k := range []int{0, 1, 50, 1000, 30_100, 50_000, 99_999, 100_000} {
		sc := layout(r, k, diagram.Options{})
		assert.Less(t, len(sc.Shapes), 5000, "k=%d: a window, not the whole run", k)
		x := nowX(t, sc)
		assert.Greater(t, x, 0.0, "k=%d", k)
		assert.Less(t, x, width, "k=%d", k)
		lines := messageLines(sc)
		assert.LessOrEqual(t, len(lines), len(tr.MsgsBefore(k)), "k=%d", k)
		if k >= 1000 {
			assert.Less(t, len(lines), len(tr.MsgsBefore(k))/4, "k=%d: old messages are not drawn", k)
			assert.NotEmpty(t, lines, "k=%d: recent messages are drawn", k)
		}
		// What is drawn is what happened lately: every drawn dot is near now.
		for _, sh := range sc.Shapes {
			if sh.Op == diagram.OpCircle {
				assert.True(t, sh.X1 >= 0 && sh.X1 <= width, "k=%d: a dot at x=%.1f is off the drawing", k, sh.X1)
			}
		}
		for _, name := range tr.Names {
			assert.Len(t, filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Text == name }), 1)
		}
	}
	// The window follows the present: the last step's dot is right of the
	// first drawn dot of an earlier window's... and both end near the now line.
	a, b := layout(r, 50_000, diagram.Options{}), layout(r, 50_001, diagram.Options{})
	assert.InDelta(t, nowX(t, a), nowX(t, b), 20, "the now line stays put while the window follows it")

	// A wider span shows more.
	wide := layout(r, 50_000, diagram.Options{Span: 4 * diagram.DefaultSpan})
	assert.Greater(t, len(messageLines(wide)), len(messageLines(a)))
}

// TestShortSpanWindowsAShortRun windows even a short run when the span is
// shorter than it.
func TestShortSpanWindowsAShortRun(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	full := layout(r, r.Len(), diagram.Options{})
	win := layout(r, r.Len(), diagram.Options{Span: 10})
	assert.Less(t, len(messageLines(win)), len(messageLines(full)))
	x := nowX(t, win)
	assert.Greater(t, x, width/2, "the window ends at the present")
	assert.Less(t, x, width)
	// The diamonds of a cut that happened long before are out of the window.
	assert.Less(t, len(filter(win, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCircle })), r.Len())
}

// TestFaultsAndLostMessages forks the worked example with a crash, a pause
// and a message lost by the network, and checks how they are drawn.
// faultedBank is the bank's run with three of the learner's faults after
// its end, step k: message 21 (the head of A→C) lost at step k, B crashed
// at k+1, C paused for 5 ticks at k+2.
func faultedBank(t testing.TB) (*engine.Run, int) {
	t.Helper()
	r := builtinRun(t, "snapshot-bank")
	k := r.Len()
	require.True(t, r.Trace().Msgs[21].InFlightAt(k))
	require.NoError(t, r.Insert(k, dropAction(21)))
	require.NoError(t, r.Insert(k+1, faultAction("crash", 1, 0)))
	require.NoError(t, r.Insert(k+2, faultAction("pause", 2, 5)))
	require.GreaterOrEqual(t, r.Len(), k+3)
	return r, k
}

func TestFaultsAndLostMessages(t *testing.T) {
	r, k := faultedBank(t)

	t.Run("lost message", func(t *testing.T) {
		sc := layout(r, k+1, diagram.Options{})
		lines := messageLines(sc)
		require.Len(t, lines, len(r.Trace().MsgsBefore(k+1)), "a lost message is still drawn")
		line := lineFor(t, sc, lines, 21)
		assert.Zero(t, line.Flags&diagram.FlagArrow, "a lost message has no head")
		crosses := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpCross })
		require.Len(t, crosses, 1)
		assert.Equal(t, diagram.CrashColor, crosses[0].Color)
		assert.Equal(t, line.X2, crosses[0].X1, "the cross is at the arrow's end")
		assert.Equal(t, line.Y2, crosses[0].Y1)
		ys := []float64{sc.ProcessY(0), sc.ProcessY(2)}
		assert.True(t, line.Y2 > ys[0] && line.Y2 < ys[1], "it is lost on the way")
		arrows := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine && sh.Flags&diagram.FlagArrow != 0 })
		assert.Len(t, arrows, len(lines)-1)
		// A lost message is not in flight: it cannot be delivered by a click.
		x, y, ok := sc.MessageAt(21, 0.5)
		require.True(t, ok)
		assert.False(t, sc.Hit(x, y).InFlight && sc.Hit(x, y).Msg == 21)
	})
	t.Run("crash", func(t *testing.T) {
		sc := layout(r, k+2, diagram.Options{})
		crashed := filter(sc, func(sh diagram.Shape) bool {
			return sh.Op == diagram.OpLine && sh.Color == diagram.CrashColor
		})
		require.Len(t, crashed, 1, "the crashed stretch of B's lane")
		assert.Equal(t, sc.ProcessY(1), crashed[0].Y1)
		assert.NotZero(t, crashed[0].Flags&diagram.FlagDashed)
		assert.InDelta(t, nowX(t, sc), crashed[0].X2, 1e-9, "B is still down now")
		isCross := func(sh diagram.Shape) bool { return sh.Op == diagram.OpCross }
		before, after := filter(layout(r, k+1, diagram.Options{}), isCross), filter(sc, isCross)
		require.Len(t, after, len(before)+1, "a cross where B crashed")
		crash := after[len(after)-1]
		if len(before) > 0 && after[0] != before[0] {
			crash = after[0]
		}
		assert.Equal(t, sc.ProcessY(1), crash.Y1, "the crash is on B's lane")
		assert.Equal(t, crashed[0].X1, crash.X1, "the crashed stretch starts at the cross")
	})
	t.Run("pause", func(t *testing.T) {
		sc := layout(r, k+3, diagram.Options{})
		bands := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpRect && sh.Color == diagram.PauseColor })
		require.NotEmpty(t, bands)
		for _, b := range bands {
			assert.InDelta(t, sc.ProcessY(2), b.Y1+b.Y2/2, 1e-9, "the pause is drawn on C's lane")
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		for kk := k; kk <= r.Len(); kk++ {
			require.Equal(t, layout(r, kk, diagram.Options{}).Shapes, layout(r, kk, diagram.Options{}).Shapes)
		}
	})
}

// svgCounts decodes an SVG document to its end and counts its elements.
func svgCounts(t *testing.T, data []byte) (map[string]int, []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	counts := map[string]int{}
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			counts[tok.Name.Local]++
			inText = tok.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(tok)
			}
		case xml.EndElement:
			inText = false
		}
	}
	return counts, texts
}

func TestSVG(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	for _, tc := range []struct {
		name string
		sc   *diagram.Scene
	}{
		{"start", layout(r, 0, diagram.Options{})},
		{"middle", layout(r, 40, diagram.Options{Highlight: []int{5}})},
		{"end", layout(r, r.Len(), diagram.Options{})},
		{"lamport", layout(r, r.Len(), diagram.Options{Axis: diagram.AxisLamport})},
		{"long", layout(longRun(t), 70_000, diagram.Options{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.sc.SVG()
			counts, texts := svgCounts(t, data)
			byOp := map[diagram.Op]int{}
			heads := 0
			var wantTexts []string
			for _, sh := range tc.sc.Shapes {
				byOp[sh.Op]++
				if sh.Op == diagram.OpLine && sh.Flags&diagram.FlagArrow != 0 {
					heads++
				}
				if sh.Op == diagram.OpText {
					wantTexts = append(wantTexts, sh.Text)
				}
			}
			assert.Equal(t, 1, counts["svg"])
			assert.Equal(t, byOp[diagram.OpLine], counts["line"], "one <line> per line")
			assert.Equal(t, byOp[diagram.OpLine], bytes.Count(data, []byte("<line ")))
			assert.Equal(t, byOp[diagram.OpCircle], counts["circle"])
			assert.Equal(t, heads+byOp[diagram.OpDiamond], counts["polygon"], "arrow heads and diamonds")
			assert.Equal(t, byOp[diagram.OpCross], counts["path"])
			assert.Equal(t, byOp[diagram.OpRect]+1, counts["rect"], "the paper and the pause bands")
			assert.Equal(t, wantTexts, texts, "every text, in order")
			assert.True(t, bytes.HasPrefix(data, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="350"`)), "%.80s", data)
		})
	}
}

func TestSVGEscapesText(t *testing.T) {
	nasty := []string{`<script>alert("x")</script>`, `A & B`, `it's "quoted"`, `]]> <!-- -->`, `→ $14`}
	sc := &diagram.Scene{Width: 300, Height: 100}
	for i, s := range nasty {
		sc.Shapes = append(sc.Shapes, diagram.Shape{Op: diagram.OpText, X1: 10, Y1: float64(10 * i), Align: diagram.Align(i % 3), Text: s})
	}
	data := sc.SVG()
	assert.NotContains(t, string(data), "<script")
	counts, texts := svgCounts(t, data)
	assert.Equal(t, len(nasty), counts["text"])
	assert.Equal(t, 0, counts["script"])
	assert.Equal(t, nasty, texts)
	assert.Contains(t, string(data), `text-anchor="start"`)
	assert.Contains(t, string(data), `text-anchor="middle"`)
	assert.Contains(t, string(data), `text-anchor="end"`)
}

func TestSVGEmptyScene(t *testing.T) {
	counts, texts := svgCounts(t, (&diagram.Scene{Width: 10, Height: 10}).SVG())
	assert.Equal(t, map[string]int{"svg": 1, "rect": 1}, counts)
	assert.Empty(t, texts)
}

func TestEncode(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	var buf []float32
	var texts []string
	for _, k := range []int{r.Len(), 0, 10, r.Len()} { // reuse buffers, shrinking and growing
		sc := layout(r, k, diagram.Options{Highlight: []int{2}})
		buf, texts = sc.Encode(buf, texts)
		require.Len(t, buf, diagram.Stride*len(sc.Shapes), "k=%d", k)
		nt := 0
		for i, sh := range sc.Shapes {
			rec := buf[i*diagram.Stride : (i+1)*diagram.Stride]
			assert.Equal(t, float32(sh.Op), rec[0])
			assert.Equal(t, float32(sh.X1), rec[1])
			assert.Equal(t, float32(sh.Y1), rec[2])
			assert.Equal(t, float32(sh.X2), rec[3])
			assert.Equal(t, float32(sh.Y2), rec[4])
			assert.Equal(t, float32(sh.Color), rec[5])
			assert.Equal(t, float32(sh.Width), rec[6])
			assert.Equal(t, float32(sh.Flags), rec[7])
			assert.Equal(t, float32(sh.Align), rec[8])
			if sh.Op == diagram.OpText {
				ti := int(rec[9])
				require.Equal(t, float32(ti), rec[9], "a text index is whole")
				require.True(t, ti >= 0 && ti < len(texts), "text index %d of %d", ti, len(texts))
				assert.Equal(t, sh.Text, texts[ti])
				nt++
			} else {
				assert.Equal(t, float32(-1), rec[9], "shape %d is not a text", i)
			}
		}
		assert.Len(t, texts, nt, "k=%d: one string per text shape", k)
	}
}

func TestEncodeNonFinite(t *testing.T) {
	sc := &diagram.Scene{Shapes: []diagram.Shape{
		{Op: diagram.OpLine, X1: math.NaN(), Y1: math.Inf(1), X2: math.Inf(-1), Y2: 3, Width: 1},
	}}
	buf, texts := sc.Encode(nil, nil)
	assert.Equal(t, []float32{float32(diagram.OpLine), 0, 0, 0, 3, 0, 1, 0, 0, -1}, buf)
	assert.Empty(t, texts)
}

// TestGoldenSVG compares the worked example's final picture with the golden
// file, at the size the command line exports it. Regenerate it with:
//
//	go test ./app/diagram -run TestGoldenSVG -update
func TestGoldenSVG(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	got := layout(r, r.Len(), diagram.Options{Width: 1200, Height: 350}).SVG()
	golden.Check(t, filepath.Join("testdata", "snapshot-bank.svg"), string(got))
}

// axisValues is each step's position on an axis, as the design describes
// it: simulated time with the steps of one tick spread evenly inside it, or
// the Lamport clock.
func axisValues(tr *trace.Trace, axis diagram.Axis) []float64 {
	recs := tr.Records
	xs := make([]float64, len(recs))
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && recs[j].Time == recs[i].Time {
			j++
		}
		for s := i; s < j; s++ {
			if axis == diagram.AxisLamport {
				xs[s] = float64(recs[s].Lamport)
			} else {
				xs[s] = float64(recs[s].Time) + float64(s-i)/float64(j-i)
			}
		}
		i = j
	}
	return xs
}

// pixelScale reads the axis's pixel mapping off two tick labels:
// px = a*t + b.
func pixelScale(t *testing.T, sc *diagram.Scene) (a, b float64) {
	t.Helper()
	var ts, ps []float64
	for _, sh := range sc.Shapes {
		if sh.Op != diagram.OpText || sh.Color != diagram.Faint || sh.Align != diagram.AlignCenter {
			continue
		}
		v, err := strconv.ParseFloat(sh.Text, 64)
		if err == nil {
			ts, ps = append(ts, v), append(ps, sh.X1)
		}
	}
	require.GreaterOrEqual(t, len(ts), 2, "the axis has tick labels")
	a = (ps[len(ps)-1] - ps[0]) / (ts[len(ts)-1] - ts[0])
	return a, ps[0] - a*ts[0]
}

// TestWindowDrawsExactlyWhatIsVisible checks, for long runs laid out in a
// window, that every event and message that falls in the window is drawn
// and nothing else: whatever shortcut the layout takes to skip the rest of
// the run, it must not lose anything visible.
func TestWindowDrawsExactlyWhatIsVisible(t *testing.T) {
	longR := longRun(t)
	bank := builtinRun(t, "snapshot-bank")
	// a fork of the worked example with a lost message and a crash, windowed
	forked := builtinRun(t, "snapshot-bank")
	require.NoError(t, forked.Insert(30, dropAction(inFlightAt(t, forked, 30))))
	require.NoError(t, forked.Insert(35, faultAction("crash", 2, 0)))

	tests := []struct {
		name string
		r    *engine.Run
		ks   []int
		span float64
	}{
		{"long run", longR, []int{300, 1000, 29_999, 30_050, 60_020, 77_777, 99_999, 100_000}, 0},
		{"long run, wide", longR, []int{5000, 60_020}, 2000},
		{"long run, narrow", longR, []int{5000, 60_020}, 12},
		{"worked example, narrow", bank, []int{20, 45, bank.Len()}, 15},
		{"fork with faults, narrow", forked, []int{31, 40, forked.Len()}, 10},
	}
	for _, tc := range tests {
		for _, axis := range []diagram.Axis{diagram.AxisTime, diagram.AxisLamport} {
			t.Run(fmt.Sprintf("%s/%s", tc.name, axis), func(t *testing.T) {
				tr := tc.r.Trace()
				xs := axisValues(tr, axis)
				for _, k := range tc.ks {
					sc := layout(tc.r, k, diagram.Options{Axis: axis, Span: tc.span})
					a, b := pixelScale(t, sc)
					tOf := func(px float64) float64 { return (px - b) / a }
					lanes := filter(sc, func(sh diagram.Shape) bool {
						return sh.Op == diagram.OpLine && sh.Color == diagram.LaneColor && sh.Y1 == sh.Y2
					})
					require.NotEmpty(t, lanes)
					t0, t1 := tOf(lanes[0].X1), tOf(lanes[0].X2)
					now := tOf(nowX(t, sc))
					const eps = 1e-6
					inside := func(lo, hi float64) (in, edge bool) {
						return hi >= t0-eps && lo <= t1+eps, math.Abs(hi-t0) < eps || math.Abs(lo-t1) < eps
					}

					// events
					want, edges := 0, 0
					for s := range k {
						rec := tr.Records[s]
						if rec.What() == "crash" || rec.What() == "pause" || rec.Kind == trace.Wake || rec.What() == "drop" {
							continue
						}
						in, edge := inside(xs[s], xs[s])
						switch {
						case edge:
							edges++ // on the window's edge: drawn or not
						case in:
							want++
						}
					}
					// a dense window draws events as small squares
					dots := filter(sc, func(sh diagram.Shape) bool {
						return sh.Op == diagram.OpCircle || (sh.Op == diagram.OpRect && sh.Color == diagram.Ink)
					})
					assert.GreaterOrEqual(t, len(dots), want, "k=%d: every event in the window [%.2f, %.2f] is drawn", k, t0, t1)
					assert.LessOrEqual(t, len(dots), want+edges, "k=%d: only events in the window [%.2f, %.2f] are drawn", k, t0, t1)

					// messages
					drawn, expected := 0, 0
					for _, m := range tr.MsgsBefore(k) {
						lo, hi := xs[m.SendStep], now
						switch {
						case m.ReceivedAt(k):
							hi = xs[m.RecvStep]
						case m.DroppedAt(k):
							hi = max(xs[m.DropStep], lo+0.4)
						}
						in, edge := inside(min(lo, hi), max(lo, hi))
						_, _, ok := sc.MessageAt(m.ID, 0.5)
						if ok {
							drawn++
						}
						if edge {
							edges++
							continue
						}
						if in {
							expected++
						}
						require.Equal(t, in, ok, "k=%d: msg %d (%.2f..%.2f) in window [%.2f, %.2f]", k, m.ID, lo, hi, t0, t1)
					}
					assert.Equal(t, drawn, len(messageLines(sc)), "k=%d: one line per drawn message", k)
					assert.GreaterOrEqual(t, drawn, expected, "k=%d", k)
					assert.Positive(t, expected, "k=%d: something is visible", k)
				}
			})
		}
	}
}

func inFlightAt(t *testing.T, r *engine.Run, k int) int {
	t.Helper()
	for _, m := range r.Trace().MsgsBefore(k) {
		if m.InFlightAt(k) {
			return m.ID
		}
	}
	require.FailNow(t, "nothing in flight", "k=%d", k)
	return -1
}

// With stamps on, every event of a process has its clock written under its
// dot, Lamport's or the vector; with an event selected, those concurrent
// with it are greyed, and a compared event is ringed.
func TestStampsAndConcurrentEvents(t *testing.T) {
	_, r := scenariotest.Run(t, "vector-clock-concurrent")
	tr := r.Trace()
	texts := func(sc *diagram.Scene) map[string]bool {
		out := map[string]bool{}
		for _, sh := range sc.Shapes {
			if sh.Op == diagram.OpText {
				out[sh.Text] = true
			}
		}
		return out
	}
	for _, stamps := range []diagram.Stamps{diagram.StampsLamport, diagram.StampsVector} {
		sc := diagram.Layout(tr, tr.Len(), r.Config().Spec, diagram.Options{Width: 900, Height: 400, Stamps: stamps})
		got := texts(sc)
		for k := range tr.Records {
			assert.True(t, got[diagram.Stamp(&tr.Records[k], stamps)], "step %d's %s stamp is written", k, stamps)
		}
	}
	assert.Equal(t, "[0,4,4]", diagram.Stamp(&tr.Records[tr.Len()-1], diagram.StampsVector))
	assert.Equal(t, "7", diagram.Stamp(&tr.Records[tr.Len()-1], diagram.StampsLamport))

	a, b := 3, tr.Len()-1 // P1's local event, P3's last: concurrent
	sc := diagram.Layout(tr, tr.Len(), r.Config().Spec, diagram.Options{Width: 900, Height: 400, Selected: b, HasSelected: true, Other: a, HasOther: true})
	ax, ay, ok := sc.EventPoint(a)
	require.True(t, ok)
	var greyed, ringed bool
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpCircle && sh.X1 == ax && sh.Y1 == ay {
			greyed = greyed || (sh.Color == diagram.Faint && sh.Flags&diagram.FlagOutline == 0)
			ringed = ringed || (sh.Flags&diagram.FlagDashed != 0)
		}
	}
	assert.True(t, greyed, "a is concurrent with the selected b: its dot is grey")
	assert.True(t, ringed, "and it is ringed as the compared event")
}

// A process down since tick 1 has thousands of messages waiting for it:
// the diagram draws the newest of those sent before the window, says that
// older ones are not drawn, and visits no more of them.
func TestOlderMessagesOnTheirWayAreNotAllDrawn(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
		"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"steps": 20000}}`))
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	k := r.Len()
	scene := ix.Layout(k, r.Config().Spec, diagram.Options{Width: 1200, Height: 300})
	assert.True(t, scene.Older)
	_, messages := scene.Visible()
	assert.LessOrEqual(t, messages, 2500, "the newest 2000 and those sent inside the window")
	last := len(r.Trace().MsgsBefore(k)) - 1
	_, _, ok := scene.MessageAt(last, 0.5)
	assert.True(t, ok, "the newest message is drawn")
	_, _, ok = scene.MessageAt(0, 0.5)
	assert.False(t, ok, "the oldest is not")
	assert.LessOrEqual(t, ix.Cost(k, diagram.Options{}), 3000)
	var note bool
	for _, sh := range scene.Shapes {
		note = note || strings.HasPrefix(sh.Text, "older messages still on their way are not drawn")
	}
	assert.True(t, note, "the diagram says so")

	bank, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	rb, err := scenariotest.Plan(t, bank).Run()
	require.NoError(t, err)
	assert.False(t, diagram.Layout(rb.Trace(), rb.Len(), rb.Config().Spec, diagram.Options{Width: 1200, Height: 300}).Older, "a lesson draws every message")
}

// A run of many processes can be filtered to those the learner watches:
// a hidden process has no lane, no event and no message drawn, and the
// others share the height.
func TestHiddenProcessesAreLeftOut(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	all := layout(r, r.Len(), diagram.Options{Width: 900, Height: 360})
	sc := layout(r, r.Len(), diagram.Options{Width: 900, Height: 360, Hidden: []bool{false, true, false}})
	drawnMessages := map[int]bool{}
	for _, sh := range sc.Shapes {
		if p, ok := sh.Tag.Process(); ok {
			assert.NotEqual(t, sim.NodeID(1), p, "nothing of B: %+v", sh)
		}
		if m, ok := sh.Tag.Message(); ok {
			drawnMessages[m] = true
		}
	}
	for _, m := range r.Trace().Msgs {
		if m.From == 1 || m.To == 1 {
			assert.False(t, drawnMessages[m.ID], "message %d to or from B", m.ID)
		}
	}
	assert.NotEmpty(t, drawnMessages, "the messages between A and C")
	assert.Greater(t, sc.ProcessY(2)-sc.ProcessY(0), all.ProcessY(1)-all.ProcessY(0), "A and C share the height: their lanes are further apart")
	_, ok := sc.LaneAt(all.ProcessY(1))
	assert.True(t, ok, "where B was is A's or C's now")

	// hiding every process hides none
	none := layout(r, r.Len(), diagram.Options{Width: 900, Height: 360, Hidden: []bool{true, true, true}})
	assert.Equal(t, len(all.Shapes), len(none.Shapes))
}
