package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"spacetime/internal/wasmsize"
)

// wasmSizes measures both clients: the lesson page's and the Write
// view's, which adds the interpreter of learners' programs.
func wasmSizes(rep *Report) (err error) {
	if rep.WasmBytes, err = sizesIn("web"); err != nil {
		return err
	}
	rep.WriteWasmBytes, err = clientSizesIn("web", "write.wasm")
	return err
}

// wasmPackages measures what each package's code costs in the lesson
// page's client: the client built as make builds it but keeping its
// function names (make strips them), read by package.
func wasmPackages(rep *Report) error {
	named := filepath.Join("out", "app-named.wasm")
	if err := os.MkdirAll("out", 0o755); err != nil {
		return err
	}
	env := append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-w", "-o", named, "./wasm")
	build.Env, build.Stderr = env, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building %s: %v", named, err)
	}
	list := exec.Command("go", "list", "-deps", "./wasm")
	list.Env, list.Stderr = env, os.Stderr
	paths, err := list.Output()
	if err != nil {
		return fmt.Errorf("go list -deps ./wasm: %v", err)
	}
	data, err := os.ReadFile(named)
	if err != nil {
		return err
	}
	sizes, err := wasmsize.Read(data, wasmsize.PathsOf(strings.Fields(string(paths))))
	if err != nil {
		return fmt.Errorf("%s: %v", named, err)
	}
	rep.WasmCode = &WasmCode{Code: sizes.Code, Data: sizes.Sections["data"], Packages: sizes.Packages}
	return nil
}

// sizesIn gives the sizes of the lesson page's client (app.wasm) in dir,
// raw and compressed.
func sizesIn(dir string) (map[string]int64, error) { return clientSizesIn(dir, "app.wasm") }

// clientSizesIn gives the sizes of the client named name in dir, raw and
// compressed.
func clientSizesIn(dir, name string) (map[string]int64, error) {
	out := map[string]int64{}
	for key, name := range map[string]string{"raw": name, "gzip": name + ".gz", "brotli": name + ".br"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("%v (make build makes it)", err)
		}
		out[key] = st.Size()
	}
	return out, nil
}

// microBenchmarks runs every Go benchmark of the core and the layout and
// keeps their raw output for benchstat.
func microBenchmarks(rep *Report, count int) error {
	out := filepath.Join("out", "bench.txt")
	if err := os.MkdirAll("out", 0o755); err != nil {
		return err
	}
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchmem", fmt.Sprintf("-count=%d", count), "./core/...", "./app/...")
	cmd.Stderr = os.Stderr
	data, err := cmd.Output()
	if werr := os.WriteFile(out, data, 0o644); werr != nil {
		return werr
	}
	rep.MicroBenchmarks = out
	if err != nil {
		return fmt.Errorf("go test -bench: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "Benchmark") {
			fmt.Fprintln(os.Stderr, "  "+sc.Text())
		}
	}
	return nil
}

// deckFrameGap runs the reveal.js deck's browser test, which logs the
// deck's longest frame gap while the lesson loads, and keeps the figure.
func deckFrameGap(rep *Report) error {
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestARevealDeckAndItsLessonAgree$", "./cmd/server")
	data, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("the deck test: %v\n%s", err, data)
	}
	const said = "the deck's longest frame gap while the lesson loaded: "
	at := bytes.Index(data, []byte(said))
	if at < 0 {
		return errors.New("the deck test measured no frame gap (is reveal.js installed? .ci/run installs it)")
	}
	_, err = fmt.Sscanf(string(data[at+len(said):]), "%f ms", &rep.DeckFrameGapMS)
	fmt.Fprintf(os.Stderr, "  the deck's longest frame gap while the lesson loads: %.0f ms\n", rep.DeckFrameGapMS)
	return err
}

// throughputWasm is cmd/throughput built for js/wasm, once for every
// step that runs it.
var throughputWasm struct {
	once sync.Once
	bin  string
	err  error
}

