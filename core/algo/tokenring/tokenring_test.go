package tokenring_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/mutex"
	"spacetime/core/algo/tokenring"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// Requests far apart cost 1 to N−1 passes each, never more; the token's
// circulation between them is counted as idle passes.
func TestPassesPerEntry(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{}
			for p := 1; p <= n; p++ {
				at[p] = 7 + 23*p
			}
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "script": %s, "until": {"time": %d}}`, tokenring.ID, n, algotest.Requests(at), 30+23*n))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			require.Equal(t, n, m["cs_entries"])
			perEntry := m["messages_per_entry"].(float64)
			assert.Positive(t, perEntry)
			assert.LessOrEqual(t, perEntry, float64(n-1), "no entry costs more than N−1 passes")
			assert.Positive(t, m["idle_passes"])
			assert.Equal(t, m["token_passes"], m["idle_passes"].(int)+int(perEntry*float64(n)+0.5))
			assert.Equal(t, 1, m["tokens"])
		})
	}
}

// The holder that asks enters at once, with no message; the successor of
// the last holder waits one pass, its predecessor N−1.
func TestEntryCostDependsOnWhereTheTokenIs(t *testing.T) {
	cost := func(node, at int) float64 {
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "token-ring", "n": 5, "params": {"hold": 3}, "script": %s, "until": {"time": 60}}`, algotest.Requests(map[int]int{node: at})))
		require.Empty(t, algotest.Failed(r))
		require.Equal(t, 1, algotest.Metrics(r)["cs_entries"])
		return algotest.Metrics(r)["messages_per_entry"].(float64)
	}
	assert.Equal(t, 0.0, cost(1, 2), "1 holds the token from tick 0 to 3")
	assert.Equal(t, 1.0, cost(2, 1), "the token's next stop")
	assert.Equal(t, 4.0, cost(1, 4), "1 just passed it: four passes round the ring")
}

// A crashed holder loses the token, and the deadlock invariant says so;
// the regenerated token moves the ring again.
func TestCrashLosesTheToken(t *testing.T) {
	s, r := scenariotest.Run(t, "token-ring-crash")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.Equal(t, "no deadlock: 1 waits for the token, which was lost when 3 crashed holding it", failed[0])
	assert.True(t, s.Expected(mutex.DeadlockName))
	assert.Equal(t, []string{"3", "1", "2"}, algotest.Entered(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["regenerated"])
	assert.Equal(t, 1, m["tokens"])
	assert.Equal(t, 1, m["max_in_cs"], "the crash ended 3's critical section")

	// while 3 is down holding it, its panel row says so, marked bad
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		if v.Health(2) != sim.Crashed {
			continue
		}
		row := tokenring.Spec.Figures.Panels(v)[0].Rows[2]
		assert.Equal(t, "crashed in the critical section", row.Cells[1])
		assert.Equal(t, []string{"", "bad"}, row.CellEmphasis)
		assert.Equal(t, "lost in the crash", row.Cells[2])
		break
	}
}

// Regenerating while the old token is only paused with its holder makes
// two tokens and two processes in the section.
func TestCarelessRegenerationMakesTwoTokens(t *testing.T) {
	s, r := scenariotest.Run(t, "token-ring-two-tokens")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.Equal(t, "at most one process in the critical section: 2 and 4 are in the critical section at once", failed[0])
	assert.True(t, s.Expected(mutex.SafetyName))
	m := algotest.Metrics(r)
	assert.Equal(t, 2, m["max_in_cs"])
	assert.Equal(t, 1, m["regenerated"])
	// the old token goes round until a process that has held the new one
	// discards it
	var discard string
	for _, rec := range r.Trace().Records {
		if strings.Contains(rec.Caption, "discards") {
			discard = rec.Caption
			break
		}
	}
	assert.Contains(t, discard, "discards a token of generation 1, older than the generation 2 it has held")
}

// A network's copy of the token is recognised by its hop count and
// discarded: copies do not make a second token.
func TestCopiesOfTheTokenAreDiscarded(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "token-ring", "n": 3, "network": {"delay": [4, 4]},
		"script": [{"at": 2, "fault": "duplicate", "msg": 0}, {"at": 8, "node": 3, "command": "request-cs"}, {"at": 9, "node": 2, "command": "request-cs"}],
		"until": {"time": 40}}`)
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["max_in_cs"])
	assert.Equal(t, 1, m["tokens"])
	assert.Equal(t, 2, m["cs_entries"])
	assert.Contains(t, algotest.Captions(r), "2 discards a copy of a token it has already held")
}

// Bad parameters are refused, naming the field.
func TestParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"ring": [1, 2]}`:    "params.ring: want all 3 processes once each, got 2 entries",
		`{"ring": [1, 2, 2]}`: "params.ring[2]: process 2 is on the ring twice",
		`{"ring": [1, 2, 4]}`: "params.ring[2]: want a process number from 1 to 3, got 4",
		`{"holder": 0}`:       "params.holder: want a process number from 1 to 3, got 0",
		`{"hold": 0}`:         "params.hold: want ticks from 1 to 1000000, got 0",
		`{"cs_time": -1}`:     "params.cs_time",
	} {
		_, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": "token-ring", "n": 3, "params": %s, "until": {"time": 9}}`, params)))
		require.Error(t, err, params)
		field, words, _ := strings.Cut(want, ": ")
		assert.Contains(t, err.Error(), fmt.Sprintf("%q", field), params)
		assert.Contains(t, err.Error(), words, params)
	}
}

// The ring follows params.ring: 1 → 3 → 2 → 1.
func TestRingOrder(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "token-ring", "n": 3, "params": {"ring": [1, 3, 2]}, "until": {"time": 6}}`)
	var to []string
	for _, m := range r.Trace().Msgs {
		to = append(to, r.Config().Names[m.To])
	}
	assert.Equal(t, []string{"3", "2", "1"}, to[:3])
}

// The stamps' and the picture's checks hold on the two-token lesson, and
// each names a process that breaks its rule.
func TestTheStampChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, tokenring.Spec, v, name) }
	_, r := scenariotest.Run(t, "token-ring-two-tokens")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, tokenring.Spec, v, k, tokenring.StampsName, mutex.TokenDrawnName)
		p := v.Node(id).(*tokenring.Process)
		switch {
		case ev.Kind == sim.Command && ev.Tag == tokenring.CmdRegenerate && p.Holds && !broke["regenerate"]:
			p.Token.Gen, p.Seen.Gen = 1, 1
			assert.Contains(t, check(v, tokenring.StampsName).Detail, "regenerated the token as (generation 1, hop 0)")
			p.Token.Gen, p.Seen.Gen = 2, 2
			broke["regenerate"] = true
		case ev.Kind == sim.Deliver && !p.Holds && !broke["discard"]:
			seen := p.Seen
			p.Seen = tokenring.Stamp{}
			assert.Contains(t, check(v, tokenring.StampsName).Detail, "did not take the token")
			p.Seen = seen
			broke["discard"] = true
		case p.Holds && !broke["drawn"]:
			p.Holds = false
			assert.Contains(t, check(v, mutex.TokenDrawnName).Detail, "holds the token: false, but is drawn holding it: true")
			p.Holds = true
			broke["drawn"] = true
		}
	})
	assert.Len(t, broke, 3)
}
