package barrier_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/barrier"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The rules checks hold on the recovery lesson, and name a JM that
// misnumbers a checkpoint, a source that skips a record, and a task that
// restarts as if it had not failed.
func TestTheRulesChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) string { return algotest.Check(t, barrier.Spec, v, name).Detail }
	_, r := scenariotest.Run(t, "barrier-recovery")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, barrier.Spec, v, k, barrier.JMName, barrier.TasksName)
		switch n := v.Node(id).(type) {
		case *barrier.JobManager:
			if ev.Kind == sim.Timer && n.InProgress.N == n.Next-1 && !broke["jm"] {
				n.Next++
				assert.Contains(t, check(v, barrier.JMName), "the last it numbered is")
				n.Next--
				broke["jm"] = true
			}
		case *barrier.Source:
			if ev.Kind == sim.Timer && !n.Awaiting && n.Next > 1 && !broke["emit"] {
				n.Next++
				assert.Contains(t, check(v, barrier.TasksName), "and is at offset")
				n.Next--
				broke["emit"] = true
			}
		}
		if ev.Kind == sim.Recover && id != barrier.JM {
			task := v.Node(id)
			awaiting := func(b bool) {
				switch n := task.(type) {
				case *barrier.Source:
					n.Awaiting = b
				case *barrier.Operator:
					n.Awaiting = b
				case *barrier.Sink:
					n.Awaiting = b
				}
			}
			awaiting(false)
			assert.Contains(t, check(v, barrier.TasksName), "restarted without forgetting")
			awaiting(true)
			broke["restart"] = true
		}
	})
	assert.Len(t, broke, 3)
}
