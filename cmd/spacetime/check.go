package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/campaign"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Defaults and bounds of spacetime check.
const (
	defaultRuns = 1000
	maxRuns     = 100_000_000
	// pageAddress is where `make run` serves the page, for the links.
	pageAddress = "http://127.0.0.1:8080/"
)

// subject is what a campaign checks: an algorithm, or one lesson varied.
type subject struct {
	name   string
	spec   *sim.Spec
	lesson *scenario.Scenario
	// file is the scenario or program file the lesson was read from,
	// "" for a built-in one, and on the built-in lesson a program file
	// runs ("" for its own scenario).
	file, on string
}

// checkJob is one run of a campaign.
type checkJob struct {
	subject int
	run     int
	seed    uint64
}

// checkFailure is one run that found a bug, as the JSON output gives it.
type checkFailure struct {
	Subject string `json:"subject"`
	Run     int    `json:"run"`
	Seed    uint64 `json:"seed"`
	// Violations are the unexpected ones only.
	Violations []campaign.Violation `json:"violations,omitempty"`
	Panic      string               `json:"panic,omitempty"`
	Error      string               `json:"error,omitempty"`
	Faults     []string             `json:"faults"`
	File       string               `json:"file,omitempty"`
	Replay     string               `json:"replay,omitempty"`
	// Rerun draws the same scenario again from its seed alone.
	Rerun string `json:"rerun,omitempty"`
	Link  string `json:"link,omitempty"`
}

// checkReport is the whole campaign, as --json prints it.
type checkReport struct {
	Seed     uint64           `json:"seed"`
	Runs     int              `json:"runs"`
	Faults   []string         `json:"faults"`
	OK       bool             `json:"ok"`
	Subjects []campaign.Tally `json:"subjects"`
	Failures []checkFailure   `json:"failures"`
	// Shortest is, for a scenario or program file whose campaign failed,
	// the shortest schedule that breaks one of its invariants with at
	// most one fault, as spacetime explore finds it.
	Shortest *exploreReport `json:"shortest,omitempty"`
}

// checkOptions are check's flags, read and checked.
type checkOptions struct {
	subjects []subject
	runs     int
	seed     uint64
	// runSeed, when set, runs that one run of each subject alone.
	runSeed *uint64
	faults  []string
	out     string
	asJSON  bool
	// memory is --max-memory, in MB.
	memory int64
	// file is the scenario or program file to check, "" for none, and
	// lesson the built-in lesson a program file runs, nil for its own.
	file   string
	lesson *scenario.Scenario
}

