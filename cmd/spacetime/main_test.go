package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/trace"
	"spacetime/internal/golden"
	"spacetime/internal/scenariotest"
)

// call runs the command line in-process and returns its output.
func call(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(args, &out)
	return out.String(), err
}

// callIn runs the command line with stdin as its standard input.
func callIn(t *testing.T, stdin io.Reader, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := (&cli{stdin: stdin, stdout: &out, stderr: io.Discard}).run(args)
	return out.String(), err
}

// exitCode is the status main would exit with for err.
func exitCode(err error) int { return exitStatus(err, io.Discard) }

// processStatus is the exit status of a command that ran (err is what
// its Run returned): 0, or what it exited with.
func processStatus(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	require.NoError(t, err)
	return 0
}

func isUsage(err error) bool {
	var ue errUsage
	return errors.As(err, &ue)
}

// writeScenario writes a scenario file into a temporary directory.
func writeScenario(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// nonfifoUnexpected is the non-FIFO lesson as a file that does not declare
// its violation.
func nonfifoUnexpected(t *testing.T) string {
	t.Helper()
	s, err := scenario.Builtin("snapshot-nonfifo")
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(s.JSON(), &doc))
	require.Contains(t, doc, "expect")
	delete(doc, "expect")
	data, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	return writeScenario(t, "nonfifo.json", data)
}

func builtinFile(t *testing.T, id string) string {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	return writeScenario(t, id+".json", s.JSON())
}

func TestList(t *testing.T) {
	out, err := call(t, "list")
	require.NoError(t, err)
	index, rest, ok := strings.Cut(out, "\nLessons (spacetime run --scenario ID):\n")
	require.True(t, ok, out)
	// the course's index: every claim by topic, its lesson's link below it
	for _, topic := range scenario.Course() {
		heading := scenario.TopicHeading(topic.Name)
		require.Contains(t, index, "\n"+heading+"\n")
		_, index, _ = strings.Cut(index, "\n"+heading+"\n")
		for _, c := range topic.Claims {
			entry := fmt.Sprintf("  %s\n    %s at step %d: http://127.0.0.1:8080/?%s\n", c.Text, c.Lesson, c.Step, lab.ClaimQuery(c))
			require.True(t, strings.HasPrefix(index, entry), "want %q next, got %q", entry, index[:min(len(index), 200)])
			index = index[len(entry):]
		}
	}
	scenarios, comparisons, _ := strings.Cut(strings.TrimSpace(rest), "\n\n")
	lines := strings.Split(scenarios, "\n")
	require.Len(t, lines, len(scenario.BuiltinIDs()))
	assert.Contains(t, comparisons, "comparison mutex-contention-low: Six mutual exclusions, low contention\n  runs mutex-contention-low-central, mutex-contention-low-lamport-mutex,")
	for i, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(lines[i], id+" "), "line %d: %q", i, lines[i])
		assert.Contains(t, lines[i], " "+s.Algorithm+" ")
		assert.Contains(t, lines[i], fmt.Sprintf("n=%d", s.N))
	}
	assert.Contains(t, out, "Chandy–Lamport: a snapshot of three bank branches")
}

