package barrier_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/barrier"
	"spacetime/internal/algotest"
)

const propertySeeds = 300

// randomJob draws a job (size, rates, checkpoint interval, channel delay,
// scheduler) and a script of failures every channel survives: crashes of
// any process, JM's too, each followed by its recovery, GC pauses and
// messages held back. Everything comes from seed.
func randomJob(seed uint64, aligned bool) string {
	rng := rand.New(rand.NewPCG(seed, 0xba771e))
	n := 4 + rng.IntN(5)
	names := barrier.Names(n)
	pick := func() string { return names[rng.IntN(n)] }
	var script []string
	for range 1 + rng.IntN(4) {
		who, at := pick(), 1+rng.IntN(80)
		script = append(script,
			fmt.Sprintf(`{"at": %d, "fault": "crash", "node": %q}`, at, who),
			fmt.Sprintf(`{"at": %d, "fault": "recover", "node": %q}`, at+1+rng.IntN(30), who))
	}
	for range rng.IntN(3) {
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "pause", "node": %q, "for": %d}`, 1+rng.IntN(80), pick(), 1+rng.IntN(15)))
	}
	for range rng.IntN(4) {
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "delay", "msg": %d, "for": %d}`, 1+rng.IntN(80), rng.IntN(120), 1+rng.IntN(12)))
	}
	scheduler := []string{"earliest", "random"}[rng.IntN(2)]
	return fmt.Sprintf(`{"algorithm": "barrier-alignment", "n": %d, "seed": %d, "scheduler": %q, "network": {"delay": [1, %d]},
		"params": {"rate": %d, "records": %d, "interval": %d, "alignment": %v},
		"script": [%s], "until": {"quiescent": true, "time": 5000}}`,
		n, seed, scheduler, 1+rng.IntN(4), 1+rng.IntN(3), 4+rng.IntN(13), 3+rng.IntN(13), aligned, strings.Join(script, ", "))
}

// Hundreds of jobs with random crashes and recoveries on reliable FIFO
// channels: aligned, no record is ever counted twice or skipped, no
// restore brings back an incomplete checkpoint, and once every process is
// back the job ends with every record counted once. Unaligned, the same
// schedules count records twice.
func TestExactlyOnceThroughCrashes(t *testing.T) {
	restores, twiceRuns, twice := 0, 0, 0
	for seed := range uint64(propertySeeds) {
		doc := randomJob(seed, true)
		r := algotest.Run(t, doc)
		require.Empty(t, algotest.Failed(r), "seed %d\n%s", seed, doc)
		v := r.At(r.Len()).View()
		require.Equal(t, "quiescent", r.Stopped(), "seed %d: the job ends\n%s", seed, doc)
		require.True(t, r.Config().Spec.Done(v), "seed %d: every record is counted once in the end\n%s", seed, doc)
		m := algotest.Metrics(r)
		restores += m["attempt"].(int) - 1

		r = algotest.Run(t, randomJob(seed, false))
		if f := failure(r, barrier.ExactlyOnceName); f != nil {
			assert.Contains(t, f.Detail, "is counted twice", "seed %d: without alignment a restore counts records again; it loses none", seed)
			twiceRuns++
			twice += algotest.Metrics(r)["duplicates"].(int)
		}
		assert.Nil(t, failure(r, barrier.RestoreName), "seed %d", seed)
	}
	t.Logf("%d jobs with crashes: %d restores aligned, exactly once; unaligned, %d jobs counted %d records twice", propertySeeds, restores, twiceRuns, twice)
	assert.Positive(t, restores)
	assert.Positive(t, twiceRuns, "without alignment some schedule counts a record twice")
}
