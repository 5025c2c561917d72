package deadlock_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/deadlock"
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
