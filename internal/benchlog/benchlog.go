// Package benchlog makes the ShiViz logs that the benchmarks open, the
// same in every measurement: the export of snapshot-long's first steps.
package benchlog

import "spacetime/core/scenario"

// Sizes are the logs' sizes, in events, that the benchmarks time.
var Sizes = []int{10_000, 100_000}

// Long returns the first n events of the ShiViz export of snapshot-long's
// first n steps, for each n of sizes.
func Long(sizes []int) ([][]byte, error) {
	s, err := scenario.Builtin("snapshot-long")
	if err != nil {
		return nil, err
	}
	p, err := s.Compile()
	if err != nil {
		return nil, err
	}
	r, err := p.Run()
	if err != nil {
		return nil, err
	}
	logs := make([][]byte, len(sizes))
	for i, n := range sizes {
		logs[i] = firstEvents(r.Trace().ShiViz(n), n)
	}
	return logs, nil
}

// firstEvents keeps a ShiViz log's first n events: the export of n steps
// ends with an event for each message still on its way, past n.
func firstEvents(log []byte, n int) []byte {
	lines := 2 + 2*n // the expression, the blank line, two lines an event
	for i, c := range log {
		if c == '\n' {
			if lines--; lines == 0 {
				return log[:i+1]
			}
		}
	}
	return log
}
