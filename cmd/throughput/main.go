// Command throughput measures how many events per second the simulator
// runs, for every registered algorithm, at a small and a large size its
// Spec allows (3 and 32 processes where it can), on the scenario
// scenario.Throughput gives (its first lesson with a workload). It is built natively and
// for js/wasm (run under Node.js by `make bench`), so the two figures come
// from the same code. It prints one JSON object per line; an algorithm
// that cannot be measured gets a line with its error, and the others are
// still measured. In wasm, -programs sets the collector as the Write
// view's client does (internal/wasmgc).
//
// With -explore it times the schedule search of every lesson that sets
// one (lesson.search): its states per second and the time to its
// violation, or to its bound when it finds none, the median of -repeat.
//
// With -programs it measures learners' programs instead: the Write
// view's starter (README's example, "python:starter"), and each
// algorithm written as a program (core/algo/python/ports) on its
// throughput scenario at 3 processes, beside the built-in algorithm it
// ports (one line each, the program's algorithm written "python:" and
// the id).
//
// With -log it times opening a ShiViz log instead, as the page does (read,
// replay, lay out at 1280×720): the export of the 100,000-step lesson's
// first 10,000 and 100,000 steps, the median of -repeat.
//
//	throughput [-steps 100000] [-repeat 3] [-only id,id] [-log | -explore | -programs]
package main

import (
	"encoding/json"
	"flag"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/explore"
	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/benchlog"
	"spacetime/internal/wasmgc"
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

func init() { all.Add(python.Spec) }

func main() {
	steps := flag.Int("steps", 100_000, "steps per run")
	repeat := flag.Int("repeat", 3, "runs per measurement; the fastest counts")
	logs := flag.Bool("log", false, "time opening ShiViz logs instead")
	searches := flag.Bool("explore", false, "time the lessons' schedule searches instead")
	programs := flag.Bool("programs", false, "measure the algorithms written as programs, beside their Go twins, instead")
	only := flag.String("only", "", "comma-separated algorithm ids to measure (all when empty)")
	flag.Parse()
	if runtime.GOOS == "js" && *programs {
		wasmgc.Tune() // as the Write view's client runs
	}
	enc := json.NewEncoder(os.Stdout)
	if *logs {
		if err := importLogs(enc, *repeat); err != nil {
			enc.Encode(LogResult{Platform: runtime.GOOS + "/" + runtime.GOARCH, Error: err.Error()})
			os.Exit(1)
		}
		return
	}
	if *searches {
		if err := timeSearches(enc, *repeat); err != nil {
			enc.Encode(SearchResult{Platform: runtime.GOOS + "/" + runtime.GOARCH, Error: err.Error()})
			os.Exit(1)
		}
		return
	}
	// chosen says whether -only names id ("starter" is the Write view's
	// starter in -programs)
	chosen := func(id string) bool {
		return *only == "" || slices.Contains(strings.Split(*only, ","), id)
	}
	failed := false
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if *programs {
		// the Write view's starter, README's example, on its 4 processes
		starter := &scenario.Scenario{ID: "starter", Algorithm: python.ID, Code: ports.Starter(), N: 4, Seed: 1, Until: scenario.Until{Steps: *steps}}
		if chosen("starter") {
			best, err := measure(starter, *repeat)
			best.Algorithm, best.Scenario, best.N, best.Platform = python.ID+":starter", starter.ID, 4, platform
			if err != nil {
				best.Error, failed = err.Error(), true
			}
			enc.Encode(best)
		}
		for _, id := range ports.Algorithms() {
			if !chosen(id) {
				continue
			}
			s, err := scenario.Throughput(id, 3, *steps)
			if err != nil {
				enc.Encode(Result{Algorithm: id, N: 3, Platform: platform, Error: err.Error()})
				failed = true
				continue
			}
			code, _ := ports.For(id)
			for _, run := range []struct {
				name string
				s    *scenario.Scenario
			}{{id, s}, {python.ID + ":" + id, s.WithProgram(python.ID, code)}} {
				best, err := measure(run.s, *repeat)
				best.Algorithm, best.Scenario, best.N, best.Platform = run.name, s.ID, 3, platform
				if err != nil {
					best.Error, failed = err.Error(), true
				}
				enc.Encode(best)
			}
		}
		if failed {
			os.Exit(1)
		}
		return
	}
	for _, spec := range all.Specs() {
		if spec.Program != nil {
			continue // measured with -programs
		}
		if !chosen(spec.ID) {
			continue
		}
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
	p, err := s.Compile()
	if err != nil {
		return best, err
	}
	for range repeat {
		start := time.Now()
		r, err := p.Run()
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

// LogResult is the time to open a ShiViz log of so many events.
type LogResult struct {
	Events   int     `json:"log_events"`
	MS       float64 `json:"ms"`
	Platform string  `json:"platform"`
	Error    string  `json:"error,omitempty"`
}

// importLogs times opening the ShiViz export of snapshot-long's first
// 10,000 and 100,000 steps: the median of repeat.
func importLogs(enc *json.Encoder, repeat int) error {
	logs, err := benchlog.Long(benchlog.Sizes)
	if err != nil {
		return err
	}
	for i, n := range benchlog.Sizes {
		log := logs[i]
		res := LogResult{Events: n, Platform: runtime.GOOS + "/" + runtime.GOARCH}
		var ms []float64
		for range max(repeat, 1) {
			runtime.GC() // each repeat starts as a page does: no cycle under way
			start := time.Now()
			var runs []*scenario.Plan
			var sess *lab.Session
			var err error
			lab.Burst(func() bool { // the page's two phases
				runs, err = logimport.FromLog(log, "bench.log")
				return err == nil
			}, func() bool {
				sess, err = lab.OpenPlan(runs[0], nil)
				if err == nil {
					sess.Seek(sess.OpeningStep())
				}
				return err == nil
			})
			if err != nil {
				return err
			}
			sess.Diagram().Scene(1280, 720)
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		}
		slices.Sort(ms)
		res.MS = ms[len(ms)/2]
		enc.Encode(res)
	}
	return nil
}

// SearchResult is one lesson's schedule search.
type SearchResult struct {
	Lesson    string  `json:"lesson"`
	Outcome   string  `json:"outcome"`
	States    int     `json:"states"`
	MS        float64 `json:"ms"`
	PerSecond float64 `json:"states_per_s"`
	Platform  string  `json:"platform"`
	Error     string  `json:"error,omitempty"`
}

// timeSearches runs the search of every lesson that sets one, from its
// starting step within its bounds, and times it: the median of repeat.
func timeSearches(enc *json.Encoder, repeat int) error {
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		if err != nil {
			return err
		}
		if s.Lesson == nil || s.Lesson.Search == nil {
			continue
		}
		p, err := s.Compile()
		if err != nil {
			return err
		}
		r, err := p.Run()
		if err != nil {
			return err
		}
		res := SearchResult{Lesson: id, Platform: runtime.GOOS + "/" + runtime.GOARCH}
		var ms []float64
		for range max(repeat, 1) {
			runtime.GC()
			start := time.Now()
			x, err := explore.New(r, s.Lesson.Search.From, s.Lesson.Search.Options())
			if err != nil {
				return err
			}
			p := x.Run()
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
			res.Outcome, res.States = string(p.Outcome), p.States
		}
		slices.Sort(ms)
		res.MS = ms[len(ms)/2]
		res.PerSecond = float64(res.States) / (res.MS / 1000)
		enc.Encode(res)
	}
	return nil
}
