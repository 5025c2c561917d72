// Command bench measures Spacetime against its budgets and prints a short
// table, then, as its last line, one JSON object with every figure. It runs
// the Go micro-benchmarks (their raw output, ready for benchstat, goes to
// out/bench.txt), the simulator's throughput natively and under Node.js, and
// the page in headless Chromium against bin/server on 127.0.0.1. `make bench`
// builds what it needs first.
//
//	bench [-server bin/server] [-chromium /usr/bin/chromium] [-count 1]
//	bench -versus ../other-checkout   (the page only, side by side)
//
// It measures; it does not fail on a missed budget (a noisy machine would
// make that a coin toss). The table says which budgets were met.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"spacetime/internal/wasmsize"
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
	// a learner's program, natively and in wasm (Node.js)
	"program_events_per_s_min": 50_000,
}

// Goals are the ratios to the floors the figures are held to.
var Goals = map[string]float64{
	"first_diagram_cold": 1.3,
	"first_diagram_warm": 1.2,
	// a returning visitor's fresh tab against the floor's cold load
	"first_diagram_returning": 1.0,
	"wasm_brotli":             1.3,
	"frame_script":            2,
	"simulator_wasm":          3,
}

// Report is the JSON printed last.
// WasmCode is the lesson page's client's code by package: the bytes of
// its function bodies, every package's, largest first, beside the data
// section (tables, strings, type information: no package's alone).
type WasmCode struct {
	Code     int                `json:"code_bytes"`
	Data     int                `json:"data_bytes"`
	Packages []wasmsize.Package `json:"packages"`
}

type Report struct {
	WasmBytes map[string]int64 `json:"wasm_bytes"`
	// WriteWasmBytes is the same of the Write view's client, write.wasm:
	// app.wasm and the interpreter of learners' programs. Ratios'
	// write_wasm_{raw,gzip,brotli} say how much larger it is.
	WriteWasmBytes map[string]int64 `json:"write_wasm_bytes"`
	// WasmCode is what app.wasm's code costs by package.
	WasmCode *WasmCode `json:"wasm_code,omitempty"`
	// FirstDiagramMS is navigation start to the prerendered picture and
	// to the client's first canvas frame, cold and warm (see loads).
	FirstDiagramMS map[string]float64 `json:"first_diagram_ms"`
	// Floor is the same figures of the floor, the smallest go-app client
	// that draws a diagram, measured in the same run.
	Floor struct {
		WasmBytes      map[string]int64   `json:"wasm_bytes"`
		FirstDiagramMS map[string]float64 `json:"first_diagram_ms"`
		// FrameScriptMS is the bare batch's paint of the frame's scene.
		FrameScriptMS float64 `json:"frame_script_ms"`
	} `json:"floor"`
	// Ratios are figures over their floors (the simulator's: native
	// events per second over wasm's), and Goals what they should be.
	Ratios map[string]float64 `json:"ratios"`
	Goals  map[string]float64 `json:"goals"`
	StepMS float64            `json:"step_ms"`
	// StepCompareMS is StepMS in a compare view of six runs.
	StepCompareMS  float64                       `json:"step_compare_ms"`
	SeekMS         map[string]float64            `json:"seek_ms"`
	FrameScriptMS  float64                       `json:"frame_script_ms"`
	FrameLayoutMS  float64                       `json:"frame_layout_ms"`
	FrameShapes    int                           `json:"frame_shapes"`
	CoreEventsPerS map[string]map[string]float64 `json:"core_events_per_s"`
	// ProgramEventsPerS are the algorithms written as learners' programs
	// (core/algo/python/ports) beside their Go twins, by platform, then
	// "python:ID" and "ID" at 3 processes (cmd/throughput -programs).
	ProgramEventsPerS map[string]map[string]float64 `json:"program_events_per_s"`
	HeapMB            float64                       `json:"heap_mb"`
	// DeckFrameGapMS is the longest gap between two frames of a reveal.js
	// deck while a lesson loads in its slide's frame (the deck on another
	// port of the same host), as TestARevealDeckAndItsLessonAgree measures
	// it; 0 when reveal.js is not installed (.ci/run installs it).
	DeckFrameGapMS float64 `json:"deck_frame_gap_ms"`
	// ImportMS is the time to open a ShiViz log of that many events,
	// natively and in wasm (Node.js, warm: the median of repeats in one
	// process): read it, replay it and lay out its diagram; and in the
	// page, from choosing the file to its last step shown, in a fresh tab
	// ("page") and again in that tab ("page, again").
	ImportMS map[string]map[string]float64 `json:"import_ms"`
	// Searches are the lessons' schedule searches (lesson.search), by
	// platform (native, wasm under Node.js, and the page in Chromium, from
	// the key press to the finding on screen) and lesson.
	Searches        map[string]map[string]SearchFigure `json:"searches"`
	Budgets         map[string]float64                 `json:"budgets"`
	WithinBudget    map[string]bool                    `json:"within_budget"`
	MicroBenchmarks string                             `json:"micro_benchmarks"`
	Notes           []string                           `json:"notes,omitempty"`
}

