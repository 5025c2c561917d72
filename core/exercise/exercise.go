// Package exercise checks a learner's answer to an exercise: a lesson
// whose algorithm the learner writes as a program (from a skeleton with a
// hole), run on the lesson's scenario over many seeds, every invariant
// checked at every step. It answers as a teacher would: "holds in 200 of
// 200 runs", or the first seed and step at which an invariant fails, with
// the run that shows it.
package exercise

import (
	"fmt"
	"strings"

	"spacetime/core/engine"
	"spacetime/core/scenario"
)

// DoneName names the lesson's goal, when the run must reach it.
const DoneName = "the run reaches its goal"

// DefaultRuns is how many seeds an answer is checked on.
const DefaultRuns = 200

// MaxRuns bounds the seeds of one check.
const MaxRuns = 10_000

// Answer is what the check found.
type Answer struct {
	// Runs is how many runs were made, Passed how many held throughout.
	Runs, Passed int
	// Invariants are the names checked.
	Invariants []string
	// Failure is the first run that broke an invariant, nil if none did.
	Failure *Failure
	// Stopped says the check stopped before its runs were all made (its
	// budget ran out), "" if it made them all.
	Stopped string
}

// Failure is a run that broke an invariant: its seed, the step (counted
// from 1, as the page counts) and the invariant, and the scenario that
// replays it.
type Failure struct {
	Seed      uint64
	Step      int
	Invariant string
	Detail    string
	Scenario  *scenario.Scenario
}

// Check runs the learner's code, as the program of algorithm (the
// interpreter's id), on the lesson's scenario with seeds 1 to runs, and
// stops at the first run that breaks an invariant. The runs share
// budget (nil: none); a check that runs out of it says so in Stopped.
func Check(lesson *scenario.Scenario, algorithm, code string, runs int, budget *engine.Budget) (Answer, error) {
	c, err := NewChecker(lesson, algorithm, code, runs)
	if err != nil {
		return Answer{}, err
	}
	for !c.Done() {
		if err := c.Next(budget); err != nil {
			return c.Answer(), err
		}
	}
	return c.Answer(), nil
}

// Checker checks an answer a run at a time, so that a page can show its
// progress and stay responsive between runs.
type Checker struct {
	// base is the lesson run by the program, compiled once: each run
	// takes another seed.
	base *scenario.Plan
	runs int
	a    Answer
	err  error
}

// NewChecker prepares the check of Check.
func NewChecker(lesson *scenario.Scenario, algorithm, code string, runs int) (*Checker, error) {
	if runs < 1 || runs > MaxRuns {
		return nil, fmt.Errorf("an answer is checked on 1 to %d runs, got %d", MaxRuns, runs)
	}
	s := lesson.WithProgram(algorithm, code)
	s.Expect = nil // an exercise's answer must hold, whatever the lesson shows
	base, err := s.Compile()
	if err != nil {
		return nil, err
	}
	return &Checker{base: base, runs: runs}, nil
}

// Done says the check has its answer: every run made, a failure found,
// the budget spent, or an error.
func (c *Checker) Done() bool {
	return c.a.Runs >= c.runs || c.a.Failure != nil || c.a.Stopped != "" || c.err != nil
}

// Answer is what the check found so far.
func (c *Checker) Answer() Answer { return c.a }

// Total is how many runs the check makes at most.
func (c *Checker) Total() int { return c.runs }

// Next makes the next run, within budget (nil: none).
func (c *Checker) Next(budget *engine.Budget) error {
	if c.Done() {
		return c.err
	}
	seed := uint64(c.a.Runs + 1)
	p := c.base.WithSeed(seed)
	s := p.Scenario()
	r, err := p.RunWithin(budget)
	if err != nil {
		c.err = err
		return err
	}
	if c.a.Invariants == nil {
		for _, f := range r.Failures() {
			c.a.Invariants = append(c.a.Invariants, f.Name)
		}
	}
	if r.Stopped() == engine.StoppedBudget {
		c.a.Stopped = fmt.Sprintf("the check stopped after %d of %d runs: %s", c.a.Runs, c.runs, budget.Cause())
		return nil
	}
	c.a.Runs++
	var first *engine.Failure
	for _, f := range r.Failures() {
		if f.Step >= 0 && (first == nil || f.Step < first.Step) {
			first = &f
		}
	}
	if first == nil && s.Until.Done && r.Stopped() != "done" {
		// the lesson's goal (a snapshot that completes) is part of the
		// answer: a rule that never finishes breaks nothing else
		first = &engine.Failure{Name: DoneName, Step: r.Len() - 1, Detail: fmt.Sprintf("the run ended (%s) at step %d before done(states) held", r.Stopped(), r.Len())}
	}
	if first != nil {
		c.a.Failure = &Failure{Seed: seed, Step: first.Step + 1, Invariant: first.Name, Detail: first.Detail, Scenario: s}
		return nil
	}
	c.a.Passed++
	return nil
}

// Say is the answer in a sentence: "every invariant (money is conserved,
// …) holds in 200 of 200 runs", or "fails at seed 17, step 43: …".
func (a Answer) Say() string {
	switch {
	case a.Failure != nil:
		f := a.Failure
		said := fmt.Sprintf("%q fails at seed %d, step %d: %s", f.Invariant, f.Seed, f.Step, f.Detail)
		switch a.Passed {
		case 0:
			return said
		case 1:
			return said + " (the run before it held)"
		}
		return fmt.Sprintf("%s (the %d runs before it held)", said, a.Passed)
	case a.Stopped != "":
		return fmt.Sprintf("%s held in %d of %d runs; %s", strings.Join(quoted(a.Invariants), ", "), a.Passed, a.Runs, a.Stopped)
	}
	return fmt.Sprintf("%s held in %d of %d runs", strings.Join(quoted(a.Invariants), ", "), a.Passed, a.Runs)
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}
