package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"spacetime/internal/mutate"
)

// block is a run of statements the coverage build counted: a file's
// lines and columns from start to end, and whether any run reached it.
type block struct {
	startLine, startCol, endLine, endCol int
	reached                              bool
}

// contains says the position is inside the block.
func (b block) contains(line, col int) bool {
	after := line > b.startLine || line == b.startLine && col >= b.startCol
	before := line < b.endLine || line == b.endLine && col <= b.endCol
	return after && before
}

// coverage is what one algorithm's unmutated campaign reached, by file
// (as a mutant names it: core/algo/...).
type coverage map[string][]block

// reaches says the campaign ran the code a mutant changes. A position in
// no block counted (a switch's case condition: the profile counts the
// statements around it) is reached when its function ran: when a block
// of the function's body was, or the profile counts none there.
func (c coverage) reaches(m mutate.Mutant) bool {
	found := false
	for _, b := range c[m.File] {
		if b.contains(m.Line, m.Col) {
			if b.reached {
				return true
			}
			found = true
		}
	}
	if found {
		return false
	}
	inBody := false
	for _, b := range c[m.File] {
		if b.startLine >= m.BodyFrom && b.endLine <= m.BodyTo {
			if b.reached {
				return true
			}
			inBody = true
		}
	}
	return !inBody
}

// baseline builds the judge with coverage of every algorithm's package,
// runs each algorithm's campaign on the unmutated code, and returns its
// verdict, what it reached and how long it took. A mutant in code that an
// algorithm's campaign never runs cannot be caught by it: the mutant is
// not reached, and not judged there.
func baseline(root, dir string, algos []string, opt options) ([]Verdict, map[string]coverage, map[string]time.Duration, error) {
	bin := filepath.Join(dir, "cover")
	// the main package is in -coverpkg: without it the build counts
	// nothing and writes no profile
	build := exec.Command("go", "build", "-cover", "-coverpkg="+algoPrefix+"...,spacetime/cmd/mutants", "-o", bin, "./cmd/mutants")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, nil, nil, fmt.Errorf("the coverage build: %v\n%s", err, out)
	}
	var verdicts []Verdict
	covs := map[string]coverage{}
	took := map[string]time.Duration{}
	for _, a := range algos {
		covDir := filepath.Join(dir, "cov-"+a)
		if err := os.MkdirAll(covDir, 0o755); err != nil {
			return nil, nil, nil, err
		}
		cmd := exec.Command(bin, "-judge", "-algorithms", a, "-runs", fmt.Sprint(opt.runs), "-seed", fmt.Sprint(opt.seed))
		cmd.Env = append(os.Environ(), "GOCOVERDIR="+covDir)
		started := time.Now()
		out, err := cmd.Output()
		took[a] = time.Since(started)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("judging the unmutated %s: %w", a, err)
		}
		var v Verdict
		if err := json.Unmarshal(bytes.TrimSpace(out), &v); err != nil {
			return nil, nil, nil, fmt.Errorf("judging the unmutated %s: %w", a, err)
		}
		verdicts = append(verdicts, v)
		text := filepath.Join(dir, "cov-"+a+".txt")
		conv := exec.Command("go", "tool", "covdata", "textfmt", "-i="+covDir, "-o="+text)
		conv.Dir = root
		if out, err := conv.CombinedOutput(); err != nil {
			return nil, nil, nil, fmt.Errorf("go tool covdata: %v\n%s", err, out)
		}
		c, err := readCoverage(text)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(c) == 0 {
			return nil, nil, nil, fmt.Errorf("the coverage build counted nothing for %s", a)
		}
		covs[a] = c
	}
	return verdicts, covs, took, nil
}

// readCoverage reads a coverage profile in the text format:
// "spacetime/core/algo/x/f.go:12.3,14.5 2 1" (statements, then count).
func readCoverage(file string) (coverage, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := coverage{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") {
			continue
		}
		name, rest, ok := strings.Cut(line, ":")
		fields := strings.Fields(rest)
		if !ok || len(fields) != 3 {
			continue
		}
		var b block
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.startLine, &b.startCol, &b.endLine, &b.endCol); err != nil {
			continue
		}
		count, _ := strconv.Atoi(fields[2])
		b.reached = count > 0
		name = strings.TrimPrefix(name, "spacetime/")
		c[name] = append(c[name], b)
	}
	return c, sc.Err()
}