func (c *cli) check(args []string) error {
	opt, err := parseCheck(args)
	if errors.Is(err, errHelp) {
		return c.help()
	}
	if err != nil {
		return err
	}
	if opt.file != "" {
		sc, err := c.scenarioFile(opt.file, opt.memory)
		if err != nil {
			return err
		}
		on := ""
		if opt.lesson != nil {
			on = opt.lesson.ID
			sc = opt.lesson.WithProgram(sc.Algorithm, sc.Code)
			if err := sc.Validate(); err != nil {
				return errUsage{fmt.Errorf("%s on --scenario %s: %w", opt.file, on, err)}
			}
		}
		opt.subjects = []subject{{name: sc.ID, spec: sc.Spec(), lesson: sc, file: opt.file, on: on}}
	}
	started := time.Now()
	m := newMemoryBound(opt.memory, c.process)
	rep := checkReport{Seed: opt.seed, Runs: opt.runs, Faults: opt.faults, Failures: []checkFailure{}}
	if opt.faults == nil {
		rep.Faults = faults.Names()
	}
	if !opt.asJSON {
		fmt.Fprintln(c.stdout, headline(opt))
	}
	tallies := make([]campaign.Tally, len(opt.subjects))
	for i, s := range opt.subjects {
		tallies[i].Subject = s.name
	}
	progress := c.progress(opt.jobs())
	var failed error
	done := 0
	err = collect(opt, func(j checkJob, res campaign.Result) bool {
		done++
		tallies[j.subject].Add(&res)
		progress.step(res.Failed())
		if res.Failed() {
			f, err := c.failure(opt, opt.subjects[j.subject], j, res)
			if err != nil {
				failed = err
				return false
			}
			rep.Failures = append(rep.Failures, f)
			if !opt.asJSON {
				progress.clear()
				printFailure(c.stdout, f)
				c.flush()
			}
		}
		// a campaign stops when its output cannot be written, or at --max-memory
		return !c.failed() && !m.exceeded()
	})
	if c.terminal {
		progress.clear()
		fmt.Fprintf(c.stderr, "spacetime check: %d runs in %.1fs\n", done, time.Since(started).Seconds())
	}
	switch {
	case err != nil:
		return err
	case failed != nil:
		return failed
	case c.failed():
		return nil // execute reports the output's error
	}
	var stopped error
	if done < opt.jobs() {
		stopped = errResources{fmt.Errorf("the campaign stopped after %d of its %d runs: it would keep more than %d MB (--max-memory)", done, opt.jobs(), m.mb)}
	}
	rep.Subjects, rep.OK = tallies, true
	for i := range tallies {
		rep.OK = rep.OK && !tallies[i].Failed()
	}
	if !rep.OK && opt.file != "" && len(opt.subjects) == 1 {
		if p, err := opt.subjects[0].lesson.Compile(); err == nil {
			if sh, err := c.shortest(p, m, 1); err == nil && sh.Violation != nil {
				rep.Shortest = &sh
			}
		}
	}
	if opt.asJSON {
		writeJSON(c.stdout, rep)
	} else {
		printSummary(c.stdout, tallies)
		if sh := rep.Shortest; sh != nil {
			fmt.Fprintf(c.stdout, "\nthe shortest schedule that breaks it (spacetime explore %s --faults 1): %d steps\n%s\n%s", opt.file, sh.Violation.Step, sh.Violation.Detail, sh.Violation.String())
			if sh.Link != "" {
				fmt.Fprintf(c.stdout, "open it: %s\n", sh.Link)
			}
		}
	}
	if !rep.OK {
		return errors.Join(errViolation, stopped)
	}
	return stopped
}

// parseCheck reads check's flags.
func parseCheck(args []string) (checkOptions, error) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	algorithm := fs.String("algorithm", "", "check this algorithm only")
	lesson := fs.String("scenario", "", "check variations of this built-in lesson")
	runs := fs.String("runs", fmt.Sprint(defaultRuns), "runs per algorithm")
	seed := fs.String("seed", "", "the campaign's seed (default: a random one, printed)")
	runSeed := fs.String("run-seed", "", "run only the run of this seed (as a failure prints it)")
	faultList := fs.String("faults", "all", "the faults to inject, comma separated")
	out := fs.String("out", filepath.Join("out", "check"), "where to write failing scenarios")
	asJSON := fs.Bool("json", false, "print one JSON document")
	memory := addMemoryFlag(fs)
	extra, err := parse(fs, args)
	if err != nil {
		return checkOptions{}, err
	}
	set := given(fs)
	opt := checkOptions{out: *out, asJSON: *asJSON}
	if opt.memory, err = memoryFlag(*memory); err != nil {
		return opt, err
	}
	n, err := intFlag("runs", *runs, 1, maxRuns, fmt.Sprintf("a number of runs from 1 to %d", maxRuns))
	if err != nil {
		return opt, err
	}
	opt.runs = int(n)
	if set["seed"] {
		if opt.seed, err = seedFlag("seed", *seed); err != nil {
			return opt, err
		}
	} else {
		opt.seed = rand.Uint64() // a fresh campaign each time, printed so it can be run again
	}
	if set["run-seed"] {
		rs, err := seedFlag("run-seed", *runSeed)
		if err != nil {
			return opt, err
		}
		opt.runSeed, opt.runs = &rs, 1
	}
	if opt.faults, err = campaign.ParseFaults(*faultList); err != nil {
		return opt, errUsage{fmt.Errorf("--faults: %v", err)}
	}
	if set["out"] && *out == "" {
		return opt, errUsage{errors.New("--out: want a directory, got nothing")}
	}
	switch {
	case extra != "" && *lesson != "" && strings.HasSuffix(strings.ToLower(extra), ".py"):
		// a program run on a lesson: an answer to an exercise, a variant
		l, err := scenario.Builtin(*lesson)
		if err != nil {
			return opt, errUsage{fmt.Errorf("--scenario: %v", err)}
		}
		opt.file, opt.lesson = extra, l
	case extra != "" && (*algorithm != "" || *lesson != ""):
		return opt, errUsage{errors.New("give a file, --algorithm or --scenario, not two of them (but a program file and the --scenario it runs)")}
	case extra != "":
		opt.file = extra // read by check, which reads files
	case *algorithm != "" && *lesson != "":
		return opt, errUsage{errors.New("give --algorithm or --scenario, not both")}
	case *lesson != "":
		l, err := scenario.Builtin(*lesson)
		if err != nil {
			return opt, errUsage{fmt.Errorf("--scenario: %v", err)}
		}
		opt.subjects = []subject{{name: l.ID, spec: l.Spec(), lesson: l}}
	case *algorithm != "":
		spec, ok := all.Lookup(*algorithm)
		if !ok {
			return opt, errUsage{fmt.Errorf("--algorithm: unknown algorithm %q (known: %s)", *algorithm, strings.Join(all.IDs(), ", "))}
		}
		if spec.Program != nil {
			return opt, errUsage{fmt.Errorf("--algorithm %s runs a program you write: give its file (spacetime check ring.py, or a scenario file that names it)", spec.ID)}
		}
		opt.subjects = []subject{{name: spec.ID, spec: spec}}
	default:
		for _, spec := range all.Specs() {
			if spec.Program == nil { // a program is checked from its file
				opt.subjects = append(opt.subjects, subject{name: spec.ID, spec: spec})
			}
		}
	}
	return opt, nil
}