func TestListJSON(t *testing.T) {
	out, err := call(t, "list", "--json")
	require.NoError(t, err)
	var got struct {
		Scenarios []struct {
			ID          string `json:"id"`
			Algorithm   string `json:"algorithm"`
			N           int    `json:"n"`
			Title       string `json:"title"`
			Description string `json:"description"`
			Comparison  string `json:"comparison"`
		} `json:"scenarios"`
		Comparisons []struct {
			ID          string   `json:"id"`
			Title       string   `json:"title"`
			Description string   `json:"description"`
			Scenarios   []string `json:"scenarios"`
		} `json:"comparisons"`
		Algorithms []string `json:"algorithms"`
		Course     []struct {
			Topic  string `json:"topic"`
			Claims []struct {
				scenario.Claim
				Link string `json:"link"`
			} `json:"claims"`
		} `json:"course"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&got))
	var ids []string
	for _, s := range got.Scenarios {
		ids = append(ids, s.ID)
		want, err := scenario.Builtin(s.ID)
		require.NoError(t, err)
		assert.Equal(t, want.Algorithm, s.Algorithm)
		assert.Equal(t, want.N, s.N)
		assert.NotEmpty(t, s.Title)
		assert.NotEmpty(t, s.Description)
	}
	assert.Equal(t, scenario.BuiltinIDs(), ids)
	require.Len(t, got.Comparisons, len(scenario.Comparisons()))
	for _, c := range got.Comparisons {
		want, ok := scenario.LookupComparison(c.ID)
		require.True(t, ok, c.ID)
		assert.Equal(t, want.MemberIDs(), c.Scenarios)
		for _, id := range c.Scenarios {
			assert.Contains(t, ids, id, "a comparison's runs are listed scenarios")
			assert.Equal(t, c.ID, scenario.ComparisonOf(id))
		}
	}
	assert.Equal(t, all.IDs(), got.Algorithms)
	assert.NotContains(t, out, `\u0026`, "no HTML escaping in the JSON")
	assert.Contains(t, out, "$126", "descriptions are printed as written")
	require.Len(t, got.Course, len(scenario.Course()))
	for i, topic := range scenario.Course() {
		assert.Equal(t, topic.Name, got.Course[i].Topic)
		require.Len(t, got.Course[i].Claims, len(topic.Claims), topic.Name)
		for j, c := range topic.Claims {
			assert.Equal(t, c, got.Course[i].Claims[j].Claim)
			assert.Equal(t, "http://127.0.0.1:8080/?"+lab.ClaimQuery(c), got.Course[i].Claims[j].Link)
		}
	}
}

// runReport runs `spacetime run ... --json` and decodes the report.
type runReport struct {
	Scenario  string `json:"scenario"`
	Algorithm string `json:"algorithm"`
	N         int    `json:"n"`
	Names     []string
	Seed      uint64 `json:"seed"`
	Steps     int    `json:"steps"`
	Time      int64  `json:"time"`
	Stopped   string `json:"stopped"`
	Messages  struct {
		Total       int            `json:"total"`
		ByKind      map[string]int `json:"by_kind"`
		Application []string       `json:"application"`
		Note        string         `json:"note"`
	} `json:"messages"`
	Invariants []struct {
		Name             string `json:"name"`
		OK               bool   `json:"ok"`
		FirstFailingStep *int   `json:"first_failing_step"`
		Detail           string `json:"detail"`
		Expected         bool   `json:"expected"`
	} `json:"invariants"`
	Metrics struct {
		Recorded      map[string]int64   `json:"recorded"`
		ChannelState  map[string][]int64 `json:"channel_state"`
		SnapshotTotal *int64             `json:"snapshot_total"`
		LiveTotal     int64              `json:"live_total"`
		InitialTotal  int64              `json:"initial_total"`
		Markers       int                `json:"markers"`
	} `json:"metrics"`
}

func runJSON(t *testing.T, args ...string) (runReport, error) {
	t.Helper()
	out, err := call(t, append([]string{"run"}, args...)...)
	var rep runReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "output: %s", out)
	return rep, err
}

func TestRunWorkedExample(t *testing.T) {
	rep, err := runJSON(t, "--scenario", "snapshot-bank", "--json")
	require.NoError(t, err)
	assert.Equal(t, "snapshot-bank", rep.Scenario)
	assert.Equal(t, "chandy-lamport", rep.Algorithm)
	assert.Equal(t, 3, rep.N)
	assert.Equal(t, []string{"A", "B", "C"}, rep.Names)
	assert.Equal(t, uint64(450), rep.Seed)
	assert.Equal(t, 59, rep.Steps)
	assert.Equal(t, "done", rep.Stopped)
	assert.Equal(t, 6, rep.Messages.Total, "markers only: N(N-1)")
	assert.Equal(t, 6, rep.Messages.ByKind["marker"])
	assert.Greater(t, rep.Messages.ByKind["transfer"], 0)
	assert.Equal(t, []string{"transfer"}, rep.Messages.Application)
	assert.NotEmpty(t, rep.Messages.Note)
	require.GreaterOrEqual(t, len(rep.Invariants), 2)
	names := map[string]bool{}
	for _, inv := range rep.Invariants {
		names[inv.Name] = true
		assert.True(t, inv.OK, inv.Name)
		assert.Nil(t, inv.FirstFailingStep, inv.Name)
		assert.False(t, inv.Expected, inv.Name)
	}
	assert.True(t, names["money is conserved"] && names["snapshot total equals the money there is"], "%v", names)
	assert.Equal(t, map[string]int64{"A": 126, "B": 127, "C": 20}, rep.Metrics.Recorded)
	assert.Equal(t, map[string][]int64{"B->A": {14}, "C->B": {13}}, rep.Metrics.ChannelState)
	require.NotNil(t, rep.Metrics.SnapshotTotal)
	assert.Equal(t, int64(300), *rep.Metrics.SnapshotTotal)
	assert.Equal(t, int64(300), rep.Metrics.LiveTotal)
	assert.Equal(t, int64(300), rep.Metrics.InitialTotal)
	assert.Equal(t, 6, rep.Metrics.Markers)
}

func TestRunJSONIsTheReport(t *testing.T) {
	out, err := call(t, "run", "--scenario", "snapshot-bank", "--json")
	require.NoError(t, err)
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	want, err := json.MarshalIndent(report.Build(s, r, r.Len()), "", "  ")
	require.NoError(t, err)
	assert.JSONEq(t, string(want), out)
	assert.True(t, strings.HasSuffix(out, "}\n"), "one JSON document and a newline")
}

func TestRunText(t *testing.T) {
	out, err := call(t, "run", "--scenario", "snapshot-bank")
	require.NoError(t, err)
	assert.Contains(t, out, "scenario   snapshot-bank (chandy-lamport, n=3, seed 450)")
	assert.Contains(t, out, "invariant  ok   money is conserved")
	assert.Contains(t, out, "invariant  ok   snapshot total equals the money there is")
	assert.Contains(t, out, "recorded   A 126, B 127, C 20")
	assert.Contains(t, out, "snapshot_total 300")
	assert.False(t, json.Valid([]byte(out)), "text, not JSON, without --json")
}

func TestRunOverrides(t *testing.T) {
	rep, err := runJSON(t, "--scenario", "snapshot-bank", "--seed", "7", "--json")
	require.NoError(t, err)
	assert.Equal(t, uint64(7), rep.Seed)
	assert.Equal(t, 3, rep.N)
	base, err := runJSON(t, "--scenario", "snapshot-bank", "--json")
	require.NoError(t, err)
	assert.NotEqual(t, base.Steps, rep.Steps, "another seed, another run")
	assert.Equal(t, int64(300), rep.Metrics.InitialTotal)

	rep, err = runJSON(t, "--scenario", "snapshot-bank", "--seed", "0", "--json")
	require.NoError(t, err)
	assert.Equal(t, uint64(0), rep.Seed, "seed 0 is a seed")

	// --n on a scenario that does not fix per-process parameters.
	file := writeScenario(t, "bank.json", []byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": 5,
		"scheduler": "random", "workload": {"p": 0.5},
		"script": [{"at": 20, "node": 1, "command": "snapshot"}], "until": {"time": 300, "done": true}}`))
	rep, err = runJSON(t, file, "--n", "4", "--json")
	require.NoError(t, err)
	assert.Equal(t, 4, rep.N)
	assert.True(t, strings.HasSuffix(rep.Scenario, "bank"), "a file without an id is named after the file: %q", rep.Scenario)
	assert.NotContains(t, rep.Scenario, ".json")
	assert.Equal(t, []string{"A", "B", "C", "D"}, rep.Names)
	assert.Equal(t, 12, rep.Messages.Total, "N(N-1) markers for N=4")
	assert.Equal(t, int64(400), rep.Metrics.InitialTotal)
	assert.Len(t, rep.Metrics.Recorded, 4)
	rep, err = runJSON(t, file, "--n", "2", "--seed", "9", "--json")
	require.NoError(t, err)
	assert.Equal(t, 2, rep.N)
	assert.Equal(t, uint64(9), rep.Seed)
	assert.Equal(t, 2, rep.Messages.Total)
}

func TestRunViolations(t *testing.T) {
	// The lesson declares its violation: the run is what it should be.
	rep, err := runJSON(t, "--scenario", "snapshot-nonfifo", "--json")
	require.NoError(t, err)
	assert.Equal(t, 0, exitCode(err))
	failed := 0
	for _, inv := range rep.Invariants {
		if !inv.OK {
			failed++
			assert.True(t, inv.Expected)
			assert.Equal(t, "snapshot total equals the money there is", inv.Name)
			require.NotNil(t, inv.FirstFailingStep)
			assert.Contains(t, inv.Detail, "overtook")
		}
	}
	assert.Equal(t, 1, failed)
	require.NotNil(t, rep.Metrics.SnapshotTotal)
	assert.Equal(t, int64(284), *rep.Metrics.SnapshotTotal, "the lesson's wrong total")
	assert.Equal(t, map[string]int64{"A": 53, "B": 115, "C": 116}, rep.Metrics.Recorded)

	// The same run from a file that does not expect it: exit status 1.
	file := nonfifoUnexpected(t)
	rep, err = runJSON(t, file, "--json")
	require.ErrorIs(t, err, errViolation)
	assert.Equal(t, 1, exitCode(err))
	assert.False(t, isUsage(err))
	for _, inv := range rep.Invariants {
		assert.False(t, inv.Expected)
	}
	out, err := call(t, "run", file)
	require.ErrorIs(t, err, errViolation)
	assert.Contains(t, out, "invariant  FAIL snapshot total equals the money there is (first at step")

	// The file's name is its id when it has none.
	assert.NotEmpty(t, rep.Scenario)
}

