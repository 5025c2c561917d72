// Command throughput measures how many events per second the simulator
// runs, for every registered algorithm, with 3 and with 32 processes. It is
// built natively and for js/wasm (run under Node.js by `make bench`), so the
// two figures come from the same code. It prints one JSON object per line.
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
}

func main() {
	steps := flag.Int("steps", 100_000, "steps per run")
	repeat := flag.Int("repeat", 3, "runs per measurement; the fastest counts")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	for _, spec := range all.Specs() {
		base, err := lesson(spec.ID)
		if err != nil {
			fmt.Fprintln(os.Stderr, "throughput:", err)
			os.Exit(1)
		}
		for _, n := range []int{3, 32} {
			s, err := base.WithN(n)
			if err != nil {
				fmt.Fprintf(os.Stderr, "throughput: %s with n=%d: %v\n", base.ID, n, err)
				os.Exit(1)
			}
			s.Until = scenario.Until{Steps: *steps}
			best := Result{Algorithm: spec.ID, Scenario: base.ID, N: n, Platform: runtime.GOOS + "/" + runtime.GOARCH}
			for range *repeat {
				start := time.Now()
				r, err := s.Run()
				if err != nil {
					fmt.Fprintln(os.Stderr, "throughput:", err)
					os.Exit(1)
				}
				sec := time.Since(start).Seconds()
				if best.Seconds == 0 || sec < best.Seconds {
					best.Steps, best.Seconds = r.Len(), sec
				}
			}
			best.PerSecond = float64(best.Steps) / best.Seconds
			enc.Encode(best)
		}
	}
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
