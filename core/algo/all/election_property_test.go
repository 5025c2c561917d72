package all_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/algo/election"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
)

// Hundreds of seeds per election algorithm. The bully runs random
// crashes, recoveries, GC pauses and elections; the ring, which assumes
// it stays whole, random pauses and concurrent elections. Once the faults
// are over and every live process has started one more election, the live
// processes agree on the highest live id.
func TestElectionsAgreeEventually(t *testing.T) {
	const seeds = 300
	for _, tc := range []struct {
		algorithm string
		faults    []string
	}{{"bully", []string{"crash", "recover", "pause"}}, {"ring-election", []string{"pause"}}} {
		t.Run(tc.algorithm, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(len(tc.algorithm))))
			crashes, leaders := 0, map[string]int{}
			for seed := range seeds {
				n := 3 + rng.IntN(6)
				var script []string
				for range 1 + rng.IntN(6) {
					at, node := 1+rng.IntN(150), 1+rng.IntN(n)
					switch f := tc.faults[rng.IntN(len(tc.faults))]; f {
					case "pause":
						script = append(script, fmt.Sprintf(`{"at": %d, "fault": "pause", "node": %d, "for": %d}`, at, node, 1+rng.IntN(25)))
					default:
						script = append(script, fmt.Sprintf(`{"at": %d, "fault": %q, "node": %d}`, at, f, node))
						if f == "crash" {
							crashes++
						}
					}
					script = append(script, fmt.Sprintf(`{"at": %d, "node": %d, "command": "start-election"}`, 1+rng.IntN(150), 1+rng.IntN(n)))
				}
				for node := 1; node <= n; node++ {
					script = append(script, fmt.Sprintf(`{"at": 200, "node": %d, "command": "start-election"}`, node))
				}
				doc := fmt.Sprintf(`{"algorithm": %q, "n": %d, "seed": %d, "script": [%s], "until": {"quiescent": true, "time": 2000}}`,
					tc.algorithm, n, seed, strings.Join(script, ", "))
				r := algotest.Run(t, doc)
				v := r.At(r.Len()).View()
				require.True(t, election.Agreement.Check(v).OK, "seed %d: %s\n%s", seed, election.Agreement.Check(v).Detail, doc)
				highest := sim.NodeID(sim.None)
				for i := range v.N() {
					if v.Health(sim.NodeID(i)) != sim.Crashed {
						highest = sim.NodeID(i)
					}
				}
				if highest == sim.None {
					continue
				}
				m := algotest.Metrics(r)
				require.Equal(t, v.Name(highest), m["leader"], "seed %d: the highest live id leads\n%s", seed, doc)
				leaders[v.Name(highest)]++
			}
			t.Logf("%s: %d runs, %d crashes, leaders %v", tc.algorithm, seeds, crashes, leaders)
		})
	}
}
