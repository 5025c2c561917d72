package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// A comparison's runs share everything but their algorithm, and are
// built-in scenarios of their own, kept out of the lesson list.
func TestComparisonRunsShareTheirScenario(t *testing.T) {
	c, ok := scenario.LookupComparison("mutex-contention-high")
	require.True(t, ok)
	members, err := c.Members()
	require.NoError(t, err)
	require.Len(t, members, 6)
	for i, m := range members {
		assert.Equal(t, c.Algorithms[i], m.Algorithm)
		assert.Equal(t, c.MemberIDs()[i], m.ID)
		assert.Equal(t, members[0].N, m.N)
		assert.Equal(t, members[0].Seed, m.Seed)
		assert.Equal(t, members[0].Workload, m.Workload)
		assert.Equal(t, members[0].Script, m.Script)
		b, err := scenario.Builtin(m.ID)
		require.NoError(t, err)
		assert.True(t, scenario.IsBuiltin(b))
	}
	assert.True(t, members[5].Expected("no deadlock"), "Maekawa's run declares its deadlock")
	assert.False(t, members[0].Expected("no deadlock"))
	for _, info := range scenario.BuiltinList() {
		assert.Empty(t, scenario.ComparisonOf(info.ID), "%s is listed with its comparison, not alone", info.ID)
	}
}

// A malformed comparison is refused, naming the field.
func TestBadComparisons(t *testing.T) {
	for doc, want := range map[string]string{
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central"], "scenario": {"n": 3, "until": {"time": 9}}}`:                                                   `"algorithms": a comparison runs 2 to 6 algorithms, got 1`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "paxos"], "scenario": {"n": 3, "until": {"time": 9}}}`:                                          `"algorithms[1]": unknown algorithm "paxos"`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 3, "algorithm": "central"}}`:                                      `"scenario.algorithm": each run has its own algorithm`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 4, "until": {"time": 9}}}`:                                        `the run of maekawa: scenario: field "n": maekawa builds request sets`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": [1]}`:                                                                   `"scenario": want the scenario the runs share, as an object`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 3}, "expect": {"bully": {}}}`:                                     `"expect.bully": not one of the comparison's algorithms (central, maekawa)`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 3}, "params": {"lease": {}}}`:                                     `"params.lease": not one of the comparison's algorithms (central, maekawa)`,
		`{"id": "x", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 3, "until": {"time": 9}}, "params": {"central": {"cs_time": 0}}}`: `the run of central: scenario: field "params.cs_time"`,
		`{"id": "", "title": "x", "description": "x", "algorithms": ["central", "maekawa"], "scenario": {"n": 3, "until": {"time": 9}}}`:                                         `"id": a comparison needs an id`,
	} {
		_, err := scenario.ParseComparison([]byte(doc))
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), want, doc)
	}
}