func TestRunFromFile(t *testing.T) {
	file := builtinFile(t, "snapshot-bank")
	want, err := runJSON(t, "--scenario", "snapshot-bank", "--json")
	require.NoError(t, err)
	for _, args := range [][]string{
		{file, "--json"},
		{"--json", file},
		{file, "--seed", "450", "--json"},
		{"--seed", "450", file, "--json"},
	} {
		got, err := runJSON(t, args...)
		require.NoError(t, err, "%v", args)
		assert.Equal(t, want, got, "%v: flags before and after the file", args)
	}
	// Flags after the file are not ignored.
	got, err := runJSON(t, file, "--seed", "7", "--json")
	require.NoError(t, err)
	assert.Equal(t, uint64(7), got.Seed)
}

func TestBadInput(t *testing.T) {
	bank := builtinFile(t, "snapshot-bank")
	missing := filepath.Join(t.TempDir(), "missing.json")
	malformed := writeScenario(t, "bad.json", []byte(`{"algorithm": "chandy-lamport", "n": "three", "seed": 1}`))
	unknownField := writeScenario(t, "unknown.json", []byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": 1, "network": {"fifoo": true}}`))
	badParams := writeScenario(t, "params.json", []byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": 1, "params": {"balances": [1, 2]}, "until": {"steps": 10}}`))
	notJSON := writeScenario(t, "notjson.json", []byte(`algorithm: chandy-lamport`))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "no command"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown scenario", []string{"run", "--scenario", "snapshot-banq"}, `"snapshot-banq"`},
		{"no scenario", []string{"run", "--json"}, "--scenario"},
		{"missing file", []string{"run", missing}, "missing.json"},
		{"malformed file", []string{"run", malformed}, `field "n"`},
		{"unknown field", []string{"run", unknownField}, `"network.fifoo"`},
		{"bad params", []string{"run", badParams}, "params.balances"},
		{"not JSON", []string{"run", notJSON}, "JSON"},
		{"file and scenario", []string{"run", bank, "--scenario", "snapshot-bank"}, "not both"},
		{"two files", []string{"run", bank, bank}, "unexpected argument"},
		{"unknown flag", []string{"run", "--scenario", "snapshot-bank", "--colour"}, "colour"},
		{"bad seed", []string{"run", "--scenario", "snapshot-bank", "--seed", "x"}, "seed"},
		{"bad n", []string{"run", "--scenario", "snapshot-bank", "--n", "1"}, `"n"`},
		{"too many processes", []string{"run", bank, "--n", "65"}, `--n: want a number of processes from 1 to 64, got "65"`},
		{"list unknown flag", []string{"list", "--yaml"}, "yaml"},
		{"list stray argument", []string{"list", "--json", "extra"}, `unexpected argument "extra"`},
		{"export without format", []string{"export", "--scenario", "snapshot-bank"}, "--format"},
		{"export bad format", []string{"export", "--scenario", "snapshot-bank", "--format", "gif"}, `"gif"`},
		{"export step past the end", []string{"export", "--scenario", "snapshot-bank", "--format", "json", "--step", "60"}, "--step: want at most 59, the run's number of steps, got 60"},
		{"export bad axis", []string{"export", "--scenario", "snapshot-bank", "--format", "svg", "--axis", "up"}, `"up"`},
		{"export unknown scenario", []string{"export", "--scenario", "nope", "--format", "json"}, `"nope"`},
		{"export missing file", []string{"export", missing, "--format", "json"}, "missing.json"},
		{"export unknown flag", []string{"export", "--scenario", "snapshot-bank", "--format", "json", "--pretty"}, "pretty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(t, tc.args...)
			require.Error(t, err)
			assert.True(t, isUsage(err), "bad input is a usage error: %v", err)
			assert.Equal(t, 2, exitCode(err))
			assert.False(t, errors.Is(err, errViolation))
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, out, "nothing on standard output")
		})
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"help", "-h", "--help"} {
		out, err := call(t, arg)
		require.NoError(t, err)
		assert.Contains(t, out, "spacetime run")
		assert.Contains(t, out, "spacetime export")
	}
}