// jobs is the number of runs in the campaign.
func (opt checkOptions) jobs() int { return len(opt.subjects) * opt.runs }

// job is the campaign's i-th run: subject by subject, run by run. Jobs
// are made as they are needed, since a campaign may have millions.
func (opt checkOptions) job(i int) checkJob {
	j := checkJob{subject: i / opt.runs, run: i % opt.runs}
	j.seed = campaign.RunSeed(opt.seed, opt.subjects[j.subject].name, j.run)
	if opt.runSeed != nil {
		j.seed = *opt.runSeed
	}
	return j
}

// collect runs the campaign's jobs on every core and hands each result to
// done in job order, whatever order they finish in, so that the output of
// a campaign depends on its seed alone. When done returns false, no job is
// started any more, and those under way are not handed on. A panic of a
// worker outside the runs (campaign.Run recovers the algorithms') is the
// command line's own: it stops the campaign and is returned as an
// internal error.
func collect(opt checkOptions, done func(checkJob, campaign.Result) bool) error {
	type finished struct {
		j   checkJob
		i   int
		res campaign.Result
		// crash is a worker's panic, with its stack
		crash error
	}
	total := opt.jobs()
	workers := max(1, min(runtime.GOMAXPROCS(0), total))
	next := make(chan int)
	results := make(chan finished, workers)
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					stop.Store(true)
					results <- finished{i: -1, crash: internalError(p, debug.Stack())}
					for range next { // let the feeder end
					}
				}
			}()
			for i := range next {
				j := opt.job(i)
				s := opt.subjects[j.subject]
				results <- finished{j: j, i: i, res: campaign.Run(s.spec, j.seed, campaign.Options{Faults: opt.faults, Lesson: s.lesson})}
			}
		}()
	}
	go func() {
		for i := 0; i < total && !stop.Load(); i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		close(results)
	}()
	// the few results that finished ahead of an earlier one wait here
	pending := map[int]finished{}
	emit := 0
	var crash error
	for f := range results {
		if f.crash != nil {
			crash = cmp.Or(crash, f.crash)
			continue
		}
		if stop.Load() {
			continue // drained, not handed on
		}
		pending[f.i] = f
		for {
			f, ok := pending[emit]
			if !ok {
				break
			}
			delete(pending, emit)
			if !done(f.j, f.res) {
				stop.Store(true)
				break
			}
			emit++
		}
	}
	return crash
}

