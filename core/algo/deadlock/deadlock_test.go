package deadlock_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/deadlock"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// Three processes that ask each other in a cycle wait for ever; the
// snapshot records the cycle, and it is real: the process graph draws
// the same waits, now.
func TestASnapshotFindsTheRealCycle(t *testing.T) {
	_, r := scenariotest.Run(t, "deadlock-snapshot")
	require.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["deadlocks_announced"])
	assert.Equal(t, 3, m["waiting"])
	assert.Equal(t, 0, m["replies"], "a process that waits answers nobody")
	assert.Equal(t, 8, m["detection_messages"], "N(N−1) markers and N−1 reports")
	v := r.At(r.Len()).View()
	assert.Equal(t, "detection 1: deadlock 1 → 2 → 3 → 1", algotest.Field(t, v.Node(0), "last verdict"))
	assert.Equal(t, "1 → 2, 2 → 3, 3 → 1", algotest.Field(t, v.Node(0), "its graph"), "the graph recorded on the cut")
	assert.Equal(t, [][2]sim.NodeID{{0, 1}, {1, 2}, {2, 0}}, algotest.Links(algotest.Overlays(r.Config().Spec, v, deadlock.RoleWaitsFor)))
}

// Asked one by one, the processes give answers of different moments, and
// the naive detector announces a cycle that never was; the same run
// detected by a snapshot finds none, since a REPLY in flight at the cut
// ends its wait.
func TestPhantomAndSnapshot(t *testing.T) {
	s, r := scenariotest.Run(t, "deadlock-phantom")
	require.Equal(t, []string{deadlock.RealName + ": 3 announced the deadlock 1 → 2 → 1, but 1 does not wait for 2: the cycle was drawn from answers of different moments, and never was (a phantom deadlock)"}, algotest.Failed(r))
	assert.Equal(t, 13, r.Failures()[0].Step, "announced at step 14")

	snap, err := s.WithSwitch(deadlock.Spec.Learner.Switches[0], false)
	require.NoError(t, err)
	r2, err := scenariotest.Plan(t, snap).Run()
	require.NoError(t, err)
	require.Empty(t, algotest.Failed(r2))
	assert.Equal(t, 0, algotest.Metrics(r2)["deadlocks_announced"])
	assert.Contains(t, algotest.Captions(r2), "3 has 1's report: it waited for nobody at the cut; with every report in, the wait-for graph has no cycle: no deadlock")
}

// The wait-for graph's panel names the processes as the scenario does.
func TestPanelNamesProcesses(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "deadlock-detection", "names": ["ann", "bob"], "seed": 1, "network": {"delay": [2, 2]},
		"script": [{"at": 1, "node": "ann", "command": "request", "target": "bob"}, {"at": 1, "node": "bob", "command": "request", "target": "ann"}],
		"until": {"quiescent": true}}`)
	panels := r.Config().Spec.Figures.Panels(r.At(r.Len()).View())
	require.Len(t, panels, 1)
	assert.Equal(t, []string{"ann", "bob", "bob", "—"}, panels[0].Rows[0].Cells, "ann waits for bob and owes bob a REPLY")
}

// Two processes that start a detection at once number them apart (1 and
// 2, the numbers of their own), so that each has a cut of its own, and
// both find the cycle.
func TestDetectionsStartedAtOnceHaveACutEach(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "deadlock-detection", "n": 3, "seed": 1, "network": {"delay": [2, 2]},
		"script": [{"at": 1, "node": 1, "command": "request", "target": 2}, {"at": 1, "node": 2, "command": "request", "target": 3},
			{"at": 1, "node": 3, "command": "request", "target": 1},
			{"at": 8, "node": 1, "command": "detect"}, {"at": 8, "node": 2, "command": "detect"}],
		"until": {"quiescent": true}}`)
	require.Empty(t, algotest.Failed(r))
	v := r.At(r.Len()).View()
	assert.Equal(t, "detection 1: deadlock 1 → 2 → 3 → 1", algotest.Field(t, v.Node(0), "last verdict"))
	assert.Equal(t, "detection 2: deadlock 1 → 2 → 3 → 1", algotest.Field(t, v.Node(1), "last verdict"))
	for round := 1; round <= 2; round++ {
		steps := v.AnnotationSteps(deadlock.RoleRecorded, round)
		assert.NotContains(t, steps, -1, "every process records detection %d", round)
	}
	cuts := 0
	for i := range r.Len() {
		for _, a := range r.Trace().Records[i].Annotations() {
			if a.Role == deadlock.RoleRecorded {
				cuts++
			}
		}
	}
	assert.Equal(t, 6, cuts, "each process records each detection once")
}

// A detection whose marker the network loses never ends: the process
// that waits for it says so once nothing else is on its way.
func TestADetectionThatCannotEndIsNamed(t *testing.T) {
	s, err := scenario.Builtin("deadlock-snapshot")
	require.NoError(t, err)
	marker := 3 // 1's marker to 2: the REQUESTs are 0 to 2
	s.Script = append(s.Script, scenario.Entry{At: 9, Fault: "drop", Msg: &marker})
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	assert.Equal(t, []string{deadlock.VerdictName + ": nothing is on its way to a live process, but 2 still waits for the markers of detection 1 from 1"}, algotest.Failed(r))
}
