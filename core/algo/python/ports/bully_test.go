package ports_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// The port stays the Go version's twin under faults the lessons do not
// show: a process down from the start that comes up late, crashes and
// recoveries in the middle of elections, a pause that looks like a
// crash, lost and slow messages, and a partition that elects a second
// leader (the agreement invariant fails).
func TestBullyPortIsTheGoTwinUnderFaults(t *testing.T) {
	for _, s := range []string{
		`{"id": "bully-late", "algorithm": "bully", "n": 5, "seed": 2,
		  "down": [3, 5],
		  "network": {"delay": [1, 3], "fifo": false},
		  "script": [{"at": 2, "node": 1, "command": "start-election"}, {"at": 6, "fault": "recover", "node": 5},
		             {"at": 7, "fault": "crash", "node": 4}, {"at": 9, "fault": "recover", "node": 3},
		             {"at": 20, "fault": "recover", "node": 4}, {"at": 21, "node": 2, "command": "start-election"}],
		  "until": {"quiescent": true}}`,
		`{"id": "bully-pause", "algorithm": "bully", "n": 6, "seed": 4,
		  "network": {"delay": [1, 4]},
		  "params": {"timeout": 4, "wait": 9},
		  "script": [{"at": 1, "fault": "crash", "node": 6}, {"at": 2, "node": 2, "command": "start-election"},
		             {"at": 3, "fault": "pause", "node": 5, "for": 12}, {"at": 4, "fault": "drop", "msg": 7},
		             {"at": 5, "fault": "delay", "msg": 9, "for": 15}, {"at": 30, "fault": "recover", "node": 6},
		             {"at": 31, "node": 1, "command": "start-election"}],
		  "until": {"quiescent": true}}`,
		`{"id": "bully-partition", "algorithm": "bully", "n": 5, "seed": 2,
		  "network": {"delay": [1, 2]},
		  "script": [{"at": 2, "fault": "partition", "groups": [[1, 2, 3, 4], [5]]},
		             {"at": 3, "node": 2, "command": "start-election"}],
		  "until": {"quiescent": true}}`,
	} {
		sc, err := scenario.Parse([]byte(s))
		require.NoError(t, err)
		t.Run(sc.ID, func(t *testing.T) { sameRun(t, sc) })
	}
}

// A process down from the start that comes up late holds an election,
// as one that recovers does. The Go version knows it is late from the
// simulation's time; the port can read only its own clock, p.now, which
// a skew can set behind: it then takes itself for a process starting on
// time.
func TestBullyPortComesUpLateWithASkewedClock(t *testing.T) {
	sc, err := scenario.Parse([]byte(`{"id": "bully-late-skewed", "algorithm": "bully", "n": 5, "seed": 2,
	  "down": [5],
	  "script": [{"at": 1, "fault": "skew", "node": 5, "by": -10}, {"at": 3, "fault": "recover", "node": 5}],
	  "until": {"quiescent": true}}`))
	require.NoError(t, err)
	sameRun(t, sc)
}