func main() {
	server := flag.String("server", "bin/server", "the server binary, run from this directory")
	chromium := flag.String("chromium", "/usr/bin/chromium", "headless Chromium")
	count := flag.Int("count", 1, "runs of each Go micro-benchmark (10 for benchstat)")
	only := flag.String("only", "", "run only the steps of these names, separated by commas, or by semicolons when a name has a comma (\"floor client,page in Chromium\"; \"programs (native);programs (wasm, Node.js)\")")
	other := flag.String("versus", "", "measure only the page against another checkout's build (its directory), side by side, and print the ratios")
	flag.Parse()
	if *other != "" {
		if err := versus(*server, *chromium, *other); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	rep := &Report{Budgets: Budgets, Goals: Goals, Ratios: map[string]float64{}, WithinBudget: map[string]bool{}, CoreEventsPerS: map[string]map[string]float64{}}
	step := func(name string, f func() error) {
		if *only != "" && !chosen(*only, name) {
			return
		}
		fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
		if err := f(); err != nil {
			rep.Notes = append(rep.Notes, name+": "+err.Error())
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", name, err)
		}
	}
	step("wasm size", func() error { return wasmSizes(rep) })
	step("wasm size by package", func() error { return wasmPackages(rep) })
	floorDir, removeFloor := "", func() {}
	step("floor client", func() error {
		dir, cleanup, err := floorSite()
		if err != nil {
			return err
		}
		floorDir, removeFloor = dir, cleanup
		rep.Floor.WasmBytes, err = sizesIn(filepath.Join(dir, "web"))
		return err
	})
	step("micro-benchmarks", func() error { return microBenchmarks(rep, *count) })
	step("throughput (native)", func() error { return throughput(rep, false) })
	step("log import (native)", func() error { return importLog(rep, false) })
	step("throughput (wasm, Node.js)", func() error { return throughput(rep, true) })
	step("programs (native)", func() error { return programs(rep, false) })
	step("programs (wasm, Node.js)", func() error { return programs(rep, true) })
	step("log import (wasm, Node.js)", func() error { return importLog(rep, true) })
	step("schedule search (native)", func() error { return searches(rep, false) })
	step("schedule search (wasm, Node.js)", func() error { return searches(rep, true) })
	step("page in Chromium", func() error { return browser(rep, *server, *chromium, floorDir) })
	step("deck frame gap", func() error { return deckFrameGap(rep) })
	removeFloor()
	judge(rep)
	printTable(rep)
	data, _ := json.Marshal(rep)
	fmt.Println(string(data))
}

// judge compares the figures with the budgets, and with their floors.
func judge(rep *Report) {
	w := rep.WithinBudget
	ratio := func(key string, v, floor float64) {
		if v > 0 && floor > 0 {
			rep.Ratios[key] = v / floor
		}
	}
	ratio("first_diagram_cold", rep.FirstDiagramMS["canvas"], rep.Floor.FirstDiagramMS["canvas"])
	ratio("first_diagram_warm", rep.FirstDiagramMS["canvas, warm"], rep.Floor.FirstDiagramMS["canvas, warm"])
	ratio("first_diagram_returning", rep.FirstDiagramMS["canvas, returning"], rep.Floor.FirstDiagramMS["canvas"])
	ratio("wasm_brotli", float64(rep.WasmBytes["brotli"]), float64(rep.Floor.WasmBytes["brotli"]))
	for _, enc := range []string{"raw", "gzip", "brotli"} {
		ratio("write_wasm_"+enc, float64(rep.WriteWasmBytes[enc]), float64(rep.WasmBytes[enc]))
	}
	ratio("frame_script", rep.FrameScriptMS, rep.Floor.FrameScriptMS)
	for name, native := range rep.CoreEventsPerS["native"] {
		ratio("simulator_wasm/"+name, native, rep.CoreEventsPerS["wasm"][name])
	}
	if br, ok := rep.WasmBytes["brotli"]; ok {
		w["wasm_brotli_mb"] = float64(br)/1e6 <= Budgets["wasm_brotli_mb"]
	}
	if v, ok := rep.FirstDiagramMS["canvas"]; ok {
		w["first_diagram_ms"] = v <= Budgets["first_diagram_ms"]
	}
	if rep.StepMS > 0 {
		w["step_ms"] = rep.StepMS <= Budgets["step_ms"]
	}
	if rep.StepCompareMS > 0 {
		w["step_compare_ms"] = rep.StepCompareMS <= Budgets["step_ms"]
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
	for _, platform := range []string{"native", "wasm"} {
		for name, v := range rep.ProgramEventsPerS[platform] {
			if strings.HasPrefix(name, "python:") {
				w["program_events_per_s_min/"+platform+"/"+name] = v >= Budgets["program_events_per_s_min"]
			}
		}
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
	row("write.wasm brotli (raw, gzip)", fmt.Sprintf("%.2f MB (%.2f, %.2f)", mb(rep.WriteWasmBytes["brotli"]), mb(rep.WriteWasmBytes["raw"]), mb(rep.WriteWasmBytes["gzip"])), "", "")
	row("  over app.wasm, brotli (raw, gzip)", fmt.Sprintf("×%.3f (×%.3f, ×%.3f)", rep.Ratios["write_wasm_brotli"], rep.Ratios["write_wasm_raw"], rep.Ratios["write_wasm_gzip"]), "", "")
	row("first diagram, interactive canvas (median 5)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas"]), "≤ 500 ms", "first_diagram_ms")
	row("first diagram, prerendered SVG (median 5)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["prerendered"]), "", "")
	row("first diagram, canvas, opened again (median 3)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas, warm"]), "", "")
	row("step: key press to frame painted (median)", fmt.Sprintf("%.1f ms", rep.StepMS), "≤ 16 ms", "step_ms")
	row("step in a compare view of six runs (median)", fmt.Sprintf("%.1f ms", rep.StepCompareMS), "≤ 16 ms", "step_compare_ms")
	row("seek in 100,000 steps (median / worst; Go collections during the 40)", fmt.Sprintf("%.1f / %.1f ms; %.0f", rep.SeekMS["median"], rep.SeekMS["worst"], rep.SeekMS["collections"]), "≤ 16 ms worst", "seek_worst_ms")
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
	for _, platform := range []string{"native", "wasm", "page"} {
		for _, lesson := range sortedKeys(rep.Searches[platform]) {
			f := rep.Searches[platform][lesson]
			row(fmt.Sprintf("search %s, %s: %s", lesson, platform, f.Outcome), fmt.Sprintf("%.0f ms, %.0f states/s", f.MS, f.PerSecond), "", "")
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
	for _, platform := range []string{"native", "wasm"} {
		for _, name := range sortedKeys(rep.ProgramEventsPerS[platform]) {
			id, program := strings.CutPrefix(name, "python:")
			if !program {
				continue
			}
			twin := ""
			if goes, ok := rep.ProgramEventsPerS[platform][id]; ok {
				twin = fmt.Sprintf(" (Go: %.0f)", goes)
			}
			row(fmt.Sprintf("program %s, %s%s", id, platform, twin), fmt.Sprintf("%.0f events/s", rep.ProgramEventsPerS[platform][name]), "≥ 50,000", "program_events_per_s_min/"+platform+"/"+name)
		}
	}
	printFloors(rep)
	printWasmCode(rep.WasmCode)
	fmt.Printf("micro-benchmarks (benchstat input): %s\n", rep.MicroBenchmarks)
	for _, n := range rep.Notes {
		fmt.Println("note:", n)
	}
}

// wasmCodeRows is how many packages the table of app.wasm's code names;
// the rest are summed.
const wasmCodeRows = 20

// printWasmCode prints what app.wasm's code costs by package, the
// largest first, so that a package that grows the download is seen.
func printWasmCode(c *WasmCode) {
	if c == nil {
		return
	}
	fmt.Printf("\napp.wasm by package: %.2f MB of code, %.2f MB of data (uncompressed; make bench builds it unstripped in out/app-named.wasm)\n", mb(int64(c.Code)), mb(int64(c.Data)))
	rest, restFuncs := 0, 0
	for i, p := range c.Packages {
		if i >= wasmCodeRows {
			rest += p.Bytes
			restFuncs += p.Funcs
			continue
		}
		fmt.Printf("  %9d bytes %5.1f%% %5d funcs  %s\n", p.Bytes, 100*float64(p.Bytes)/float64(max(c.Code, 1)), p.Funcs, p.Path)
	}
	if n := len(c.Packages) - wasmCodeRows; n > 0 {
		fmt.Printf("  %9d bytes %5.1f%% %5d funcs  the other %d packages\n", rest, 100*float64(rest)/float64(max(c.Code, 1)), restFuncs, n)
	}
}

// printFloors prints each figure beside its floor, measured in the same
// run, the ratio and the goal.
func printFloors(rep *Report) {
	fmt.Printf("\n%-44s %14s %14s %7s %7s\n", "against its floor", "measured", "floor", "ratio", "goal")
	row := func(name, measured, floor, key, goal string) {
		r, ok := rep.Ratios[key]
		ratio := "–"
		if ok {
			ratio = fmt.Sprintf("%.2f×", r)
		}
		fmt.Printf("%-44s %14s %14s %7s %7s\n", name, measured, floor, ratio, goal)
	}
	goal := func(key string) string { return fmt.Sprintf("≤ %g×", Goals[key]) }
	row("app.wasm brotli / the go-app floor's", fmt.Sprintf("%.2f MB", mb(rep.WasmBytes["brotli"])), fmt.Sprintf("%.2f MB", mb(rep.Floor.WasmBytes["brotli"])), "wasm_brotli", goal("wasm_brotli"))
	row("first canvas frame, cold (median 5)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas"]), fmt.Sprintf("%.0f ms", rep.Floor.FirstDiagramMS["canvas"]), "first_diagram_cold", goal("first_diagram_cold"))
	row("first canvas frame, opened again (median 3)", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas, warm"]), fmt.Sprintf("%.0f ms", rep.Floor.FirstDiagramMS["canvas, warm"]), "first_diagram_warm", goal("first_diagram_warm"))
	row("first canvas frame, returning, fresh tab (median 3) / the floor's cold", fmt.Sprintf("%.0f ms", rep.FirstDiagramMS["canvas, returning"]), fmt.Sprintf("%.0f ms", rep.Floor.FirstDiagramMS["canvas"]), "first_diagram_returning", goal("first_diagram_returning"))
	row(fmt.Sprintf("painting %d visible shapes / a bare batch", rep.FrameShapes), fmt.Sprintf("%.2f ms", rep.FrameScriptMS), fmt.Sprintf("%.2f ms", rep.Floor.FrameScriptMS), "frame_script", goal("frame_script"))
	for _, name := range sortedKeys(rep.CoreEventsPerS["wasm"]) {
		native, ok := rep.CoreEventsPerS["native"][name]
		if !ok {
			continue
		}
		row("simulator "+name+" in wasm, native", fmt.Sprintf("%.0f ev/s", rep.CoreEventsPerS["wasm"][name]), fmt.Sprintf("%.0f ev/s", native), "simulator_wasm/"+name, goal("simulator_wasm"))
	}
}

func mb(b int64) float64 { return float64(b) / 1e6 }

// chosen says -only names a step: the whole of it, or one of its names
// separated by semicolons, or (when it has none) by commas, so that a step
// whose name has a comma ("programs (wasm, Node.js)") can be chosen.
func chosen(only, name string) bool {
	sep := ","
	if strings.Contains(only, ";") {
		sep = ";"
	}
	return only == name || slices.Contains(strings.Split(only, sep), name)
}
