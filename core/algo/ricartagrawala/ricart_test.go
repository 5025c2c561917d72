package ricartagrawala_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/mutex"
	"spacetime/core/algo/ricartagrawala"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// 2(N−1) messages per entry for every N, requests far apart.
func TestTwoMessagesPerOtherProcess(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{}
			for p := 1; p <= n; p++ {
				at[p] = 20 * p
			}
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "script": %s, "until": {"quiescent": true}}`, ricartagrawala.ID, n, algotest.Requests(at)))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			assert.Equal(t, n, m["cs_entries"])
			assert.Equal(t, float64(2*(n-1)), m["messages_per_entry"])
		})
	}
}

// The earlier request wins and the later one's reply is deferred until
// the winner leaves; the caption gives the stamps that decided it.
func TestDeferLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "ricart-agrawala-defer")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, []string{"2", "3"}, algotest.Entered(r))
	all := algotest.Captions(r)
	assert.Contains(t, all, "2 defers its reply to 3: 2 wants the section with (2, 2), earlier than 3's (2, 3)")
	assert.Contains(t, all, "2 leaves the critical section and sends the replies it deferred, to 3")
	assert.Equal(t, 4.0, algotest.Metrics(r)["messages_per_entry"])
}

// Requests enter in stamp order, whatever the arrival order: later
// requesters with larger clocks wait for the earlier ones.
func TestTimestampOrder(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "ricart-agrawala", "n": 4, "seed": 2, "scheduler": "random", "network": {"delay": [1, 9]},
		"script": [{"at": 1, "node": 4, "command": "request-cs"}, {"at": 2, "node": 3, "command": "request-cs"}, {"at": 3, "node": 2, "command": "request-cs"}, {"at": 3, "node": 1, "command": "request-cs"}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Len(t, algotest.Entered(r), 4)
}

// One crashed process blocks whoever needs its reply, and the deadlock
// invariant names it.
func TestCrashBlocks(t *testing.T) {
	s, r := scenariotest.Run(t, "ricart-agrawala-crash")
	got := algotest.Failed(r)
	require.Len(t, got, 1)
	assert.Equal(t, mutex.DeadlockName+": 2 waits for the REPLY of 4 (crashed), and none is on its way", got[0])
	assert.True(t, s.Expected(mutex.DeadlockName))
	assert.Equal(t, true, algotest.Metrics(r)["deadlock"])
}

// Safe without FIFO and under copied messages, over many seeds of random
// requests; and everyone who asks gets in.
func TestSafeWithoutFIFO(t *testing.T) {
	const doc = `{"algorithm": "ricart-agrawala", "n": %d, "seed": %d, "scheduler": "random", "network": {"fifo": false, "delay": [0, 8]}, "workload": {"p": 0.4, "until": 300}, "until": {"quiescent": true}, "script": [%s]}`
	for seed := 1; seed <= 80; seed++ {
		var dups []string
		for m := 0; m < 30; m += 4 {
			dups = append(dups, fmt.Sprintf(`{"at": %d, "fault": "duplicate", "msg": %d}`, 1+m, m))
		}
		r := algotest.Run(t, fmt.Sprintf(doc, 2+seed%4, seed, strings.Join(dups, ", ")))
		assert.Empty(t, algotest.Failed(r), "seed %d", seed)
		end := r.At(r.Len()).View()
		for i := range end.N() {
			p := end.Node(sim.NodeID(i)).(*ricartagrawala.Process)
			assert.Equal(t, mutex.Idle, p.State, "seed %d: process %d still %s at the end", seed, i+1, p.State)
		}
	}
}
