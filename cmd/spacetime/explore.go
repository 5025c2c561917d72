package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"

	"spacetime/app/lab"
	"spacetime/core/engine"
	"spacetime/core/explore"
	"spacetime/core/scenario"
)

// exploreReport is what explore --json prints.
type exploreReport struct {
	Scenario  string             `json:"scenario"`
	From      int                `json:"from"`
	Depth     int                `json:"depth_bound"`
	MaxStates int                `json:"max_states"`
	Faults    int                `json:"faults"`
	Invariant string             `json:"invariant,omitempty"`
	Progress  explore.Progress   `json:"progress"`
	Ignored   []string           `json:"ignored,omitempty"`
	Violation *explore.Violation `json:"violation,omitempty"`
	// Link opens the schedule found on the page make run serves.
	Link string `json:"link,omitempty"`
}

// explore searches the scenario's schedules for one that breaks an
// invariant: exit status 1 with the schedule when it finds one, 0 when
// the bound is exhausted with none.
func (c *cli) explore(args []string) error {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	sf := addScenarioFlags(fs)
	from := fs.String("from", "", "start at this step (default: the lesson's starting step, else 0)")
	invariant := fs.String("invariant", "", "the one invariant to break (default: the lesson's, else any)")
	depth := fs.String("depth", "", "look at most this many steps beyond the start")
	states := fs.String("max-states", "", "visit at most this many states")
	nfaults := fs.String("faults", "", "how many faults (crash, recover, drop, duplicate) a schedule may hold")
	asJSON := fs.Bool("json", false, "print a JSON report")
	file, err := parse(fs, args)
	if errors.Is(err, errHelp) {
		return c.help()
	}
	if err != nil {
		return err
	}
	p, err := c.load(fs, sf, file)
	if err != nil {
		return err
	}
	m, err := c.memory(*sf.memory)
	if err != nil {
		return err
	}
	// the run, its copy the search starts from and the states it visits
	// share --max-memory
	b := m.budget()
	sess, err := lab.OpenPlan(p, b)
	if err != nil {
		return errUsage{err}
	}
	start, opts := sess.Search().Plan()
	set := given(fs)
	if m.stopped(b) && set["from"] {
		// the run was cut short: a step past the cut is valid, but out of reach
		if k, err := intFlag("from", *from, 0, engine.MaxSteps, "a step of 0 or more"); err == nil && int(k) > sess.Len() {
			return errResources{fmt.Errorf("the run stopped at step %d, before step %d where the search starts: it would keep more than %d MB (--max-memory)", sess.Len(), k, m.mb)}
		}
	}
	num := func(name, text string, lo, hi int, into *int) error {
		if !set[name] {
			return nil
		}
		x, err := intFlag(name, text, int64(lo), int64(hi), fmt.Sprintf("a number from %d to %d", lo, hi))
		*into = int(x)
		return err
	}
	for _, f := range []struct {
		name, text string
		lo, hi     int
		into       *int
	}{
		{"from", *from, 0, sess.Len(), &start},
		{"depth", *depth, 1, explore.MaxDepth, &opts.Depth},
		{"max-states", *states, 1, explore.MaxMaxStates, &opts.MaxStates},
		{"faults", *nfaults, 0, explore.MaxFaults, &opts.Faults},
	} {
		if err := num(f.name, f.text, f.lo, f.hi, f.into); err != nil {
			return err
		}
	}
	if set["invariant"] {
		opts.Invariant = *invariant
	}
	opts.Budget = b
	search, err := sess.Search().Start(start, opts)
	if err != nil {
		return errUsage{err}
	}
	for search.Work(4096) {
		if m.exceeded() {
			search.OutOfMemory()
			break
		}
		if c.terminal {
			p := search.Progress()
			fmt.Fprintf(c.stderr, "\rsearching: %d states, every schedule of up to %d steps tried ", p.States, p.Depth)
		}
	}
	if c.terminal {
		fmt.Fprintln(c.stderr)
	}
	rep := exploreReport{Scenario: p.Head().ID, From: start, Depth: opts.Depth, MaxStates: opts.MaxStates, Faults: opts.Faults,
		Invariant: opts.Invariant, Progress: search.Progress(), Ignored: search.Ignored(), Violation: search.Violation()}
	if v := rep.Violation; v != nil {
		if err := sess.Search().Adopt(start, v); err != nil {
			if m.stopped(b) {
				return errResources{fmt.Errorf("the schedule found could not be replayed: it would keep more than %d MB (--max-memory)", m.mb)}
			}
			return errFailure{fmt.Errorf("internal error: %v", err)}
		}
		if sess.ScenarioFile().Linkable() {
			rep.Link = serveAddress + "/?" + lab.EncodeQuery(sess.Query())
		}
	}
	if *asJSON {
		writeJSON(c.stdout, rep)
	} else {
		c.printExplore(rep, search)
	}
	switch {
	case rep.Violation != nil:
		return errViolation
	case rep.Progress.Bound == explore.BoundMemory:
		return errResources{fmt.Errorf("the search stopped at %d states: it would keep more than %d MB (--max-memory)", rep.Progress.States, m.mb)}
	}
	return nil
}

// printExplore writes the search's outcome for people.
func (c *cli) printExplore(rep exploreReport, search *explore.Search) {
	what := "any invariant"
	if rep.Invariant != "" {
		what = strconv.Quote(rep.Invariant)
	}
	fmt.Fprintf(c.stdout, "explore %s from step %d for a schedule that breaks %s (at most %d steps, %d states, %d faults)\n",
		rep.Scenario, rep.From, what, rep.Depth, rep.MaxStates, rep.Faults)
	fmt.Fprintln(c.stdout, search.Describe())
	v := rep.Violation
	if v == nil {
		return
	}
	fmt.Fprintf(c.stdout, "%s\n\nthe schedule (* marks the search's choices, the rest is the run's own course):\n%s", v.Detail, v.String())
	if rep.Link != "" {
		fmt.Fprintf(c.stdout, "\nopen it at step %d: %s\n", v.Step, rep.Link)
	}
}

// shortest searches a plan from its first step for the shortest schedule
// that breaks an invariant, holding at most faults faults, within the
// memory bound m and the search's default bounds: what check reports for
// a program whose campaign failed, so that a student reads the smallest
// story of the bug.
func (c *cli) shortest(p *scenario.Plan, m *memoryBound, faults int) (exploreReport, error) {
	b := m.budget()
	sess, err := lab.OpenPlan(p, b)
	if err != nil {
		return exploreReport{}, err
	}
	opts := explore.DefaultOptions
	opts.Faults, opts.Budget = faults, b
	search, err := sess.Search().Start(0, opts)
	if err != nil {
		return exploreReport{}, err
	}
	for search.Work(4096) && !m.exceeded() {
	}
	rep := exploreReport{Scenario: p.Head().ID, Depth: opts.Depth, MaxStates: opts.MaxStates, Faults: opts.Faults,
		Progress: search.Progress(), Ignored: search.Ignored(), Violation: search.Violation()}
	if v := rep.Violation; v != nil && sess.Search().Adopt(0, v) == nil && sess.ScenarioFile().Linkable() {
		rep.Link = serveAddress + "/?" + lab.EncodeQuery(sess.Query())
	}
	return rep, nil
}
