package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/explore"
	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/fulldisk"
)

// The command built once for the tests that run it as a process, in a
// directory TestMain removes.
var (
	buildOnce sync.Once
	built     string
	buildErr  error
	buildDir  string
)

// TestMain runs the tests, or, in a process the tests start with
// peakArgs set, the command line as main does, writing its peak resident
// memory to peakFile: Linux's rusage of a child counts the memory of
// the parent it was started from (Go starts it sharing the parent's
// memory until it execs), so the child reads its own high-water mark.
func TestMain(m *testing.M) {
	if args := os.Getenv(peakArgs); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			panic(err)
		}
		c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, process: true}
		status := exitStatus(c.execute(list), os.Stderr)
		if err := os.WriteFile(os.Getenv(peakFile), []byte(highWater()), 0o644); err != nil {
			panic(err)
		}
		os.Exit(status)
	}
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// The environment of a process that runs the command line for peak.
const (
	peakArgs = "SPACETIME_TEST_PEAK_ARGS"
	peakFile = "SPACETIME_TEST_PEAK_FILE"
)

// highWater is the process's peak resident memory, in kB, from
// /proc/self/status ("" where there is none).
func highWater() string {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB"))
		}
	}
	return ""
}

// binary builds the command (once) and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no processes here")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "spacetime-test-"); buildErr != nil {
			return
		}
		built = filepath.Join(buildDir, "spacetime")
		build := exec.Command(goTool, "build", "-o", built, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := build.CombinedOutput(); err != nil {
			buildErr = errors.New(string(msg))
		}
	})
	require.NoError(t, buildErr)
	return built
}

// The hostile scenarios: twelve processes that each save a checkpoint
// every tick (their state grows with the run, which the engine has to
// see), and two processes that send a thousand messages a step (a JSON
// trace of hundreds of megabytes, a picture's window of a hundred
// thousand messages).
const (
	checkpointing = `{"algorithm": "checkpoint", "n": 12, "seed": 1, "params": {"interval": 1}, "workload": {"p": 1, "every": [1, 1]}, "until": {"steps": 1000000}}`
	fanning       = `{"algorithm": "idle-poll", "n": 2, "seed": 1, "params": {"fanout": 1000, "depth": 1000}, "until": {"steps": 1000000}}`
)

// panicking is an output whose writes panic: a bug in the command line's
// own code, as far as the command can tell.
type panicking struct{}

func (panicking) Write([]byte) (int, error) { panic("the output broke") }

// message is what the command prints on stderr for err, and the status.
func message(err error) (string, int) {
	var b bytes.Buffer
	status := exitStatus(err, &b)
	return b.String(), status
}

// Every command's output that cannot be written is reported, whatever the
// command found, and exits 4: a full disk at once, or after a few bytes,
// or at the flush.
func TestEveryCommandReportsAFailedWrite(t *testing.T) {
	file := writeScenario(t, "bank.json", mustBuiltin(t, "snapshot-bank").JSON())
	for _, args := range [][]string{
		{"list"},
		{"list", "--json"},
		{"help"},
		{"run", "--scenario", "snapshot-bank"},
		{"run", file, "--json"},
		{"export", "--scenario", "snapshot-bank", "--format", "json"},
		{"export", "--scenario", "snapshot-long", "--format", "json"},
		{"export", "--scenario", "snapshot-bank", "--format", "shiviz"},
		{"export", "--scenario", "snapshot-bank", "--format", "svg"},
		{"export", "--scenario", "snapshot-bank", "--format", "png"},
		{"export", "--scenario", "snapshot-bank", "--format", "tikz"},
		{"explore", "--scenario", "snapshot-nonfifo"}, // finds the bug: 1, unless its output is lost
		{"explore", "--scenario", "snapshot-nonfifo", "--json"},
		{"check", "--algorithm", "chandy-lamport", "--runs", "3", "--seed", "1", "--out", t.TempDir()},
		{"check", "--algorithm", "chandy-lamport", "--runs", "3", "--seed", "1", "--json", "--out", t.TempDir()},
	} {
		for _, room := range []int{0, 100} {
			err := (&cli{stdin: strings.NewReader(""), stdout: &fulldisk.Writer{Room: room}, stderr: &bytes.Buffer{}}).execute(args)
			require.Error(t, err, "%v", args)
			msg, status := message(err)
			assert.Equal(t, 4, status, "%v: %s", args, msg)
			assert.Equal(t, "spacetime: writing the output: no space left on device\n", msg, "%v", args)
		}
	}
}

// A write to -o's file that fails is reported with the file's name; one
// that cannot be created is bad input.
func TestWriteErrorOfAFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /dev/full")
	}
	for _, format := range []string{"json", "shiviz", "svg", "tikz"} {
		_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", format, "-o", "/dev/full")
		msg, status := message(err)
		assert.Equal(t, 4, status, format)
		assert.Equal(t, "spacetime: writing /dev/full: no space left on device\n", msg, format)
	}
	_, err := call(t, "export", "--scenario", "snapshot-bank", "--format", "json", "-o", filepath.Join(t.TempDir(), "no", "x.json"))
	_, status := message(err)
	assert.Equal(t, 2, status)
}

