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

// throughputCommand is cmd/throughput with args, run natively or built
// for js/wasm under Node.js with the Go distribution's go_js_wasm_exec,
// and the platform's name.
func throughputCommand(wasm bool, args ...string) (*exec.Cmd, string, error) {
	if !wasm {
		return exec.Command("go", append([]string{"run", "./cmd/throughput"}, args...)...), "native", nil
	}
	bin := filepath.Join(os.TempDir(), "spacetime-throughput.wasm")
	build := exec.Command("go", "build", "-o", bin, "./cmd/throughput")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return nil, "", err
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, "", err
	}
	return exec.Command(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "go_js_wasm_exec"), append([]string{bin}, args...)...), "wasm", nil
}

// throughput runs cmd/throughput natively or in wasm.
func throughput(rep *Report, wasm bool) error {
	cmd, platform, err := throughputCommand(wasm)
	if err != nil {
		return err
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

// importLog times opening a ShiViz log as the page does (read, replay,
// lay out at 1280×720), natively or in wasm under Node.js (V8, Chromium's
// engine): cmd/throughput -log.
func importLog(rep *Report, wasm bool) error {
	cmd, platform, err := throughputCommand(wasm, "-log")
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	data, runErr := cmd.Output()
	if rep.ImportMS == nil {
		rep.ImportMS = map[string]map[string]float64{}
	}
	rep.ImportMS[platform] = map[string]float64{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var r struct {
			Events int     `json:"log_events"`
			MS     float64 `json:"ms"`
			Error  string  `json:"error"`
		}
		if err := dec.Decode(&r); err != nil {
			return err
		}
		if r.Error != "" {
			return errors.New(r.Error)
		}
		rep.ImportMS[platform][strconv.Itoa(r.Events)] = r.MS
	}
	return runErr
}
