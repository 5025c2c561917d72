package logimport_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// BenchmarkFromLog imports the ShiViz export of snapshot-long's first
// 10,000 and 100,000 steps (0.8 and 8.1 MB), as the page opens a log (the
// text as a string), and the log of 100,000 events of 64 hosts, the
// costliest per byte: it reports the time, the bytes allocated and the
// log's bytes a second.
func BenchmarkFromLog(b *testing.B) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(b, err)
	r, err := scenariotest.Plan(b, s).Run()
	require.NoError(b, err)
	next := roundRobin(64)
	wide := logOf(logimport.MaxLogBytes, "", func(i int) (string, bool) { return next(i), i < logimport.MaxLogEvents })
	for _, bc := range []struct {
		name string
		log  string
	}{
		{"events=10000", string(r.Trace().ShiViz(10_000))},
		{"events=100000", string(r.Trace().ShiViz(100_000))},
		{"events=100000,hosts=64", string(wide)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.log)))
			for b.Loop() {
				_, err := logimport.FromLog(bc.log, "bench.log")
				require.NoError(b, err)
			}
		})
	}
}