// A panic of the command line's own code is an internal error, with the
// panic and where it happened, and exits 4, not Go's 2 of a crash.
func TestAPanicIsAnInternalError(t *testing.T) {
	err := (&cli{stdin: strings.NewReader(""), stdout: panicking{}, stderr: &bytes.Buffer{}}).execute([]string{"list"})
	msg, status := message(err)
	assert.Equal(t, 4, status)
	assert.True(t, strings.HasPrefix(msg, "spacetime: internal error: the output broke\n"), msg)
	assert.Contains(t, msg, "bounds_test.go:", "the stack says where")
	assert.LessOrEqual(t, strings.Count(msg, "\n"), 14, "a short stack")
}

// The three kinds of failure have three statuses: bad input 2, a bound
// reached on valid input 3, the command's own failure 4.
func TestBoundsExitThree(t *testing.T) {
	fan := writeScenario(t, "fan.json", []byte(fanning))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a run past --max-memory", []string{"run", "--scenario", "snapshot-long", "--max-memory", "4"}, "it would keep more than 4 MB (--max-memory)"},
		{"a PNG of too many pixels", []string{"export", "--scenario", "snapshot-bank", "--format", "png", "--width", "20000", "--height", "20000", "--scale", "2"},
			"--scale: a PNG of 40000×40000 pixels is too large (at most 40000000 pixels): lower --scale, --width or --height"},
		{"a picture past --max-memory", []string{"export", fan, "--format", "svg", "--max-memory", "16"}, "more than --max-memory 16 allows"},
		{"a PNG past --max-memory", []string{"export", "--scenario", "snapshot-bank", "--format", "png", "--width", "6000", "--height", "6000", "--scale", "1", "--max-memory", "64"},
			"a PNG of 6000×6000 pixels of step 59 would take about 551 MB to draw"},
		{"a TikZ figure past --max-memory", []string{"export", "--scenario", "snapshot-long", "--format", "tikz", "--max-memory", "32"}, "the TikZ figure of step 100000 would take about"},
		{"a search past --max-memory", []string{"explore", "--scenario", "snapshot-bank", "--from", "0", "--depth", "200", "--max-states", "2000000", "--max-memory", "4"}, "the search stopped at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := call(t, tc.args...)
			msg, status := message(err)
			assert.Equal(t, 3, status, msg)
			assert.Contains(t, msg, tc.want)
		})
	}
}

// A log over its size is bad input, said with the bound and without a
// size the command did not read; one that opening would take more than
// --max-memory is a bound reached.
func TestALogOverItsBounds(t *testing.T) {
	event := []byte("A {\"A\":1}\nx\n")
	log := bytes.Repeat(event, logimport.MaxLogBytes/len(event)+1)
	over := writeScenario(t, "over.log", log[:logimport.MaxLogBytes+1])
	_, err := call(t, "run", over)
	msg, status := message(err)
	assert.Equal(t, 2, status)
	assert.Equal(t, "spacetime: "+over+" is too large for a log: the limit is 16777216 bytes (16 MiB)\n", msg)
	assert.NotContains(t, msg, "16777217", "it read one byte past the limit, not the file")

	_, err = callIn(t, bytes.NewReader(log), "run", "-")
	msg, status = message(err)
	assert.Equal(t, 2, status)
	assert.Contains(t, msg, "standard input is too large for a log: the limit is 16777216 bytes (16 MiB)")

	_, err = call(t, "run", over, "--max-memory", "8")
	msg, status = message(err)
	assert.Equal(t, 3, status)
	assert.Contains(t, msg, "is a log of more than 2097152 bytes (2 MiB), more than --max-memory 8 lets it open")
}

