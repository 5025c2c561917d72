package ports_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/bully"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/algo/election"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/algo/tokenring"
	"spacetime/core/engine"
	"spacetime/core/scenario"
)

func TestMain(m *testing.M) {
	all.Add(python.Spec)
	os.Exit(m.Run())
}

// lessonsOf lists the built-in lessons of an algorithm.
func lessonsOf(t *testing.T, algorithm string) []*scenario.Scenario {
	t.Helper()
	var out []*scenario.Scenario
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		if s.Algorithm == algorithm {
			out = append(out, s)
		}
	}
	require.NotEmpty(t, out, "%s has lessons", algorithm)
	return out
}

// run runs a scenario whole.
func run(t *testing.T, s *scenario.Scenario) *engine.Run {
	t.Helper()
	p, err := s.Compile()
	require.NoError(t, err, s.ID)
	r, err := p.Run()
	require.NoError(t, err, s.ID)
	return r
}

// sameRun holds a lesson's port to the Go version: the same steps (what
// happened at which process, when, from which source), the same messages
// (kind, sender, receiver, and the steps that sent, delivered or lost
// each), the same end, and every Go invariant failing first at the same
// step under the same name; the program raises no error. Captions,
// labels and annotations may differ.
func sameRun(t *testing.T, lesson *scenario.Scenario) {
	t.Helper()
	if lesson.Until.Steps > maxTwinSteps {
		// a long lesson (snapshot-long) is compared on its first steps,
		// which hold every rule: the rest repeats them
		lesson = lesson.Clone()
		lesson.Until.Steps = maxTwinSteps
	}
	code, err := ports.AsCode(lesson, python.ID)
	require.NoError(t, err)
	goRun, pyRun := run(t, lesson), run(t, code)
	gt, pt := goRun.Trace(), pyRun.Trace()
	if pyRun.Err() != nil {
		t.Fatalf("%s: the port failed: %v", lesson.ID, pyRun.Err())
	}
	for i := range min(len(gt.Records), len(pt.Records)) {
		g, p := gt.Records[i], pt.Records[i]
		if g.Time != p.Time || g.Node != p.Node || g.Kind != p.Kind || g.Msg != p.Msg || g.NumSent != p.NumSent || g.Source != p.Source {
			t.Fatalf("%s: step %d differs:\n  go:     t=%d node %d %v msg %d sent %d (%s)\n  python: t=%d node %d %v msg %d sent %d (%s)",
				lesson.ID, i+1, g.Time, g.Node, g.Kind, g.Msg, g.NumSent, g.Caption, p.Time, p.Node, p.Kind, p.Msg, p.NumSent, p.Caption)
		}
	}
	require.Equal(t, len(gt.Records), len(pt.Records), "%s: steps", lesson.ID)
	require.Equal(t, len(gt.Msgs), len(pt.Msgs), "%s: messages", lesson.ID)
	for i := range gt.Msgs {
		g, p := gt.Msgs[i], pt.Msgs[i]
		assert.Equal(t, [6]any{g.Kind, g.From, g.To, g.SendStep, g.RecvStep, g.DropStep}, [6]any{p.Kind, p.From, p.To, p.SendStep, p.RecvStep, p.DropStep}, "%s: message %d", lesson.ID, i)
	}
	assert.Equal(t, goRun.Stopped(), pyRun.Stopped(), lesson.ID)
	failed := map[string]int{}
	for _, f := range pyRun.Failures() {
		failed[f.Name] = f.Step
	}
	assert.Equal(t, -1, failed[python.NoErrorName], "%s: the port raises no error", lesson.ID)
	for _, f := range goRun.Failures() {
		if unportable[f.Name] {
			continue
		}
		step, ok := failed[f.Name]
		if assert.True(t, ok, "%s: the port has the invariant %q", lesson.ID, f.Name) {
			assert.Equal(t, f.Step, step, "%s: %q first fails at the same step", lesson.ID, f.Name)
		}
	}
}

// unportable are the Go invariants that read what a program's invariants
// are not shown: the intervals the diagram draws open on a process, the
// timers a process has armed, and the step just taken. (Annotations may
// differ between twins: a port does not draw a leader or an election.)
var unportable = map[string]bool{
	election.DrawnName:          true,
	election.WaitsName:          true,
	election.BullyRulesName:     true,
	bully.StartsName:            true,
	mutex.DrawnName:             true,
	mutex.ObeysName:             true,
	mutex.TokenDrawnName:        true,
	tokenring.StampsName:        true,
	chandylamport.TransfersName: true,
	chandylamport.MarkersName:   true,
}

// maxTwinSteps bounds the steps a lesson is compared on.
const maxTwinSteps = 20_000

// Every lesson of every port runs the same as code as in Go: a port is
// held to its twin by being added (the files below add runs off the
// lessons, under faults).
func TestEveryPortIsItsGoTwin(t *testing.T) {
	require.NotEmpty(t, ports.Algorithms())
	for _, id := range ports.Algorithms() {
		t.Run(id, func(t *testing.T) {
			for _, lesson := range lessonsOf(t, id) {
				t.Run(lesson.ID, func(t *testing.T) { sameRun(t, lesson) })
			}
		})
	}
}

func TestAsCodeRefusesAnAlgorithmWithoutPort(t *testing.T) {
	s, err := scenario.Builtin("raft-election")
	require.NoError(t, err)
	_, err = ports.AsCode(s, python.ID)
	assert.ErrorContains(t, err, "raft has no port to Python yet")
}
