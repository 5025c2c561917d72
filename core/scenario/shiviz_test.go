package scenario_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// The ShiViz log opens in ShiViz as it is and passes its checks: the
// parsing expression on the first line, a blank second line, then each
// host's own clock entry rising by exactly one an event, and every clock
// the exact merge of the host's previous clock and, at a receipt, the
// clock of one event of another host. Crashes, pauses and timers are the
// hosts' events too.
func TestShiVizLogsParse(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 4, "seed": 3, "network": {"delay": [2, 9]},
		"workload": {"every": [1, 3], "until": 60},
		"script": [{"at": 20, "node": "C", "command": "snapshot"}, {"at": 10, "fault": "pause", "node": "B", "for": 12},
		           {"at": 30, "fault": "crash", "node": "D"}, {"at": 45, "fault": "recover", "node": "D"}],
		"until": {"quiescent": true}}`))
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	log := string(r.Trace().ShiViz(r.Len()))
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	require.Greater(t, len(lines), 2)
	assert.Equal(t, trace.ShiVizRegexp, lines[0], "the parsing expression first")
	assert.Empty(t, lines[1], "one execution: no delimiter")
	lines = lines[2:]
	require.Zero(t, len(lines)%2, "a clock line, then an event line")
	head := regexp.MustCompile(`^(\S+) (\{.*\})$`)
	prev := map[string]map[string]int{}     // each host's last clock
	events := map[string][]map[string]int{} // each host's clocks, in order
	kinds := map[string]bool{}
	for i := 0; i < len(lines); i += 2 {
		m := head.FindStringSubmatch(lines[i])
		require.NotNil(t, m, "line %d: %q", i+3, lines[i])
		var clock map[string]int
		require.NoError(t, json.Unmarshal([]byte(m[2]), &clock), lines[i])
		host := m[1]
		for h, v := range clock {
			require.Positive(t, v, "line %d: zero entries are left out", i+3)
			require.LessOrEqual(t, v, len(events[h])+btoi(h == host), "line %d: %s's entry names an event of %s that exists", i+3, h, h)
		}
		last := prev[host]
		assert.Equal(t, last[host]+1, clock[host], "line %d: %s's own clock rises by one", i+3, host)
		// the exact merge of the previous clock and one other host's event
		merged := func(with map[string]int) bool {
			for h := range union(clock, last, with) {
				if h != host && clock[h] != max(last[h], with[h]) {
					return false
				}
			}
			return true
		}
		ok := merged(nil)
		for h, v := range clock {
			if h != host && v > last[h] {
				ok = ok || merged(events[h][v-1])
			}
		}
		assert.True(t, ok, "line %d: %s is the merge of %s's previous clock %v and one event's", i+3, m[2], host, last)
		prev[host] = clock
		events[host] = append(events[host], clock)
		kinds[strings.FieldsFunc(lines[i+1], func(r rune) bool { return r == ' ' || r == ':' })[0]] = true
	}
	assert.Equal(t, len(lines)/2, hostEvents(r.Trace())+inFlight(r.Trace()), "every event of a process and every message on its way at the end, and nothing else")
	for _, k := range []string{"init", "deliver", "workload", "command", "pause", "crash", "recover"} {
		assert.True(t, kinds[k], "%s steps are events of the log", k)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// union is the keys of some clocks.
func union(clocks ...map[string]int) map[string]bool {
	out := map[string]bool{}
	for _, c := range clocks {
		for h := range c {
			out[h] = true
		}
	}
	return out
}

// hostEvents counts the steps of a trace that are a process's events: not
// the whole network's, nor the network's doing to a message.
// inFlight counts the messages on their way at the end of a trace, each
// an event of its receiver in the log.
func inFlight(tr *trace.Trace) int {
	n := 0
	for _, m := range tr.Msgs {
		if m.InFlightAt(tr.Len()) {
			n++
		}
	}
	return n
}

func hostEvents(tr *trace.Trace) int {
	n := 0
	for _, r := range tr.Records {
		if r.Node >= 0 && !(r.Kind == trace.Fault && r.Extra != nil && r.Extra.Args != nil && r.Extra.Args.Msg >= 0) {
			n++
		}
	}
	return n
}
