package chandylamport_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/chandylamport"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The rules checks hold on the bank's lesson, and name a branch that
// overdraws, and one that takes a marker without recording.
func TestTheRulesChecksNameABranchThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) string { return algotest.Check(t, chandylamport.Spec, v, name).Detail }
	_, r := scenariotest.Run(t, "snapshot-bank")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, chandylamport.Spec, v, k, chandylamport.TransfersName, chandylamport.MarkersName)
		b := v.Node(id).(*chandylamport.Branch)
		switch {
		case ev.Kind == sim.Workload && !broke["overdraws"]:
			kept := b.Balance
			b.Balance = -1
			assert.Contains(t, check(v, chandylamport.TransfersName), "holds $-1: a branch never overdraws")
			b.Balance = kept
			broke["overdraws"] = true
		case ev.Kind == sim.Deliver && ev.Msg.Kind == chandylamport.KindMarker && !broke["records"]:
			r := &b.Rounds[ev.Msg.Value-1]
			r.Recorded = false
			assert.Contains(t, check(v, chandylamport.MarkersName), "has not recorded it")
			r.Recorded = true
			broke["records"] = true
		}
	})
	assert.Len(t, broke, 2)
}