// runThroughput runs cmd/throughput with args, natively or built for
// js/wasm under Node.js with the Go distribution's go_js_wasm_exec, and
// decodes each line it prints into a T. It returns the platform's name,
// and the run's own failure apart (a line that says its error still lets
// the others report).
func runThroughput[T any](wasm bool, args ...string) (platform string, lines []T, runErr, err error) {
	cmd := exec.Command("go", append([]string{"run", "./cmd/throughput"}, args...)...)
	platform = "native"
	if wasm {
		platform = "wasm"
		w := &throughputWasm
		w.once.Do(func() {
			w.bin = filepath.Join(os.TempDir(), "spacetime-throughput.wasm")
			build := exec.Command("go", "build", "-o", w.bin, "./cmd/throughput")
			build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
			build.Stderr = os.Stderr
			w.err = build.Run()
		})
		if w.err != nil {
			return platform, nil, nil, w.err
		}
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return platform, nil, nil, err
		}
		cmd = exec.Command(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "go_js_wasm_exec"), append([]string{w.bin}, args...)...)
	}
	cmd.Stderr = os.Stderr
	data, runErr := cmd.Output()
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var line T
		if err := dec.Decode(&line); err != nil {
			return platform, lines, runErr, err
		}
		lines = append(lines, line)
	}
	return platform, lines, runErr, nil
}

// throughput runs cmd/throughput natively or in wasm.
func throughput(rep *Report, wasm bool) error {
	platform, lines, runErr, err := runThroughput[struct {
		Algorithm string  `json:"algorithm"`
		N         int     `json:"n"`
		PerSecond float64 `json:"events_per_s"`
		Error     string  `json:"error"`
	}](wasm)
	if err != nil {
		return err
	}
	rep.CoreEventsPerS[platform] = map[string]float64{}
	var errs []string
	for _, r := range lines {
		if r.Error != "" {
			errs = append(errs, fmt.Sprintf("%s: %s", r.Algorithm, r.Error))
			continue
		}
		rep.CoreEventsPerS[platform][fmt.Sprintf("%s/n=%d", r.Algorithm, r.N)] = r.PerSecond
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return runErr
}

// programs measures the algorithms written as learners' programs beside
// their Go twins, natively or in wasm: cmd/throughput -programs, the
// best of 8 runs each. In wasm the first runs are of code V8 has not yet
// optimized (the interpreter's loop is compiled again once it is hot)
// and grow the heap: the best of 3 read the starter at half its speed.
func programs(rep *Report, wasm bool) error {
	platform, lines, runErr, err := runThroughput[struct {
		Algorithm string  `json:"algorithm"`
		PerSecond float64 `json:"events_per_s"`
		Error     string  `json:"error"`
	}](wasm, "-programs", "-steps", "20000", "-repeat", "8")
	if err != nil {
		return err
	}
	if rep.ProgramEventsPerS == nil {
		rep.ProgramEventsPerS = map[string]map[string]float64{}
	}
	rep.ProgramEventsPerS[platform] = map[string]float64{}
	for _, r := range lines {
		if r.Error != "" {
			return fmt.Errorf("%s: %s", r.Algorithm, r.Error)
		}
		rep.ProgramEventsPerS[platform][r.Algorithm] = r.PerSecond
	}
	return runErr
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// importLog times opening a ShiViz log as the page does (read, replay,
// lay out at 1280×720), natively or in wasm under Node.js (V8, Chromium's
// engine): cmd/throughput -log.
func importLog(rep *Report, wasm bool) error {
	platform, lines, runErr, err := runThroughput[struct {
		Events int     `json:"log_events"`
		MS     float64 `json:"ms"`
		Error  string  `json:"error"`
	}](wasm, "-log")
	if err != nil {
		return err
	}
	if rep.ImportMS == nil {
		rep.ImportMS = map[string]map[string]float64{}
	}
	rep.ImportMS[platform] = map[string]float64{}
	for _, r := range lines {
		if r.Error != "" {
			return errors.New(r.Error)
		}
		rep.ImportMS[platform][strconv.Itoa(r.Events)] = r.MS
	}
	return runErr
}

// SearchFigure is one lesson's schedule search: how it ended, the states
// it visited, the time to its end (its violation, or its bound) and the
// states per second.
type SearchFigure struct {
	Outcome   string  `json:"outcome"`
	States    int     `json:"states"`
	MS        float64 `json:"ms"`
	PerSecond float64 `json:"states_per_s"`
}

// searches times every lesson's schedule search natively or in wasm
// under Node.js: cmd/throughput -explore.
func searches(rep *Report, wasm bool) error {
	platform, lines, runErr, err := runThroughput[struct {
		Lesson string `json:"lesson"`
		SearchFigure
		Error string `json:"error"`
	}](wasm, "-explore")
	if err != nil {
		return err
	}
	if rep.Searches == nil {
		rep.Searches = map[string]map[string]SearchFigure{}
	}
	rep.Searches[platform] = map[string]SearchFigure{}
	for _, r := range lines {
		if r.Error != "" {
			return errors.New(r.Error)
		}
		rep.Searches[platform][r.Lesson] = r.SearchFigure
	}
	return runErr
}
