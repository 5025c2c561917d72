// Command throughput measures how many events per second the simulator
// runs, for every registered algorithm, at a small and a large size its
// Spec allows (3 and 32 processes where it can). It is built natively and
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
	"fmt"
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

// sizes are the process counts an algorithm is measured at: 3 and 32, or
// the nearest its Spec allows.
func sizes(minN, maxN int) []int {
	small, large := min(max(3, minN), maxN), min(max(32, minN), maxN)
	if small == large {
		return []int{small}
	}
	return []int{small, large}
}

func main() {
	steps := flag.Int("steps", 100_000, "steps per run")
	repeat := flag.Int("repeat", 3, "runs per measurement; the fastest counts")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	failed := false
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, spec := range all.Specs() {
		base, err := lesson(spec.ID)
		if err != nil {
			enc.Encode(Result{Algorithm: spec.ID, Platform: platform, Error: err.Error()})
			failed = true
			continue
		}
		for _, n := range sizes(spec.MinN, spec.MaxN) {
			best, err := measure(base, n, *steps, *repeat)
			best.Algorithm, best.Scenario, best.N, best.Platform = spec.ID, base.ID, n, platform
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

// measure runs a lesson resized to n processes for steps steps, repeat
// times, and keeps the fastest.
func measure(base *scenario.Scenario, n, steps, repeat int) (Result, error) {
	var best Result
	s := base
	if n != base.N {
		var err error
		if s, err = base.WithN(n); err != nil {
			return best, fmt.Errorf("%s with n=%d: %v", base.ID, n, err)
		}
	}
	s = s.Clone()
	s.Until = scenario.Until{Steps: steps}
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

// lesson is the first built-in scenario of an algorithm, by id.
func lesson(algorithm string) (*scenario.Scenario, error) {
	for _, b := range scenario.BuiltinList() {
		s, err := scenario.Builtin(b.ID)
		if err == nil && s.Algorithm == algorithm {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no built-in scenario runs %s: add one to measure it", algorithm)
}
