// Command spacetime runs Spacetime's scenarios headless: it lists the
// built-in lessons, runs a scenario and reports what happened, exports a
// run's diagram as SVG or its trace as JSON or a ShiViz log, and checks
// the algorithms with seeded campaigns of random scenarios and faults.
//
//	spacetime list [--json]
//	spacetime run (FILE | - | --scenario ID) [--seed S] [--n N] [--json]
//	spacetime export (FILE | - | --scenario ID) --format svg|png|json|shiviz|tikz|mermaid [--step K]
//	                 [--axis time|lamport] [--width W] [--height H] [-o OUT]
//	spacetime check [FILE | --algorithm ID | --scenario ID | FILE.py --scenario ID] [--runs N]
//	                [--faults LIST] [--out DIR] [--run-seed R] [--json]
//	spacetime explore (FILE | - | --scenario ID) [--from K] [--invariant NAME]
//	                  [--depth D] [--max-states M] [--faults K] [--json]
//
// A scenario file of "-" is read from standard input; files are at most
// 1 MiB, the largest scenario a link can carry. A FILE may instead be a
// ShiViz or GoVector log (at most 16 MiB): its first execution is run as
// the page opens it (see logimport.FromLog).
//
// check runs N random scenarios per algorithm (every registered one, or
// one, or variations of one lesson), each drawn from a seed derived from
// --seed, the algorithm and the run's number, with every invariant checked
// after every step. A violation the scenario declares, or that a known
// limit of the algorithm excuses for the faults the run had, is expected;
// any other, and any panic, is a bug: check writes the failing scenario to
// --out (default out/check) and prints the command that replays it.
//
// --max-memory MB (default 1024) bounds what a command keeps: run and
// export stop a run that would keep more (as the engine reckons it, or
// as the heap shows it) and report or export it as far as it went;
// export writes a JSON trace or a ShiViz log as it makes it, and refuses
// a picture it could not draw within what is left; run and export refuse
// a log that opening would take more than MB; explore stops its search,
// and check its campaign. The process's resident memory stays under twice
// MB plus 32 MB (see memoryBound).
//
// explore searches the scenario's schedules for the shortest that breaks
// an invariant (see core/explore), from the lesson's starting step, and
// prints it with the link that opens it on the page.
//
// Exit status: 0 when the run completed (check: found no bug; explore:
// found no schedule within its bound of steps or states), 1 when an
// invariant failed that the scenario does not declare as expected (check:
// an unexpected violation or a panic of an algorithm; explore: a breaking
// schedule found), 2 on bad input (a malformed or unknown scenario, a
// flag out of its range, a file over its format's size, an output that
// cannot be created), 3 when valid input asks for more than a bound holds
// (--max-memory, a PNG over 40 million pixels), 4 when the command itself
// failed (its output could not be written, or an internal error). A Go
// runtime's fatal error, which the bounds are there to prevent (running
// out of memory), exits 2 as Go exits.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/engine"
	"spacetime/core/logimport"
	"spacetime/core/report"
	"spacetime/core/scenario"
)

const usage = `usage:
  spacetime list [--json]
  spacetime run (FILE | - | --scenario ID) [--seed S] [--n N] [--max-memory MB] [--json]
  spacetime export (FILE | - | --scenario ID) --format svg|png|json|shiviz|tikz|mermaid [--step K]
                   [--axis time|lamport] [--width W] [--height H] [--scale X] [--cm C]
                   [--theme light|dark|colour-blind] [--text S|M|L|XL] [--from T --to T]
                   [--max-memory MB] [-o OUT]
  spacetime check [FILE | --algorithm ID | --scenario ID | FILE.py --scenario ID] [--runs N]
                  [--seed S] [--faults LIST] [--out DIR] [--run-seed R] [--max-memory MB] [--json]
  spacetime explore (FILE | - | --scenario ID) [--from K] [--invariant NAME]
                    [--depth D] [--max-states M] [--faults K] [--max-memory MB] [--json]

A FILE is a scenario (JSON), a program of your own (FILE.py, Python: see
Write it yourself in README.md), or a ShiViz or GoVector log, replayed as
a run; - is read from standard input. check runs N seeded random
scenarios with random faults per algorithm (default: every algorithm, 1000
runs, a random seed, every fault of the registry: crash,recover,pause,drop,
delay,duplicate,cut,heal,partition,skew,drift,fifo) and writes each failing one to --out
(default out/check) with the command that replays it.
explore searches the scenario's schedules, from the lesson's starting step
(else 0), for the shortest that breaks an invariant (default: the
lesson's, else any; at most 40 steps and 100000 states), and prints it
with a link that opens it.
--max-memory MB (default 1024) bounds what a command keeps: a run stops
there and is reported or exported as far as it went, a picture or a log
that would pass it is refused, a search or a campaign stops; the process
stays under twice MB plus 32 MB.
Exit status: 0 ok, 1 an unexpected invariant violation (check: or a
panic; explore: a schedule found), 2 bad input, 3 a bound reached
(--max-memory, a PNG's pixels), 4 the command failed (its output could
not be written, or an internal error).
`