// A long trace is written as it is made: the JSON of a run stopped at
// --max-memory is the whole JSON of the steps it took, in pieces no
// larger than the output's buffer.
func TestExportsStream(t *testing.T) {
	fan := writeScenario(t, "fan.json", []byte(fanning))
	for _, format := range []string{"json", "shiviz"} {
		var out counting
		err := (&cli{stdin: strings.NewReader(""), stdout: &out, stderr: &bytes.Buffer{}}).execute([]string{"export", fan, "--format", format, "--max-memory", "16"})
		_, status := message(err)
		assert.Equal(t, 3, status, "the run stops at --max-memory")
		assert.Greater(t, out.total, 2<<20, "%s: megabytes", format)
		assert.LessOrEqual(t, out.largest, 128<<10, "%s: written in pieces", format)
	}
	out, err := call(t, "export", fan, "--format", "json", "--max-memory", "8")
	_, status := message(err)
	assert.Equal(t, 3, status)
	var trace struct {
		Records []json.RawMessage `json:"records"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &trace), "the JSON is whole")
	assert.Greater(t, len(trace.Records), 1000)
}

// counting counts what is written, and the largest write.
type counting struct{ total, largest int }

func (c *counting) Write(p []byte) (int, error) {
	c.total += len(p)
	c.largest = max(c.largest, len(p))
	return len(p), nil
}

// A search within --max-memory stops, bounded by memory, once the states
// it keeps would pass it, and says so in its report.
func TestExploreWithinItsMemory(t *testing.T) {
	out, err := call(t, "explore", "--scenario", "snapshot-bank", "--from", "0", "--depth", "200", "--max-states", "2000000", "--max-memory", "8", "--json")
	_, status := message(err)
	assert.Equal(t, 3, status)
	var rep exploreReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, explore.Bounded, rep.Progress.Outcome)
	assert.Equal(t, explore.BoundMemory, rep.Progress.Bound)
	assert.Greater(t, rep.Progress.States, 1000)
	assert.Less(t, rep.Progress.States*explore.StateBytes, 8<<20, "the states fit in the bound")

	out, err = call(t, "explore", "--scenario", "snapshot-bank", "--from", "0", "--depth", "200", "--max-states", "2000000", "--max-memory", "8")
	assert.Equal(t, 3, exitCode(err))
	assert.Contains(t, out, "none found before the search would keep more memory than it may")
}

// The engine's reckoning holds a run within --max-memory whatever grows:
// a run of processes whose state grows stops at the same step every
// time, well before its heap passes the bound.
func TestProcessStateIsReckoned(t *testing.T) {
	file := writeScenario(t, "checkpointing.json", []byte(checkpointing))
	first, err := runJSON(t, file, "--max-memory", "16", "--json")
	require.Equal(t, 3, exitCode(err))
	again, err := runJSON(t, file, "--max-memory", "16", "--json")
	require.Equal(t, 3, exitCode(err))
	assert.Equal(t, first.Steps, again.Steps, "the engine's reckoning stops it, not the heap")
	assert.Greater(t, first.Steps, 2000)
}

// peak runs the command line in a process of its own (this test binary,
// see TestMain) and returns its exit status and its peak resident memory,
// in MB.
func peak(t *testing.T, args ...string) (int, float64) {
	t.Helper()
	list, err := json.Marshal(args)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), peakArgs+"="+string(list), peakFile+"="+file)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr // standard output: the null device
	status := processStatus(t, cmd.Run())
	kb, err := os.ReadFile(file)
	require.NoError(t, err, "stderr: %s", stderr.String())
	n, err := strconv.ParseFloat(string(kb), 64)
	require.NoError(t, err, "VmHWM %q", kb)
	return status, n / 1024
}

// The process stays under twice --max-memory and 32 MB, whatever it is
// asked: a run whose processes' state grows, a JSON trace or a log of
// hundreds of megabytes, a picture of a window of a hundred thousand
// messages, a search of two million states, a campaign, the largest log.
// (Before the bounds were made true, the first took 2.4 GB at the
// default 1024 MB, the JSON export died of running out of memory at 256
// MB, and the search took 2.4 GB at 64 MB.)
func TestPeakMemoryWithinTheBound(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peak is read from Linux's rusage")
	}
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "checkpointing.json")
	fan := filepath.Join(dir, "fan.json")
	big := filepath.Join(dir, "big.log")
	require.NoError(t, os.WriteFile(ckpt, []byte(checkpointing), 0o644))
	require.NoError(t, os.WriteFile(fan, []byte(fanning), 0o644))
	event := []byte("A {\"A\":1}\nx\n")
	require.NoError(t, os.WriteFile(big, bytes.Repeat(event, logimport.MaxLogBytes/len(event)), 0o644))
	for _, tc := range []struct {
		mb     int
		status int
		args   []string
	}{
		{32, 3, []string{"run", ckpt}},
		{32, 3, []string{"export", fan, "--format", "json"}},
		{32, 3, []string{"export", fan, "--format", "shiviz"}},
		{32, 3, []string{"export", fan, "--format", "svg"}},
		{32, 3, []string{"export", fan, "--format", "tikz"}},
		{16, 3, []string{"explore", "--scenario", "snapshot-bank", "--from", "0", "--depth", "200", "--max-states", "2000000"}},
		{16, 0, []string{"check", "--algorithm", "chandy-lamport", "--runs", "50", "--seed", "1", "--out", dir}},
		{4, 3, []string{"run", big}},
	} {
		args := append(tc.args, "--max-memory", strconv.Itoa(tc.mb))
		status, mb := peak(t, args...)
		t.Logf("%5.1f MB at --max-memory %d: %s", mb, tc.mb, strings.Join(tc.args, " "))
		assert.Equal(t, tc.status, status, "%v", args)
		assert.LessOrEqual(t, mb, float64(2*tc.mb+32), "%v", args)
	}
}

func mustBuiltin(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	return s
}