// progressLine keeps one line of a terminal's stderr up to date during a
// campaign (a few times a second at most); off a terminal it says nothing.
type progressLine struct {
	out         io.Writer
	on          bool
	done, total int
	bugs        int
	last        time.Time
}

func (c *cli) progress(total int) *progressLine {
	return &progressLine{out: c.stderr, on: c.terminal, total: total}
}

// step counts a finished run, and whether it found a bug.
func (p *progressLine) step(bug bool) {
	p.done++
	if bug {
		p.bugs++
	}
	if now := time.Now(); p.on && (now.Sub(p.last) > 200*time.Millisecond || p.done == p.total) {
		p.last = now
		fmt.Fprintf(p.out, "\r\033[Kspacetime check: %d/%d runs, %d with a bug", p.done, p.total, p.bugs)
	}
}

// clear wipes the line, before standard output prints on the terminal.
func (p *progressLine) clear() {
	if p.on {
		fmt.Fprint(p.out, "\r\033[K")
	}
}

// failure writes a failing run's scenario and says how to replay it.
func (c *cli) failure(opt checkOptions, s subject, j checkJob, res campaign.Result) (checkFailure, error) {
	f := checkFailure{Subject: s.name, Run: j.run, Seed: j.seed, Violations: res.Unexpected(), Panic: res.Panic, Error: res.Error, Faults: res.Used}
	if f.Faults == nil {
		f.Faults = []string{}
	}
	// a scenario that could not be drawn has no file, but can be drawn again
	f.Rerun = fmt.Sprintf("spacetime check %s --run-seed %d%s", subjectArgs(s), j.seed, faultsFlag(opt))
	if res.Scenario == nil {
		return f, nil
	}
	sc := res.Scenario.Clone()
	origin := fmt.Sprintf("Run %d of `spacetime check %s --seed %d%s` (run seed %d)", j.run, subjectArgs(s), opt.seed, faultsFlag(opt), j.seed)
	if opt.runSeed != nil {
		origin = "`" + f.Rerun + "`"
	}
	sc.Description = fmt.Sprintf("%s found %s. %s", origin, what(f), res.Scenario.Description)
	if err := os.MkdirAll(opt.out, 0o755); err != nil {
		return f, errUsage{fileError("cannot make the directory", opt.out, err)}
	}
	f.File = filepath.Join(opt.out, fmt.Sprintf("%s-%d.json", s.name, j.seed))
	if err := writeFile(f.File, sc.JSON()); err != nil {
		return f, err
	}
	f.Replay = "spacetime run " + f.File
	if res.Panic == "" {
		f.Link = pageLink(sc, f.Violations)
	}
	return f, nil
}

// writeFile writes a file: one that cannot be created is bad input (a bad
// --out), one that cannot be written (a full disk) the command's failure.
func writeFile(name string, data []byte) error {
	f, err := os.Create(name)
	if err != nil {
		return errUsage{fileError("cannot write", name, err)}
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errFailure{outputError(name, err)}
	}
	return nil
}

// faultsFlag is the --faults flag that gives the campaign's faults, or ""
// for every fault.
func faultsFlag(opt checkOptions) string {
	switch {
	case opt.faults == nil:
		return ""
	case len(opt.faults) == 0:
		return " --faults none"
	}
	return " --faults " + strings.Join(opt.faults, ",")
}

// subjectArgs are the command line's words for a subject: its file, or
// --scenario ID or --algorithm ID.
func subjectArgs(s subject) string {
	if s.on != "" {
		return s.file + " --scenario " + s.on
	}
	if s.file != "" {
		return s.file
	}
	return "--" + subjectFlag(s) + " " + s.name
}

func subjectFlag(s subject) string {
	if s.lesson != nil {
		return "scenario"
	}
	return "algorithm"
}

