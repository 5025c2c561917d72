// Command bench measures Spacetime against its budgets and prints a short
// table, then, as its last line, one JSON object with every figure. It runs
// the Go micro-benchmarks (their raw output, ready for benchstat, goes to
// out/bench.txt), the simulator's throughput natively and under Node.js, and
// the page in headless Chromium against bin/server on 127.0.0.1. `make bench`
// builds what it needs first.
//
//	bench [-server bin/server] [-chromium /usr/bin/chromium] [-count 1]
//
// It measures; it does not fail on a missed budget (a noisy machine would
// make that a coin toss). The table says which budgets were met.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Budgets are the targets the figures are held to.
var Budgets = map[string]float64{
	"wasm_brotli_mb":        2.0,
	"first_diagram_ms":      500,
	"step_ms":               16,
	"seek_worst_ms":         16,
	"frame_script_ms":       2,
	"heap_mb":               64,
	"core_events_per_s_min": 1_000_000,
}

// Report is the JSON printed last.
type Report struct {
	WasmBytes      map[string]int64              `json:"wasm_bytes"`
	FirstDiagramMS map[string]float64            `json:"first_diagram_ms"`
	StepMS         float64                       `json:"step_ms"`
	SeekMS         map[string]float64            `json:"seek_ms"`
	FrameScriptMS  float64                       `json:"frame_script_ms"`
	FrameLayoutMS  float64                       `json:"frame_layout_ms"`
	FrameShapes    int                           `json:"frame_shapes"`
	CoreEventsPerS map[string]map[string]float64 `json:"core_events_per_s"`
	HeapMB         float64                       `json:"heap_mb"`
	// ImportMS is the time to open a ShiViz log of that many events,
	// natively and in wasm (Node.js, warm: the median of repeats in one
	// process): read it, replay it and lay out its diagram; and in the
	// page, from choosing the file to its last step shown, in a fresh tab
	// ("page") and again in that tab ("page, again").
	ImportMS        map[string]map[string]float64 `json:"import_ms"`
	Budgets         map[string]float64            `json:"budgets"`
	WithinBudget    map[string]bool               `json:"within_budget"`
	MicroBenchmarks string                        `json:"micro_benchmarks"`
	Notes           []string                      `json:"notes,omitempty"`
}

func main() {
	server := flag.String("server", "bin/server", "the server binary, run from this directory")
	chromium := flag.String("chromium", "/usr/bin/chromium", "headless Chromium")
	count := flag.Int("count", 1, "runs of each Go micro-benchmark (10 for benchstat)")
	only := flag.String("only", "", "run only the step of this name (\"log import (native)\")")
	flag.Parse()

	rep := &Report{Budgets: Budgets, WithinBudget: map[string]bool{}, CoreEventsPerS: map[string]map[string]float64{}}
	step := func(name string, f func() error) {
		if *only != "" && name != *only {
			return
		}
		fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
		if err := f(); err != nil {
			rep.Notes = append(rep.Notes, name+": "+err.Error())
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", name, err)
		}
	}
	step("wasm size", func() error { return wasmSizes(rep) })
	step("micro-benchmarks", func() error { return microBenchmarks(rep, *count) })
	step("throughput (native)", func() error { return throughput(rep, false) })
	step("log import (native)", func() error { return importLog(rep, false) })
	step("throughput (wasm, Node.js)", func() error { return throughput(rep, true) })
	step("log import (wasm, Node.js)", func() error { return importLog(rep, true) })
	step("page in Chromium", func() error { return browser(rep, *server, *chromium) })
	judge(rep)
	printTable(rep)
	data, _ := json.Marshal(rep)
	fmt.Println(string(data))
}

// judge compares the figures with the budgets.
func judge(rep *Report) {
	w := rep.WithinBudget
	if br, ok := rep.WasmBytes["brotli"]; ok {
		w["wasm_brotli_mb"] = float64(br)/1e6 <= Budgets["wasm_brotli_mb"]
	}
	if v, ok := rep.FirstDiagramMS["canvas"]; ok {
		w["first_diagram_ms"] = v <= Budgets["first_diagram_ms"]
	}
	if rep.StepMS > 0 {
		w["step_ms"] = rep.StepMS <= Budgets["step_ms"]
	}
	if v, ok := rep.SeekMS["worst"]; ok {
		w["seek_worst_ms"] = v <= Budgets["seek_worst_ms"]
	}
	if rep.FrameScriptMS > 0 {
		w["frame_script_ms"] = rep.FrameScriptMS <= Budgets["frame_script_ms"]
	}
	if rep.HeapMB > 0 {
		w["heap_mb"] = rep.HeapMB <= Budgets["heap_mb"]
	}
	// every algorithm at its smallest size measured meets the budget
	for algo, v := range smallest(rep.CoreEventsPerS["native"]) {
		w["core_events_per_s_min/"+algo] = v.perSecond >= Budgets["core_events_per_s_min"]
	}
}

