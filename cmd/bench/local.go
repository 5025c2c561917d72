package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

func wasmSizes(rep *Report) error {
	rep.WasmBytes = map[string]int64{}
	for key, name := range map[string]string{"raw": "app.wasm", "gzip": "app.wasm.gz", "brotli": "app.wasm.br"} {
		st, err := os.Stat(filepath.Join("web", name))
		if err != nil {
			return fmt.Errorf("%v (make build makes it)", err)
		}
		rep.WasmBytes[key] = st.Size()
	}
	return nil
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

// throughput runs cmd/throughput natively, or built for js/wasm under
// Node.js with the Go distribution's go_js_wasm_exec.
func throughput(rep *Report, wasm bool) error {
	platform := "native"
	var cmd *exec.Cmd
	if wasm {
		platform = "wasm"
		bin := filepath.Join(os.TempDir(), "spacetime-throughput.wasm")
		build := exec.Command("go", "build", "-o", bin, "./cmd/throughput")
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return err
		}
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return err
		}
		cmd = exec.Command(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "go_js_wasm_exec"), bin)
	} else {
		cmd = exec.Command("go", "run", "./cmd/throughput")
	}
	cmd.Stderr = os.Stderr
	data, runErr := cmd.Output() // an algorithm that fails still lets the others report
	rep.CoreEventsPerS[platform] = map[string]float64{}
	dec := json.NewDecoder(bytes.NewReader(data))
	var errs []string
	for dec.More() {
		var r struct {
			Algorithm string  `json:"algorithm"`
			N         int     `json:"n"`
			PerSecond float64 `json:"events_per_s"`
			Error     string  `json:"error"`
		}
		if err := dec.Decode(&r); err != nil {
			return err
		}
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// importLog times opening a ShiViz log natively, as the page does (read,
// replay, lay out at 1280×720): the export of the 100,000-step lesson's
// first 10,000 and 100,000 steps, the median of 3.
func importLog(rep *Report) error {
	s, err := scenario.Builtin("snapshot-long")
	if err != nil {
		return err
	}
	r, err := s.Run()
	if err != nil {
		return err
	}
	rep.ImportMS = map[string]float64{}
	for _, n := range []int{10_000, 100_000} {
		log := r.Trace().ShiViz(n)
		var ms []float64
		for range 3 {
			start := time.Now()
			runs, err := scenario.FromLog(log, "bench.log")
			if err != nil {
				return err
			}
			sess, err := lab.Open(runs[0])
			if err != nil {
				return err
			}
			sess.Seek(sess.OpeningStep())
			sess.Scene(1280, 720)
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		}
		rep.ImportMS[strconv.Itoa(n)] = median(ms)
	}
	return nil
}