// MaxScenarioBytes bounds a scenario file: the largest scenario a link
// can carry, so that whatever the command line opens the page opens too,
// and so that /dev/zero or an endless pipe is refused instead of read.
const MaxScenarioBytes = lab.MaxPacked

// errUsage marks bad input: exit status 2.
type errUsage struct{ error }

// errViolation marks an unexpected invariant failure: exit status 1.
var errViolation = errors.New("an invariant failed")

// errFailure marks the command's own failure, not its input's: its
// output could not be written, or an internal error. Exit status 4.
type errFailure struct{ error }

// cli is one invocation's standard streams.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// terminal says stderr is a terminal, which then shows progress.
	terminal bool
	// process says the command runs in a process of its own (main), not
	// in a test's: only then does it set the process's memory limit.
	process bool
	// out is what stdout writes to, keeping its first error.
	out *sticky
}

// The command line runs learners' programs as it runs the built-in
// algorithms (the lesson page's client is the one that leaves them out).
func init() { all.Add(python.Spec) }

func main() {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, terminal: isTerminal(os.Stderr), process: true}
	os.Exit(exitStatus(c.execute(os.Args[1:]), os.Stderr))
}

// exitStatus prints an error for people and says what to exit with. The
// command's own failure outranks what it found: a run whose report could
// not be written exits 4, whatever the run did.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.As(err, new(errFailure)):
		fmt.Fprintln(stderr, "spacetime:", err)
		return 4
	case errors.Is(err, errViolation):
		return 1
	}
	fmt.Fprintln(stderr, "spacetime:", err)
	switch {
	case errors.As(err, new(errResources)):
		return 3
	case errors.As(err, new(errUsage)):
		return 2
	}
	return 4 // an error nobody classified is the command line's own
}

// execute runs one command line: standard output is buffered and
// flushed at the end, a failure to write it is the command's failure,
// and a panic of the command line's own code is an internal error, not a
// crash (the algorithms' panics are check's findings, and recovered
// there).
func (c *cli) execute(args []string) error {
	c.out = &sticky{w: c.stdout}
	buf := bufio.NewWriterSize(c.out, 64<<10)
	raw := c.stdout
	c.stdout = buf
	defer func() { c.stdout = raw }()
	err := guard(func() error { return c.run(args) })
	if errors.As(err, new(errInternal)) {
		return err // what the output holds is left unwritten: writing it may be what panicked
	}
	ferr := guard(buf.Flush)
	if errors.As(ferr, new(errInternal)) {
		return ferr
	}
	if c.out.err != nil {
		ferr = c.out.err
	}
	if ferr != nil {
		if errors.Is(err, errViolation) {
			err = nil // what was found is lost with the output
		}
		err = errors.Join(errFailure{outputError("the output", ferr)}, err)
	}
	return err
}

// errInternal is a panic of the command line's own code: a failure of the
// command (errFailure), with the stack that says where.
type errInternal struct{ errFailure }

// guard calls f, and returns a panic of it as an internal error.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = internalError(p, debug.Stack())
		}
	}()
	return f()
}

// sticky passes writes on and keeps the first error, so that a long
// command (a campaign) can stop writing into a full disk.
type sticky struct {
	w   io.Writer
	err error
}

func (s *sticky) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}

// failed says whether writing standard output has failed already.
func (c *cli) failed() bool { return c.out != nil && c.out.err != nil }

// flush writes what standard output holds, so that it comes before what
// stderr says next on a terminal.
func (c *cli) flush() {
	if f, ok := c.stdout.(*bufio.Writer); ok {
		_ = f.Flush()
	}
}

// internalError words a panic of the command line's own code, with the
// few frames of the stack that say where.
func internalError(p any, stack []byte) error {
	lines := strings.Split(strings.TrimSpace(string(stack)), "\n")
	// from the frame that panicked: the lines after the panic call's
	for i, line := range lines {
		if strings.HasPrefix(line, "panic(") && i+2 < len(lines) {
			lines = lines[i+2:]
			break
		}
	}
	lines = lines[:min(len(lines), 12)]
	return errInternal{errFailure{fmt.Errorf("internal error: %v\n%s", p, strings.Join(lines, "\n"))}}
}

// isTerminal reports whether f is a terminal rather than a file or pipe.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// run is the command line with standard input empty and no progress: what
// the tests call.
func run(args []string, out io.Writer) error {
	return (&cli{stdin: strings.NewReader(""), stdout: out, stderr: io.Discard}).execute(args)
}