// sized is one throughput figure: an algorithm's size and events per second.
type sized struct {
	n         int
	perSecond float64
}

// smallest gives each algorithm's figure at the smallest size measured
// (names are "algorithm/n=N").
func smallest(figures map[string]float64) map[string]sized {
	out := map[string]sized{}
	for name, v := range figures {
		algo, size, ok := strings.Cut(name, "/n=")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(size)
		if err != nil {
			continue
		}
		if cur, seen := out[algo]; !seen || n < cur.n {
			out[algo] = sized{n: n, perSecond: v}
		}
	}
	return out
}

func printTable(rep *Report) {
	mark := func(key string) string {
		ok, known := rep.WithinBudget[key]
		switch {
		case !known:
			return "  –"
		case ok:
			return " ok"
		}
		return "MISS"
	}
	fmt.Printf("%-44s %22s %14s %s\n", "figure", "measured", "budget", "")
	row := func(name, measured, budget, key string) {
		fmt.Printf("%-44s %22s %14s %s\n", name, measured, budget, mark(key))
	}
	row("app.wasm brotli (raw, gzip)", fmt.Sprintf("%.2f MB (%.2f, %.2f)", mb(rep.WasmBytes["brotli"]), mb(rep.WasmBytes["raw"]), mb(rep.WasmBytes["gzip"])), "≤ 2.0 MB", "wasm_brotli_mb")
	row("first diagram, interactive canvas (median 5)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas"]), "≤ 500 ms", "first_diagram_ms")
	row("first diagram, prerendered SVG (median 5)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["prerendered"]), "", "")
	row("step: key press to frame painted (median)", fmt.Sprintf("%.1f ms", rep.StepMS), "≤ 16 ms", "step_ms")
	row("seek in 100,000 steps (median / worst)", fmt.Sprintf("%.1f / %.1f ms", rep.SeekMS["median"], rep.SeekMS["worst"]), "≤ 16 ms worst", "seek_worst_ms")
	row(fmt.Sprintf("frame script (paint), %d shapes visible", rep.FrameShapes), fmt.Sprintf("%.2f ms", rep.FrameScriptMS), "≤ 2 ms", "frame_script_ms")
	row("  and laying them out in Go (per change)", fmt.Sprintf("%.1f ms", rep.FrameLayoutMS), "", "")
	row("Go heap after loading 100,000 steps", fmt.Sprintf("%.1f MB", rep.HeapMB), "≤ 64 MB", "heap_mb")
	for _, platform := range []string{"native", "wasm", "page", "page, again"} {
		for _, n := range []string{"10000", "100000"} {
			if ms, ok := rep.ImportMS[platform][n]; ok {
				row("open a ShiViz log of "+n+" events, "+platform, fmt.Sprintf("%.0f ms", ms), "", "")
			}
		}
	}
	small := smallest(rep.CoreEventsPerS["native"])
	for _, platform := range []string{"native", "wasm"} {
		for _, name := range sortedKeys(rep.CoreEventsPerS[platform]) {
			budget, key := "", ""
			algo, _, _ := strings.Cut(name, "/n=")
			if s, ok := small[algo]; platform == "native" && ok && name == fmt.Sprintf("%s/n=%d", algo, s.n) {
				budget, key = "≥ 1,000,000", "core_events_per_s_min/"+algo
			}
			row(fmt.Sprintf("simulator %s, %s", name, platform), fmt.Sprintf("%.0f events/s", rep.CoreEventsPerS[platform][name]), budget, key)
		}
	}
	fmt.Printf("micro-benchmarks (benchstat input): %s\n", rep.MicroBenchmarks)
	for _, n := range rep.Notes {
		fmt.Println("note:", n)
	}
}

func mb(b int64) float64 { return float64(b) / 1e6 }
