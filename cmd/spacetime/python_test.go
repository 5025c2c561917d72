package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/python/ports"
	"spacetime/core/report"
)

// writeFile writes a test's file into dir.
func writeIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// README's example, named by a scenario file beside it (code_file), runs
// as any algorithm: messages by kind, invariants by name, each process's
// state; the program alone runs on the defaults of a program file.
func TestRunAProgram(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "ring.py", ports.Starter())
	file := writeIn(t, dir, "ring.json", `{"algorithm": "python", "code_file": "ring.py", "n": 4, "seed": 1, "until": {"steps": 40}}`)
	out, err := call(t, "run", file, "--json")
	require.NoError(t, err)
	var rep report.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "python", rep.Algorithm)
	assert.Equal(t, 40, rep.Steps)
	assert.Equal(t, 18, rep.Messages.ByKind["TOKEN"])
	require.Len(t, rep.Invariants, 2)
	assert.Equal(t, "one token", rep.Invariants[1].Name)
	assert.True(t, rep.Invariants[1].OK)
	require.Len(t, rep.Processes, 4)
	holders := 0
	for _, p := range rep.Processes {
		assert.Equal(t, "has", p.State[0].Name)
		if p.State[0].Value == "True" {
			holders++
		}
	}
	assert.Equal(t, 1, holders)

	alone, err := call(t, "run", filepath.Join(dir, "ring.py"))
	require.NoError(t, err)
	assert.Contains(t, alone, "scenario   ring (python, n=3, seed 1)")
	assert.Contains(t, alone, "invariant  ok   one token")

	// a code_file is read beside the file, and only there
	bad := writeIn(t, dir, "up.json", `{"algorithm": "python", "code_file": "../ring.py", "n": 2, "until": {"steps": 5}}`)
	_, err = call(t, "run", bad)
	assert.ErrorContains(t, err, `field "code_file": want a file beside the scenario or below it, not above it`)
}

// A program that raises stops its run at the step, and the report says
// where; a broken program is refused at its line, exit status 2.
func TestRunAProgramThatFails(t *testing.T) {
	dir := t.TempDir()
	failing := writeIn(t, dir, "fails.py", "def init(p):\n    if p.id == 2:\n        p.send(1, 'PING')\n\ndef on_message(p, m):\n    p.state['x'] = m.fields['missing']\n")
	out, err := call(t, "run", failing)
	assert.Equal(t, 1, exitCode(err), "an invariant (no handler raises an error) failed")
	assert.Contains(t, out, "stopped: failed")
	assert.Contains(t, out, `error      step 4, 1: line 6, column 28: key "missing" not in dict (in on_message of 1, taking PING from 2)`)

	broken := writeIn(t, dir, "broken.py", "def init(p)\n    pass\n")
	_, err = call(t, "run", broken)
	assert.Equal(t, 2, exitCode(err))
	assert.ErrorContains(t, err, `field "code": line 1, column 12: got newline, want ':'`)
}

// A lecturer grades a submission: a campaign under every fault, exit
// status 1 and the shortest schedule that breaks it.
func TestCheckGradesAProgram(t *testing.T) {
	dir := t.TempDir()
	// the holder forgets to give the token up as it passes it on
	student := strings.Replace(ports.Starter(), "        p.state[\"has\"] = False\n", "", 1)
	require.NotEqual(t, ports.Starter(), student)
	submission := writeIn(t, dir, "student.py", student)
	rep, err := checkJSON(t, submission, "--runs", "40", "--seed", "3", "--out", filepath.Join(dir, "out"))
	assert.Equal(t, 1, exitCode(err))
	assert.False(t, rep.OK)
	require.NotEmpty(t, rep.Failures)
	assert.Contains(t, rep.Failures[0].Rerun, "spacetime check "+submission+" --run-seed")
	require.NotNil(t, rep.Shortest, "the smallest story of the bug")
	assert.Equal(t, "one token", rep.Shortest.Violation.Invariant)
	assert.LessOrEqual(t, rep.Shortest.Violation.Step, 12)

	// an exercise's answer, checked on its lesson
	skeleton, ok := ports.Skeleton("snapshot-bank")
	require.True(t, ok)
	// seed 003's rule: a marker empties its channel's recorded state
	wrong := "    k, q = m.snapshot, m.sender\n    r = round_of(p, k)\n    if not r[\"recorded\"]:\n        record(p, k)\n    r[\"channel\"][q] = []\n    if q not in r[\"closed\"]:\n        r[\"closed\"].append(q)\n"
	hole := skeleton[strings.Index(skeleton, "    # EXERCISE"):]
	hole = hole[:strings.Index(hole, "    pass\n")+len("    pass\n")]
	answer := writeIn(t, dir, "answer.py", strings.Replace(skeleton, hole, wrong, 1))
	rep, err = checkJSON(t, answer, "--scenario", "snapshot-bank", "--runs", "20", "--seed", "1", "--faults", "none", "--out", filepath.Join(dir, "out2"))
	require.Error(t, err)
	assert.Contains(t, rep.Failures[0].Rerun, answer+" --scenario snapshot-bank")
}