func (c *cli) run(args []string) error {
	if len(args) == 0 {
		//lint:ignore ST1005 the usage follows on its own lines
		return errUsage{errors.New("no command given\n" + usage)}
	}
	switch args[0] {
	case "list":
		return c.list(args[1:])
	case "run":
		return c.runCmd(args[1:])
	case "export":
		return c.export(args[1:])
	case "check":
		return c.check(args[1:])
	case "explore":
		return c.explore(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(c.stdout, usage)
		return nil
	}
	return errUsage{fmt.Errorf("unknown command %q (the commands are list, run, export, check, explore and help)\n%s", args[0], usage)}
}

// errHelp is what parse returns for -h: the caller prints the usage.
var errHelp = errors.New("help")

// parse parses flags that may come before or after the one positional
// file, and rewords the flag package's errors.
func parse(fs *flag.FlagSet, args []string) (file string, err error) {
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", errHelp
			}
			return "", errUsage{flagError(fs, err)}
		}
		if fs.NArg() == 0 {
			return file, nil
		}
		if file != "" {
			return "", errUsage{fmt.Errorf("unexpected argument %q: give one scenario file", fs.Arg(0))}
		}
		file, args = fs.Arg(0), fs.Args()[1:]
	}
}

// flagError rewords the flag package's errors, which name flags with one
// dash and speak of "flag provided but not defined", in this command's
// words: the flag as the usage writes it, and what it wants.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	var name, value string
	switch {
	case scan(msg, "flag provided but not defined: -", &name):
		return fmt.Errorf("unknown flag --%s (%s takes %s)", strings.TrimLeft(name, "-"), fs.Name(), flagNames(fs))
	case scan(msg, "flag needs an argument: -", &name):
		return fmt.Errorf("--%s needs a value", name)
	case scanValue(msg, "invalid boolean value ", " for -", &value, &name):
		return fmt.Errorf("--%s: want true or false (or the flag alone), got %s", name, value)
	case scanValue(msg, "invalid value ", " for flag -", &value, &name):
		return fmt.Errorf("--%s: the value %s is not valid", name, value)
	case scan(msg, "bad flag syntax: ", &name):
		return fmt.Errorf("%q is not a flag: write --name or --name=value", name)
	}
	return err
}

// scan matches "prefix<rest>" and stores rest.
func scan(msg, prefix string, rest *string) bool {
	if !strings.HasPrefix(msg, prefix) {
		return false
	}
	*rest = strings.TrimPrefix(msg, prefix)
	return true
}

// scanValue matches `<prefix>"value"<middle>name: …`, the flag package's
// invalid-value errors.
func scanValue(msg, prefix, middle string, value, name *string) bool {
	if !strings.HasPrefix(msg, prefix) {
		return false
	}
	rest := strings.TrimPrefix(msg, prefix)
	i := strings.LastIndex(rest, middle)
	if i < 0 {
		return false
	}
	*value = rest[:i]
	*name, _, _ = strings.Cut(rest[i+len(middle):], ":")
	return true
}

// flagNames lists a command's flags as the usage writes them.
func flagNames(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if strings.Contains(usage, "[-"+f.Name+" ") {
			names = append(names, "-"+f.Name) // -o, as the usage writes it
		} else {
			names = append(names, "--"+f.Name)
		}
	})
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// given lists the flags set on the command line: a flag's zero value
// and its absence are different things (--seed 0 is a seed).
func given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func (c *cli) help() error {
	fmt.Fprint(c.stdout, usage)
	return nil
}

