package bully

import (
	"spacetime/core/algo/election"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// StartsName names the starts invariant.
const StartsName = "a process that notices the leader is gone, recovers or comes up late holds an election"

// starts is how a bully process learns who leads: one told the leader is
// gone (unless it already runs an election), one that recovers, and one
// down from the start that comes up late each start an election, which
// the highest id wins at once.
var starts = sim.Invariant{
	Name: StartsName,
	Help: "a process told the leader is gone (and not already electing), recovering, or coming up late sends ELECTION to every higher id, or, as the highest, leads and sends COORDINATOR to everyone",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		var what string
		switch {
		case ev.Kind == sim.Command && ev.Tag == election.CmdStart && !election.BullyStarted(v, id) && !v.Node(id).(*Process).Electing:
			what = "was told the leader is gone"
		case ev.Kind == sim.Recover && !election.BullyStarted(v, id):
			what = "recovered"
		case ev.Kind == sim.Init && v.Now() > 0 && !election.BullyStarted(v, id):
			what = "came up late"
		default:
			return ""
		}
		return what + ", and did not hold an election"
	}),
}
