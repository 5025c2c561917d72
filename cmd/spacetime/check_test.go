package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/campaign"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// checkJSON runs `spacetime check … --json` and decodes its report.
func checkJSON(t *testing.T, args ...string) (checkReport, error) {
	t.Helper()
	out, err := call(t, append([]string{"check", "--json"}, args...)...)
	var rep checkReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "output: %s", out)
	return rep, err
}

// TestCheckEveryAlgorithm is the tests' one campaign (core/campaign's
// tests hold its parts): 200 seeded runs of every registered algorithm
// with every fault (60 under -short, as make test runs it; make
// test-long runs the 200), on every core, through the command a learner
// runs. A failure prints the command that replays it and the page's link.
func TestCheckEveryAlgorithm(t *testing.T) {
	out := t.TempDir()
	runs := 200
	if testing.Short() {
		runs = 60
	}
	rep, err := checkJSON(t, "--runs", strconv.Itoa(runs), "--seed", "20261201", "--out", out)
	for _, f := range rep.Failures {
		t.Errorf("%s run %d (seed %d) found a bug: %s\n  replay: %s\n  page: %s", f.Subject, f.Run, f.Seed, what(f), f.Replay, f.Link)
	}
	require.NoError(t, err)
	assert.True(t, rep.OK)
	var builtin []*sim.Spec // a program is checked from its file
	for _, spec := range all.Specs() {
		if spec.Program == nil {
			builtin = append(builtin, spec)
		}
	}
	require.Len(t, rep.Subjects, len(builtin))
	for i, spec := range builtin {
		tl := rep.Subjects[i]
		assert.Equal(t, spec.ID, tl.Subject)
		assert.Equal(t, runs, tl.Runs)
		assert.Positive(t, tl.Steps)
		assert.Positive(t, tl.Faults, "%s: faults were injected", spec.ID)
		assert.Zero(t, tl.Unexpected)
		assert.Zero(t, tl.Panics)
	}
	assert.Equal(t, faults.Names(), rep.Faults)
	entries, err := os.ReadDir(out)
	if err == nil {
		assert.Empty(t, entries, "no failing scenario written")
	}
}

func TestCheckIsDeterministic(t *testing.T) {
	args := []string{"check", "--algorithm", "chandy-lamport", "--runs", "60", "--seed", "9", "--out", t.TempDir()}
	a, err := call(t, args...)
	require.NoError(t, err)
	b, err := call(t, args...)
	require.NoError(t, err)
	assert.Equal(t, a, b, "the same seed, the same output")
	assert.True(t, strings.HasPrefix(a, "spacetime check --seed 9: 60 runs of chandy-lamport, every fault\n"), a)
	assert.Regexp(t, `(?m)^algorithm\s+runs\s+steps\s+faults\s+skipped\s+expected\s+unexpected\s+panics$`, a)
	assert.Regexp(t, `(?m)^chandy-lamport\s+60\s+\d+\s+\d+\s+\d+\s+\d+\s+0\s+0$`, a)
	assert.Contains(t, a, "expected violations of chandy-lamport:")
	c, err := call(t, "check", "--algorithm", "chandy-lamport", "--runs", "60", "--seed", "10", "--out", t.TempDir())
	require.NoError(t, err)
	assert.NotEqual(t, a, c, "another seed, other runs")

	j1, err := checkJSON(t, "--algorithm", "chandy-lamport", "--runs", "30", "--seed", "4")
	require.NoError(t, err)
	j2, err := checkJSON(t, "--algorithm", "chandy-lamport", "--runs", "30", "--seed", "4")
	require.NoError(t, err)
	assert.Equal(t, j1, j2)
	assert.Equal(t, uint64(4), j1.Seed)
	assert.Equal(t, 30, j1.Runs)
}

func TestCheckFaultsFlag(t *testing.T) {
	tests := []struct {
		list  string
		want  []string
		none  bool
		label string
	}{
		{"crash,recover", []string{"crash", "recover"}, false, "faults: crash,recover"},
		{"none", []string{}, true, "no faults"},
		{"all", faults.Names(), false, "every fault"},
	}
	for _, tc := range tests {
		t.Run(tc.list, func(t *testing.T) {
			rep, err := checkJSON(t, "--algorithm", "chandy-lamport", "--runs", "40", "--seed", "2", "--faults", tc.list)
			require.NoError(t, err)
			assert.Equal(t, tc.want, rep.Faults)
			if tc.none {
				assert.Zero(t, rep.Subjects[0].Faults, "no fault injected")
				assert.Zero(t, rep.Subjects[0].Expected, "and nothing to excuse: reliable FIFO channels keep every invariant")
			} else {
				assert.Positive(t, rep.Subjects[0].Faults)
			}
			out, err := call(t, "check", "--algorithm", "chandy-lamport", "--runs", "2", "--seed", "2", "--faults", tc.list)
			require.NoError(t, err)
			assert.Contains(t, strings.SplitN(out, "\n", 2)[0], tc.label)
		})
	}
}