func TestExport(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	dir := t.TempDir()

	t.Run("json", func(t *testing.T) {
		path := filepath.Join(dir, "trace.json")
		out, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "json", "-o", path)
		require.NoError(t, err)
		assert.Empty(t, out, "written to the file, not standard output")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var tr trace.Trace
		require.NoError(t, json.Unmarshal(data, &tr))
		assert.Equal(t, []string{"A", "B", "C"}, tr.Names)
		assert.Len(t, tr.Records, r.Len())
		assert.Len(t, tr.Msgs, len(r.Trace().Msgs))
		want, err := r.Trace().JSON(r.Len())
		require.NoError(t, err)
		assert.Equal(t, string(want)+"\n", string(data))
	})
	t.Run("json prefix", func(t *testing.T) {
		out, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "json", "--step", "20")
		require.NoError(t, err)
		var tr trace.Trace
		require.NoError(t, json.Unmarshal([]byte(out), &tr))
		assert.Len(t, tr.Records, 20)
		assert.Len(t, tr.Msgs, len(r.Trace().MsgsBefore(20)))
		for _, m := range tr.Msgs {
			assert.Less(t, m.RecvStep, 20, "later deliveries are not in the prefix")
		}
		out0, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "json", "--step", "0")
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(out0), &tr))
		assert.Empty(t, tr.Records, "--step 0 is the empty prefix, not the whole run")
	})
	t.Run("shiviz", func(t *testing.T) {
		path := filepath.Join(dir, "trace.log")
		_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "shiviz", "-o", path)
		require.NoError(t, err)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		inFlight := 0
		for _, m := range r.Trace().Msgs {
			if m.InFlightAt(r.Len()) {
				inFlight++
			}
		}
		require.Len(t, lines, 2+2*(r.Len()+inFlight), "the parsing expression, a blank line, two lines per event, a message on its way at the end one")
		assert.Equal(t, trace.ShiVizRegexp, lines[0])
		assert.Empty(t, lines[1])
		lines = lines[2:]
		re := regexp.MustCompile(`^(A|B|C) \{("[ABC]":\d+)(, "[ABC]":\d+)*\}$`)
		for i := 0; i < len(lines); i += 2 {
			assert.Regexp(t, re, lines[i])
			assert.Regexp(t, `^(init|deliver|command|workload|in-flight)[ :].+`, lines[i+1])
		}
		assert.Contains(t, string(data), "command: A starts snapshot 1: records its balance $126")
		assert.Equal(t, string(r.Trace().ShiVizCuts(r.Len(), r.Config().Spec.IsCut)), string(data))
		assert.Equal(t, 3, strings.Count(string(data), " [cut 1]\n"), "the snapshot's three points marked")
	})
	t.Run("png", func(t *testing.T) {
		path := filepath.Join(dir, "bank.png")
		_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "png", "--scale", "1.5", "-o", path)
		require.NoError(t, err)
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		require.NoError(t, err, "a PNG")
		assert.Equal(t, 1800, cfg.Width, "1200 pixels wide at 1.5 times")
		assert.Equal(t, 525, cfg.Height)
		want, err := diagram.Layout(r.Trace(), r.Len(), r.Config().Spec, diagram.Options{Width: 1200, Height: 350, Scale: diagram.TextScale("L")}).PNG(diagram.Palette, 1.5)
		require.NoError(t, err)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, data), "the diagram's picture")
	})
	t.Run("tikz", func(t *testing.T) {
		out, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "tikz", "--step", "45", "--cm", "20")
		require.NoError(t, err)
		spec := r.Config().Spec
		want := diagram.NewIndex(r.Trace(), diagram.AxisTime, spec).TikZ(45, spec, diagram.TikZOptions{Width: 20, Title: "Chandy–Lamport: a snapshot of three bank branches"})
		assert.Equal(t, string(want), out)
		assert.Contains(t, out, "% The first 45 steps of")
		assert.Contains(t, out, `\newprocess{A}`)
	})
	t.Run("svg", func(t *testing.T) {
		path := filepath.Join(dir, "bank.svg")
		// at the small text size, the diagram package's golden picture's
		_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "svg", "--text", "S", "-o", path)
		require.NoError(t, err)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		wellFormed(t, data)
		want := diagram.Layout(r.Trace(), r.Len(), r.Config().Spec, diagram.Options{Width: 1200, Height: 350}).SVG()
		golden.SameLines(t, string(want), string(data), "the export is the diagram's SVG")
		assert.True(t, bytes.HasPrefix(data, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="350"`)))
		for _, text := range []string{">$126<", ">$127<", ">$20<", ">cut 1", ">now<"} {
			assert.True(t, strings.Contains(string(data), text), "the SVG shows %q", text)
		}
		picture, err := os.ReadFile(filepath.Join("..", "..", "app", "diagram", "testdata", "snapshot-bank.svg"))
		if err == nil {
			golden.SameLines(t, string(picture), string(data), "the diagram package's golden picture")
		}
	})
}

func wellFormed(t *testing.T, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return
		}
		require.NoError(t, err)
	}
}

// The picture takes the page's theme and text size: dark and XL draw
// the page's dark, extra large picture; an unknown theme is refused.
func TestExportTakesThePagesThemeAndTextSize(t *testing.T) {
	out, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "svg", "--theme", "dark", "--text", "XL")
	require.NoError(t, err)
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := lab.Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	sess.Scale = diagram.TextScale("XL")
	golden.SameLines(t, string(sess.Diagram().Scene(1200, 350).SVGIn(diagram.DarkPalette)), out, "the page's dark, extra large picture")
	_, err = call(t, "export", "--scenario", "snapshot-bank", "--format", "svg", "--theme", "sepia")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `--theme: want light, dark or colour-blind, got "sepia"`)
	_, err = call(t, "export", "--scenario", "snapshot-bank", "--format", "png", "--text", "XXL")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `--text: want S, M, L or XL, got "XXL"`)
}

// TestExportEqualsScreen checks that the exported SVG is the picture the
// page shows for the same scenario, step, size and axis, highlights
// included.
func TestExportEqualsScreen(t *testing.T) {
	tests := []struct {
		id   string
		args []string
		k    func(n int) int
		w, h float64
		axis diagram.Axis
	}{
		{"snapshot-bank", nil, func(n int) int { return n }, 1200, 350, diagram.AxisTime},
		{"snapshot-bank", []string{"--step", "30"}, func(int) int { return 30 }, 1200, 350, diagram.AxisTime},
		{"snapshot-bank", []string{"--axis", "lamport", "--width", "900", "--height", "400"}, func(n int) int { return n }, 900, 400, diagram.AxisLamport},
		{"snapshot-nonfifo", nil, func(n int) int { return n }, 1200, 350, diagram.AxisTime},
		{"snapshot-long", []string{"--step", "40000"}, func(int) int { return 40000 }, 1200, 350, diagram.AxisTime},
	}
	for _, tc := range tests {
		t.Run(tc.id+strings.Join(tc.args, " "), func(t *testing.T) {
			out, err := call(t, append([]string{"export", "--scenario", tc.id, "--format", "svg"}, tc.args...)...)
			require.NoError(t, err)
			s, err := scenario.Builtin(tc.id)
			require.NoError(t, err)
			sess, err := lab.Open(s)
			require.NoError(t, err)
			sess.Seek(tc.k(sess.Len()))
			sess.Axis = tc.axis
			sess.Scale = diagram.TextScale("L") // the page's text size unless chosen
			screen := sess.Diagram().Scene(tc.w, tc.h).SVG()
			golden.SameLines(t, string(screen), out, "the export is the picture on screen")
			if tc.id == "snapshot-nonfifo" {
				assert.True(t, strings.Contains(out, diagram.Palette[diagram.HighlightColor]), "the culprits are highlighted")
			}
		})
	}
}

func TestExportOfAFileWithFlagsAfterIt(t *testing.T) {
	file := builtinFile(t, "snapshot-bank")
	a, err := call(t, "export", file, "--format", "shiviz", "--step", "10")
	require.NoError(t, err)
	b, err := call(t, "export", "--format", "shiviz", "--step", "10", file)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, 2+20, strings.Count(a, "\n")-2*strings.Count(a, "\nin-flight "), "the header and two lines per step, and per message on its way")
}

func TestExportWriteError(t *testing.T) {
	out := filepath.Join(t.TempDir(), "no", "such", "dir", "x.svg")
	_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "svg", "-o", out)
	require.Error(t, err)
	assert.False(t, errors.Is(err, errViolation))
	assert.Equal(t, 2, exitCode(err))
}

// TestBinaryExitStatus builds the real command and checks the exit status
// of real processes.
func TestBinaryExitStatus(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no processes here")
	}
	bin := binary(t)
	unexpected := nonfifoUnexpected(t)
	bank, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	checkOut := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
		stdin  string
	}{
		{"standard input", []string{"run", "-"}, 0, "scenario   snapshot-bank", "", string(bank.JSON())},
		{"too large", []string{"run", "/dev/zero"}, 2, "", "too large for a scenario: the limit is 1048576 bytes", ""},
		{"check", []string{"check", "--runs", "20", "--seed", "1", "--out", checkOut}, 0, "chandy-lamport", "", ""},
		{"check bad runs", []string{"check", "--runs", "0"}, 2, "", "--runs", ""},
		{"bad width", []string{"export", "--scenario", "snapshot-bank", "--format", "svg", "--width", "NaN"}, 2, "", `--width: want a number of pixels from 100 to 20000, got "NaN"`, ""},
		{"list", []string{"list"}, 0, "snapshot-bank", "", ""},
		{"run", []string{"run", "--scenario", "snapshot-bank", "--json"}, 0, `"snapshot_total": 300`, "", ""},
		{"expected violation", []string{"run", "--scenario", "snapshot-nonfifo"}, 0, "fail (expected)", "", ""},
		{"unexpected violation", []string{"run", unexpected}, 1, "FAIL", "", ""},
		{"unknown command", []string{"frobnicate"}, 2, "", "unknown command", ""},
		{"unknown scenario", []string{"run", "--scenario", "nope"}, 2, "", `"nope"`, ""},
		{"no arguments", nil, 2, "", "usage", ""},
		{"a full disk", []string{"list", "-o"}, 4, "", "writing the output: no space left on device", ""},
		{"a full disk for a file", []string{"export", "--scenario", "snapshot-bank", "--format", "json", "-o", "/dev/full"}, 4, "", "writing /dev/full: no space left on device", ""},
		{"a bound", []string{"run", "--scenario", "snapshot-long", "--max-memory", "4"}, 3, "stopped: budget", "it would keep more than 4 MB (--max-memory)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.args) > 0 && tc.args[len(tc.args)-1] == "/dev/zero" && runtime.GOOS != "linux" {
				t.Skip("needs /dev/zero")
			}
			args := tc.args
			var stdout, stderr bytes.Buffer
			var full *os.File
			if len(args) == 2 && args[1] == "-o" { // standard output on a full disk
				if runtime.GOOS != "linux" {
					t.Skip("needs /dev/full")
				}
				f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
				require.NoError(t, err)
				defer f.Close()
				args, full = args[:1], f
			}
			if slices.Contains(args, "/dev/full") && runtime.GOOS != "linux" {
				t.Skip("needs /dev/full")
			}
			cmd := exec.Command(bin, args...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if full != nil {
				cmd.Stdout = full
			}
			status := processStatus(t, cmd.Run())
			assert.Equal(t, tc.status, status, "stderr: %s", stderr.String())
			assert.Contains(t, stdout.String(), tc.stdout)
			assert.Contains(t, stderr.String(), tc.stderr)
			if tc.status >= 2 {
				assert.True(t, strings.HasPrefix(stderr.String(), "spacetime: "), "%q", stderr.String())
			}
		})
	}
}

// within fails the test if f takes longer than a few seconds: reading
// /dev/zero or a pipe must stop at the size limit, not hang.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("still reading after 20 seconds: the size limit does not hold")
	}
}

// endless is a reader that never ends, counting what was read of it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.read += len(p)
	return len(p), nil
}

// padded is the bank lesson followed by spaces, size bytes in all.
func padded(t *testing.T, size int) []byte {
	t.Helper()
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	data := s.JSON()
	require.Less(t, len(data), size)
	return append(data, bytes.Repeat([]byte(" "), size-len(data))...)
}

func TestScenarioSizeLimit(t *testing.T) {
	dir := t.TempDir()
	large := filepath.Join(dir, "large.json")
	require.NoError(t, os.WriteFile(large, padded(t, 2*MaxScenarioBytes), 0o644))
	atLimit := filepath.Join(dir, "limit.json")
	require.NoError(t, os.WriteFile(atLimit, padded(t, MaxScenarioBytes), 0o644))
	overLimit := filepath.Join(dir, "over.json")
	require.NoError(t, os.WriteFile(overLimit, padded(t, MaxScenarioBytes+1), 0o644))
	tests := []struct {
		name  string
		args  []string
		stdin io.Reader
		want  string // "" when it opens
	}{
		{"/dev/zero", []string{"run", "/dev/zero"}, nil, "/dev/zero is too large for a scenario: the limit is 1048576 bytes (1 MiB)"},
		{"export /dev/zero", []string{"export", "/dev/zero", "--format", "json"}, nil, "too large"},
		{"a 2 MiB file", []string{"run", large}, nil, "too large for a scenario: the limit is 1048576 bytes"},
		{"one byte over", []string{"run", overLimit}, nil, "too large"},
		{"exactly the limit", []string{"run", atLimit}, nil, ""},
		{"standard input too large", []string{"run", "-"}, bytes.NewReader(padded(t, MaxScenarioBytes+1)), "standard input is too large for a scenario: the limit is 1048576 bytes"},
		{"endless standard input", []string{"run", "-", "--json"}, &endless{}, "standard input is too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.args[1], "/dev/") && runtime.GOOS != "linux" {
				t.Skip("needs /dev/zero")
			}
			var out string
			var err error
			within(t, func() {
				stdin := tc.stdin
				if stdin == nil {
					stdin = strings.NewReader("")
				}
				out, err = callIn(t, stdin, tc.args...)
			})
			if !ranOrRefused(t, out, err, tc.want) {
				return
			}
			assert.Empty(t, out)
			if e, ok := tc.stdin.(*endless); ok {
				assert.LessOrEqual(t, e.read, MaxScenarioBytes+64<<10, "it stops reading at the limit")
			}
		})
	}
}

// TestScenarioFromFIFO reads named pipes: one fed without end is cut at
// the limit, one nobody writes to reads as empty at once, one fed a
// scenario runs it.
func TestScenarioFromFIFO(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("named pipes as Linux has them")
	}
	bank, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	tests := []struct {
		name string
		feed func(w *os.File, path string) // nil: nobody writes
		want string                        // "" when it runs
	}{
		{"endless writer", func(w *os.File, _ string) {
			chunk := bytes.Repeat([]byte(" "), 64<<10)
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, "too large for a scenario"},
		{"no writer", nil, "the document is empty"},
		{"a scenario", func(w *os.File, path string) {
			_, _ = w.Write(bank.JSON())
			// closing the last writer ends the reader's file, once it has
			// opened it: closed before, the pipe and its data are gone
			for deadline := time.Now().Add(30 * time.Second); !openedTwice(path) && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			_ = w.Close()
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "pipe")
			require.NoError(t, syscall.Mkfifo(path, 0o600))
			if tc.feed != nil {
				// read-write so that the open does not wait for a reader
				w, err := os.OpenFile(path, os.O_RDWR, 0)
				require.NoError(t, err)
				t.Cleanup(func() { _ = w.Close() })
				go tc.feed(w, path)
			}
			var out string
			var err error
			within(t, func() { out, err = call(t, "run", path) })
			ranOrRefused(t, out, err, tc.want)
		})
	}
}

// openedTwice reports whether two of this process's descriptors are open
// on the file at path (Linux): the test's and the command's.
func openedTwice(path string) bool {
	file, err := os.Stat(path)
	if err != nil {
		return false
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	open := 0
	for _, fd := range fds {
		if target, err := os.Stat("/proc/self/fd/" + fd.Name()); err == nil && os.SameFile(file, target) {
			open++
		}
	}
	return open >= 2
}

// ranOrRefused checks a run of the bank that should succeed (want empty) or
// be refused as bad input with want in its message; it reports whether it
// was refused.
func ranOrRefused(t *testing.T, out string, err error, want string) bool {
	t.Helper()
	if want == "" {
		require.NoError(t, err)
		assert.Contains(t, out, "snapshot-bank")
		return false
	}
	require.Error(t, err)
	assert.Equal(t, 2, exitCode(err))
	assert.Contains(t, err.Error(), want)
	return true
}

func TestScenarioFromStandardInput(t *testing.T) {
	bank, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	want, err := call(t, "run", "--scenario", "snapshot-bank", "--json")
	require.NoError(t, err)
	tests := []struct {
		name string
		args []string
		in   string
		want string
		err  string
	}{
		{"run", []string{"run", "-", "--json"}, string(bank.JSON()), want, ""},
		{"flags first", []string{"run", "--json", "-"}, string(bank.JSON()), want, ""},
		{"export", []string{"export", "-", "--format", "shiviz", "--step", "4"}, string(bank.JSON()), "", ""},
		{"empty", []string{"run", "-"}, "", "", "standard input: scenario: the document is empty"},
		{"not JSON", []string{"run", "-"}, "algorithm: x", "", `standard input: line 1: this is neither a scenario file (a JSON object, starting with {) nor a log`},
		{"a log", []string{"run", "-"}, "A {\"A\":1}\nsend\nB {\"A\":1, \"B\":1}\nreceive\n", "messages   1 (LOG 1)", ""},
		{"a bad log", []string{"run", "-"}, "A {\"A\":1}\nx\nA {\"A\":3}\ny\n", "", "standard input: line 3: A's own clock entry is 3, but this is its event 2"},
		{"no id", []string{"run", "-", "--json"}, `{"algorithm": "chandy-lamport", "n": 2, "seed": 1, "until": {"steps": 5}}`, `"scenario": "stdin"`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := callIn(t, strings.NewReader(tc.in), tc.args...)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, 2, exitCode(err))
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			if tc.args[0] == "export" {
				assert.Equal(t, 2+8, strings.Count(out, "\n")-2*strings.Count(out, "\nin-flight "), "the header and two lines per step, and per message on its way")
				return
			}
			assert.Contains(t, out, tc.want)
		})
	}
}

// TestBadFlagValues checks that a value out of range is refused, naming
// the flag, what it wants and what it got, where it used to be ignored
// (negative --seed, --n, --step) or to make an SVG of NaN coordinates.
func TestBadFlagValues(t *testing.T) {
	export := []string{"export", "--scenario", "snapshot-bank", "--format", "svg"}
	pixels := "want a number of pixels from 100 to 20000, got "
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"width NaN", append(export, "--width", "NaN"), `--width: ` + pixels + `"NaN"`},
		{"width Inf", append(export, "--width", "Inf"), `--width: ` + pixels + `"Inf"`},
		{"width -Inf", append(export, "--width=-Inf"), `--width: ` + pixels + `"-Inf"`},
		{"width 0", append(export, "--width", "0"), `--width: ` + pixels + `"0"`},
		{"width negative", append(export, "--width", "-300"), `--width: ` + pixels + `"-300"`},
		{"width 1e308", append(export, "--width", "1e308"), `--width: ` + pixels + `"1e308"`},
		{"width too small", append(export, "--width", "99"), `--width: ` + pixels + `"99"`},
		{"width too large", append(export, "--width", "20001"), `--width: ` + pixels + `"20001"`},
		{"width not a number", append(export, "--width", "wide"), `--width: ` + pixels + `"wide"`},
		{"height NaN", append(export, "--height", "NaN"), `--height: ` + pixels + `"NaN"`},
		{"height 0", append(export, "--height", "0"), `--height: ` + pixels + `"0"`},
		{"height negative", append(export, "--height", "-1"), `--height: ` + pixels + `"-1"`},
		{"height 1e308", append(export, "--height", "1e308"), `--height: ` + pixels + `"1e308"`},
		{"negative step", append(export, "--step", "-1"), `--step: want a number of steps of 0 or more, got "-1"`},
		{"step not a number", append(export, "--step", "half"), `--step: want a number of steps of 0 or more, got "half"`},
		{"negative seed", []string{"run", "--scenario", "snapshot-bank", "--seed", "-1"}, `--seed: want a seed, a whole number from 0 to 18446744073709551615, got "-1"`},
		{"seed too large", []string{"run", "--scenario", "snapshot-bank", "--seed", "18446744073709551616"}, `--seed: want a seed`},
		{"export negative seed", append(export, "--seed", "-7"), `--seed: want a seed, a whole number from 0 to 18446744073709551615, got "-7"`},
		{"negative n", []string{"run", "--scenario", "snapshot-bank", "--n", "-2"}, `--n: want a number of processes from 1 to 64, got "-2"`},
		{"n 0", []string{"run", "--scenario", "snapshot-bank", "--n", "0"}, `--n: want a number of processes from 1 to 64, got "0"`},
		{"n below the algorithm's", []string{"run", "--scenario", "snapshot-bank", "--n", "1"}, `--n 1: scenario: field "n": chandy-lamport runs on 2 to 64 processes, got 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(t, tc.args...)
			require.Error(t, err)
			assert.Equal(t, 2, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, out)
		})
	}
}

