package ports_test

import (
	"testing"

	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
)

// BenchmarkPorts runs the Write view's starter (README's example, on 4
// processes) and each port's first lesson beside its Go twin, for 20,000
// steps: ns/op over 20,000 steps, and events/s. make bench prints the
// same figures natively and in wasm (cmd/throughput -programs); this one
// is for profiling.
func BenchmarkPorts(b *testing.B) {
	const steps = 20_000
	benchRun(b, "starter", &scenario.Scenario{Algorithm: python.ID, Code: ports.Starter(), N: 4, Seed: 1, Until: scenario.Until{Steps: steps}})
	for _, id := range ports.Algorithms() {
		var lesson *scenario.Scenario
		for _, l := range scenario.BuiltinIDs() {
			s, _ := scenario.Builtin(l)
			if s.Algorithm == id && s.Until.Steps == 0 {
				lesson = s
				break
			}
		}
		if lesson == nil {
			continue
		}
		lesson.Lesson, lesson.Expect = nil, nil
		lesson.Until = scenario.Until{Steps: steps}
		code, _ := ports.AsCode(lesson, python.ID)
		benchRun(b, id+"/go", lesson)
		benchRun(b, id+"/python", code)
	}
}

// benchRun is the benchmark of running s whole, in events/s.
func benchRun(b *testing.B, name string, s *scenario.Scenario) {
	b.Run(name, func(b *testing.B) {
		p, err := s.Compile()
		if err != nil {
			b.Fatal(err)
		}
		steps := 0
		for b.Loop() {
			r, err := p.Run()
			if err != nil {
				b.Fatal(err)
			}
			steps += r.Len()
		}
		b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
	})
}
