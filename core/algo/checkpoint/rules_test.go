package checkpoint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/checkpoint"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

var rules = []string{checkpoint.WorkName, checkpoint.SavesName, checkpoint.PartsName, checkpoint.RestoresName, checkpoint.ManagerName}

// The rules checks hold on the crash lesson, and name a process that
// miscounts what it sent, saves a checkpoint that is not its state,
// restarts as if restored, or starts a line short of the latest.
func TestTheRulesChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) string { return algotest.Check(t, checkpoint.Spec, v, name).Detail }
	_, r := scenariotest.Run(t, "checkpoint-crash")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, checkpoint.Spec, v, k, rules...)
		p := v.Node(id).(*checkpoint.Proc)
		switch {
		case ev.Kind == sim.Workload && !p.Frozen && !broke["sends"]:
			for q := range p.Sent {
				p.Sent[q]++
			}
			assert.Contains(t, check(v, checkpoint.WorkName), "having now sent it")
			for q := range p.Sent {
				p.Sent[q]--
			}
			broke["sends"] = true
		case ev.Kind == sim.Timer && ev.Tag == "checkpoint" && !p.Frozen && !broke["saves"]:
			p.Work++
			assert.Contains(t, check(v, checkpoint.SavesName), "did not save its present state")
			p.Work--
			broke["saves"] = true
		case ev.Kind == sim.Recover:
			p.Restored = !p.Restored
			assert.Contains(t, check(v, checkpoint.RestoresName), "restarted stopped: true, restored: true")
			p.Restored = !p.Restored
			broke["restarts"] = true
		case id == checkpoint.Manager && ev.Kind == sim.Deliver && ev.Msg.Kind == checkpoint.KindInfo && checkpoint.Line(p) != nil && !broke["line"]:
			line := checkpoint.Line(p)
			line[1]--
			assert.Contains(t, check(v, checkpoint.ManagerName), "not at the latest checkpoints")
			line[1]++
			broke["line"] = true
		}
	})
	assert.Len(t, broke, 4)
}

// On the two-phase lesson, the rules checks name a process that answers
// ACK without holding its sends, and one that takes a CHECKPOINT while
// stopped.
func TestTheRulesChecksNameATwoPhaseProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) string { return algotest.Check(t, checkpoint.Spec, v, name).Detail }
	_, r := scenariotest.Run(t, "checkpoint-two-phase")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, checkpoint.Spec, v, k, rules...)
		p := v.Node(id).(*checkpoint.Proc)
		if ev.Kind != sim.Deliver || ev.Msg.Kind != checkpoint.KindCheckpointRequest || p.Frozen || broke["acks"] {
			return
		}
		p.Blocked = false
		assert.Contains(t, check(v, checkpoint.PartsName), "answered ACK")
		p.Blocked = true
		p.Frozen = true
		assert.Contains(t, check(v, checkpoint.PartsName), "acted on a CHECKPOINT")
		p.Frozen = false
		broke["acks"] = true
	})
	assert.Len(t, broke, 1)
}
