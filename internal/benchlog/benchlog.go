// Package benchlog makes the ShiViz logs that the benchmarks open, the
// same in every measurement: the export of snapshot-long's first steps.
package benchlog

import "spacetime/core/scenario"

// Sizes are the logs' sizes, in events, that the benchmarks time.
var Sizes = []int{10_000, 100_000}

// Long returns the ShiViz export of snapshot-long's first n steps, for
// each n of sizes.
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
		logs[i] = r.Trace().ShiViz(n)
	}
	return logs, nil
}
