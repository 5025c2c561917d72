package ringelection_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/ringelection"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// 3N−1 messages when the successor of the highest id starts, 2N when the
// highest does, for N = 3..8; the highest wins either way.
func TestMessageCounts(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			for starter, want := range map[int]int{1: 3*n - 1, n: 2 * n} {
				r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "ring-election", "n": %d, "script": [{"at": 1, "node": %d, "command": "start-election"}], "until": {"quiescent": true}}`, n, starter))
				assert.Empty(t, algotest.Failed(r))
				m := algotest.Metrics(r)
				assert.Equal(t, want, m["election_messages"], "%d starts", starter)
				assert.Equal(t, fmt.Sprint(n), m["leader"])
			}
		})
	}
}

// The lessons: the worst and best cases, and concurrent initiators whose
// smaller ids are discarded.
func TestLessons(t *testing.T) {
	for id, want := range map[string]int{"ring-election-worst": 17, "ring-election-best": 12} {
		_, r := scenariotest.Run(t, id)
		assert.Empty(t, algotest.Failed(r), id)
		assert.Equal(t, want, algotest.Metrics(r)["election_messages"], id)
	}
	_, r := scenariotest.Run(t, "ring-election-concurrent")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, "6", algotest.Metrics(r)["leader"])
	all := algotest.Captions(r)
	assert.Contains(t, all, "discards ELECTION(")
	assert.Contains(t, all, "6 gets its own ELECTION(6) back: no id on the ring is larger, so it leads and sends ELECTED(6) to 3")
	assert.Less(t, algotest.Metrics(r)["election_messages"], 3*6*3, "fewer than three separate worst cases")
}

// A bad ring is refused, naming the field.
func TestBadRing(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "ring-election", "n": 3, "params": {"ring": [1, 3, 3]}, "until": {"time": 9}}`))
	if err == nil {
		_, err = scenariotest.Plan(t, s).Run()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), `field "params.ring[2]": process 3 is on the ring twice`)
}

// The ring's rules are read off every step of both elections' lessons,
// and a process made to break one at a step is named: in Chang and
// Roberts's, one that forwarded a larger id but takes no part; collecting
// ids, one that passed an ELECTION on but is not electing.
func TestTheRulesCheckNamesAProcessThatBreaksThem(t *testing.T) {
	rules := func(v sim.View) sim.Verdict {
		return algotest.Check(t, ringelection.Spec, v, "a process forwards, replaces, discards and announces by the ring's rules")
	}
	for lesson, want := range map[string]string{
		"ring-election-worst":   "got ELECTION(6), a larger id, and did not take part and forward it",
		"ring-election-collect": "'s ELECTION, and did not add its id and pass it on",
	} {
		_, r := scenariotest.Run(t, lesson)
		found := ""
		for k := 1; k <= r.Len(); k++ {
			v := r.At(k).View()
			require.True(t, rules(v).OK, "%s, step %d: %s", lesson, k, rules(v).Detail)
			id, ev, ok := v.LastStep()
			p, _ := v.Node(id).(*ringelection.Process)
			if !ok || found != "" || ev.Kind != sim.Deliver || ev.Msg.Kind != ringelection.KindElection || !p.Electing || p.Leading {
				continue
			}
			if p.Collect && sim.NodeID(ev.Msg.Data[0]) != id || !p.Collect && sim.NodeID(ev.Msg.Value) > id {
				p.Electing = false
				found = rules(v).Detail
				p.Electing = true
			}
		}
		assert.Contains(t, found, want, lesson)
	}
}
