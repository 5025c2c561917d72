package epochs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	assert.True(t, s.Expected("two processes act as leader in overlapping intervals"))
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
