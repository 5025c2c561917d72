package suzukikasami_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/mutex"
	"spacetime/core/algo/suzukikasami"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// A process without the token pays N messages (N−1 REQUESTs and the
// TOKEN) for an entry, with requests far apart; the holder pays none.
func TestNMessagesPerEntry(t *testing.T) {
	for n := 3; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			at := map[int]int{1: 20 * (n + 1)}
			for p := 2; p <= n; p++ {
				at[p] = 20 * p
			}
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "script": %s, "until": {"quiescent": true}}`, suzukikasami.ID, n, algotest.Requests(at)))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			assert.Equal(t, n, m["cs_entries"])
			assert.Equal(t, float64(n), m["messages_per_entry"], "each asked without the token")
			assert.Equal(t, n*(n-1), m["request_messages"])
			assert.Equal(t, n, m["token_messages"])
		})
	}
	r := algotest.Run(t, `{"algorithm": "suzuki-kasami", "n": 5, "script": [{"at": 1, "node": 1, "command": "request-cs"}, {"at": 20, "node": 1, "command": "request-cs"}], "until": {"quiescent": true}}`)
	assert.Equal(t, 0.0, algotest.Metrics(r)["messages_per_entry"], "the holder asks twice and sends nothing")
}

// The request lesson: the queue in the token serves 3 then 4, and the
// holder asks again for free.
func TestRequestLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "suzuki-kasami-request")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, []string{"2", "3", "4", "4"}, algotest.Entered(r))
	all := algotest.Captions(r)
	assert.Contains(t, all, "2 leaves the critical section: LN[2] = RN[2] = 1; it queues 3 (RN = 1 = LN + 1), 4 (RN = 1 = LN + 1); it sends the token to 3, first in the queue")
	assert.Contains(t, all, "4 wants the critical section and holds the token: it enters the critical section at once, with no message")
	assert.Equal(t, 3.0, algotest.Metrics(r)["messages_per_entry"], "three entries of N = 4 and one of 0")
}

// The outdated request: the holder sees RN[2] = LN[2] and keeps the token.
func TestOutdatedRequestLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "suzuki-kasami-outdated")
	assert.Empty(t, algotest.Failed(r))
	assert.Contains(t, algotest.Captions(r), "3 holds the token but 2's REQUEST #1 is outdated: LN[2] = 1, so that request was served (RN[2] = max(0, 1) = 1)")
	assert.Equal(t, []string{"2", "3"}, algotest.Entered(r))
	p := r.At(r.Len()).View().Node(2).(*suzukikasami.Process)
	require.NotNil(t, p.Token, "3 keeps the token")
	assert.Empty(t, p.Token.Queue)
}

// A network's copy of the token is told from the token by its hop count.
func TestCopiesOfTheTokenAreDiscarded(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "suzuki-kasami", "n": 3, "network": {"delay": [3, 3]},
		"script": [{"at": 1, "node": 2, "command": "request-cs"}, {"at": 5, "fault": "duplicate", "msg": 2}, {"at": 6, "node": 3, "command": "request-cs"}, {"at": 7, "node": 1, "command": "request-cs"}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, 1, algotest.Metrics(r)["max_in_cs"])
	assert.Equal(t, 3, algotest.Metrics(r)["cs_entries"])
	assert.Contains(t, algotest.Captions(r), "2 discards a copy of a token it has already held")
}

// The token's arrays survive the message, and a short one decodes empty.
func TestTokenEncoding(t *testing.T) {
	tok := suzukikasami.Decode([]int64{4, 1, 0, 2, 2, 0}, 3)
	assert.Equal(t, int64(4), tok.Hop)
	assert.Equal(t, []int64{1, 0, 2}, tok.LN)
	assert.Len(t, tok.Queue, 2)
	assert.Equal(t, []int64{0, 0, 0}, suzukikasami.Decode([]int64{1}, 3).LN)
}

// Seed 003's rule, LN[j] = RN[j] for all j on the token's arrival, marks
// 3's waiting request served and 3 waits for ever; the paper's rule, on
// the same schedule, serves both.
func TestSeedRuleForLNLosesARequest(t *testing.T) {
	doc := func(seedLN bool) string {
		return fmt.Sprintf(`{"algorithm": "suzuki-kasami", "n": 3, "seed": 1, "params": {"seed_ln": %t},
			"script": [{"at": 1, "node": 2, "command": "request-cs"}, {"at": 2, "node": 3, "command": "request-cs"}],
			"until": {"quiescent": true}}`, seedLN)
	}
	seed := algotest.Run(t, doc(true))
	assert.Equal(t, []string{"no deadlock: 3 waits while 2 holds the token idle: it heard 3's REQUEST #1, but seed 003's rule set LN[3] = RN[3] = 1 when the token arrived, marking it served before it was"}, algotest.Failed(seed))
	assert.Equal(t, 1, algotest.Metrics(seed)["cs_entries"])
	paper := algotest.Run(t, doc(false))
	assert.Empty(t, algotest.Failed(paper))
	assert.Equal(t, 2, algotest.Metrics(paper)["cs_entries"])
}

// The token's checks hold on the lesson, and each names a process that
// breaks its rule.
func TestTheTokenChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, suzukikasami.Spec, v, name) }
	_, r := scenariotest.Run(t, "suzuki-kasami-request")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, suzukikasami.Spec, v, k, suzukikasami.TokenName, mutex.TokenDrawnName)
		p := v.Node(id).(*suzukikasami.Process)
		switch {
		case p.Token != nil && p.State == mutex.Idle && !broke["idle"]:
			other := (id + 1) % sim.NodeID(v.N())
			p.RN[other]++
			assert.Contains(t, check(v, suzukikasami.TokenName).Detail, "holds the token idle, with")
			p.RN[other]--
			broke["idle"] = true
		case ev.Kind == sim.Deliver && ev.Msg.Kind == suzukikasami.KindToken && p.Token != nil && !broke["drawn"]:
			token := p.Token
			p.Token = nil
			assert.Contains(t, check(v, mutex.TokenDrawnName).Detail, "holds the token: false, but is drawn holding it: true")
			p.Token = token
			broke["drawn"] = true
		}
	})
	assert.Len(t, broke, 2)
}

// A network's copy of the token that arrives after its process passed the
// token on is discarded: taking it would make two tokens. The campaign's
// faults rarely hold a copy that long, so the schedule is played here.
func TestACopyOfTheTokenIsTakenOnce(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "suzuki-kasami", "n": 3,
		"script": [
			{"at": 1, "node": 2, "command": "request-cs"},
			{"at": 3, "fault": "duplicate", "msg": 2},
			{"at": 3, "fault": "delay", "msg": 3, "for": 15},
			{"at": 6, "node": 3, "command": "request-cs"}],
		"until": {"quiescent": true}}`)
	assert.Contains(t, algotest.Captions(r), "2 discards a copy of a token it has already held")
	assert.Empty(t, algotest.Failed(r))
}