func TestCheckLesson(t *testing.T) {
	rep, err := checkJSON(t, "--scenario", "snapshot-nonfifo", "--runs", "40", "--seed", "1")
	require.NoError(t, err)
	require.Len(t, rep.Subjects, 1)
	tl := rep.Subjects[0]
	assert.Equal(t, "snapshot-nonfifo", tl.Subject)
	assert.Positive(t, tl.Expected, "the lesson's declared violation shows in its variations")
	assert.Zero(t, tl.Unexpected)
}

// A lesson with a long id (a comparison's run) draws scenarios whose ids
// fit, and none fails to run.
func TestCheckLessonWithALongID(t *testing.T) {
	const id = "termination-detectors-snapshot-termination"
	rep, err := checkJSON(t, "--scenario", id, "--runs", "30", "--seed", "1")
	require.NoError(t, err)
	require.Len(t, rep.Subjects, 1)
	assert.Zero(t, rep.Subjects[0].Unexpected)
	assert.Empty(t, rep.Failures)
}

// withoutLimits makes chandy-lamport declare no known limit for the
// test's length, so that a lost message is a bug to the campaign.
func withoutLimits(t *testing.T) {
	saved := chandylamport.Spec.Checks.KnownLimits
	chandylamport.Spec.Checks.KnownLimits = nil
	t.Cleanup(func() { chandylamport.Spec.Checks.KnownLimits = saved })
}

// TestCheckWritesReplayableFailures checks what a failure leaves: its
// line, a scenario file that `spacetime run` reopens and fails on in the
// same way, a page link to the same scenario at the failing step, and a
// run seed that draws the same scenario again.
func TestCheckWritesReplayableFailures(t *testing.T) {
	withoutLimits(t)
	dir := filepath.Join(t.TempDir(), "nested", "out")
	args := []string{"check", "--algorithm", "chandy-lamport", "--runs", "12", "--seed", "3", "--faults", "drop", "--out", dir}
	out, err := call(t, args...)
	require.ErrorIs(t, err, errViolation)
	assert.Equal(t, 1, exitCode(err))
	assert.Regexp(t, `(?m)^FAIL  chandy-lamport run \d+ \(seed \d+\): "money is conserved" failed at step \d+, with faults: drop$`, out)
	replays := regexp.MustCompile(`(?m)^      replay: spacetime run (\S+)$`).FindAllStringSubmatch(out, -1)
	links := regexp.MustCompile(`(?m)^      page:   (\S+)$`).FindAllStringSubmatch(out, -1)
	require.NotEmpty(t, replays)
	require.Len(t, links, len(replays))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(replays), "one file per failing run")

	rep, err := checkJSON(t, args[1:]...)
	require.ErrorIs(t, err, errViolation)
	assert.False(t, rep.OK)
	require.Len(t, rep.Failures, len(replays))
	for i, f := range rep.Failures {
		assert.Equal(t, replays[i][1], f.File)
		assert.Equal(t, "spacetime run "+f.File, f.Replay)
		assert.Equal(t, links[i][1], f.Link)
		assert.Equal(t, filepath.Join(dir, fmt.Sprintf("chandy-lamport-%d.json", f.Seed)), f.File)
		assert.Equal(t, campaign.RunSeed(3, "chandy-lamport", f.Run), f.Seed, "the run's seed comes from the campaign's, the algorithm and the run")
		require.NotEmpty(t, f.Violations)

		// spacetime run reopens it and fails on the same invariant
		runOut, err := call(t, "run", f.File)
		require.ErrorIs(t, err, errViolation, "%s", runOut)
		v := f.Violations[0]
		assert.Contains(t, runOut, fmt.Sprintf("invariant  FAIL %s (first at step %d: %s)", v.Invariant, v.Step, v.Detail))

		// the page opens the link on the same scenario, at the failing step
		data, err := os.ReadFile(f.File)
		require.NoError(t, err)
		file, err := scenario.Parse(data)
		require.NoError(t, err)
		u, err := url.Parse(f.Link)
		require.NoError(t, err)
		assert.Equal(t, "127.0.0.1:8080", u.Host)
		sess, err := lab.FromQuery(u.Query())
		require.NoError(t, err)
		assert.Equal(t, string(file.JSON()), string(sess.Scenario().JSON()))
		assert.Equal(t, v.Step, sess.Step())

		// and the run seed alone draws the same scenario
		again := t.TempDir()
		assert.Equal(t, fmt.Sprintf("spacetime check --algorithm chandy-lamport --run-seed %d --faults drop", f.Seed), f.Rerun)
		assert.Contains(t, out, "      redraw: "+f.Rerun+"\n")
		_, err = call(t, append(strings.Fields(f.Rerun)[1:], "--out", again)...)
		require.ErrorIs(t, err, errViolation)
		data2, err := os.ReadFile(filepath.Join(again, filepath.Base(f.File)))
		require.NoError(t, err)
		alone, err := scenario.Parse(data2)
		require.NoError(t, err)
		file.Description, alone.Description = "", ""
		assert.Equal(t, string(file.JSON()), string(alone.JSON()))
	}
}