func TestGoodFlagValues(t *testing.T) {
	export := []string{"export", "--scenario", "snapshot-bank", "--format", "svg"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"smallest width", append(export, "--width", "100"), `width="100"`},
		{"largest width", append(export, "--width", "20000", "--height", "20000"), `width="20000" height="20000"`},
		{"fractional height", append(export, "--height", "400.5"), `height="400.5"`},
		{"step 0", append(export, "--step", "0"), `<svg`},
		{"seed 0", []string{"run", "--scenario", "snapshot-bank", "--seed", "0", "--json"}, `"seed": 0,`},
		{"largest seed", []string{"run", "--scenario", "snapshot-bank", "--seed", "18446744073709551615", "--json"}, `"seed": 18446744073709551615,`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(t, tc.args...)
			require.NoError(t, err)
			assert.Contains(t, out, tc.want)
			assert.NotContains(t, out, "NaN")
			assert.NotContains(t, out, "Inf")
		})
	}
}

// TestErrorsInPlainWords checks every kind of error the command line
// gives: it names what is wrong in the user's words, without Go's types,
// the flag package's phrasing or the os package's "open …:" prefixes.
func TestErrorsInPlainWords(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	unreadable := writeScenario(t, "secret.json", []byte(`{}`))
	require.NoError(t, os.Chmod(unreadable, 0))
	canRead := false
	if f, err := os.Open(unreadable); err == nil {
		canRead = true // root reads anything
		_ = f.Close()
	}
	bad := writeScenario(t, "seed.json", []byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": -1, "until": {"steps": 5}}`))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"run", "--scenario", "snapshot-bank", "--colour"}, "unknown flag --colour (run takes --json, --max-memory, --n, --scenario, --seed)"},
		{"unknown short flag", []string{"export", "-x"}, "unknown flag --x (export takes --axis, --cm, --format, --from, --height, --max-memory, --n, --scale, --scenario, --seed, --step, --text, --theme, --to, --width, -o)"},
		{"flag without value", []string{"run", "--scenario", "snapshot-bank", "--seed"}, "--seed needs a value"},
		{"bad boolean", []string{"list", "--json=yes please"}, `--json: want true or false (or the flag alone), got "yes please"`},
		{"bad flag syntax", []string{"run", "---scenario", "x"}, `"---scenario" is not a flag`},
		{"missing file", []string{"run", missing}, "cannot open " + missing + ": there is no such file"},
		{"directory", []string{"run", dir}, dir + " is a directory, not a scenario file"},
		{"bad value in the file", []string{"run", bad}, bad + `: scenario: field "seed": want a whole number of 0 or more, got -1`},
		{"write to a missing directory", []string{"export", "--scenario", "snapshot-bank", "--format", "json", "-o", filepath.Join(dir, "no", "x.json")}, "cannot write " + filepath.Join(dir, "no", "x.json") + ": its directory does not exist"},
		{"write to a directory", []string{"export", "--scenario", "snapshot-bank", "--format", "json", "-o", dir}, "cannot write " + dir + ": is a directory"},
		{"format missing", []string{"export", "--scenario", "snapshot-bank"}, "--format: say svg, png, json, shiviz, tikz or mermaid"},
		{"png scale not a number", []string{"export", "--scenario", "snapshot-bank", "--format", "png", "--scale", "big"}, `--scale: want a scale from 0.5 to 8, got "big"`},
		{"png scale too small", []string{"export", "--scenario", "snapshot-bank", "--format", "png", "--scale", "0"}, `--scale: want a scale from 0.5 to 8, got "0"`},
		{"tikz width", []string{"export", "--scenario", "snapshot-bank", "--format", "tikz", "--cm", "1000"}, `--cm: want a width in centimetres from 2 to 100, got "1000"`},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate" (the commands are list, run, export, check, explore and help)`},
		{"stray argument", []string{"list", "extra"}, `unexpected argument "extra": list takes no file`},
		{"two files", []string{"run", missing, missing}, `unexpected argument "` + missing + `": give one scenario file`},
		{"check: unknown fault", []string{"check", "--faults", "crash,melt"}, `--faults: unknown fault "melt" (known: crash, recover, pause, drop, delay, duplicate, cut, heal, partition, skew, drift, fifo)`},
	}
	if !canRead {
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"unreadable file", []string{"run", unreadable}, "cannot open " + unreadable + ": permission denied"})
	}
	goWords := []*regexp.Regexp{
		regexp.MustCompile(`(^|\s)json: `), regexp.MustCompile(`Go struct|of type|\*errors|&\{|strconv`),
		regexp.MustCompile(`flag provided|parse error|invalid value|(^|\s)-[a-z]+:`), regexp.MustCompile(`^(open|read|write) `),
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := call(t, tc.args...)
			require.Error(t, err)
			assert.Equal(t, 2, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
			for _, w := range goWords {
				assert.NotRegexp(t, w, err.Error())
			}
		})
	}
}

