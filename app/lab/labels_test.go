package lab

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Presentation sizes: what the page gives the diagram and the process
// graph on a 1280×720 projector, at the text size it picks there (L).
const (
	projectorWidth, projectorHeight = 880, 420
	graphWidth                      = 340
)

// textTrouble counts a scene's texts that overlap another text or leave
// the drawing, and says which.
func textTrouble(sc *diagram.Scene) (n int, what []string) {
	boxes := sc.TextBoxes()
	for i, a := range boxes {
		if a.X0 < -0.5 || a.Y0 < -0.5 || a.X1 > sc.Width+0.5 || a.Y1 > sc.Height+0.5 {
			n++
			what = append(what, fmt.Sprintf("%q is cut by the frame", a.Text))
		}
		for _, b := range boxes[i+1:] {
			if a.Overlaps(b) {
				n++
				what = append(what, fmt.Sprintf("%q overlaps %q", a.Text, b.Text))
			}
		}
	}
	return n, what
}

// Every built-in lesson, at every 10th step and its last, shown as on a
// 1280×720 projector: no text overlaps another, and none is cut by the
// diagram's or the process graph's frame.
func TestNoLabelsCollideInAnyLesson(t *testing.T) {
	scale := diagram.TextScale("L")
	total, pictures, hidden, lost := 0, 0, 0, 0
	for _, id := range scenario.BuiltinIDs() {
		scn, err := scenario.Builtin(id)
		require.NoError(t, err)
		s, err := Open(scn)
		require.NoError(t, err, id)
		s.Scale = scale
		steps := []int{}
		for k := 0; k < s.Len(); k += 10 {
			steps = append(steps, k)
		}
		steps = append(steps, s.Len())
		for _, k := range steps {
			s.Seek(k)
			scenes := []*diagram.Scene{s.Diagram().Scene(projectorWidth, projectorHeight)}
			if ts := s.Diagram().TopologyScene(graphWidth, diagram.TopologyHeight(scn.Spec(), len(scn.Names))*scale); ts != nil {
				scenes = append(scenes, ts)
			}
			lost += pointLeftOut(t, s, scenes[0], fmt.Sprintf("%s k=%d", id, k))
			for _, sc := range scenes {
				pictures++
				hidden += sc.Hidden
				n, what := textTrouble(sc)
				total += n
				if n > 0 {
					t.Errorf("%s k=%d: %d texts in trouble: %v", id, k, n, what[:min(len(what), 4)])
				}
			}
		}
	}
	t.Logf("%d pictures, %d texts overlapping or cut, %d left out for want of room, %d of them the lesson's point", pictures, total, hidden, lost)
	assert.Positive(t, pictures)
}

// In a compare view's grid on a 1280×720 projector (six runs, three in a
// row) a run's diagram is short, with compact margins: its texts do not
// collide either.
func TestNoLabelsCollideInAGridCell(t *testing.T) {
	const cellWidth, cellHeight = 396, 151
	scale := diagram.TextScale("S")
	total, pictures := 0, 0
	for _, id := range scenario.BuiltinIDs() {
		scn, err := scenario.Builtin(id)
		require.NoError(t, err)
		s, err := Open(scn)
		require.NoError(t, err, id)
		s.Scale = scale
		for k := 0; k <= s.Len(); k += 20 {
			s.Seek(k)
			sc := s.Diagram().Scene(cellWidth, cellHeight)
			pictures++
			n, what := textTrouble(sc)
			total += n
			if n > 0 {
				t.Errorf("%s k=%d: %d texts in trouble: %v", id, k, n, what[:min(len(what), 4)])
			}
		}
	}
	t.Logf("%d pictures, %d texts overlapping or cut", pictures, total)
}

// The verdict line names the invariant a lesson breaks, with its step,
// and otherwise what holds.
func TestVerdictNamesTheFailingInvariant(t *testing.T) {
	open := func(id string) *Session { return builtinSession(t, id) }
	bank := open("snapshot-bank")
	bank.Seek(bank.Len())
	text, ok := bank.Verdicts().Text()
	assert.True(t, ok)
	assert.Contains(t, text, "✓ holds: ")
	ring := open("token-ring-crash")
	ring.Seek(ring.Len())
	text, ok = ring.Verdicts().Text()
	assert.False(t, ok)
	assert.Regexp(t, `^✗ .+: fails at step \d+`, text)
	assert.Contains(t, text, "(this lesson's point)")
	ring.Seek(0)
	_, ok = ring.Verdicts().Text()
	assert.True(t, ok, "nothing fails before the crash")
}