// TestCheckReportsPanics makes an invariant panic mid-run: the campaign
// catches it per run, counts it, writes the scenario and exits 1.
func TestCheckReportsPanics(t *testing.T) {
	saved := chandylamport.Spec.Checks.Invariants
	t.Cleanup(func() { chandylamport.Spec.Checks.Invariants = saved })
	chandylamport.Spec.Checks.Invariants = append(append([]sim.Invariant(nil), saved...), sim.Invariant{
		Name: "panics at step 30",
		Check: func(v sim.View) sim.Verdict {
			if v.Steps() == 30 {
				var m map[int]int
				//lint:ignore SA5000 the panic is the point
				m[v.Steps()]++
			}
			return sim.Verdict{OK: true}
		},
	})
	dir := t.TempDir()
	out, err := call(t, "check", "--algorithm", "chandy-lamport", "--runs", "5", "--seed", "1", "--out", dir)
	require.ErrorIs(t, err, errViolation)
	assert.Regexp(t, `(?m)^PANIC chandy-lamport run 0 \(seed \d+\): assignment to entry in nil map \(in spacetime/cmd/spacetime\.TestCheckReportsPanics\.func\d+, check_test\.go:\d+\)$`, out)
	assert.Regexp(t, `(?m)^chandy-lamport\s+5\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+[1-5]$`, out, "panics are counted")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.NotEmpty(t, entries, "the panicking scenarios are written")
}

func TestCheckBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"runs 0", []string{"--runs", "0"}, `--runs: want a number of runs from 1 to 100000000, got "0"`},
		{"negative runs", []string{"--runs", "-5"}, `--runs: want a number of runs from 1 to 100000000, got "-5"`},
		{"runs not a number", []string{"--runs", "many"}, `--runs: want a number of runs`},
		{"negative seed", []string{"--seed", "-1"}, `--seed: want a seed, a whole number from 0 to 18446744073709551615, got "-1"`},
		{"bad run seed", []string{"--run-seed", "x"}, `--run-seed: want a seed`},
		{"unknown fault", []string{"--faults", "melt"}, `--faults: unknown fault "melt"`},
		{"unknown algorithm", []string{"--algorithm", "paxos"}, `--algorithm: unknown algorithm "paxos" (known: chandy-lamport`},
		{"unknown lesson", []string{"--scenario", "nope"}, `--scenario: no built-in scenario "nope"`},
		{"both", []string{"--algorithm", "chandy-lamport", "--scenario", "snapshot-bank"}, "give --algorithm or --scenario, not both"},
		{"a missing file", []string{"x.json"}, `cannot open x.json`},
		{"a file and an algorithm", []string{"x.json", "--algorithm", "bully"}, "give a file, --algorithm or --scenario, not two of them"},
		{"python alone", []string{"--algorithm", "python"}, "--algorithm python runs a program you write: give its file"},
		{"empty out", []string{"--out", ""}, "--out: want a directory, got nothing"},
		{"unknown flag", []string{"--verbose"}, "unknown flag --verbose (check takes --algorithm, --faults, --json, --max-memory, --out, --run-seed, --runs, --scenario, --seed)"},
		{"no memory", []string{"--max-memory", "0"}, `--max-memory: want a number of MB from 1 to 1048576, got "0"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(t, append([]string{"check"}, tc.args...)...)
			require.Error(t, err)
			assert.Equal(t, 2, exitCode(err))
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, out)
		})
	}
}

func TestCheckDefaultSeedIsPrinted(t *testing.T) {
	out, err := call(t, "check", "--runs", "1", "--out", t.TempDir())
	require.NoError(t, err)
	m := regexp.MustCompile(`^spacetime check --seed (\d+): 1 runs of `).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	again, err := call(t, "check", "--runs", "1", "--seed", m[1], "--out", t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, out, again, "the printed seed runs the same campaign")
}
