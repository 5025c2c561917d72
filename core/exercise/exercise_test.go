package exercise_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/exercise"
	"spacetime/core/scenario"
)

func TestMain(m *testing.M) {
	all.Add(python.Spec)
	os.Exit(m.Run())
}

// answer is an exercise's skeleton with its hole filled by the port's
// own rule (the model answer) or by another.
func answer(t *testing.T, lesson, fill string) string {
	t.Helper()
	skeleton, ok := ports.Skeleton(lesson)
	require.True(t, ok)
	i := strings.Index(skeleton, "    # EXERCISE")
	j := strings.Index(skeleton[i:], "    pass\n")
	require.True(t, i > 0 && j > 0, "the skeleton has a hole")
	return skeleton[:i] + fill + skeleton[i+j+len("    pass\n"):]
}

func lesson(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	return s
}

// Each exercise's skeleton, left empty, fails its check; filled with the
// port's rule, it passes; filled with a rule the texts get wrong, it
// fails at a seed and step whose run shows it.
func TestExercises(t *testing.T) {
	require.Equal(t, []string{"mutex-contention-high-ricart-agrawala", "snapshot-bank"}, ports.Exercises())

	markerRule := `    k, q = m.snapshot, m.sender
    r = round_of(p, k)
    if not r["recorded"]:
        record(p, k)
    if q not in r["closed"]:
        r["closed"].append(q)
`
	a, err := exercise.Check(lesson(t, "snapshot-bank"), python.ID, answer(t, "snapshot-bank", markerRule), 40, nil)
	require.NoError(t, err)
	assert.Nil(t, a.Failure, "%s", a.Say())
	assert.Equal(t, 40, a.Passed)
	assert.Contains(t, a.Say(), `"snapshot total equals the money there is"`)
	assert.Contains(t, a.Say(), "held in 40 of 40 runs")

	empty, _ := ports.Skeleton("snapshot-bank")
	a, err = exercise.Check(lesson(t, "snapshot-bank"), python.ID, empty, 40, nil)
	require.NoError(t, err)
	require.NotNil(t, a.Failure)
	assert.Equal(t, exercise.DoneName, a.Failure.Invariant, "markers that do nothing never finish a snapshot")
	assert.Equal(t, uint64(1), a.Failure.Seed)

	// the rule that forgets to record the state on the first marker
	forgetful := `    k, q = m.snapshot, m.sender
    r = round_of(p, k)
    r["recorded"] = True
    if q not in r["closed"]:
        r["closed"].append(q)
`
	a, err = exercise.Check(lesson(t, "snapshot-bank"), python.ID, answer(t, "snapshot-bank", forgetful), 40, nil)
	require.NoError(t, err)
	require.NotNil(t, a.Failure, "a snapshot that records no balance cannot add up")
	f := a.Failure
	assert.Contains(t, a.Say(), "fails at seed")
	// the failure's scenario replays it: the same invariant fails at the same step
	p, err := f.Scenario.Compile()
	require.NoError(t, err)
	r, err := p.Run()
	require.NoError(t, err)
	failedAt := map[string]int{}
	for _, x := range r.Failures() {
		failedAt[x.Name] = x.Step + 1
	}
	if f.Invariant != exercise.DoneName {
		assert.Equal(t, f.Step, failedAt[f.Invariant])
	}

	// Ricart–Agrawala: the port's reply rule holds; the priority flipped
	// breaks an invariant
	right := `    want, mine = p.state["want"], p.state["mine"]
    if want == "in" or (want == "wanting" and mine < theirs):
        p.state["deferred"].append(theirs)
    else:
        p.send(sender, "REPLY", stamp=theirs)
`
	wrong := `    want, mine = p.state["want"], p.state["mine"]
    if want == "in" or (want == "wanting" and mine > theirs):
        p.state["deferred"].append(theirs)
    else:
        p.send(sender, "REPLY", stamp=theirs)
`
	ra := lesson(t, "mutex-contention-high-ricart-agrawala")
	a, err = exercise.Check(ra, python.ID, answer(t, ra.ID, right), 20, nil)
	require.NoError(t, err)
	assert.Nil(t, a.Failure, "%s", a.Say())
	a, err = exercise.Check(ra, python.ID, answer(t, ra.ID, wrong), 20, nil)
	require.NoError(t, err)
	require.NotNil(t, a.Failure)
	assert.Contains(t, []string{"at most one process in the critical section", "no deadlock", "granted in timestamp order"}, a.Failure.Invariant)
}

// BenchmarkCheck checks the Chandy–Lamport port, a right answer, on
// snapshot-bank over 50 seeds: what Check my answer costs.
func BenchmarkCheck(b *testing.B) {
	code, _ := ports.For("chandy-lamport")
	l, err := scenario.Builtin("snapshot-bank")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if a, err := exercise.Check(l, python.ID, code, 50, nil); err != nil || a.Failure != nil {
			b.Fatal(err, a.Say())
		}
	}
}
