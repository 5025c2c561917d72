package coordlock_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/coordlock"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/raft"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The replicated lock outlives the crash of any minority of its replicas,
// its leader included, and their recovery: over many seeds with a random
// workload, 3 or 5 replicas, one or two of them crashed at random times
// (at most a minority at once) and sometimes recovered, the section is
// never held by two at once, nobody waits for good, and the lock keeps
// being taken after the crashes.
func TestReplicatedLockOutlivesAMinorityCrashed(t *testing.T) {
	seeds := algotest.Seeds(200)
	rng := rand.New(rand.NewPCG(3, 5))
	after := 0
	for seed := range seeds {
		replicas := []int{3, 5}[rng.IntN(2)]
		clients := 1 + rng.IntN(4)
		n := replicas + 1 + clients
		script := ""
		crashed := rng.Perm(replicas)[:replicas/2]
		for i, id := range crashed {
			at := 30 + rng.IntN(120)
			script += fmt.Sprintf(`{"at": %d, "fault": "crash", "node": %d},`, at, id+1)
			if i == 0 && rng.IntN(2) == 0 {
				script += fmt.Sprintf(`{"at": %d, "fault": "recover", "node": %d},`, at+10+rng.IntN(60), id+1)
			}
		}
		doc := fmt.Sprintf(`{"algorithm": "replicated-lock", "n": %d, "seed": %d, "network": {"delay": [1, 3]},
			"params": {"replicas": %d, "session": 60, "keepalive": 10},
			"workload": {"p": %.2f, "every": [1, 6], "until": 400}, "script": [%s], "until": {"time": 900}}`,
			n, seed, replicas, 0.2+0.5*rng.Float64(), script[:max(len(script)-1, 0)])
		r := algotest.Run(t, doc)
		require.Empty(t, algotest.Failed(r), "seed %d\n%s", seed, doc)
		m := algotest.Metrics(r)
		require.Equal(t, false, m["deadlock"], "seed %d\n%s", seed, doc)
		// the lock was still taken after the last crash
		last := 0
		for i, rec := range r.Trace().Records {
			if rec.Tag() == "crash" {
				last = i
			}
		}
		recs := r.Trace().Records
	taken:
		for i := last; i < len(recs); i++ {
			for _, a := range recs[i].Annotations() {
				if a.Role == mutex.RoleCS {
					after++
					break taken
				}
			}
		}
	}
	assert.Greater(t, after, seeds*3/4, "in most runs a client takes the lock after the crashes")
}

// A leader cut off with the client that holds the lock stops answering
// its KEEPALIVEs once it has not heard from a majority, so that the
// client gives the lock up by its own timer before the majority's new
// leader expires its session and hands the lock on: never two holders.
func TestReplicatedLockLeaderCutOffWithItsHolder(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "replicated-lock", "n": 7, "seed": 1, "network": {"delay": [1, 3]},
		"params": {"replicas": 3, "session": 60, "keepalive": 10, "cs_time": 200},
		"script": [
			{"at": 25, "node": "client1", "command": "request-cs"},
			{"at": 27, "node": "client2", "command": "request-cs"},
			{"at": 45, "fault": "partition", "groups": [[1, 5], [2, 3, 4, 6, 7]]}
		],
		"until": {"time": 300}}`)
	require.Empty(t, algotest.Failed(r))
	left, entered := -1, -1
	for i, rec := range r.Trace().Records {
		for _, a := range rec.Annotations() {
			if a.Role != mutex.RoleCS {
				continue
			}
			switch {
			case rec.Node == 4 && a.Phase == sim.End && left < 0:
				left = i
			case rec.Node == 5 && a.Phase == sim.Begin && entered < 0:
				entered = i
			}
		}
	}
	require.Positive(t, left, "client1 gives the lock up")
	require.Positive(t, entered, "client2 takes it")
	assert.Less(t, left, entered)
}

// Bad params of the replicated lock are refused with the field, what was
// wanted and what came.
func TestReplicatedParamsAreChecked(t *testing.T) {
	names := coordlock.ReplicatedSpec.Names(6)
	for _, c := range []struct{ params, want string }{
		{`{"replicas": 4}`, `field "params.replicas": want an odd number of replicas from 3 to 7, got 4`},
		{`{"replicas": 9}`, `got 9`},
		{`{"replicas": 5}`, `want 5 replicas, the storage and a client at least, 7 processes; the scenario has 6`},
		{`{"election": [20, 10]}`, `params.election`},
		{`{"heartbeat": 0}`, `params.heartbeat`},
		{`{"keepalive": 30, "session": 20}`, `params.keepalive`},
	} {
		_, err := coordlock.ReplicatedSpec.New(names, json.RawMessage(c.params))
		require.Error(t, err, c.params)
		assert.Contains(t, err.Error(), c.want, c.params)
	}
	_, err := coordlock.ReplicatedSpec.New(names, json.RawMessage(`{"replicas": 3}`))
	assert.NoError(t, err)
}

// The service's leader is held to logging each request it is given, and
// its replicas to Raft's receiver rules: the checks hold on the lesson,
// and name a leader whose log does not end with the request it took.
func TestTheReplicatedLocksLeaderLogsEachRequest(t *testing.T) {
	_, r := scenariotest.Run(t, "replicated-lock-leader-crash")
	broke := false
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, coordlock.ReplicatedSpec, v, k, raft.AppendsName, raft.RepliesName)
		if ev.Kind != sim.Deliver || ev.Msg.Kind != coordlock.KindCreate || broke {
			return
		}
		s := v.Node(id).(*coordlock.Process).Replicas()
		if s == nil || s.Role != raft.Leader {
			return
		}
		kept := s.Log.Clone()
		s.Log.TruncateTo(s.Log.Len() - 1)
		assert.Contains(t, algotest.Check(t, coordlock.ReplicatedSpec, v, raft.AppendsName).Detail, "was given a command, and its log of")
		s.Log = kept
		broke = true
	})
	assert.True(t, broke, "the lesson's leader took no CREATE")
}
