package conformance

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/golden"
)

// subjects are every registered algorithm, every algorithm written as a
// learner's program (a port), and the suite's own fixture.
func subjects(t *testing.T) []Subject {
	t.Helper()
	var out []Subject
	for _, spec := range all.Specs() {
		if spec.Program != nil {
			continue // a program is a subject by its code, below
		}
		sub, err := Registered(spec)
		require.NoError(t, err)
		out = append(out, sub)
	}
	for _, id := range ports.Algorithms() {
		code, _ := ports.For(id)
		sub, err := Program(id, python.ID, code)
		require.NoError(t, err)
		out = append(out, sub)
	}
	return append(out, RelaySubject())
}

func TestMain(m *testing.M) {
	all.Add(python.Spec)
	os.Exit(m.Run())
}

// wasm makes the suite lighter under js/wasm, where it runs several times
// slower; the hashes are what it is there for.
var wasm = runtime.GOOS == "js"

// TestEveryAlgorithmConforms runs the conformance suite over every
// registered algorithm (and the fixture): a new algorithm is checked by
// being registered, and does not pass make test until it conforms.
func TestEveryAlgorithmConforms(t *testing.T) {
	if wasm && testing.Short() {
		// the suite's checks are the same Go code natively; what js/wasm
		// can change is a run's trace, which TestLessonHashes holds
		t.Skip("under js/wasm, make test holds the lessons' traces (TestLessonHashes); make test-long runs the whole suite there")
	}
	for _, sub := range subjects(t) {
		t.Run(sub.Spec.ID, func(t *testing.T) {
			require.NoError(t, CheckSpec(sub.Spec))
			for i, l := range sub.Lessons {
				t.Run(l.Name, func(t *testing.T) {
					CheckDeterminism(t, l)
					cfg, err := l.Config()
					require.NoError(t, err)
					seeks := 30
					if cfg.Until.Steps > 10_000 || wasm {
						seeks = 4
					}
					CheckSeek(t, l, uint64(i+1), seeks)
					CheckClones(t, l, uint64(i+1))
				})
			}
			n, steps := RandomRuns(t, sub, algotest.Seeds(300))
			t.Logf("%s: %d random runs with faults, %d steps, no panic", sub.Spec.ID, n, steps)
		})
	}
}

// A step costs about as much late in a long run as early in it, for every
// algorithm at its largest size and at its smallest (where every message
// waits for the process that is down), in the bytes it allocates:
// checkpoints share what did not change, and invariants cost what
// changed. Work that grows with the run shows as a ratio of several. The
// time ratio is printed, not held to a bound: on a shared machine it
// swings from 2 to 5 for the same code.
func TestCostPerStepDoesNotGrow(t *testing.T) {
	if wasm || testing.Short() {
		t.Skip("measured natively")
	}
	for _, sub := range subjects(t) {
		if sub.Spec.ID == "relay" {
			continue
		}
		t.Run(sub.Spec.ID, func(t *testing.T) {
			for _, size := range []struct{ n, steps int }{{sub.Spec.MaxN, 1500}, {sub.Spec.MinN, 4000}} {
				allocs, times, what := CostGrowth(t, sub, size.n, size.steps)
				t.Logf("%s: a late step allocates %.2f and takes %.2f times what an early one does", what, allocs, times)
				assert.Less(t, allocs, 1.6, "%s: bytes allocated a step, late over early", what)
				_ = times // a figure, printed above
			}
		})
	}
}

// TestLessonHashes compares the SHA-256 of every lesson's trace with its
// golden hash, one file a lesson (testdata/hashes/ID.sha256), so that an
// algorithm's commit touches only its own lessons' files; under GOOS=js
// GOARCH=wasm (make test-wasm) the same test shows that the browser
// computes exactly the traces the command line does. Regenerate them
// with: go test ./internal/conformance -run TestLessonHashes -update
func TestLessonHashes(t *testing.T) {
	dir := filepath.Join("testdata", "hashes")
	want := map[string]bool{}
	for _, sub := range subjects(t) {
		for _, l := range sub.Lessons {
			cfg, err := l.Config()
			require.NoError(t, err)
			name := l.Name + ".sha256"
			want[name] = true
			golden.Check(t, filepath.Join(dir, name), Hash(t, start(t, cfg))+"\n")
		}
	}
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, f := range files {
		if want[f.Name()] {
			continue
		}
		if golden.Updating() {
			require.NoError(t, os.Remove(filepath.Join(dir, f.Name())))
			continue
		}
		t.Errorf("%s is the hash of no lesson (run the test with -update to remove it)", filepath.Join(dir, f.Name()))
	}
}

// TestSpecChecksCatchMistakes: the static checks refuse what would break
// the page or the link format.
func TestSpecChecksCatchMistakes(t *testing.T) {
	spec := *Relay
	spec.Learner.Commands = append(spec.Learner.Commands[:0:0], spec.Learner.Commands...)
	spec.Learner.Commands[0].Name = "po.ke"
	require.ErrorContains(t, CheckSpec(&spec), "links write it")
	spec = *Relay
	spec.Picture.Roles = append(spec.Picture.Roles[:0:0], spec.Picture.Roles...)
	spec.Picture.Roles[0].Legend = ""
	require.ErrorContains(t, CheckSpec(&spec), "no Legend")
	spec = *Relay
	spec.MinN, spec.MaxN = 5, 3
	require.ErrorContains(t, CheckSpec(&spec), "range of sizes")
	spec = *Relay
	spec.Checks.KnownLimits = []sim.KnownLimit{{Invariant: spec.Checks.Invariants[0].Name, Faults: []string{"flood"}, Why: "floods"}}
	require.ErrorContains(t, CheckSpec(&spec), `the fault "flood", which neither the registry`)
	spec.Checks.KnownLimits = []sim.KnownLimit{{Invariant: "never wrong", Faults: []string{"drop"}, Why: "lost"}}
	require.ErrorContains(t, CheckSpec(&spec), `"never wrong", which is not an invariant`)
	spec = *Relay
	spec.Learner.Commands = append(spec.Learner.Commands[:0:0], spec.Learner.Commands...)
	spec.Learner.Commands[0].Arg, spec.Learner.Commands[0].ArgMin, spec.Learner.Commands[0].ArgMax = "count", 5, 1
	require.ErrorContains(t, CheckSpec(&spec), "no number fits")
	// two kinds told apart by their colours alone, then by a glyph
	spec = *Relay
	spec.Kinds = []sim.KindSpec{{Name: "ASK", Role: sim.RoleControl, Tone: sim.Blue}, {Name: "ANSWER", Role: sim.RoleControl, Tone: sim.Green}}
	require.ErrorContains(t, CheckSpec(&spec), "ASK and ANSWER differ only by colour")
	spec.Kinds[1].Glyph = sim.GlyphOpenSquare
	require.NoError(t, CheckSpec(&spec))
	spec.Kinds = []sim.KindSpec{{Name: "DATA", Role: sim.RoleMessage, Glyph: sim.GlyphDot}, {Name: "ACK", Role: sim.RoleControl, Glyph: sim.GlyphDot}}
	require.ErrorContains(t, CheckSpec(&spec), "DATA and ACK differ only by colour", "1.4 and 1.2 pixels wide look alike")
}