// what says in a few words what a failure found.
func what(f checkFailure) string {
	switch {
	case f.Panic != "":
		return "a panic: " + f.Panic
	case f.Error != "":
		return "a scenario that does not run: " + f.Error
	}
	parts := make([]string, len(f.Violations))
	for i, v := range f.Violations {
		parts[i] = fmt.Sprintf("that %q failed at step %d", v.Invariant, v.Step)
	}
	return strings.Join(parts, ", ")
}

// pageLink is the page's link to the failing scenario at its first
// unexpected violation, or "" when the page cannot open it.
func pageLink(s *scenario.Scenario, vs []campaign.Violation) (link string) {
	defer func() {
		if recover() != nil {
			link = ""
		}
	}()
	sess, err := lab.Open(s)
	if err != nil {
		return ""
	}
	if len(vs) > 0 {
		sess.Seek(vs[0].Step)
	}
	return pageAddress + "?" + lab.EncodeQuery(sess.Query())
}

func headline(opt checkOptions) string {
	names := make([]string, len(opt.subjects))
	for i, s := range opt.subjects {
		names[i] = s.name
	}
	which := "every fault"
	if opt.faults != nil {
		which = "faults: " + strings.Join(opt.faults, ",")
		if len(opt.faults) == 0 {
			which = "no faults"
		}
	}
	if opt.runSeed != nil {
		return fmt.Sprintf("spacetime check: the run of seed %d of %s, %s", *opt.runSeed, strings.Join(names, ", "), which)
	}
	return fmt.Sprintf("spacetime check --seed %d: %d runs of %s, %s", opt.seed, opt.runs, strings.Join(names, ", "), which)
}

func printFailure(out io.Writer, f checkFailure) {
	head := fmt.Sprintf("%s run %d (seed %d)", f.Subject, f.Run, f.Seed)
	switch {
	case f.Panic != "":
		fmt.Fprintf(out, "PANIC %s: %s\n", head, f.Panic)
	case f.Error != "":
		fmt.Fprintf(out, "ERROR %s: the drawn scenario does not run: %s\n", head, f.Error)
	}
	for _, v := range f.Violations {
		fmt.Fprintf(out, "FAIL  %s: %q failed at step %d, with faults: %s\n", head, v.Invariant, v.Step, faultWords(v.Faults))
		fmt.Fprintf(out, "      %s\n", v.Detail)
	}
	if f.Replay != "" {
		fmt.Fprintf(out, "      replay: %s\n", f.Replay)
	}
	if f.Rerun != "" {
		fmt.Fprintf(out, "      redraw: %s\n", f.Rerun)
	}
	if f.Link != "" {
		fmt.Fprintf(out, "      page:   %s\n", f.Link)
	}
}

func faultWords(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// printSummary prints the table of the campaign, then what excused the
// expected violations.
func printSummary(out io.Writer, tallies []campaign.Tally) {
	fmt.Fprintln(out)
	rows := [][]string{{"algorithm", "runs", "steps", "faults", "skipped", "expected", "unexpected", "panics"}}
	for _, t := range tallies {
		rows = append(rows, []string{t.Subject, fmt.Sprint(t.Runs), fmt.Sprint(t.Steps), fmt.Sprint(t.Faults), fmt.Sprint(t.Skipped),
			fmt.Sprint(t.Expected), fmt.Sprint(t.Unexpected), fmt.Sprint(t.Panics)})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%-*s", widths[0], r[0])
		for i, cell := range r[1:] {
			line += fmt.Sprintf("  %*s", widths[i+1], cell)
		}
		fmt.Fprintln(out, line)
	}
	fmt.Fprintln(out, "(faults: injected; skipped: scripted faults that could not happen when their time came; expected and unexpected: violations)")
	for _, t := range tallies {
		if len(t.Excused) == 0 {
			continue
		}
		fmt.Fprintf(out, "\nexpected violations of %s:\n", t.Subject)
		for _, e := range t.Excused {
			fmt.Fprintf(out, "  %6d  %s: %s\n", e.Count, e.Invariant, e.Why)
		}
	}
	for _, t := range tallies {
		if t.Broken > 0 {
			fmt.Fprintf(out, "\n%s: %d drawn scenario(s) did not run (a bug in core/campaign)\n", t.Subject, t.Broken)
		}
	}
}