func (c *cli) list(args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	extra, err := parse(fs, args)
	if errors.Is(err, errHelp) {
		return c.help()
	}
	if err != nil {
		return err
	}
	if extra != "" {
		return errUsage{fmt.Errorf("unexpected argument %q: list takes no file\n%s", extra, usage)}
	}
	type entry struct {
		ID          string `json:"id"`
		Algorithm   string `json:"algorithm"`
		N           int    `json:"n"`
		Title       string `json:"title"`
		Description string `json:"description"`
		// Comparison names the comparison the scenario is a run of.
		Comparison string `json:"comparison,omitempty"`
	}
	type comparison struct {
		ID          string   `json:"id"`
		Title       string   `json:"title"`
		Description string   `json:"description"`
		Scenarios   []string `json:"scenarios"`
	}
	var entries []entry
	width := 0
	for _, id := range scenario.BuiltinIDs() {
		s, _ := scenario.Builtin(id)
		entries = append(entries, entry{s.ID, s.Algorithm, s.N, s.Title, s.Description, scenario.ComparisonOf(id)})
		width = max(width, len(id))
	}
	var comparisons []comparison
	for _, cmp := range scenario.Comparisons() {
		comparisons = append(comparisons, comparison{cmp.ID, cmp.Title, cmp.Description, cmp.MemberIDs()})
	}
	type claim struct {
		scenario.Claim
		Link string `json:"link"`
	}
	type topic struct {
		Name   string  `json:"topic"`
		Claims []claim `json:"claims"`
	}
	var course []topic
	for _, t := range scenario.Course() {
		entry := topic{Name: t.Name}
		for _, cl := range t.Claims {
			entry.Claims = append(entry.Claims, claim{cl, serveAddress + "/?" + lab.ClaimQuery(cl)})
		}
		course = append(course, entry)
	}
	if *asJSON {
		writeJSON(c.stdout, map[string]any{"course": course, "scenarios": entries, "comparisons": comparisons, "algorithms": all.IDs()})
		return nil
	}
	fmt.Fprintf(c.stdout, "The course, claim by claim: each lesson opens at the step that shows it (the links are the page's, as make run serves it on %s).\n", serveAddress)
	for _, t := range course {
		fmt.Fprintf(c.stdout, "\n%s\n", scenario.TopicHeading(t.Name))
		for _, cl := range t.Claims {
			fmt.Fprintf(c.stdout, "  %s\n    %s at step %d: %s\n", cl.Text, cl.Lesson, cl.Step, cl.Link)
		}
	}
	fmt.Fprintf(c.stdout, "\nLessons (spacetime run --scenario ID):\n")
	for _, e := range entries {
		fmt.Fprintf(c.stdout, "%-*s %-16s n=%-3d %s\n", width, e.ID, e.Algorithm, e.N, e.Title)
	}
	for _, cmp := range comparisons {
		fmt.Fprintf(c.stdout, "\ncomparison %s: %s\n  runs %s\n", cmp.ID, cmp.Title, strings.Join(cmp.Scenarios, ", "))
	}
	return nil
}

// serveAddress is where make run serves the page, for the links list
// prints.
const serveAddress = "http://127.0.0.1:8080"

// scenarioFlags are the flags that choose and vary the scenario to run.
type scenarioFlags struct {
	id, seed, n, memory *string
}

func addScenarioFlags(fs *flag.FlagSet) scenarioFlags {
	return scenarioFlags{
		id:     fs.String("scenario", "", "built-in scenario id"),
		seed:   fs.String("seed", "", "override the seed"),
		n:      fs.String("n", "", "override the number of processes"),
		memory: addMemoryFlag(fs),
	}
}

// addMemoryFlag adds --max-memory.
func addMemoryFlag(fs *flag.FlagSet) *string {
	return fs.String("max-memory", strconv.Itoa(defaultMaxMemory), "keep at most this many MB")
}

// memory holds the command to --max-memory from here on.
func (c *cli) memory(text string) (*memoryBound, error) {
	mb, err := memoryFlag(text)
	if err != nil {
		return nil, err
	}
	return newMemoryBound(mb, c.process), nil
}

// errResources marks valid input that asks for more than a bound holds
// (--max-memory, a picture's pixels): exit status 3.
type errResources struct{ error }

// runWithin runs a scenario within --max-memory; b is the run's budget.
func (c *cli) runWithin(p *scenario.Plan, sf scenarioFlags) (r *engine.Run, m *memoryBound, b *engine.Budget, err error) {
	if m, err = c.memory(*sf.memory); err != nil {
		return nil, nil, nil, err
	}
	b = m.budget()
	r, err = p.RunWithin(b)
	if err != nil {
		return nil, nil, nil, errUsage{err}
	}
	if m.stopped(b) {
		return r, m, b, errResources{fmt.Errorf("the run stopped at step %d: it would keep more than %d MB (--max-memory)", r.Len(), m.mb)}
	}
	return r, m, b, nil
}

// load reads and compiles the scenario named by a file ("-": standard
// input) or --scenario, with the overrides that were given.
func (c *cli) load(fs *flag.FlagSet, sf scenarioFlags, file string) (*scenario.Plan, error) {
	set := given(fs)
	var seed uint64
	var n int64
	var err error
	if set["seed"] {
		if seed, err = seedFlag("seed", *sf.seed); err != nil {
			return nil, err
		}
	}
	if set["n"] {
		if n, err = intFlag("n", *sf.n, 1, scenario.MaxN, fmt.Sprintf("a number of processes from 1 to %d", scenario.MaxN)); err != nil {
			return nil, err
		}
	}
	var s *scenario.Scenario
	var made *scenario.Plan // a log's, as its import made it
	switch id := *sf.id; {
	case file != "" && id != "":
		return nil, errUsage{errors.New("give a scenario file or --scenario, not both")}
	case file != "":
		mb, err := memoryFlag(*sf.memory)
		if err != nil {
			return nil, err
		}
		if s, made, err = c.readFile(file, mb); err != nil {
			return nil, err
		}
	case id != "":
		if s, err = scenario.Builtin(id); err != nil {
			return nil, errUsage{err}
		}
	default:
		return nil, errUsage{errors.New("give a scenario file, - for standard input, or --scenario ID (see spacetime list)")}
	}
	if made != nil && (set["seed"] || set["n"]) {
		s, made = made.Scenario(), nil // varied, the log is compiled from its document
	}
	if set["seed"] {
		s = s.WithSeed(seed)
	}
	if set["n"] {
		if s, err = s.WithN(int(n)); err != nil {
			return nil, errUsage{fmt.Errorf("--n %d: %w", n, err)}
		}
	}
	p := made
	if p == nil {
		if p, err = s.Compile(); err != nil {
			return nil, errUsage{err}
		}
	}
	if file != "" && p.Head().ID == "" {
		id := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".json"), ".log")
		if file == "-" {
			id = "stdin"
		}
		p = p.WithID(id)
	}
	return p, nil
}

