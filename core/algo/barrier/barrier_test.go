package barrier_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/barrier"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// failure is the run's failure of an invariant, or nil while it holds.
func failure(r *engine.Run, name string) *engine.Failure {
	for _, f := range r.Failures() {
		if f.Name == name && f.Step >= 0 {
			return &f
		}
	}
	return nil
}

// The first lesson: S2's barrier is held back, Op buffers S1's records
// until it comes, and every checkpoint completes with no failure.
func TestAlignmentLesson(t *testing.T) {
	_, r := scenariotest.Run(t, "barrier-alignment")
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 3, m["checkpoints_completed"])
	assert.Equal(t, 2, m["buffered_records"], "a6 and a7 wait for S2's barrier")
	assert.Equal(t, 24, m["output_records"])
	assert.Equal(t, 0, m["duplicates"])
	assert.Equal(t, 9, m["barriers"], "two sources and Op, three checkpoints")
	assert.Equal(t, "Barriers: 9 sent; every checkpoint takes one per source and one from Op: (2 + 1) × 3 triggered = 9.", r.Config().Spec.Figures.Formula(r.At(r.Len()).View()))
	assert.True(t, r.Config().Spec.Done(r.At(r.Len()).View()))

	// while Op aligns, its input from S1 is blocked, and the topology says so
	op := sim.NodeID(3)
	aligning := false
	for k := range r.Len() {
		rec := r.Trace().Records[k]
		if rec.Time != 15 {
			continue
		}
		v := r.At(k + 1).View()
		spec := r.Config().Spec
		assert.Equal(t, [][2]sim.NodeID{{1, op}}, algotest.Links(algotest.Overlays(spec, v, barrier.RoleHeld)), "S1→Op is held back at tick 15")
		states := algotest.Overlays(spec, v, barrier.RoleState)
		assert.Equal(t, "count 10 · buffering a6 a7", algotest.TextOf(states, op))
		assert.Equal(t, "next a8", algotest.TextOf(states, 1))
		aligning = true
		break
	}
	assert.True(t, aligning)
	assert.Empty(t, algotest.Overlays(r.Config().Spec, r.At(r.Len()).View(), barrier.RoleHeld), "nothing is held back at the end")
}

// The recovery lesson both ways: aligned, Op's crash and the restore of
// checkpoint 1 count every record once; unaligned, the same schedule
// counts a6 twice, and the invariant points at it.
func TestRecoveryExactlyOnceOnlyWhenAligned(t *testing.T) {
	s, r := scenariotest.Run(t, "barrier-recovery")
	assert.Empty(t, algotest.Failed(r), "aligned: exactly once")
	m := algotest.Metrics(r)
	assert.Equal(t, 2, m["attempt"], "one failure, one restore")
	assert.Equal(t, 24, m["output_records"])
	assert.Equal(t, 0, m["duplicates"])
	assert.Greater(t, m["records_emitted"], 24, "the sources replayed from checkpoint 1")
	assert.True(t, r.Config().Spec.Done(r.At(r.Len()).View()))

	off, err := s.WithSwitch(barrier.AlignmentSwitch, false)
	require.NoError(t, err)
	assert.Equal(t, s.Script, off.Script, "the same schedule")
	r, err = scenariotest.Plan(t, off).Run()
	require.NoError(t, err)
	f := failure(r, barrier.ExactlyOnceName)
	require.NotNil(t, f, "unaligned: a record is counted twice")
	assert.True(t, strings.HasPrefix(f.Detail, "a6 is counted twice"), f.Detail)
	require.Len(t, f.Msgs, 2, "the RECORD that brought a6 to Sink first, and the one that brought it again")
	for _, id := range f.Msgs {
		msg := r.Trace().Msgs[id]
		assert.Equal(t, "a6", msg.Label)
		assert.Equal(t, sim.NodeID(4), msg.To, "to Sink")
	}
	assert.Less(t, r.Trace().Msgs[f.Msgs[0]].ID, r.Trace().Msgs[f.Msgs[1]].ID)
	m = algotest.Metrics(r)
	assert.Equal(t, 2, m["duplicates"], "a6 and a7 were in the snapshot and are replayed")
	assert.Nil(t, failure(r, barrier.RestoreName), "the restore itself is right: the snapshot was wrong")
}

// The job's processes are named by their part.
func TestNames(t *testing.T) {
	assert.Equal(t, []string{"JM", "S1", "Op", "Sink"}, barrier.Names(4))
	assert.Equal(t, []string{"JM", "S1", "S2", "S3", "S4", "S5", "Op", "Sink"}, barrier.Names(8))
}

// Bad parameters are refused, naming the field.
func TestParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"rate": 0}`:          `field "params.rate": want ticks from 1 to 1000, got 0`,
		`{"records": 1001}`:    `field "params.records": want records from 1 to 1000, got 1001`,
		`{"interval": -3}`:     `field "params.interval": want ticks from 1 to 1000, got -3`,
		`{"alignment": "yes"}`: `field "params.alignment": want true or false`,
		`{"parallelism": 2}`:   `params.parallelism`,
	} {
		s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": "barrier-alignment", "n": 5, "params": %s, "until": {"time": 9}}`, params)))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
	_, err := scenario.Parse([]byte(`{"algorithm": "barrier-alignment", "n": 9, "until": {"time": 9}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `field "n"`)
}