func TestCommandHelp(t *testing.T) {
	for _, args := range [][]string{{"run", "-h"}, {"export", "--help"}, {"list", "-help"}, {"check", "-h"}, {"help"}} {
		out, err := call(t, args...)
		require.NoError(t, err, "%v", args)
		assert.Equal(t, usage, out, "%v", args)
	}
	for _, cmd := range []string{"spacetime run (FILE | - | --scenario ID)", "spacetime check [FILE | --algorithm ID | --scenario ID | FILE.py --scenario ID]", "--faults LIST", "--out DIR"} {
		assert.Contains(t, usage, cmd)
	}
}

// A run that would keep more memory than --max-memory stops where it got
// to: run reports it that far, export exports it that far, and both exit
// with 3, not with the 2 of bad input.
func TestRunStopsAtItsMemory(t *testing.T) {
	file := writeScenario(t, "pile.json", []byte(`{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
		"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"steps": 1000000}}`))
	out, err := call(t, "run", file, "--max-memory", "8", "--json")
	require.Error(t, err)
	assert.Equal(t, 3, exitCode(err))
	assert.Contains(t, err.Error(), "it would keep more than 8 MB (--max-memory)")
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, engine.StoppedBudget, rep.Stopped)
	assert.Greater(t, rep.Steps, 1000)
	assert.Less(t, rep.Steps, 100_000)

	out, err = call(t, "export", file, "--max-memory", "8", "--format", "json")
	assert.Equal(t, 3, exitCode(err))
	assert.Contains(t, out, `"records": [`)

	_, err = call(t, "run", file, "--max-memory", "0")
	assert.Equal(t, 2, exitCode(err))
	assert.Contains(t, err.Error(), "--max-memory: want a number of MB from 1 to 1048576")
}