// readFile reads what a FILE argument holds: a scenario file (with the
// program its code_file names), a program file given alone (on the
// defaults of a program file), or a ShiViz or GoVector log (its first
// execution, as its import made it: made).
func (c *cli) readFile(file string, mb int64) (s *scenario.Scenario, made *scenario.Plan, err error) {
	data, err := c.readScenario(file, mb)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case strings.HasSuffix(strings.ToLower(file), ".py"):
		s, err = scenario.ForProgram(programID(file), python.ID, string(data), defaultProgramN, defaultProgramSteps)
	case logimport.IsLog(data):
		var imported *logimport.LogImport
		if imported, err = logimport.ImportLog(data, filepath.Base(displayName(file))); err == nil {
			made = imported.Runs[0]
			if imported.Skipped != nil {
				// said, not refused: ShiViz opens such a log too
				fmt.Fprintf(c.stderr, "spacetime: %s, %v\n", displayName(file), imported.Skipped)
			}
		}
	default:
		s, err = scenario.ParseBeside(data, c.readBeside(file))
	}
	if err != nil {
		return nil, nil, errUsage{fmt.Errorf("%s: %w", displayName(file), err)}
	}
	return s, made, nil
}

// scenarioFile reads a scenario file, or a program file given alone, as
// check varies it (a log is no lesson to vary).
func (c *cli) scenarioFile(file string, mb int64) (*scenario.Scenario, error) {
	s, made, err := c.readFile(file, mb)
	switch {
	case err != nil:
		return nil, err
	case made != nil:
		return nil, errUsage{fmt.Errorf("%s is a log, a record of one run: there is nothing to vary", displayName(file))}
	}
	if s.ID == "" {
		s.ID = programID(file)
	}
	return s, nil
}

// programID is the id of a program file given alone: its name.
func programID(file string) string {
	return scenario.ProgramID(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
}

// The run of a program file given alone (spacetime run ring.py): on
// defaultProgramN processes (--n changes it), for defaultProgramSteps
// steps, from seed 1 (--seed).
const (
	defaultProgramN     = 3
	defaultProgramSteps = 200
)

// readBeside reads the files a scenario file names beside itself (its
// code_file), relative to its directory; standard input's are relative
// to the working directory.
func (c *cli) readBeside(file string) func(name string) ([]byte, error) {
	dir := "."
	if file != "-" {
		dir = filepath.Dir(file)
	}
	return func(name string) ([]byte, error) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("cannot open %s: %v", path, errors.Unwrap(err))
		}
		defer f.Close()
		return io.ReadAll(io.LimitReader(f, scenario.MaxCodeFile+1))
	}
}

// logImportBytes is what opening a log takes, per byte of it, at most (a
// log of 16 MiB takes about 60 MB while it is read and made a scenario),
// so that a log is refused past a quarter of --max-memory; the run it
// makes is reckoned as any run is.
const logImportBytes = 4

// displayName names a scenario file in messages.
func displayName(file string) string {
	if file == "-" {
		return "standard input"
	}
	return file
}

