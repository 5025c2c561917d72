// Command throughput measures how many events per second the simulator
// runs, for every registered algorithm, at a small and a large size its
// Spec allows (3 and 32 processes where it can), on the scenario
// scenario.Throughput gives (its first lesson with a workload). It is built natively and
// for js/wasm (run under Node.js by `make bench`), so the two figures come
// from the same code. It prints one JSON object per line; an algorithm
// that cannot be measured gets a line with its error, and the others are
// still measured.
//
//	throughput [-steps 100000] [-repeat 3]
package main

import (
	"encoding/json"
	"flag"
	"os"
	"runtime"
	"time"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
)

// Result is one measurement.
type Result struct {
	Algorithm string  `json:"algorithm"`
	Scenario  string  `json:"scenario"`
	N         int     `json:"n"`
	Steps     int     `json:"steps"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"events_per_s"`
	Platform  string  `json:"platform"`
	Error     string  `json:"error,omitempty"`
}

func main() {
	steps := flag.Int("steps", 100_000, "steps per run")
	repeat := flag.Int("repeat", 3, "runs per measurement; the fastest counts")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	failed := false
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, spec := range all.Specs() {
		for _, n := range scenario.ThroughputSizes(spec) {
			s, err := scenario.Throughput(spec.ID, n, *steps)
			if err != nil {
				enc.Encode(Result{Algorithm: spec.ID, N: n, Platform: platform, Error: err.Error()})
				failed = true
				continue
			}
			best, err := measure(s, *repeat)
			best.Algorithm, best.Scenario, best.N, best.Platform = spec.ID, s.ID, n, platform
			if err != nil {
				best.Error, failed = err.Error(), true
			}
			enc.Encode(best)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// measure runs a scenario repeat times and keeps the fastest.
func measure(s *scenario.Scenario, repeat int) (Result, error) {
	var best Result
	for range repeat {
		start := time.Now()
		r, err := s.Run()
		if err != nil {
			return best, err
		}
		sec := time.Since(start).Seconds()
		if best.Seconds == 0 || sec < best.Seconds {
			best.Steps, best.Seconds = r.Len(), sec
		}
	}
	best.PerSecond = float64(best.Steps) / best.Seconds
	return best, nil
}
