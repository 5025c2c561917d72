// Command spacetime runs Spacetime's scenarios headless: it lists the built-in
// lessons, runs a scenario and reports what happened, and exports a run's
// diagram as SVG or its trace as JSON or a ShiViz log.
//
//	spacetime list [--json]
//	spacetime run (FILE.json | --scenario ID) [--seed S] [--n N] [--json]
//	spacetime export (FILE.json | --scenario ID) --format svg|json|shiviz [--step K] [-o OUT]
//
// Exit status: 0 when the run completed, 1 when an invariant failed that the
// scenario does not declare as expected, 2 on bad input.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"spacetime/app/diagram"
	"spacetime/core/algo/all"
	"spacetime/core/engine"
	"spacetime/core/report"
	"spacetime/core/scenario"
)

const usage = `usage:
  spacetime list [--json]
  spacetime run (FILE.json | --scenario ID) [--seed S] [--n N] [--json]
  spacetime export (FILE.json | --scenario ID) --format svg|json|shiviz [--step K] [--axis time|lamport] [--width W] [--height H] [-o OUT]
`

// errUsage marks bad input: exit status 2.
type errUsage struct{ error }

// errViolation marks an unexpected invariant failure: exit status 1.
var errViolation = errors.New("an invariant failed")

func main() {
	err := run(os.Args[1:], os.Stdout)
	var ue errUsage
	switch {
	case err == nil:
	case errors.Is(err, errViolation):
		os.Exit(1)
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "spacetime:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "spacetime:", err)
		os.Exit(2)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errUsage{errors.New("no command given\n" + usage)}
	}
	switch args[0] {
	case "list":
		return list(args[1:], out)
	case "run":
		return runCmd(args[1:], out)
	case "export":
		return export(args[1:], out)
	case "help", "-h", "--help":
		fmt.Fprint(out, usage)
		return nil
	}
	return errUsage{fmt.Errorf("unknown command %q\n%s", args[0], usage)}
}

// parse parses flags that may come before or after the one positional file.
func parse(fs *flag.FlagSet, args []string) (file string, err error) {
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			return "", errUsage{err}
		}
		if fs.NArg() == 0 {
			return file, nil
		}
		if file != "" {
			return "", errUsage{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
		}
		file, args = fs.Arg(0), fs.Args()[1:]
	}
}

func list(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	extra, err := parse(fs, args)
	if err != nil {
		return err
	}
	if extra != "" {
		return errUsage{fmt.Errorf("unexpected argument %q\n%s", extra, usage)}
	}
	type entry struct {
		ID          string `json:"id"`
		Algorithm   string `json:"algorithm"`
		N           int    `json:"n"`
		Title       string `json:"title"`
		Description string `json:"description"`
	}
	var entries []entry
	for _, id := range scenario.BuiltinIDs() {
		s, _ := scenario.Builtin(id)
		entries = append(entries, entry{s.ID, s.Algorithm, s.N, s.Title, s.Description})
	}
	if *asJSON {
		return writeJSON(out, map[string]any{"scenarios": entries, "algorithms": all.IDs()})
	}
	for _, e := range entries {
		fmt.Fprintf(out, "%-20s %-16s n=%-3d %s\n", e.ID, e.Algorithm, e.N, e.Title)
	}
	return nil
}

// load reads the scenario named by a file or --scenario, with overrides.
func load(file, id string, seed int64, n int) (*scenario.Scenario, error) {
	var s *scenario.Scenario
	var err error
	switch {
	case file != "" && id != "":
		return nil, errUsage{errors.New("give a scenario file or --scenario, not both")}
	case file != "":
		data, rerr := os.ReadFile(file)
		if rerr != nil {
			return nil, errUsage{rerr}
		}
		s, err = scenario.Parse(data)
		if err == nil && s.ID == "" {
			s.ID = strings.TrimSuffix(filepath.Base(file), ".json")
		}
	case id != "":
		s, err = scenario.Builtin(id)
	default:
		return nil, errUsage{errors.New("give a scenario file or --scenario ID (see spacetime list)")}
	}
	if err != nil {
		return nil, errUsage{err}
	}
	if seed >= 0 {
		s = s.WithSeed(uint64(seed))
	}
	if n > 0 {
		if s, err = s.WithN(n); err != nil {
			return nil, errUsage{err}
		}
	}
	return s, nil
}

// scenarioFlags are the flags that choose and vary the scenario to run.
type scenarioFlags struct {
	id   *string
	seed *int64
	n    *int
}

func addScenarioFlags(fs *flag.FlagSet) scenarioFlags {
	return scenarioFlags{
		id:   fs.String("scenario", "", "built-in scenario id"),
		seed: fs.Int64("seed", -1, "override the seed"),
		n:    fs.Int("n", 0, "override the number of processes"),
	}
}

// start parses the arguments and runs the scenario they name.
func start(fs *flag.FlagSet, sf scenarioFlags, args []string) (*scenario.Scenario, *engine.Run, error) {
	file, err := parse(fs, args)
	if err != nil {
		return nil, nil, err
	}
	s, err := load(file, *sf.id, *sf.seed, *sf.n)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.Run()
	if err != nil {
		return nil, nil, errUsage{err}
	}
	return s, r, nil
}

func runCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	sf := addScenarioFlags(fs)
	asJSON := fs.Bool("json", false, "print the JSON report")
	s, r, err := start(fs, sf, args)
	if err != nil {
		return err
	}
	rep := report.Build(s, r, r.Len())
	if *asJSON {
		if err := writeJSON(out, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprint(out, rep.Text())
	}
	if len(rep.Unexpected()) > 0 {
		return errViolation
	}
	return nil
}

func export(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	sf := addScenarioFlags(fs)
	format := fs.String("format", "", "svg, json or shiviz")
	step := fs.Int("step", -1, "export the first K steps (default: the whole run)")
	axis := fs.String("axis", "time", "svg: time or lamport")
	width := fs.Float64("width", 1200, "svg width in pixels")
	height := fs.Float64("height", 0, "svg height in pixels (default: fits the processes)")
	output := fs.String("o", "", "write to this file instead of standard output")
	s, r, err := start(fs, sf, args)
	if err != nil {
		return err
	}
	k := r.Len()
	if *step >= 0 {
		if *step > r.Len() {
			return errUsage{fmt.Errorf("--step %d: the run has %d steps", *step, r.Len())}
		}
		k = *step
	}
	var data []byte
	switch *format {
	case "svg":
		if *axis != string(diagram.AxisTime) && *axis != string(diagram.AxisLamport) {
			return errUsage{fmt.Errorf("--axis: want time or lamport, got %q", *axis)}
		}
		h := *height
		if h <= 0 {
			h = diagram.HeightFor(s.N)
		}
		scene := diagram.Layout(r.Trace(), k, r.Config().Spec, diagram.Options{Width: *width, Height: h, Axis: diagram.Axis(*axis), Highlight: highlight(r, k)})
		data = scene.SVG()
	case "json":
		data, err = r.Trace().JSON(k)
		if err != nil {
			return err
		}
		data = append(data, '\n')
	case "shiviz":
		data = r.Trace().ShiViz(k)
	default:
		return errUsage{fmt.Errorf("--format: want svg, json or shiviz, got %q", *format)}
	}
	if *output != "" {
		return os.WriteFile(*output, data, 0o644)
	}
	_, err = out.Write(data)
	return err
}

// highlight lists the messages that failed invariants point at by step k.
func highlight(r *engine.Run, k int) []int {
	var ids []int
	for _, f := range r.FailuresAt(k) {
		ids = append(ids, f.Msgs...)
	}
	return ids
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
