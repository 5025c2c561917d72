package scenario_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// ShiViz refuses a log in which a host's own clock does not rise by exactly
// one per event; faults (which do not tick the clocks) are left out.
func TestShiVizLogsParse(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 4, "seed": 3, "network": {"delay": [2, 9]},
		"workload": {"every": [1, 3], "until": 60},
		"script": [{"at": 20, "node": "C", "command": "snapshot"}, {"at": 10, "fault": "pause", "node": "B", "for": 12},
		           {"at": 30, "fault": "crash", "node": "D"}, {"at": 45, "fault": "recover", "node": "D"}],
		"until": {"quiescent": true}}`))
	require.NoError(t, err)
	r, err := s.Run()
	require.NoError(t, err)
	log := string(r.Trace().ShiViz(r.Len()))
	lines := strings.Split(strings.TrimSpace(log), "\n")
	require.Zero(t, len(lines)%2, "a clock line, then an event line")
	head := regexp.MustCompile(`^(\S+) (\{.*\})$`)
	last := map[string]int{}
	events := 0
	for i := 0; i < len(lines); i += 2 {
		m := head.FindStringSubmatch(lines[i])
		require.NotNil(t, m, "line %d: %q", i+1, lines[i])
		var clock map[string]int
		require.NoError(t, json.Unmarshal([]byte(m[2]), &clock), lines[i])
		host := m[1]
		assert.Equal(t, last[host]+1, clock[host], "line %d: %s's own clock rises by one", i+1, host)
		last[host] = clock[host]
		events++
	}
	assert.Less(t, events, r.Len(), "the faults are left out")
	assert.Greater(t, events, r.Len()/2)
}
