package ports_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// The port stays the Go version's twin under faults the lessons do not
// show: lost, duplicated and reordered messages, crashes and recoveries,
// a pause, and a steady workload.
func TestRicartAgrawalaPortIsTheGoTwinUnderFaults(t *testing.T) {
	for _, s := range []string{
		`{"id": "ra-crash-recover", "algorithm": "ricart-agrawala", "n": 4, "seed": 3,
		  "network": {"delay": [1, 4], "fifo": false},
		  "workload": {"p": 1, "every": [1, 4], "until": 120},
		  "script": [{"at": 10, "fault": "crash", "node": 2}, {"at": 25, "fault": "recover", "node": 2},
		             {"at": 40, "fault": "pause", "node": 3, "for": 9}, {"at": 60, "fault": "crash", "node": 1},
		             {"at": 61, "fault": "recover", "node": 1}],
		  "until": {"time": 200}}`,
		`{"id": "ra-reorder", "algorithm": "ricart-agrawala", "n": 5, "seed": 7,
		  "network": {"delay": [1, 6], "fifo": false},
		  "params": {"cs_time": 2},
		  "workload": {"p": 0.5, "every": [1, 3], "until": 150},
		  "script": [{"at": 5, "fault": "duplicate", "msg": 3}, {"at": 30, "fault": "duplicate", "msg": 40},
		             {"at": 50, "fault": "drop", "msg": 70}],
		  "until": {"time": 200}}`,
	} {
		sc, err := scenario.Parse([]byte(s))
		require.NoError(t, err)
		t.Run(sc.ID, func(t *testing.T) { sameRun(t, sc) })
	}
}
