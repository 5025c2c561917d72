package lease_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/lease"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The GRANT check holds on the renewal lesson, and names a client that
// believes its lease longer than its GRANT gives, and a service that
// grants with less than the whole lease.
func TestTheGrantCheckNamesAProcessThatBreaksIt(t *testing.T) {
	check := func(v sim.View) string { return algotest.Check(t, lease.Spec, v, lease.GrantsName).Detail }
	_, r := scenariotest.Run(t, "lease-renew")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, lease.Spec, v, k, lease.GrantsName)
		p := v.Node(id).(*lease.Process)
		switch {
		case ev.Kind == sim.Deliver && ev.Msg.Kind == lease.KindGrant && !broke["client"]:
			p.Client.Ends++
			assert.Contains(t, check(v), "believes it holds token")
			p.Client.Ends--
			broke["client"] = true
		case id == lease.Service && ev.Kind == sim.Deliver && ev.Msg.Kind == lease.KindRenew && p.Service.Holder == ev.From && !broke["service"]:
			p.Service.Expiry--
			assert.Contains(t, check(v), "of the lease left")
			p.Service.Expiry++
			broke["service"] = true
		}
	})
	assert.Len(t, broke, 2)
}
