package coordlock_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/coordlock"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The service's checks hold on the queue's lesson, and each names the
// service when its state breaks the recipe at a step: an entry made of a
// CREATE it never saw, a session kept alive for less than its time.
func TestTheServiceChecksNameABreak(t *testing.T) {
	spec := coordlock.Spec
	_, r := scenariotest.Run(t, "coordination-lock-queue")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, spec, v, k, coordlock.EntriesName, coordlock.AnswersName)
		if id != coordlock.Service || ev.Kind != sim.Deliver {
			return
		}
		s := &v.Node(id).(*coordlock.Process).Service
		switch {
		case ev.Msg.Kind == coordlock.KindCreate && len(s.Entries) > 0 && !broke["entry"]:
			e := &s.Entries[len(s.Entries)-1]
			e.Asked++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.EntriesName).Detail, "having seen its CREATEs up to")
			e.Asked--
			broke["entry"] = true
		case ev.Msg.Kind == coordlock.KindDelete && len(s.Sessions) > 0 && !broke["session"]:
			for i := range s.Sessions {
				if s.Sessions[i].Client == ev.From {
					s.Sessions[i].Expiry--
					assert.Contains(t, algotest.Check(t, spec, v, coordlock.AnswersName).Detail, "keeps it until")
					s.Sessions[i].Expiry++
					broke["session"] = true
				}
			}
		}
	})
	assert.Len(t, broke, 2)
}

// A service that crashes and recovers keeps its entries on disk, and the
// lowest still holds the lock: the diagram draws it so again (the crash
// ended the interval).
func TestARecoveredServiceDrawsItsHolder(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "coordination-lock", "n": 5, "seed": 1, "params": {"session": 30, "cs_time": 12},
		"script": [{"at": 1, "node": 3, "command": "request-cs"}, {"at": 2, "node": 4, "command": "request-cs"},
			{"at": 6, "node": 1, "fault": "crash"}, {"at": 8, "node": 1, "fault": "recover"}],
		"until": {"quiescent": true}}`)
	redrawn := false
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, coordlock.Spec, v, k, coordlock.EntriesName)
		if id == coordlock.Service && ev.Kind == sim.Recover {
			s := v.Node(id).(*coordlock.Process).Service
			if assert.NotEmpty(t, s.Entries, "the service recovers with its entries") {
				redrawn = v.Drawn(id, coordlock.RoleHolder, int(s.Entries[0].Client))
			}
		}
	})
	assert.True(t, redrawn, "the holder is drawn again at the recovery")
}

// The clients' check holds on the queue's lesson and names a client that
// breaks the recipe: a session reckoned past its timer, a DELETE of
// another entry than the one it held.
func TestTheClientsCheckNamesABreak(t *testing.T) {
	spec := coordlock.Spec
	_, r := scenariotest.Run(t, "coordination-lock-queue")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, spec, v, k, coordlock.ClientName)
		c := &v.Node(id).(*coordlock.Process).Client
		switch {
		case ev.Kind == sim.Deliver && ev.Msg.Kind == coordlock.KindCreated && c.Session != 0 && !broke["session"]:
			c.ValidUntil++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ClientName).Detail, "and its timer is due at")
			c.ValidUntil--
			broke["session"] = true
		case ev.Kind == sim.Timer && ev.Tag == mutex.TimerRelease && !broke["delete"]:
			c.Write.Token++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ClientName).Detail, "sent a DELETE of entry")
			c.Write.Token--
			broke["delete"] = true
		}
	})
	assert.Len(t, broke, 2)
}

// The replicas' check holds on the replicated lock's lesson (its leader
// crashes with the lock held), and names a replica whose state is not
// what the recipe makes of what it applied, or whose answer is not the
// one owed.
func TestTheReplicasCheckNamesABreak(t *testing.T) {
	spec := coordlock.ReplicatedSpec
	_, r := scenariotest.Run(t, "replicated-lock-leader-crash")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, spec, v, k, coordlock.ReplicasName)
		p := v.Node(id).(*coordlock.Process)
		if p.Replicas() == nil || ev.Kind != sim.Deliver {
			return
		}
		s := &p.Service
		switch {
		case len(s.Entries) > 0 && !broke["entry"]:
			s.Entries[0].Asked++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ReplicasName).Detail, "the recipe makes")
			s.Entries[0].Asked--
			broke["entry"] = true
		case ev.Msg.Kind == coordlock.KindKeepalive && !broke["keepalive"]:
			// the leader's KEPT (or EXPIRED) is owed; a follower's
			// NOT-LEADER is
			s.Revision++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ReplicasName).Detail, "the recipe makes")
			s.Revision--
			broke["keepalive"] = true
		}
	})
	assert.Len(t, broke, 2)
}

// A waiting client that hears its entry is the lowest holds the lock and
// watches nothing, even when the news of the entry it watched comes
// after (the network reorders the DELETED behind a CHECKED): it was
// drawn holding the lock while still watching that entry.
func TestAClientThatTakesTheLockWatchesNothing(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "replicated-lock", "n": 6, "seed": 4186685881674609476, "scheduler": "earliest", "rng": "pcg",
		"network": {"fifo": true, "delay": [0, 1]}, "params": {"herd": true},
		"workload": {"p": 0.25920415907087063, "every": [1, 5], "until": 55},
		"script": [{"at":1,"fault":"fifo","on":false},{"at":13,"node":"lock1","command":"timeout"},{"at":30,"node":"client1","command":"request-cs"},
			{"at":57,"node":"lock3","command":"timeout"},{"at":90,"node":"client2","command":"request-cs"},{"at":109,"node":"lock2","fault":"pause","for":400},
			{"at":150,"node":"client2","fault":"crash"},{"at":168,"node":"client2","fault":"recover"},{"at":186,"node":"lock1","target":"client1","fault":"cut","oneway":true},
			{"at":188,"node":"lock1","target":"lock3","fault":"cut"},{"at":215,"node":"lock3","command":"timeout"},{"at":235,"node":"client2","fault":"skew","by":-9}],
		"until": {"steps": 552}}`)
	for _, f := range algotest.Failed(r) {
		assert.NotContains(t, f, coordlock.ClientName)
	}
}

