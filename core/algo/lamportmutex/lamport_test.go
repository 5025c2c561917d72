package lamportmutex_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/lamportmutex"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// 3(N−1) messages per entry on FIFO channels, requests far apart.
func TestThreeMessagesPerOtherProcess(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{}
			for p := 1; p <= n; p++ {
				at[p] = 40 * p
			}
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "script": %s, "until": {"quiescent": true}}`, lamportmutex.ID, n, algotest.Requests(at)))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			assert.Equal(t, n, m["cs_entries"])
			assert.Equal(t, float64(3*(n-1)), m["messages_per_entry"])
			assert.Equal(t, 1, m["max_in_cs"])
		})
	}
}

// Seed 002's argument: without FIFO a REPLY overtakes its sender's earlier
// REQUEST and both processes enter; the safety invariant fails there and
// points at the overtaking pair. The same schedule on FIFO channels is
// safe.
func TestAReplyOvertakesARequest(t *testing.T) {
	s, r := scenariotest.Run(t, "lamport-mutex-nonfifo")
	var safety []int
	for _, f := range r.Failures() {
		if f.Name == mutex.SafetyName {
			require.GreaterOrEqual(t, f.Step, 0)
			assert.Equal(t, "1 and 2 are in the critical section at once", f.Detail)
			safety = f.Msgs
		}
	}
	require.Len(t, safety, 2, "the overtaken REQUEST and the REPLY that overtook it")
	req, rep := r.Trace().Msgs[safety[0]], r.Trace().Msgs[safety[1]]
	assert.Equal(t, lamportmutex.KindRequest, req.Kind)
	assert.Equal(t, lamportmutex.KindReply, rep.Kind)
	assert.Equal(t, req.From, rep.From, "one channel")
	assert.Equal(t, req.To, rep.To)
	assert.Less(t, req.SendStep, rep.SendStep, "the REQUEST was sent first")
	assert.Greater(t, req.RecvStep, rep.RecvStep, "and arrived after")
	assert.True(t, s.Expected(mutex.SafetyName))
	assert.Equal(t, 2, algotest.Metrics(r)["max_in_cs"], "the run's most at once, though both have left by its end")
	assert.Equal(t, 0, algotest.Metrics(r)["in_cs"])

	fifo, err := scenariotest.Plan(t, s.WithFIFO(true)).Run()
	require.NoError(t, err)
	assert.Empty(t, algotest.Failed(fifo), "on FIFO channels the REPLY waits behind the REQUEST")
	assert.Equal(t, []string{"1", "2"}, algotest.Entered(fifo), "and the earlier request enters first")
}

// On FIFO channels, random requests from every process over many seeds
// stay safe, and everyone who asks gets in.
func TestSafeOnFIFO(t *testing.T) {
	for seed := 1; seed <= 60; seed++ {
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "lamport-mutex", "n": %d, "seed": %d, "scheduler": "random", "network": {"delay": [0, 8]}, "workload": {"p": 0.4, "until": 300}, "until": {"quiescent": true}}`, 2+seed%5, seed))
		assert.Empty(t, algotest.Failed(r), "seed %d", seed)
		assert.Equal(t, 0, algotest.Metrics(r)["in_cs"], "seed %d", seed)
	}
}

// The queue's check holds on the lesson, and names a process that
// breaks its rule.
func TestTheQueueCheckNamesAProcessThatBreaksIt(t *testing.T) {
	check := func(v sim.View) sim.Verdict { return algotest.Check(t, lamportmutex.Spec, v, lamportmutex.QueueName) }
	_, r := scenariotest.Run(t, "lamport-mutex-queue")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, lamportmutex.Spec, v, k, lamportmutex.QueueName)
		p := v.Node(id).(*lamportmutex.Process)
		other := (id + 1) % sim.NodeID(v.N())
		switch {
		case p.State == mutex.InCS && ev.Kind == sim.Deliver && !broke["enter"]:
			heard := p.Heard[other]
			p.Heard[other] = p.Mine.Clock
			assert.Contains(t, check(v).Detail, "entered with its request")
			p.Heard[other] = heard
			broke["enter"] = true
		case ev.Kind == sim.Deliver && ev.Msg.Kind == lamportmutex.KindRelease && !broke["release"]:
			released := p.Released[ev.From]
			p.Released[ev.From] = 0
			assert.Contains(t, check(v).Detail, "and remembers a release only at 0")
			p.Released[ev.From] = released
			broke["release"] = true
		case len(p.Queue) > 0 && p.Queue[0].From != id && !broke["queued"]:
			from := p.Queue[0].From
			released := p.Released[from]
			p.Released[from] = p.Queue[0].Clock
			assert.Contains(t, check(v).Detail, "which was released at")
			p.Released[from] = released
			broke["queued"] = true
		}
	})
	assert.Len(t, broke, 3)
}