// readScenario reads a scenario file, or standard input for "-", at most
// MaxScenarioBytes of it, or of a log logimport.MaxLogBytes, and no more
// than opening it within --max-memory (mb) allows (see logImportBytes).
func (c *cli) readScenario(file string, mb int64) ([]byte, error) {
	var r io.Reader = c.stdin
	if file != "-" {
		f, err := openScenario(file)
		if err != nil {
			return nil, errUsage{fileError("cannot open", file, err)}
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return nil, errUsage{fmt.Errorf("%s is a directory, not a scenario file", file)}
		}
		r = f
	}
	// one byte more than the limit tells a file of exactly the limit from
	// a larger one without reading the rest; a log (see logimport.FromLog)
	// may be larger than a scenario file
	logLimit := int(min(logimport.MaxLogBytes, max((mb<<20)/logImportBytes, MaxScenarioBytes)))
	data, err := readAtMost(r, MaxScenarioBytes+1, nil)
	if err == nil && len(data) > MaxScenarioBytes && logimport.IsLog(data) {
		data, err = readAtMost(r, logLimit+1, data)
	}
	if err != nil {
		return nil, errUsage{fileError("cannot read", displayName(file), err)}
	}
	// one byte past a limit was read, not the rest: the size is not known
	switch {
	case len(data) > MaxScenarioBytes && !logimport.IsLog(data):
		return nil, errUsage{fmt.Errorf("%s is too large for a scenario: the limit is %d bytes (%s)", displayName(file), MaxScenarioBytes, mebibytes(MaxScenarioBytes))}
	case len(data) > logimport.MaxLogBytes:
		return nil, errUsage{fmt.Errorf("%s is too large for a log: the limit is %d bytes (%s)", displayName(file), logimport.MaxLogBytes, mebibytes(logimport.MaxLogBytes))}
	case len(data) > logLimit:
		return nil, errResources{fmt.Errorf("%s is a log of more than %d bytes (%s), more than --max-memory %d lets it open (a log takes about %d times its size to open): raise --max-memory",
			displayName(file), logLimit, mebibytes(logLimit), mb, logImportBytes)}
	}
	return data, nil
}

// readAtMost reads r after data, to its end or until it has limit bytes,
// in pieces joined once at the end: it holds what it read twice at most,
// where a buffer that doubles as it fills holds it three times.
func readAtMost(r io.Reader, limit int, data []byte) ([]byte, error) {
	var pieces [][]byte
	total := len(data)
	for total < limit {
		p := make([]byte, min(limit-total, 1<<20))
		n, err := io.ReadFull(r, p)
		if n > 0 {
			pieces = append(pieces, p[:n])
			total += n
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pieces) == 0 {
		return data, nil
	}
	out := make([]byte, 0, total)
	out = append(out, data...)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}

// mebibytes writes a size in MiB: "1 MiB", "0.5 MiB".
func mebibytes(n int) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64) + " MiB" }

// fileError says what went wrong with a file without Go's "open …:"
// prefixes: "cannot open x.json: there is no such file".
func fileError(what, file string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist) && what == "cannot write":
		return fmt.Errorf("%s %s: its directory does not exist", what, file)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: there is no such file", what, file)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s %s: permission denied", what, file)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s: %v", what, file, err)
}

// start parses the arguments and runs the scenario they name.
func (c *cli) start(fs *flag.FlagSet, sf scenarioFlags, args []string) (*scenario.Scenario, *engine.Run, error) {
	file, err := parse(fs, args)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.load(fs, sf, file)
	if err != nil {
		return nil, nil, err
	}
	r, _, _, err := c.runWithin(p, sf)
	if r == nil {
		return nil, nil, err
	}
	return p.Head(), r, err
}

func (c *cli) runCmd(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	sf := addScenarioFlags(fs)
	asJSON := fs.Bool("json", false, "print the JSON report")
	s, r, err := c.start(fs, sf, args)
	if errors.Is(err, errHelp) {
		return c.help()
	}
	if r == nil {
		return err
	}
	// a run stopped for its memory is reported as far as it went
	rep := report.Build(s, r, r.Len())
	if *asJSON {
		writeJSON(c.stdout, rep)
	} else {
		fmt.Fprint(c.stdout, rep.Text())
	}
	if err != nil {
		return err
	}
	if len(rep.Unexpected()) > 0 {
		return errViolation
	}
	return nil
}

// Bounds of an exported picture, in pixels: smaller is unreadable, larger
// than any screen or slide.
const (
	minPixels = 100
	maxPixels = 20000
)

