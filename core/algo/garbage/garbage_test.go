package garbage_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/garbage"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The lessons: asking everyone frees the object while 3 holds it; a
// snapshot records the REF on its way and frees the object only once it
// is garbage.
func TestLessons(t *testing.T) {
	_, r := scenariotest.Run(t, "garbage-ask")
	assert.Contains(t, algotest.Failed(r), "the object is freed only when it is garbage: 1 freed the object at tick 8, but 3 holds a reference: it was not garbage")

	_, r = scenariotest.Run(t, "garbage-snapshot")
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, true, m["freed"])
	assert.Equal(t, 2, m["checks"])
	assert.Contains(t, algotest.Captions(r), "the REF is recorded on that channel (snapshot 1)")
	assert.Contains(t, algotest.Captions(r), "Check 1 found 1 reference: the object is in use")
}

// Over many seeds of random copies and drops, a check by snapshot never
// frees an object in use, and an object that has become garbage is freed
// by a later check.
func TestSnapshotsFreeGarbageAndNothingElse(t *testing.T) {
	garbage := 0
	for seed := 1; seed <= 150; seed++ {
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "garbage-detection", "n": 4, "seed": %d, "params": {"holders": [2, 3], "every": 3},
			"workload": {"p": 0.5, "every": [1, 4], "until": 60}, "until": {"time": 200}}`, seed))
		require.Empty(t, algotest.Failed(r), "seed %d", seed)
		m := algotest.Metrics(r)
		if m["references_held"] == 0 && m["references_in_flight"] == 0 {
			garbage++
			assert.Equal(t, true, m["freed"], "seed %d: garbage, and never freed", seed)
		} else {
			assert.Equal(t, false, m["freed"], "seed %d", seed)
		}
	}
	assert.Greater(t, garbage, 20, "enough runs end in garbage to test")
}

// Bad params are refused, naming the field.
func TestBadParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"holders": [4]}`: `field "params.holders[0]": want a process from 1 to 3, got 4`,
		`{"every": 0}`:     `field "params.every": want ticks from 1`,
	} {
		s, err := scenario.Parse([]byte(`{"algorithm": "garbage-detection", "n": 3, "params": ` + params + `, "until": {"time": 9}}`))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
}

// A check whose marker the network loses never ends, and the owner would
// never free the object: the check says so once nothing else is on its
// way.
func TestACheckThatCannotEndIsNamed(t *testing.T) {
	s, err := scenario.Builtin("garbage-snapshot")
	require.NoError(t, err)
	marker := 1 // 1's marker to 3
	s.Script = append(s.Script, scenario.Entry{At: 7, Fault: "drop", Msg: &marker})
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	assert.Equal(t, []string{garbage.ChecksEndName + ": nothing is on its way to a live process, but 1 still waits for check 1's word from 3"}, algotest.Failed(r))
}

// The rules check holds on the lessons, and names a process that takes a
// REF without holding one more reference, and one that keeps a complete
// part of a snapshot unreported.
func TestTheRulesCheckNamesAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View) string { return algotest.Check(t, garbage.Spec, v, garbage.RulesName).Detail }
	broke := map[string]bool{}
	for _, lesson := range []string{"garbage-ask", "garbage-snapshot"} {
		_, r := scenariotest.Run(t, lesson)
		algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
			algotest.Holds(t, garbage.Spec, v, k, garbage.RulesName)
			p := v.Node(id).(*garbage.Process)
			switch {
			case ev.Kind == sim.Deliver && ev.Msg.Kind == garbage.KindRef && !broke["ref"]:
				p.Holds--
				assert.Contains(t, check(v), "took a REF, and holds")
				p.Holds++
				broke["ref"] = true
			case ev.Kind == sim.Deliver && ev.Msg.Kind == garbage.KindMarker && p.Snap.Reported && !broke["report"]:
				p.Snap.Reported = false
				assert.Contains(t, check(v), "has not reported it")
				p.Snap.Reported = true
				broke["report"] = true
			}
		})
	}
	assert.Len(t, broke, 2)
}