// The clients of a replicated lock are held to what they were before
// their step: on its lesson, a client that takes an answer and watches
// another entry than the one named, or changes at an answer to nothing
// it waits on, is named.
func TestTheReplicatedClientsCheckNamesABreak(t *testing.T) {
	spec := coordlock.ReplicatedSpec
	_, r := scenariotest.Run(t, "replicated-lock-leader-crash")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, spec, v, k, coordlock.ClientName)
		p := v.Node(id).(*coordlock.Process)
		if p.Replicas() != nil || ev.Kind != sim.Deliver {
			return
		}
		c := &p.Client
		switch {
		case ev.Msg.Kind == coordlock.KindCreated && p.State == mutex.Wanting && c.Watching != 0 && !broke["watch"]:
			c.Watching++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ClientName).Detail, "is to watch entry")
			c.Watching--
			broke["watch"] = true
		case ev.Msg.Kind == coordlock.KindNotLeader && ev.Msg.Value != 0 && !broke["resent"]:
			c.Server = (c.Server + 1) % 3
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ClientName).Detail, "asks lock")
			c.Server = (c.Server + 2) % 3
			broke["resent"] = true
		case ev.Msg.Kind == coordlock.KindKept && !broke["kept"]:
			c.Asked++
			assert.Contains(t, algotest.Check(t, spec, v, coordlock.ClientName).Detail, "numbered its CREATEs")
			c.Asked--
			broke["kept"] = true
		}
	})
	assert.Equal(t, map[string]bool{"watch": true, "resent": true, "kept": true}, broke)
}