// A slide that names no step opens under way: at the step the lesson
// names, or where the first message has arrived; a lesson's frame holds
// the window while its point is inside it, until the learner zooms.
func TestSlidesOpenUnderWayAndLessonsFrameTheirPoint(t *testing.T) {
	p, err := PageFromQuery(url.Values{"s": {"snapshot-bank"}, "embed": {"1"}}, false)
	require.NoError(t, err)
	s := p.Views[0]
	require.Positive(t, s.Step())
	first := -1
	for _, m := range s.Run().Trace().MsgsBefore(s.Step()) {
		if m.ReceivedAt(s.Step()) {
			first = m.RecvStep
		}
	}
	assert.Equal(t, s.Step()-1, first, "the first arrival is the last step shown")
	p, err = PageFromQuery(url.Values{"s": {"snapshot-bank"}}, false)
	require.NoError(t, err)
	assert.Zero(t, p.Views[0].Step(), "a page, not a slide, opens at the start")

	scn, err := scenario.Builtin("token-ring-crash")
	require.NoError(t, err)
	scn.Lesson = &scenario.Lesson{Topic: scn.TopicOf(), Opens: 11, Frame: []sim.Time{0, 14}}
	s, err = Open(scn)
	require.NoError(t, err)
	assert.Equal(t, 11, s.OpeningStep())
	s.Seek(11)
	sc := s.Diagram().Scene(900, 400)
	assert.Equal(t, [2]float64{0, 14}, [2]float64{sc.T0, sc.T1}, "framed on the lesson's point")
	s.Seek(s.Len())
	sc = s.Diagram().Scene(900, 400)
	assert.Greater(t, sc.T1, 14.0, "past the frame, the window follows the run")
	s.Seek(11)
	s.View.Span = 40
	sc = s.Diagram().Scene(900, 400)
	assert.NotEqual(t, 14.0, sc.T1, "a learner's zoom wins")
}

// A lesson's named events are written beside their dots: a and b of
// "C(a) < C(b), and yet a did not happen before b".
func TestLessonMarksItsEvents(t *testing.T) {
	scn, err := scenario.Builtin("vector-clock-concurrent")
	require.NoError(t, err)
	s, err := Open(scn)
	require.NoError(t, err)
	s.Seek(s.Len())
	sc := s.Diagram().Scene(projectorWidth, projectorHeight)
	for _, m := range scn.Lesson.Marks {
		x, y, ok := sc.EventPoint(m.Step - 1)
		require.True(t, ok, m.Name)
		found := false
		for _, b := range sc.TextBoxes() {
			if b.Text == m.Name {
				found = true
				cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
				assert.InDelta(t, x, cx, 30, "%s beside its event", m.Name)
				assert.InDelta(t, y, cy, 30, "%s beside its event", m.Name)
			}
		}
		assert.True(t, found, "%s is written", m.Name)
	}
	assert.Equal(t, "P1", s.Run().Trace().Names[s.Run().Trace().Records[scn.Lesson.Marks[0].Step-1].Node], "a is P1's")
}

// pointLeftOut counts the labels of the messages a lesson points at (a
// failing invariant's) that a scene draws the arrow of but not the label:
// none, since they may go further off, with a leader line.
func pointLeftOut(t *testing.T, s *Session, sc *diagram.Scene, where string) int {
	drawn, shown := map[int]bool{}, labelled(sc)
	for _, sh := range sc.Shapes {
		if id, ok := sh.Tag.Message(); ok && sh.Tag.What == diagram.WhatMessage {
			drawn[id] = true
		}
	}
	if len(shown) == 0 {
		return 0 // too many messages to label any (a dense window)
	}
	n := 0
	for _, id := range s.Diagram().Highlight() {
		if m := s.Run().Trace().Msgs[id]; drawn[id] && m.Label != "" && !shown[id] {
			n++
			t.Errorf("%s: the label %q of message %d, which the lesson points at, is left out", where, m.Label, id)
		}
	}
	return n
}

// labelled lists the messages whose label a scene shows.
func labelled(sc *diagram.Scene) map[int]bool {
	shown := map[int]bool{}
	for _, sh := range sc.Shapes {
		if id, ok := sh.Tag.Message(); ok && sh.Tag.What == diagram.WhatMessageLabel {
			shown[id] = true
		}
	}
	return shown
}

// A message label left out for want of room comes back when the learner
// selects the event that sent or received it.
func TestSelectingAnEventShowsItsMessagesLabels(t *testing.T) {
	scn, err := scenario.Builtin("coordination-lock-herd")
	require.NoError(t, err)
	s, err := Open(scn)
	require.NoError(t, err)
	s.Scale = diagram.TextScale("L")
	s.Seek(58)
	shown := labelled(s.Diagram().Scene(projectorWidth, projectorHeight))
	missing := 0
	for _, m := range s.Run().Trace().Msgs {
		if m.SendStep >= 58 || m.Label == "" || shown[m.ID] || !m.ReceivedAt(58) {
			continue
		}
		missing++
		for _, step := range []int{m.SendStep, m.RecvStep} {
			s.Causality().Select(step)
			sc := s.Diagram().Scene(projectorWidth, projectorHeight)
			assert.True(t, labelled(sc)[m.ID], "message %d (%s) selected at step %d", m.ID, m.Label, step)
			n, what := textTrouble(sc)
			assert.Zero(t, n, what)
			s.Causality().Select(-1)
		}
	}
	assert.Positive(t, missing, "the lesson leaves no label out at step 58: pick a busier step")
}

// The diagram's text alternative lists the last events on screen in
// order, and counts the ones before them: bounded however long the run.
func TestEventLinesFollowTheStep(t *testing.T) {
	scn, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s, err := Open(scn)
	require.NoError(t, err)
	s.Seek(0)
	lines, earlier := s.Diagram().EventLines(30)
	assert.Empty(t, lines)
	assert.Zero(t, earlier)
	s.Seek(40)
	lines, earlier = s.Diagram().EventLines(30)
	require.Len(t, lines, 30)
	assert.Equal(t, 10, earlier)
	r := s.Run().Trace().Records[39]
	assert.Equal(t, fmt.Sprintf("step 40 · %s at %d: %s", scn.Names[r.Node], r.Time, r.Caption), lines[29])
	assert.True(t, strings.HasPrefix(lines[0], "step 11 · "), lines[0])
}
