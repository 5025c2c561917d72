package zab_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/zab"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// A vote beats another by its later history, and only then by its id.
func TestVotesCompareByHistoryFirst(t *testing.T) {
	assert.True(t, zab.Vote{Leader: 0, Zxid: 8}.Beats(zab.Vote{Leader: 4, Zxid: 7}))
	assert.True(t, zab.Vote{Leader: 4, Zxid: 7}.Beats(zab.Vote{Leader: 3, Zxid: 7}))
	assert.False(t, zab.Vote{Leader: 3, Zxid: 7}.Beats(zab.Vote{Leader: 3, Zxid: 7}))
}

// Whatever the histories, the servers settle on the latest one, the
// highest id among equals: every permutation of a few histories on five
// servers.
func TestTheLatestHistoryLeads(t *testing.T) {
	for _, zxids := range [][]int64{{7, 5, 8, 6, 6}, {3, 3, 3, 3, 3}, {9, 1, 1, 1, 1}, {1, 9, 9, 1, 1}, {0, 0, 0, 0, 5}} {
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "zab-election", "n": 5, "params": {"zxids": [%d, %d, %d, %d, %d]}, "until": {"quiescent": true}}`, zxids[0], zxids[1], zxids[2], zxids[3], zxids[4]))
		assert.Empty(t, algotest.Failed(r), "%v", zxids)
		best := 0
		for i, z := range zxids {
			if z >= zxids[best] {
				best = i
			}
		}
		assert.Equal(t, fmt.Sprint(best+1), algotest.Metrics(r)["leader"], "%v", zxids)
	}
}

// A server that recovers looks again, hears a quorum of settled servers
// name the leader, and follows it in their round; one that loses its
// leader by the learner's command does the same.
func TestARecoveredServerRejoins(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "zab-election", "n": 5, "params": {"zxids": [7, 5, 8, 6, 6]},
		"script": [{"at": 20, "node": 5, "fault": "crash"}, {"at": 25, "node": 5, "fault": "recover"}, {"at": 30, "node": 1, "command": "start-election"}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, "3", algotest.Metrics(r)["leader"])
	all := algotest.Captions(r)
	assert.Contains(t, all, "5 recovers with its history (zxid 6) and looks for a leader again")
	assert.Contains(t, all, "with itself, a quorum")
	assert.Contains(t, all, "names 3, and it follows")
}

// The lesson: 2 leads on the latest history, not 3, the highest id, and
// the finalize wait lets 3 drop a quorum for 1 when 2's vote comes.
func TestLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "zab-election")
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, "2", algotest.Metrics(r)["leader"])
	all := algotest.Captions(r)
	assert.Contains(t, all, "A quorum (1, 3) votes for 1: it waits 7 ticks")
	assert.Contains(t, all, "3 hears 2's vote for 2 (zxid 8) of round 1, better than its vote for 1 (zxid 6)")
}

// The default finalize wait outlasts a round trip. Every message takes 3
// ticks (the longest the campaign draws) and the learner's restarts line
// the votes up so that in round 3, 3 holds a quorum for a vote of 1's
// that 1 has given up for 2's: 1's new vote reaches 3 a round trip after
// the old one left. A wait of 4 ticks settled 3 on 1 while 1 followed 2,
// fault-free; the default waits for the new vote.
func TestTheFinalizeWaitOutlastsARoundTrip(t *testing.T) {
	const run = `{"algorithm": "zab-election", "n": 3, "scheduler": "earliest", "network": {"delay": [3, 3]},
		"params": {"zxids": [6, 8, 5]%s},
		"script": [{"at": 16, "node": 3, "command": "start-election"}, {"at": 19, "node": 2, "command": "start-election"},
			{"at": 22, "node": 1, "command": "start-election"}, {"at": 27, "node": 1, "command": "start-election"},
			{"at": 28, "node": 3, "command": "start-election"}, {"at": 50, "node": 1, "command": "start-election"}],
		"until": {"quiescent": true}}`
	assert.Empty(t, algotest.Failed(algotest.Run(t, fmt.Sprintf(run, ""))))
	assert.Contains(t, algotest.Failed(algotest.Run(t, fmt.Sprintf(run, `, "finalize": 4`))), "the servers settled in a round agree on its leader: in round 3, 1 follows 2 and 3 follows 1: two leaders")
}

// The checks of who leads read the histories of the servers that elected
// the leader: at the end of the lesson 2 leads with zxid 8, elected by 1,
// 2 and 3. An elector with a later history, or with 8 and a higher id,
// would have kept its own vote: each check names it.
func TestTheLeadersChecksNameAnElectorThatBeatsIt(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, zab.Spec, v, name) }
	const latest, highest = "a leader has the latest history of the quorum that elected it", "among servers with the same history the highest id leads"
	_, r := scenariotest.Run(t, "zab-election")
	v := r.At(r.Len()).View()
	require.True(t, check(v, latest).OK)
	require.True(t, check(v, highest).OK)
	three := v.Node(2).(*zab.Process)
	three.Zxid = 8
	assert.True(t, check(v, latest).OK, "the same history is not a later one")
	assert.Equal(t, "2 leads with history up to zxid 8, but 3, which elected it, has the same history and a higher id", check(v, highest).Detail)
	three.Zxid = 9
	assert.Equal(t, "2 leads with history up to zxid 8, but 3, which elected it, has zxid 9: the transactions after 8 would be lost", check(v, latest).Detail)
}

// Bad histories are refused, naming the field.
func TestBadParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"zxids": [1, 2]}`:     `field "params.zxids": want one zxid for each of the 3 servers, got 2`,
		`{"zxids": [1, -2, 3]}`: `field "params.zxids[1]": want a transaction id from 0`,
		`{"finalize": 0}`:       `field "params.finalize": want ticks from 1`,
	} {
		s, err := scenario.Parse([]byte(`{"algorithm": "zab-election", "n": 3, "params": ` + params + `, "until": {"time": 9}}`))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
}

