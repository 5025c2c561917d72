package scenario_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/internal/fuzzcheck"
)

// FuzzParse checks scenario.Parse, the reader of scenario files (the CLI's
// FILE.json, the page's "Load scenario…", a link's sc=):
//
//   - it never panics;
//   - a refusal is in plain words: no "json:" prefix, no Go type or package
//     names (sim.Time, []int, scenario.Scenario, "Go struct field …") that
//     the file did not itself contain, and at most maxParseError bytes
//     however large the file;
//   - an accepted scenario round-trips: Parse(s.JSON()) accepts it and
//     gives the same JSON, and so does its Clone;
//   - an accepted scenario runs: with its until.steps capped (see
//     boundedRun) so that one input costs a few milliseconds, Run succeeds
//     without panicking, and its report, transcript and trace exports are
//     made without panicking.
//
// The seed corpus is every built-in lesson (builtin/*.json, added here so
// that a new lesson joins it) and the hand-written documents in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("builtin/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no built-in lessons to seed the corpus with (%v)", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzcheck.Watchdog(string(data))()
		s, err := scenario.Parse(data)
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), string(data), maxParseError)
			return
		}
		out := s.JSON()
		if !json.Valid(out) {
			t.Fatalf("JSON() of an accepted scenario is not JSON:\n%s", out)
		}
		again, err := scenario.Parse(out)
		if err != nil {
			t.Fatalf("the scenario's own JSON is refused: %v\n%s", err, out)
		}
		if got := again.JSON(); !bytes.Equal(got, out) {
			t.Fatalf("JSON does not round-trip:\nfirst  %s\nsecond %s", out, got)
		}
		if got := s.Clone().JSON(); !bytes.Equal(got, out) {
			t.Fatalf("Clone changes the scenario:\nfirst  %s\nclone  %s", out, got)
		}
		c, limit := boundedRun(s)
		p, err := c.Compile()
		if err != nil {
			t.Fatalf("an accepted scenario does not compile: %v\n%s", err, c.JSON())
		}
		r, err := p.Run()
		if err != nil {
			t.Fatalf("an accepted scenario does not run: %v\n%s", err, c.JSON())
		}
		if r.Len() > limit {
			t.Fatalf("the run took %d steps, past its until.steps of %d", r.Len(), limit)
		}
		_ = r.At(r.Len() / 2)
		rep := report.Build(c, r, r.Len())
		_ = rep.Text()
		_ = report.Transcript(c, r)
		if _, err := r.Trace().JSON(r.Len()); err != nil {
			t.Fatalf("the trace does not encode: %v", err)
		}
		_ = r.Trace().ShiViz(r.Len())
	})
}

// maxParseError bounds a refusal's length, whatever the file's size: it
// quotes at most a few short pieces of the file, and the longest lists it
// gives are of 64 process names of up to 16 characters.
const maxParseError = 8000

// boundedRun is a copy of s whose run stops after at most limit steps, so
// that one fuzz input stays within a few tens of milliseconds: a step's
// cost grows with the number of processes, so the cap is a budget of
// process-steps. A scenario already stopping earlier is left as it is.
func boundedRun(s *scenario.Scenario) (c *scenario.Scenario, limit int) {
	limit = min(max(6000/max(s.N, 1), 20), 500)
	c = s.Clone()
	if c.Until.Steps == 0 || c.Until.Steps > limit {
		c.Until.Steps = limit
	}
	return c, c.Until.Steps
}
