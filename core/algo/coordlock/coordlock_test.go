package coordlock_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/fencing"
	"spacetime/core/algo/mutex"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// k clients all asking at once, with sessions that outlast the wait so
// that no keepalive is sent: 3 messages per entry for the free lock and 3
// per wake-up, one wake-up per handover; with the herd, every release
// wakes every client still waiting, k(k−1)/2 wake-ups in all.
func TestMessageCounts(t *testing.T) {
	for n := 3; n <= 8; n++ {
		k := n - 2
		at := map[int]int{}
		for c := 3; c <= n; c++ {
			at[c] = 1
		}
		for _, herd := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d herd=%v", n, herd), func(t *testing.T) {
				r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "coordination-lock", "n": %d, "params": {"session": 200, "keepalive": 190, "herd": %v},
					"script": %s, "until": {"quiescent": true}}`, n, herd, algotest.Requests(at)))
				assert.Empty(t, algotest.Failed(r))
				m := algotest.Metrics(r)
				wakeups := k - 1
				if herd {
					wakeups = k * (k - 1) / 2
				}
				assert.Equal(t, k, m["cs_entries"])
				assert.Equal(t, wakeups, m["wakeups"])
				assert.InDelta(t, float64(3*k+3*wakeups)/float64(k), m["messages_per_entry"], 0.01)
				assert.Equal(t, 1, m["max_in_cs"])
				assert.Equal(t, k, m["accepted_writes"], "every holder writes once")
			})
		}
	}
}

// The queue lesson: entries in the order asked, each release wakes only
// the next client; the herd lesson wakes them all.
func TestQueueAndHerdLessons(t *testing.T) {
	for id, wakeups := range map[string]int{"coordination-lock-queue": 3, "coordination-lock-herd": 6} {
		_, r := scenariotest.Run(t, id)
		assert.Empty(t, algotest.Failed(r), id)
		assert.Equal(t, []string{"client1", "client2", "client3", "client4"}, algotest.Entered(r), id)
		m := algotest.Metrics(r)
		assert.Equal(t, wakeups, m["wakeups"], id)
		assert.Equal(t, "paid by client 4", m["final_value"], id)
	}
	_, r := scenariotest.Run(t, "coordination-lock-queue")
	assert.Contains(t, algotest.Captions(r), "client3 watches entry 2 (client2), the one just below, and no other")
}

// Seed 000's pause, on the coordination lock: the paused holder's session
// runs out, the lock passes on with a larger revision, and the storage
// rejects the holder's late write.
func TestPauseLesson(t *testing.T) {
	s, r := scenariotest.Run(t, "coordination-lock-pause")
	m := algotest.Metrics(r)
	assert.Equal(t, "paid by client 2", m["final_value"])
	assert.Equal(t, 1, m["rejected_writes"])
	assert.Equal(t, 2, m["max_in_cs"], "two clients believed they held the lock")
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "lock: client1's session 1 expires, no request for 20 ticks; its entry 1 is deleted; it tells client2, watching it")
	assert.Contains(t, captions, "storage: write by client1 REJECTED (token 1 < 2)")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.True(t, strings.HasPrefix(failed[0], mutex.SafetyName+": client1 and client2"), failed[0])
	assert.True(t, s.Expected(mutex.SafetyName))

	// without fencing the same schedule ends with the stale write
	s.Params = json.RawMessage(`{"work": 2, "fencing": false}`)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	m = algotest.Metrics(r)
	assert.Equal(t, "stale write by client 1", m["final_value"])
	assert.Contains(t, algotest.Failed(r), "the storage accepts no write whose lock had passed on: the storage accepted a write with token 1, but no entry holds the lock now")
}

// A crashed holder's session runs out and the lock passes on, a session's
// length after the service last heard from it.
func TestCrashLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "coordination-lock-crash")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, []string{"client1", "client2", "client3"}, algotest.Entered(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 0, m["in_cs"], "the crashed client is not in the section")
	assert.Equal(t, 3, m["sessions_expired"])
	for _, rec := range r.Trace().Records {
		for _, a := range rec.Annotations() {
			if a.Role == mutex.RoleCS && a.Phase == sim.Begin && r.Config().Names[rec.Node] == "client2" {
				assert.GreaterOrEqual(t, rec.Time, sim.Time(2+20), "not before client1's session, last renewed at tick 2, runs out")
			}
		}
	}
}

// The comparisons with the central coordinator: a crash blocks the
// coordinator's clients for good and not the service's; a pause makes the
// coordinator's clients wait, and the service's lock pass on to a second
// holder whose token fences the first.
func TestComparisonsWithCentral(t *testing.T) {
	byAlgo := func(id string) map[string]map[string]any {
		c, ok := scenario.LookupComparison(id)
		require.True(t, ok, id)
		members, err := c.Members()
		require.NoError(t, err)
		out := map[string]map[string]any{}
		for _, s := range members {
			r, err := scenariotest.Plan(t, s).Run()
			require.NoError(t, err)
			for _, f := range r.Failures() {
				if f.Step >= 0 {
					assert.True(t, s.Expected(f.Name), "%s: %s is declared", s.ID, f.Name)
				}
			}
			out[s.Algorithm] = algotest.Metrics(r)
		}
		return out
	}
	crash := byAlgo("lock-client-crash")
	assert.Equal(t, true, crash["central"]["deadlock"])
	assert.Equal(t, 1, crash["central"]["cs_entries"])
	assert.Equal(t, false, crash["coordination-lock"]["deadlock"])
	assert.Equal(t, 3, crash["coordination-lock"]["cs_entries"])

	pause := byAlgo("lock-client-pause")
	assert.Equal(t, 1, pause["central"]["max_in_cs"], "the coordinator never takes a grant back")
	assert.GreaterOrEqual(t, pause["central"]["waiting_time"].(map[string]float64)["max"], 25.0, "so process 4 waits out the pause")
	assert.Equal(t, 2, pause["coordination-lock"]["max_in_cs"])
	assert.Equal(t, 1, pause["coordination-lock"]["rejected_writes"], "the comparison's own params give the write 2 ticks")

	load := byAlgo("lock-steady-load")
	assert.Less(t, load["central"]["messages_per_entry"], 3.0)
	assert.Greater(t, load["coordination-lock"]["messages_per_entry"], 3.0, "keepalives and wake-ups")
}

// Whatever pauses do to the clients' beliefs, a fenced storage accepts
// only growing tokens, and every request is served by the end.
func TestFencedTokensGrowUnderPauses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rejected := 0
	for seed := range 150 {
		n := 4 + rng.IntN(4)
		var script []string
		for range 1 + rng.IntN(3) {
			script = append(script, fmt.Sprintf(`{"at": %d, "fault": "pause", "node": %d, "for": %d}`, 1+rng.IntN(100), 3+rng.IntN(n-2), 5+rng.IntN(40)))
		}
		doc := fmt.Sprintf(`{"algorithm": "coordination-lock", "n": %d, "seed": %d, "network": {"delay": [1, 3]}, "params": {"work": %d},
			"workload": {"p": 1, "every": [1, 8], "until": 150}, "script": [%s], "until": {"time": 700}}`, n, seed, 1+rng.IntN(4), strings.Join(script, ", "))
		r := algotest.Run(t, doc)
		var last int
		for _, rec := range r.Trace().Records {
			for _, a := range rec.Annotations() {
				switch a.Role {
				case fencing.RoleAccepted:
					require.Greater(t, a.Group, last, "seed %d: accepted tokens grow\n%s", seed, doc)
					last = a.Group
				case fencing.RoleRejected:
					rejected++
				}
			}
		}
		v := r.At(r.Len()).View()
		assert.Empty(t, mutex.Waiting(v), "seed %d: every request served\n%s", seed, doc)
	}
	assert.Positive(t, rejected, "some pauses outlast a session")
}

// Bad parameters are refused, naming the field; only clients take
// request-cs.
func TestParamsAndCommands(t *testing.T) {
	for params, want := range map[string]string{
		`{"session": 0}`:                 `field "params.session": want ticks from 1 to 1000000, got 0`,
		`{"keepalive": 20}`:              `field "params.keepalive": want fewer ticks than params.session (20), so that a session can be kept alive, got 20`,
		`{"work": 5}`:                    `field "params.work": want fewer ticks than params.cs_time (5), so that the write goes out while the lock is held, got 5`,
		`{"cs_time": 0}`:                 `field "params.cs_time"`,
		`{"herd": "yes"}`:                `params.herd`,
		`{"session": 5, "keepalive": 2}`: ``,
	} {
		s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": "coordination-lock", "n": 4, "params": %s, "until": {"time": 9}}`, params)))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		if want == "" {
			assert.NoError(t, err, params)
			continue
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
	r := algotest.Run(t, `{"algorithm": "coordination-lock", "n": 4, "script": [{"at": 1, "node": 2, "command": "request-cs"}], "until": {"time": 9}}`)
	assert.Contains(t, algotest.Captions(r), `storage does not take the command "request-cs": only the clients take it`)
}