// Servers that look again while the others still follow 4: 1 rejoins
// in round 2, then 4, the leader, and 3 look. 4 stops leading while it
// looks, and takes its lead back when a quorum names it; 3 counts 1's
// answer (1 follows 4, in 3's round) toward its vote for 4 and waits to
// settle. Before, a settled server's vote made a quorum that nobody
// waited on, and a leader that looked was still drawn leading.
func TestAServerThatLooksAgainRejoinsItsLeader(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "zab-election", "n": 4,
		"script": [{"at": 17, "node": 1, "command": "start-election"}, {"at": 29, "node": 4, "command": "start-election"}, {"at": 30, "node": 3, "command": "start-election"}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Equal(t, "4", algotest.Metrics(r)["leader"])
	all := algotest.Captions(r)
	assert.Contains(t, all, "4 hears that 2, following, follows 4: with itself, a quorum (1, 2, 4) names 4, and it leads again")
	assert.Contains(t, all, "3 hears that 1, following, follows 4; it needs a quorum naming one leader. A quorum (1, 3, 4) votes for 4: it waits 7 ticks")
	looked := false
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		if four := v.Node(3).(*zab.Process); four.State == zab.Looking && four.Round == 2 {
			looked = true
			assert.False(t, four.Leading, "step %d: 4 looks, and still leads", k)
		}
	}
	assert.True(t, looked)
}

// The checks of a server's own rules, each shown a server whose state
// breaks it in the lesson's run: a vote worse than its own history, a
// wait it does not know of, a quorum of one, a NOTIFICATION that does
// not carry its round.
func TestTheRulesChecksNameAServerThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, zab.Spec, v, name) }
	_, r := scenariotest.Run(t, "zab-election")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, zab.Spec, v, k, zab.VotesName, zab.WaitsName, zab.SettledName, zab.SendsName)
		p := v.Node(id).(*zab.Process)
		switch {
		case p.State == zab.Looking && !broke[zab.VotesName]:
			vote := p.Vote
			p.Vote = zab.Vote{Leader: id, Zxid: p.Zxid - 1}
			assert.Contains(t, check(v, zab.VotesName).Detail, "worse than its own history")
			p.Vote = vote
			broke[zab.VotesName] = true
		case p.State == zab.Looking && !broke[zab.WaitsName]:
			p.Finalizing = !p.Finalizing
			assert.Contains(t, check(v, zab.WaitsName).Detail, "believes")
			p.Finalizing = !p.Finalizing
			broke[zab.WaitsName] = true
		case p.State != zab.Looking && !broke[zab.SettledName]:
			by := p.ElectedBy
			p.ElectedBy = []sim.NodeID{id}
			assert.Contains(t, check(v, zab.SettledName).Detail, "a quorum is 2")
			p.ElectedBy = by
			broke[zab.SettledName] = true
		case ev.Kind == sim.Init && !broke[zab.SendsName]:
			p.Round++
			assert.Contains(t, check(v, zab.SendsName).Detail, "a NOTIFICATION of round 1")
			p.Round--
			broke[zab.SendsName] = true
		}
	})
	assert.Len(t, broke, 4)
}
