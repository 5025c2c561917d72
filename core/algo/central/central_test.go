package central_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/central"
	"spacetime/core/algo/mutex"
	"spacetime/core/campaign"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// Three messages per entry for every N, requests far apart; the
// coordinator's own entry costs none.
func TestThreeMessagesPerEntry(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{}
			for p := 2; p <= n; p++ {
				at[p] = 20 * p
			}
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "central", "n": %d, "script": %s, "until": {"quiescent": true}}`, n, algotest.Requests(at)))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			assert.Equal(t, n-1, m["cs_entries"])
			assert.Equal(t, 3.0, m["messages_per_entry"])
			assert.Equal(t, map[string]float64{"mean": 2, "max": 2}, m["waiting_time"], "a REQUEST and a GRANT of one tick each")
			assert.Equal(t, false, m["deadlock"])
			assert.Equal(t, 0, m["in_cs"])
		})
	}
	r := algotest.Run(t, `{"algorithm": "central", "n": 3, "script": [{"at": 1, "node": 1, "command": "request-cs"}], "until": {"quiescent": true}}`)
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["cs_entries"])
	assert.Equal(t, 0.0, m["messages_per_entry"], "the coordinator enters without messages")
}

// The coordinator grants in the order the requests arrive, one at a time.
func TestQueueLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "central-queue")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, []string{"2", "3", "4"}, algotest.Entered(r))
	assert.Equal(t, 3.0, algotest.Metrics(r)["messages_per_entry"])
}

// A crashed coordinator blocks everyone after it, and the deadlock
// invariant names it.
func TestCoordinatorCrashBlocks(t *testing.T) {
	s, r := scenariotest.Run(t, "central-crash")
	got := algotest.Failed(r)
	require.Len(t, got, 1)
	assert.Equal(t, mutex.DeadlockName+": 3 waits for the coordinator 1, which has crashed: nobody can grant the section", got[0])
	assert.True(t, s.Expected(mutex.DeadlockName))
	assert.Equal(t, true, algotest.Metrics(r)["deadlock"])
	assert.Equal(t, 1, algotest.Metrics(r)["cs_entries"])
}

// Copies and reordering of messages neither let two processes in nor
// leave one waiting: requests, grants and releases carry the request's
// number.
func TestCopiesAndReordering(t *testing.T) {
	const base = `{"algorithm": "central", "n": 3, "scheduler": "random", "network": {"fifo": false, "delay": [0, 6]}, "workload": {"p": 0.6}, "until": {"steps": 400}, "seed": %d, "script": [%s]}`
	for seed := 1; seed <= 60; seed++ {
		var dups []string
		for m := 0; m < 40; m += 3 {
			dups = append(dups, fmt.Sprintf(`{"at": %d, "fault": "duplicate", "msg": %d}`, 2+m, m))
		}
		r := algotest.Run(t, fmt.Sprintf(base, seed, strings.Join(dups, ", ")))
		assert.Empty(t, algotest.Failed(r), "seed %d", seed)
		assert.Positive(t, algotest.Metrics(r)["cs_entries"], "seed %d", seed)
	}
}

func TestParams(t *testing.T) {
	tests := []struct{ params, want string }{
		{`{"coordinator": 4}`, `field "params.coordinator": want a process number from 1 to 3, got 4`},
		{`{"coordinator": 0}`, `field "params.coordinator"`},
		{`{"cs_time": 0}`, `field "params.cs_time": want ticks from 1 to 1000000, got 0`},
		{`{"leader": 1}`, `field "params.leader": unknown field`},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(`{"algorithm": "` + central.ID + `", "n": 3, "until": {"steps": 5}, "params": ` + tc.params + `}`))
		require.Error(t, err, tc.params)
		assert.Contains(t, err.Error(), tc.want)
	}
	r := algotest.Run(t, `{"algorithm": "central", "n": 3, "params": {"coordinator": 3, "cs_time": 9}, "script": [{"at": 1, "node": 1, "command": "request-cs"}], "until": {"quiescent": true}}`)
	assert.Contains(t, r.Trace().Records[0].Caption, "starts idle; it asks the coordinator 3")
	var entered, left int
	for _, rec := range r.Trace().Records {
		if strings.Contains(rec.Caption, "enters the critical section") {
			entered = int(rec.Time)
		}
		if strings.Contains(rec.Caption, "leaves the critical section") {
			left = int(rec.Time)
		}
	}
	assert.Equal(t, 9, left-entered, "held for cs_time ticks")
}

// With re-election, a crashed coordinator is replaced: over many seeds,
// with the coordinator crashing (and now and then recovering) at random
// times among random requests, at most one process is ever in the
// critical section and nobody waits for ever. (A holder that crashes
// still blocks everyone: nobody watches the holder.)
func TestReelectionSurvivesCrashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	elected := 0
	for seed := range 300 {
		n := 3 + rng.IntN(3)
		var script []string
		for range 2 + rng.IntN(4) {
			script = append(script, fmt.Sprintf(`{"at": %d, "node": %d, "command": "request-cs"}`, 1+rng.IntN(40), 1+rng.IntN(n)))
		}
		crash := 2 + rng.IntN(30)
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "crash", "node": 1}`, crash))
		if rng.IntN(2) == 0 {
			script = append(script, fmt.Sprintf(`{"at": %d, "fault": "recover", "node": 1}`, crash+5+rng.IntN(40)))
		}
		doc := fmt.Sprintf(`{"algorithm": "central", "n": %d, "seed": %d, "params": {"reelect": true}, "network": {"delay": [1, 2]},
			"script": [%s], "until": {"time": 400}}`, n, seed, strings.Join(script, ", "))
		r := algotest.Run(t, doc)
		require.Empty(t, algotest.Failed(r), doc)
		if strings.Contains(algotest.Captions(r), "is the coordinator now") {
			elected++
		}
	}
	assert.Greater(t, elected, 150, "most runs elect a new coordinator")
}

