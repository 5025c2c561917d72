package epochs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/epochs"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The same schedule twice: without epochs the paused leader wakes and the
// followers obey two leaders; with epochs its HEARTBEATs are refused and
// everyone follows the leader of the new epoch.
func TestSplitBrainAndEpochs(t *testing.T) {
	s, r := scenariotest.Run(t, "split-brain")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.Contains(t, failed[0], "both act as leader")
	assert.True(t, s.Expected("no two leaders are obeyed at once (with epochs, of one epoch)"))
	assert.Nil(t, algotest.Metrics(r)["leader"], "the live processes disagree to the end")

	_, r = scenariotest.Run(t, "split-brain-epochs")
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, "4", m["leader"])
	assert.Equal(t, int64(2), m["epoch"])
	assert.Equal(t, 4, m["stale_refused"], "each of the four refuses 5's first HEARTBEAT of epoch 1")
	all := algotest.Captions(r)
	assert.Contains(t, all, "4 has a majority, 3 of 5 votes: it leads epoch 2")
	assert.Contains(t, all, "1 refuses 5's HEARTBEAT of epoch 1: it is at epoch 2, and says so with STALE")
}

// A candidate without a majority does not lead: with three of five
// processes cut off, the two left can elect nobody.
func TestNoMajorityNoLeader(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "epochs", "n": 5, "script": [
		{"at": 5, "fault": "partition", "groups": [[1, 2], [3, 4, 5]]}], "until": {"time": 80}}`)
	assert.Empty(t, algotest.Failed(r))
	v := r.At(r.Len()).View()
	for _, id := range []int{0, 1} {
		assert.Equal(t, "false", algotest.Field(t, v.Node(simID(id)), "leads"), "process %d cannot win with two of five votes", id+1)
	}
}

func simID(i int) sim.NodeID { return sim.NodeID(i) }

// A leader told its leader is gone has none to lose: before, it stood
// for the next epoch while still leading, and its HEARTBEATs of that
// epoch were followed though nobody had voted for it.
func TestALeaderToldToTakeOverGoesOnLeading(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "epochs", "n": 3, "script": [{"at": 5, "node": 3, "command": "start-election"}], "until": {"time": 40}}`)
	assert.Empty(t, algotest.Failed(r))
	assert.Contains(t, algotest.Captions(r), "3 leads epoch 1: it has no leader to lose")
	assert.Equal(t, int64(1), algotest.Metrics(r)["epoch"])
}

// The checks of a process's rules name one that breaks them in the
// lesson with epochs: a leader of a later epoch with too few votes, a
// leader with no heartbeat armed.
func TestTheRulesChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, epochs.Spec, v, name) }
	const rules, waits = "a process keeps to its epoch: it refuses what is older, votes once, leads only with a majority", "a leader sends heartbeats and every other process waits for one"
	_, r := scenariotest.Run(t, "split-brain-epochs")
	found := map[string]string{}
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		require.True(t, check(v, rules).OK, "step %d", k)
		require.True(t, check(v, waits).OK, "step %d", k)
		id, _, ok := v.LastStep()
		if !ok {
			continue
		}
		if p := v.Node(id).(*epochs.Process); p.Leading && p.Epoch > 1 && found[rules] == "" {
			votes := p.Votes
			p.Votes = 1
			found[rules] = check(v, rules).Detail
			p.Votes = votes
			p.Leading = false
			found[waits] = check(v, waits).Detail
			p.Leading = true
		}
	}
	assert.Contains(t, found[rules], "with 1 votes, fewer than a majority")
	assert.Contains(t, found[waits], "does not lead, with its heartbeat armed and its election timeout not armed")
}