// A file is read as strictly as the format says: a key given twice or in
// the wrong case is refused, naming it; a byte order mark is no part of it.
func TestFilesAreReadExactly(t *testing.T) {
	for doc, want := range map[string]string{
		`{"algorithm": "chandy-lamport", "n": 3, "n": 4, "until": {"steps": 5}}`: `field "n": given twice`,
		`{"algorithm": "chandy-lamport", "N": 3, "until": {"steps": 5}}`:         `field "N": unknown field: keys match exactly`,
	} {
		_, err := call(t, "run", writeScenario(t, "s.json", []byte(doc)))
		require.Error(t, err, doc)
		assert.Equal(t, 2, exitCode(err))
		assert.Contains(t, err.Error(), want)
	}
	out, err := call(t, "run", writeScenario(t, "bom.json", []byte("\uFEFF"+`{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 5}}`)))
	require.NoError(t, err)
	assert.Contains(t, out, "scenario   bom (chandy-lamport, n=3, seed 0)")
}

// The usage names every fault of the registry, so that a fault added to
// it cannot be left out of the help.
func TestUsageNamesEveryFault(t *testing.T) {
	flat := strings.ReplaceAll(usage, "\n", "")
	assert.Contains(t, flat, strings.Join(faults.Names(), ","))
}