func (c *cli) export(args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	sf := addScenarioFlags(fs)
	format := fs.String("format", "", "svg, png, json, shiviz, tikz or mermaid")
	step := fs.String("step", "", "export the first K steps (default: the whole run)")
	axis := fs.String("axis", "time", "svg, png and tikz: time or lamport")
	width := fs.String("width", "1200", "svg and png width in pixels")
	height := fs.String("height", "", "svg height in pixels (default: fits the processes)")
	scale := fs.String("scale", "2", "png: pixels of the file per pixel of the picture, from 0.5 to 8")
	theme := fs.String("theme", "light", "svg and png: the page's theme, light, dark or colour-blind")
	from := fs.String("from", "", "svg, png and tikz: the window's start on the axis (default: the page's window)")
	to := fs.String("to", "", "svg, png and tikz: the window's end on the axis (default: the page's window)")
	text := fs.String("text", "L", "svg and png: the page's text size, S, M, L or XL")
	cm := fs.String("cm", strconv.FormatFloat(diagram.TikZWidth, 'g', -1, 64), "tikz: the time axis's width in centimetres, from 2 to 100")
	output := fs.String("o", "", "write to this file instead of standard output")
	// check what needs no run before running
	file, err := parse(fs, args)
	if errors.Is(err, errHelp) {
		return c.help()
	}
	if err != nil {
		return err
	}
	set := given(fs)
	switch *format {
	case "svg", "png", "json", "shiviz", "tikz", "mermaid":
	case "":
		return errUsage{errors.New("--format: say svg, png, json, shiviz, tikz or mermaid")}
	default:
		return errUsage{fmt.Errorf("--format: want svg, png, json, shiviz, tikz or mermaid, got %q", *format)}
	}
	if *axis != string(diagram.AxisTime) && *axis != string(diagram.AxisLamport) {
		return errUsage{fmt.Errorf("--axis: want time or lamport, got %q", *axis)}
	}
	w, err := pixelsFlag("width", *width)
	if err != nil {
		return err
	}
	h := 0.0
	if set["height"] {
		if h, err = pixelsFlag("height", *height); err != nil {
			return err
		}
	}
	palette, ok := diagram.Themes[*theme]
	if !ok {
		return errUsage{fmt.Errorf("--theme: want light, dark or colour-blind, got %q", *theme)}
	}
	switch *text {
	case "S", "M", "L", "XL":
	default:
		return errUsage{fmt.Errorf("--text: want S, M, L or XL, got %q", *text)}
	}
	// a window of the axis, as the page's zoom and pan give it
	var window [2]float64
	if set["from"] || set["to"] {
		if !set["from"] || !set["to"] {
			return errUsage{errors.New("--from and --to: give both, the window's start and end on the axis")}
		}
		if window[0], err = numberFlag("from", *from, 0, 1e9, "a point of the axis, 0 or more"); err != nil {
			return err
		}
		if window[1], err = numberFlag("to", *to, window[0]+1, window[0]+1e6, fmt.Sprintf("a point of the axis past --from by 1 to 1000000 (--from is %s)", *from)); err != nil {
			return err
		}
	}
	sc, err := numberFlag("scale", *scale, 0.5, 8, "a scale from 0.5 to 8")
	if err != nil {
		return err
	}
	centimetres, err := numberFlag("cm", *cm, 2, 100, "a width in centimetres from 2 to 100")
	if err != nil {
		return err
	}
	k := int64(-1)
	if set["step"] {
		if k, err = intFlag("step", *step, 0, engine.MaxSteps, "a number of steps of 0 or more"); err != nil {
			return err
		}
	}
	p, err := c.load(fs, sf, file)
	if err != nil {
		return err
	}
	s := p.Head()
	r, m, b, stopped := c.runWithin(p, sf)
	if r == nil {
		return stopped
	}
	if k < 0 {
		k = int64(r.Len())
	}
	if k > int64(r.Len()) {
		return errUsage{fmt.Errorf("--step: want at most %d, the run's number of steps, got %d", r.Len(), k)}
	}
	// a run stopped for its memory is exported as far as it went, and says
	// so; the JSON and the log are written as they are made, a picture is
	// made whole first, so it is refused if it would not fit
	var write func(out io.Writer) error
	annotations := 0
	if *format != "json" && *format != "shiviz" && *format != "mermaid" {
		for i := range r.Trace().Records[:k] {
			annotations += len(r.Trace().Records[i].Annotations())
		}
	}
	switch *format {
	case "json":
		write = func(out io.Writer) error {
			if err := r.Trace().WriteJSON(out, int(k)); err != nil {
				return err
			}
			_, err := io.WriteString(out, "\n")
			return err
		}
	case "shiviz":
		write = func(out io.Writer) error { return r.Trace().WriteShiVizCuts(out, int(k), r.Config().Spec.IsCut) }
	case "mermaid":
		write = func(out io.Writer) error {
			_, err := out.Write(r.Trace().Mermaid(int(k), s.Title))
			return err
		}
	case "svg", "png":
		if h == 0 {
			h = diagram.HeightFor(s.N)
		}
		what, pixels := fmt.Sprintf("the SVG of step %d", k), 0
		if *format == "png" {
			pw, ph := diagram.PNGSize(w, h, sc) // the scene is as large as asked
			if float64(pw)*float64(ph) > diagram.MaxPNGPixels {
				return errResources{fmt.Errorf("--scale: a PNG of %d×%d pixels is too large (at most %d pixels): lower --scale, --width or --height", pw, ph, diagram.MaxPNGPixels)}
			}
			what, pixels = fmt.Sprintf("a PNG of %d×%d pixels of step %d", pw, ph, k), pw*ph
		}
		ix := diagram.NewIndex(r.Trace(), diagram.Axis(*axis), r.Config().Spec)
		opts := diagram.Options{Width: w, Height: h, Axis: diagram.Axis(*axis), Highlight: highlight(r, int(k)), Scale: diagram.TextScale(*text)}
		if window[1] > window[0] {
			opts.Pinned, opts.Start, opts.Span = true, window[0], window[1]-window[0]
		}
		if err := fits(m, b, what, pictureBytes(int(k), annotations, ix.Cost(int(k), opts), pixels), true); err != nil {
			return err
		}
		scene := ix.Layout(int(k), r.Config().Spec, opts)
		write = func(out io.Writer) error {
			if *format == "svg" {
				_, err := out.Write(scene.SVGIn(palette))
				return err
			}
			data, err := scene.PNG(palette, sc)
			if err != nil {
				panic(fmt.Sprintf("cannot draw the PNG: %v", err)) // its size was checked
			}
			_, err = out.Write(data)
			return err
		}
	case "tikz":
		tr := r.Trace()
		items := int(k) + len(tr.MsgsBefore(int(k))) + annotations
		if err := fits(m, b, fmt.Sprintf("the TikZ figure of step %d", k), pictureBytes(int(k), annotations, 0, 0)+tikzBytes*int64(items), false); err != nil {
			return err
		}
		write = func(out io.Writer) error {
			ix := diagram.NewIndex(tr, diagram.Axis(*axis), r.Config().Spec)
			_, err := out.Write(ix.TikZ(int(k), r.Config().Spec, diagram.TikZOptions{Width: centimetres, Title: s.Title, Highlight: highlight(r, int(k)), From: window[0], To: window[1]}))
			return err
		}
	}
	// what a course text's program prints on the run goes beside the
	// file, on standard error, as run prints it in its report
	if printed := report.Printed(r, int(k)); printed != "" {
		defer fmt.Fprint(c.stderr, printed)
	}
	if *output == "" {
		// a write error is kept and reported when the output is flushed
		_ = write(c.stdout)
		return stopped
	}
	f, err := os.Create(*output)
	if err != nil {
		return errUsage{fileError("cannot write", *output, err)}
	}
	out := bufio.NewWriterSize(f, 64<<10)
	err = write(out)
	if err == nil {
		err = out.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(errFailure{outputError(*output, err)}, stopped)
	}
	return stopped
}

