package central_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/central"
	"spacetime/core/algo/mutex"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/scenario/scenariotest"
)

// run parses and runs a scenario that must be valid.
func run(t *testing.T, doc string) *engine.Run {
	t.Helper()
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)
	r, err := s.Run()
	require.NoError(t, err)
	return r
}

// metrics are the run's figures at its end, by name.
func metrics(r *engine.Run) map[string]any {
	out := map[string]any{}
	for _, m := range r.Config().Spec.Metrics(r.At(r.Len()).View()) {
		out[m.Name] = m.Value
	}
	return out
}

// failed lists the invariants that failed, with their details.
func failed(r *engine.Run) []string {
	var out []string
	for _, f := range r.Failures() {
		if f.Step >= 0 {
			out = append(out, f.Name+": "+f.Detail)
		}
	}
	return out
}

// requests are script entries: each listed process asks at its tick.
func requests(at map[int]int) string {
	var parts []string
	for node := 1; node <= 64; node++ {
		if t, ok := at[node]; ok {
			parts = append(parts, fmt.Sprintf(`{"at": %d, "node": %d, "command": "request-cs"}`, t, node))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Three messages per entry for every N, requests far apart; the
// coordinator's own entry costs none.
func TestThreeMessagesPerEntry(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{}
			for p := 2; p <= n; p++ {
				at[p] = 20 * p
			}
			r := run(t, fmt.Sprintf(`{"algorithm": "central", "n": %d, "script": %s, "until": {"quiescent": true}}`, n, requests(at)))
			assert.Empty(t, failed(r))
			m := metrics(r)
			assert.Equal(t, n-1, m["cs_entries"])
			assert.Equal(t, 3.0, m["messages_per_entry"])
			assert.Equal(t, map[string]float64{"mean": 2, "max": 2}, m["waiting_time"], "a REQUEST and a GRANT of one tick each")
			assert.Equal(t, false, m["deadlock"])
			assert.Equal(t, 0, m["in_cs"])
		})
	}
	r := run(t, `{"algorithm": "central", "n": 3, "script": [{"at": 1, "node": 1, "command": "request-cs"}], "until": {"quiescent": true}}`)
	m := metrics(r)
	assert.Equal(t, 1, m["cs_entries"])
	assert.Equal(t, 0.0, m["messages_per_entry"], "the coordinator enters without messages")
}

// The coordinator grants in the order the requests arrive, one at a time.
func TestQueueLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "central-queue")
	assert.Empty(t, failed(r))
	var order []string
	for _, rec := range r.Trace().Records {
		if strings.Contains(rec.Caption, "enters the critical section") {
			order = append(order, r.Config().Names[rec.Node])
		}
	}
	assert.Equal(t, []string{"2", "3", "4"}, order)
	assert.Equal(t, 3.0, metrics(r)["messages_per_entry"])
}

// A crashed coordinator blocks everyone after it, and the deadlock
// invariant names it.
func TestCoordinatorCrashBlocks(t *testing.T) {
	s, r := scenariotest.Run(t, "central-crash")
	got := failed(r)
	require.Len(t, got, 1)
	assert.Equal(t, mutex.DeadlockName+": 3 waits for the coordinator 1, which has crashed: nobody can grant the section", got[0])
	assert.True(t, s.Expected(mutex.DeadlockName))
	assert.Equal(t, true, metrics(r)["deadlock"])
	assert.Equal(t, 1, metrics(r)["cs_entries"])
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
		r := run(t, fmt.Sprintf(base, seed, strings.Join(dups, ", ")))
		assert.Empty(t, failed(r), "seed %d", seed)
		assert.Positive(t, metrics(r)["cs_entries"], "seed %d", seed)
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
	r := run(t, `{"algorithm": "central", "n": 3, "params": {"coordinator": 3, "cs_time": 9}, "script": [{"at": 1, "node": 1, "command": "request-cs"}], "until": {"quiescent": true}}`)
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
