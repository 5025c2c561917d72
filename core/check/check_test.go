package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/chandylamport"
	"spacetime/core/check"
	"spacetime/core/scenario"
	"spacetime/core/scenario/scenariotest"
)

func TestBankCutIsConsistent(t *testing.T) {
	_, r := scenariotest.Run(t, "snapshot-bank")
	v := r.At(r.Len()).View()
	cut := v.AnnotationSteps(chandylamport.RoleRecorded, 1)
	for _, step := range cut {
		require.GreaterOrEqual(t, step, 0, "every branch recorded")
	}
	assert.Empty(t, check.Inconsistent(v, cut))
	// a cut that takes B's receipt of a transfer but not A's sending of it
	// is inconsistent
	for id := range v.NumSent() {
		e := v.Envelope(id)
		if e.Kind != "transfer" || e.RecvStep < 0 {
			continue
		}
		bad := make([]int, v.N())
		for i := range bad {
			bad[i] = -1
		}
		bad[e.From] = e.SendStep // the send is the first event outside
		assert.Contains(t, check.Inconsistent(v, bad), id)
		bad[e.From] = e.SendStep + 1
		assert.NotContains(t, check.Inconsistent(v, bad), id)
		break
	}
}

func TestNonFIFOCanRecordAnInconsistentCut(t *testing.T) {
	base, err := scenario.Builtin("snapshot-nonfifo")
	require.NoError(t, err)
	found := false
	for seed := uint64(0); seed < 200 && !found; seed++ {
		r, err := base.WithSeed(seed).Run()
		require.NoError(t, err)
		for _, f := range r.Failures() {
			if f.Name == "recorded cut is consistent" && f.Step >= 0 {
				found = true
				assert.NotEmpty(t, f.Msgs)
				assert.Contains(t, f.Detail, "received inside it but sent after")
			}
		}
	}
	assert.True(t, found, "without FIFO a transfer sent after the marker overtakes it for some seed")
}
