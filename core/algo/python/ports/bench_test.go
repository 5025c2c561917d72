package ports_test

import (
	"testing"

	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
)

// BenchmarkPorts runs each port's first lesson for 20,000 steps, beside
// its Go twin: ns/op over 20,000 steps, and events/s.
func BenchmarkPorts(b *testing.B) {
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
		lesson.Until = scenario.Until{Steps: 20000}
		code, _ := ports.AsCode(lesson, python.ID)
		for _, tc := range []struct {
			name string
			s    *scenario.Scenario
		}{{"go", lesson}, {"python", code}} {
			b.Run(id+"/"+tc.name, func(b *testing.B) {
				p, err := tc.s.Compile()
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
	}
}