// A process that recovers under re-election knows no coordinator yet; an
// old GRANT that reaches it then goes back to its sender, the coordinator
// that counts it (a variation of central-reelect, found by varying the
// lessons in a campaign, sent it to nobody and panicked).
func TestAnOldGrantGoesBackToItsSender(t *testing.T) {
	lesson, err := scenario.Builtin("central-reelect")
	require.NoError(t, err)
	res := campaign.Run(central.Spec, 2625296509334572618, campaign.Options{Lesson: lesson})
	require.Empty(t, res.Panic)
	require.Empty(t, res.Error)
	assert.Empty(t, res.Unexpected())
	assert.Positive(t, res.Faults)
}

// A coordinator that crashes, recovers and wins the election again has
// forgotten every request: the processes that follow it hear its
// COORDINATOR and send their requests again, the holder saying it holds
// the section, and the waiting process gets in. (They once took a
// COORDINATOR from the coordinator they already followed as nothing new,
// and 1 waited for ever, PINGing a coordinator that answered.)
func TestACoordinatorThatWinsAgainHearsTheRequestsAgain(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "central", "n": 3, "params": {"reelect": true, "coordinator": 3, "cs_time": 8}, "network": {"delay": [1, 1]},
		"script": [{"at": 1, "node": 2, "command": "request-cs"}, {"at": 2, "node": 1, "command": "request-cs"},
			{"at": 5, "fault": "crash", "node": 3}, {"at": 6, "fault": "recover", "node": 3}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, []string{"2", "1"}, algotest.Entered(r))
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "3 wins and sends COORDINATOR to all")
	assert.Contains(t, captions, "it tells 3 that it holds the section")
	assert.Contains(t, captions, "it sends its request #1 again, to 3")
}

// A REQUEST lost on its way leaves its process waiting with nobody that
// knows: the coordinator's bookkeeping check says so at once, long before
// nothing moves, and a lost message is a known limit of it.
func TestALostRequestIsNamed(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "central", "n": 3, "params": {"cs_time": 20}, "network": {"delay": [3, 3]},
		"script": [{"at": 1, "node": 3, "command": "request-cs"}, {"at": 2, "node": 2, "command": "request-cs"}, {"at": 3, "fault": "drop", "msg": 1}],
		"until": {"time": 12}}`)
	assert.Equal(t, []string{central.KnownName + ": 2 waits for the section with request #1, but the coordinator 1 neither granted it, nor queued it, nor has it on its way"}, algotest.Failed(r),
		"3 is in the section: nothing is stuck yet")
	_, excused := central.Spec.Excuses(central.KnownName, map[string]bool{"drop": true}, nil)
	assert.True(t, excused)
}

// A coordinator that follows a higher one stops gathering requests: it
// once kept its timer, and when it fired granted the section to itself
// behind the new coordinator's back (a campaign's run, with a PING lost).
func TestAFormerCoordinatorStopsGathering(t *testing.T) {
	res := campaign.Run(central.Spec, 6471821817656666788, campaign.Options{})
	require.Empty(t, res.Panic)
	require.Empty(t, res.Error)
	assert.Empty(t, res.Unexpected())
	assert.Contains(t, string(res.Scenario.JSON()), `"reelect": true`)
}

// A GRANT from a coordinator the process no longer follows is handed
// back: the one it follows does not know of it and may grant the section
// to another. (It once let 2 in behind the new coordinator's back.)
func TestAGrantFromAFormerCoordinatorGoesBack(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "central", "n": 3, "params": {"reelect": true}, "network": {"delay": [2, 2]},
		"script": [{"at": 1, "node": 2, "command": "request-cs"},
			{"at": 4, "fault": "pause", "node": 1, "for": 60}, {"at": 4, "fault": "delay", "msg": 1, "for": 20}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Contains(t, algotest.Captions(r), "2 gets a GRANT from 1, which is no longer its coordinator (it follows 3): it hands it back with RELEASE")
	assert.Equal(t, []string{"2"}, algotest.Entered(r))
}

// The rules' check holds on the re-election lesson, and names a process
// that breaks a rule at the step it breaks it.
func TestTheRulesCheckNamesAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View) sim.Verdict { return algotest.Check(t, central.Spec, v, central.RulesName) }
	_, r := scenariotest.Run(t, "central-reelect")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, central.Spec, v, k, central.RulesName)
		p := v.Node(id).(*central.Process)
		switch {
		case ev.Kind == sim.Deliver && ev.Msg.Kind == central.KindPing && !broke["ping"]:
			coordinator := p.Coordinator
			p.Coordinator = sim.None
			assert.Contains(t, check(v).Detail, "PING, coordinating: false, and answered PONG: true")
			p.Coordinator = coordinator
			broke["ping"] = true
		case ev.Kind == sim.Deliver && ev.Msg.Kind == central.KindGrant && p.State == mutex.InCS && !broke["grant"]:
			p.Asked++
			assert.Contains(t, check(v).Detail, "entered the section by")
			p.Asked--
			broke["grant"] = true
		case p.Coordinator == id && p.Collecting && len(v.LastAnnotations()) > 0 && !broke["takeover"]:
			p.Seen[0]++
			assert.Contains(t, check(v).Detail, "became coordinator, and knows a holder, a queue or requests from before")
			p.Seen[0]--
			broke["takeover"] = true
		}
	})
	assert.Len(t, broke, 3)
}
