package all_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
)

// mutexSpecs are the registered mutual-exclusion algorithms: those whose
// processes have a Want.
func mutexSpecs(t *testing.T) []*sim.Spec {
	var out []*sim.Spec
	for _, s := range all.Specs() {
		n := s.MinN
		if len(s.Sizes) > 0 {
			n = s.Sizes[0]
		}
		nodes, err := s.New(s.Names(n), nil)
		require.NoError(t, err, s.ID)
		if _, ok := nodes[0].(mutex.Wanter); ok {
			out = append(out, s)
		}
	}
	require.Len(t, out, 8, "central, Lamport, Ricart–Agrawala, token ring, Suzuki–Kasami, Maekawa, the coordination lock, replicated or not")
	return out
}

// Hundreds of seeds per algorithm with a random workload, random network
// delays (within what the algorithm's timeouts assume) and random GC
// pauses, and no crash or loss: the section is never held by two at once,
// and every request is served by the end, except in Maekawa, whose
// deadlock is a wait-for cycle and nothing else, and in the coordination
// lock, which declares that a paused holder may wake to find the lock
// handed on.
func TestMutexUnderPauses(t *testing.T) {
	const seeds = 200
	for _, spec := range mutexSpecs(t) {
		t.Run(spec.ID, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(spec.ID))))
			entries, pauses := 0, 0
			for seed := range seeds {
				n := max(3+rng.IntN(6), spec.MinN)
				if len(spec.Sizes) > 0 {
					n = spec.Sizes[rng.IntN(2)]
				}
				var script []string
				for range 1 + rng.IntN(4) {
					script = append(script, fmt.Sprintf(`{"at": %d, "fault": "pause", "node": %d, "for": %d}`, 1+rng.IntN(120), 1+rng.IntN(n), 1+rng.IntN(25)))
				}
				delay := sim.Time(1 + rng.IntN(6))
				if spec.Checks.MaxDelay > 0 {
					delay = min(delay, spec.Checks.MaxDelay)
				}
				doc := fmt.Sprintf(`{"algorithm": %q, "n": %d, "seed": %d, "network": {"delay": [1, %d]},
					"workload": {"p": %.2f, "every": [1, %d], "until": 150}, "script": [%s], "until": {"time": 600}}`,
					spec.ID, n, seed, delay, 0.2+0.6*rng.Float64(), 2+rng.IntN(20), strings.Join(script, ", "))
				r := algotest.Run(t, doc)
				for _, f := range r.Failures() {
					if f.Step < 0 {
						continue
					}
					if spec.ID == "maekawa" && f.Name == mutex.DeadlockName && strings.HasPrefix(f.Detail, "a wait-for cycle") {
						continue
					}
					if _, excused := spec.Excuses(f.Name, map[string]bool{"pause": true}, nil); excused && f.Name != mutex.DeadlockName {
						continue
					}
					require.Failf(t, "invariant failed", "seed %d: %s: %s\n%s", seed, f.Name, f.Detail, doc)
				}
				m := algotest.Metrics(r)
				if _, excused := spec.Excuses(mutex.SafetyName, map[string]bool{"pause": true}, nil); !excused {
					require.LessOrEqual(t, m["max_in_cs"], 1, doc)
				}
				if m["deadlock"] == false {
					v := r.At(r.Len()).View()
					assert.Empty(t, mutex.Waiting(v), "seed %d: every request served by the end\n%s", seed, doc)
					assert.Equal(t, 0, m["in_cs"], doc)
				}
				entries += m["cs_entries"].(int)
				for _, rec := range r.Trace().Records {
					if rec.Tag() == "pause" {
						pauses++
					}
				}
			}
			t.Logf("%s: %d runs, %d entries, %d GC pauses", spec.ID, seeds, entries, pauses)
			assert.Greater(t, entries, seeds, "the workload asks often")
			assert.Greater(t, pauses, seeds, "and pauses happen")
		})
	}
}
