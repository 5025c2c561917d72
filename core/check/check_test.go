package check_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/chandylamport"
	"spacetime/core/check"
	"spacetime/core/check/causal"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
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
		r, err := scenariotest.Plan(t, base.WithSeed(seed)).Run()
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

// Over random bank runs with random faults and random cuts, a cut is
// consistent by check.Inconsistent exactly when it is closed under
// happened-before computed by brute force: no event inside the cut has a
// cause outside it.
func TestCutConsistencyAgainstHappenedBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	consistent, inconsistent := 0, 0
	for seed := range 150 {
		n := 2 + rng.IntN(4)
		doc := fmt.Sprintf(`{"algorithm": "chandy-lamport", "n": %d, "seed": %d, "network": {"delay": [1, 5], "fifo": %v},
			"workload": {"p": 0.8, "every": [1, 3], "until": 60}, "script": [{"at": %d, "fault": "pause", "node": %d, "for": 5}], "until": {"time": 80}}`,
			n, seed, rng.IntN(2) == 0, 1+rng.IntN(50), 1+rng.IntN(n))
		s, err := scenario.Parse([]byte(doc))
		require.NoError(t, err)
		r, err := scenariotest.Plan(t, s).Run()
		require.NoError(t, err)
		tr := r.Trace()
		before := causal.Before(tr)
		byNode := make([][]int, n)
		for k, rec := range tr.Records {
			if rec.Node >= 0 {
				byNode[rec.Node] = append(byNode[rec.Node], k)
			}
		}
		v := r.At(r.Len()).View()
		for range 40 {
			cut := make([]int, n) // the first step outside, or -1
			for p := range cut {
				events := byNode[p]
				if i := rng.IntN(len(events) + 1); i < len(events) {
					cut[p] = events[i]
				} else {
					cut[p] = -1
				}
			}
			inside := func(k int) bool {
				p := tr.Records[k].Node
				return p >= 0 && (cut[p] < 0 || k < cut[p])
			}
			closed := true
			for k := range tr.Records {
				if !inside(k) {
					continue
				}
				for j := range k {
					if before[k].Has(j) && !inside(j) {
						closed = false
					}
				}
			}
			got := len(check.Inconsistent(v, cut)) == 0
			require.Equal(t, closed, got, "cut %v\n%s", cut, doc)
			if closed {
				consistent++
			} else {
				inconsistent++
			}
		}
	}
	assert.Positive(t, consistent)
	assert.Positive(t, inconsistent)
	t.Logf("%d consistent and %d inconsistent cuts agree with brute force", consistent, inconsistent)
}

// SentInside reads what a cut holds off the messages: every message sent
// before its sender's step of the cut, and no other, for cuts with and
// without a process wholly inside (-1); and a straight cut is one step
// for every process.
func TestSentInsideIsWhatTheCutHolds(t *testing.T) {
	_, r := scenariotest.Run(t, "snapshot-bank")
	v := r.At(r.Len()).View()
	rng := rand.New(rand.NewPCG(3, 3))
	for k := range 60 {
		cut := make([]int, v.N())
		for p := range cut {
			cut[p] = rng.IntN(r.Len()+2) - 1
		}
		if k%2 == 0 {
			cut = check.StraightCut(v.N(), rng.IntN(r.Len()+1))
		}
		var want, got []int
		for id := range v.NumSent() {
			if e := v.Envelope(id); cut[e.From] < 0 || e.SendStep < cut[e.From] {
				want = append(want, id)
			}
		}
		for e := range check.SentInside(v, cut) {
			got = append(got, e.ID)
		}
		require.Equal(t, want, got, "cut %v", cut)
	}
	assert.Equal(t, []int{7, 7, 7}, check.StraightCut(3, 7))
	last := v.Envelope(v.NumSent() - 1)
	first := v.Envelope(0)
	for id := range v.NumSent() {
		if e := v.Envelope(id); e.From == last.From && e.Kind == last.Kind && e.Value == last.Value {
			first = e
			break
		}
	}
	assert.Equal(t, first.SendStep, check.FirstSent(v, last.From, last.Kind, last.Value))
	assert.Equal(t, -1, check.FirstSent(v, last.From, "no such kind", last.Value))
}