// A log with lines that match no event runs as ShiViz opens it, and the
// command says on its standard error how many lines it passed over and
// where the first is.
func TestRunPassesOverLinesThatMatchNoEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "noisy.log")
	require.NoError(t, os.WriteFile(path, []byte("A {\"A\":1}\nsend\n[INFO] dead letter\nB {\"A\":1, \"B\":1}\nreceive\n"), 0o644))
	var out, errs bytes.Buffer
	require.NoError(t, (&cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}).run([]string{"run", path}))
	assert.Contains(t, out.String(), "LOG")
	assert.Contains(t, errs.String(), `noisy.log, line 3: 1 line matches no event of the parsing expression and was passed over, as ShiViz passes over them; the first: "[INFO] dead letter"`)
}

// A short run exports as a Mermaid sequence diagram: a participant per
// process, a row per message received, lost or on its way.
func TestExportAsMermaid(t *testing.T) {
	out, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "mermaid", "--step", "40")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "sequenceDiagram\n"), out)
	for i, name := range []string{"A", "B", "C"} {
		assert.Contains(t, out, fmt.Sprintf("    participant p%d as %s\n", i+1, name))
	}
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	received, onTheirWay := 0, 0
	for _, m := range r.Trace().MsgsBefore(40) {
		switch {
		case m.ReceivedAt(40):
			received++
		case m.InFlightAt(40):
			onTheirWay++
		}
	}
	assert.Equal(t, received, strings.Count(out, "->>"), "a row per message received")
	assert.Equal(t, onTheirWay, strings.Count(out, "--)"), "a row per message on its way")
	assert.Contains(t, out, "transfer $13")
}

// --from and --to export the window of the axis the page's zoom and pan
// show: the page's picture of it, and a figure of it; half a window is
// refused.
func TestExportOfAWindow(t *testing.T) {
	out, err := call(t, "export", "--scenario", "snapshot-long", "--format", "svg", "--from", "1000", "--to", "1100")
	require.NoError(t, err)
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	want := diagram.Layout(r.Trace(), r.Len(), r.Config().Spec, diagram.Options{Width: 1200, Height: diagram.HeightFor(s.N), Scale: diagram.TextScale("L"), Pinned: true, Start: 1000, Span: 100}).SVG()
	golden.SameLines(t, string(want), out, "the page's picture of the window")
	tex, err := call(t, "export", "--scenario", "snapshot-long", "--format", "tikz", "--from", "1000", "--to", "1100")
	require.NoError(t, err)
	assert.Contains(t, tex, "node[below] {1000}")
	_, err = call(t, "export", "--scenario", "snapshot-long", "--format", "svg", "--from", "1000")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--from and --to: give both")
	_, err = call(t, "export", "--scenario", "snapshot-long", "--format", "svg", "--from", "1000", "--to", "900")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `--to: want a point of the axis past --from`)
}

// The algorithm's tables are in the report, as on the page: bully-seed's
// run prints the seed's own program's log, line for line.
func TestRunPrintsTheAlgorithmsPanels(t *testing.T) {
	out, err := call(t, "run", "--scenario", "bully-seed")
	require.NoError(t, err)
	assert.Contains(t, out, "\nSeed 000's log (the seed's Python program on this run")
	assert.Contains(t, out, "\n  2 sends ELECTION to [3, 4, 6]\n  3, 4, 6 reply OK to 2; 2 waits\n")
	assert.Contains(t, out, "\n  coordinator: 6\n")

	out, err = call(t, "run", "--scenario", "bully-seed", "--json")
	require.NoError(t, err)
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	var log *report.Panel
	for i := range rep.Panels {
		if rep.Panels[i].Title == "Seed 000's log" {
			log = &rep.Panels[i]
		}
	}
	require.NotNil(t, log, "the seed's log is one of the report's panels")
	assert.Equal(t, []string{"2 sends ELECTION to [3, 4, 6]"}, log.Rows[0])
}

// An export prints what a course text's program prints on the run, on
// standard error beside the file, as far as the export goes; the file is
// the picture or the trace alone, and a lesson without such a program
// prints nothing.
func TestExportPrintsTheSeedsLog(t *testing.T) {
	export := func(args ...string) (stdout, stderr string) {
		var out, errs bytes.Buffer
		require.NoError(t, (&cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}).run(append([]string{"export"}, args...)))
		return out.String(), errs.String()
	}
	svg, printed := export("--scenario", "bully-seed", "--format", "svg")
	assert.True(t, strings.HasPrefix(printed, "Seed 000's log (the seed's Python program on this run"), printed)
	assert.Contains(t, printed, "\n  2 sends ELECTION to [3, 4, 6]\n")
	assert.Contains(t, printed, "\n  coordinator: 6\n")
	assert.NotContains(t, svg, "reply OK to 2; 2 waits", "the picture is the diagram alone")

	path := filepath.Join(t.TempDir(), "bully.json")
	_, printed = export("--scenario", "bully-seed", "--format", "json", "-o", path)
	assert.Contains(t, printed, "\n  coordinator: 6\n", "beside a file too")

	_, printed = export("--scenario", "bully-seed", "--format", "json", "--step", "3")
	assert.Empty(t, printed, "before anyone notices, the program has printed nothing")

	_, printed = export("--scenario", "snapshot-bank", "--format", "svg")
	assert.Empty(t, printed, "the bank's panels are tables of the page, not a program's output")
}