// What drawing a picture is reckoned to take, at most (what it allocates,
// measured on every lesson and on long runs of many messages): the index
// of the run, per step and annotation; laying out and writing each event
// and message in the picture's window (see diagram.Index.Cost), and each
// of its pixels; and, for a TikZ figure of the whole run, each step,
// message and annotation.
const (
	indexStepBytes       = 32
	indexAnnotationBytes = 256
	drawnBytes           = 4 << 10
	pixelBytes           = 16
	tikzBytes            = 512
	pictureFixed         = 1 << 20
)

// pictureBytes reckons what a picture of k steps with their annotations,
// drawn items in its window and pixels (a PNG's) takes to draw.
func pictureBytes(k, annotations, drawn, pixels int) int64 {
	return pictureFixed + indexStepBytes*int64(k) + indexAnnotationBytes*int64(annotations) + drawnBytes*int64(drawn) + pixelBytes*int64(pixels)
}

// fits refuses (exit status 3) a picture that would take more memory than
// --max-memory leaves beside what the run keeps; windowed says it draws
// a window of the run (an SVG's, a PNG's), not all of it (TikZ's).
func fits(m *memoryBound, b *engine.Budget, what string, need int64, windowed bool) error {
	if b.Kept()+need <= m.bytes {
		return nil
	}
	advice := "export fewer steps (--step) or raise --max-memory"
	if windowed {
		advice = "export fewer steps (--step), draw it on --axis lamport (a narrower window), or raise --max-memory"
	}
	return errResources{fmt.Errorf("%s would take about %s to draw beside the %s the run keeps, more than --max-memory %d allows: %s",
		what, megabytes(need), megabytes(b.Kept()), m.mb, advice)}
}

// megabytes writes a size in whole MB, at least 1.
func megabytes(n int64) string { return strconv.FormatInt(max(1, (n+(1<<20)-1)>>20), 10) + " MB" }

// highlight lists the messages that failed invariants point at by step k.
func highlight(r *engine.Run, k int) []int {
	var ids []int
	for _, f := range r.FailuresAt(k) {
		ids = append(ids, f.Msgs...)
	}
	return ids
}

// writeJSON writes v indented. A failure to write is found when the
// output is flushed; one to encode is the command line's own bug.
func writeJSON(out io.Writer, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("cannot encode the JSON: %v", err))
	}
	_, _ = out.Write(b.Bytes())
}

// outputError words a failure to write an output (standard output, or
// -o's file): "writing the output: no space left on device".
func outputError(what string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("writing %s: %v", what, err)
}
