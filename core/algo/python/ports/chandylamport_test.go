package ports_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/check"
	"spacetime/core/scenario"
)

// bank is a chandy-lamport scenario of the bank lessons' shape, with the
// given network, params and script.
func bank(t *testing.T, id string, seed int, network, params, script string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse(fmt.Appendf(nil, `{"id": %q, "algorithm": "chandy-lamport", "names": ["A", "B", "C", "D"],
		"seed": %d, "scheduler": "random", "rng": "pcg", "network": %s, "params": %s,
		"workload": {"p": 0.5}, "script": %s, "until": {"time": 400, "done": true}}`, id, seed, network, params, script))
	require.NoError(t, err)
	return s
}

// The port stays the twin off the lessons' paths: crashes (what a branch
// keeps on disk), lost and copied messages, commanded transfers, several
// snapshots, seed 003's rule, and non-FIFO runs whose recorded cut is
// inconsistent.
func TestChandyLamportPortOffTheLessons(t *testing.T) {
	snap := `[{"at": 20, "node": "A", "command": "snapshot"}, {"at": 120, "node": "C", "command": "snapshot"}]`
	var cases []*scenario.Scenario
	for seed := 1; seed <= 3; seed++ {
		cases = append(cases,
			bank(t, fmt.Sprintf("crash-%d", seed), seed, `{"fifo": true}`, `{"balances": [50, 100, 150, 7]}`,
				`[{"at": 18, "fault": "crash", "node": "B"}, {"at": 20, "node": "A", "command": "snapshot"}, {"at": 30, "fault": "recover", "node": "B"},
				  {"at": 125, "fault": "crash", "node": "A"}, {"at": 140, "fault": "recover", "node": "A"}, {"at": 130, "node": "C", "command": "snapshot"}]`),
			bank(t, fmt.Sprintf("commands-%d", seed), seed, `{"fifo": true}`, `{"max_transfer": 90, "seed_channels": true}`,
				`[{"at": 5, "node": "B", "command": "transfer", "target": "D", "arg": 60}, {"at": 6, "node": "B", "command": "transfer", "target": "C", "arg": 500},
				  {"at": 20, "node": "A", "command": "snapshot"}, {"at": 21, "node": "B", "command": "snapshot"}, {"at": 120, "node": "C", "command": "snapshot"}]`),
			bank(t, fmt.Sprintf("loss-%d", seed), seed, `{"fifo": true, "loss": 0.1}`, `{}`, snap),
			bank(t, fmt.Sprintf("duplicate-%d", seed), seed, `{"fifo": true}`, `{}`,
				`[{"at": 10, "fault": "duplicate", "msg": 3}, {"at": 20, "node": "A", "command": "snapshot"}]`),
		)
	}
	inconsistent := 0
	for seed := 1; seed <= 40; seed++ {
		s := bank(t, fmt.Sprintf("nonfifo-%d", seed), seed, `{"fifo": false}`, `{}`, snap)
		for _, f := range run(t, s).Failures() {
			if f.Name == check.RecordedCutName && f.Step >= 0 {
				inconsistent++
			}
		}
		cases = append(cases, s)
	}
	require.NotZero(t, inconsistent, "some non-FIFO run records an inconsistent cut")
	for _, s := range cases {
		t.Run(s.ID, func(t *testing.T) { sameRun(t, s) })
	}
}
