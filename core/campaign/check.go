package campaign

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Violation is an invariant that failed in a run.
type Violation struct {
	Invariant string `json:"invariant"`
	// Step is the failing step, counted from 1 as the page and `spacetime
	// run` count them.
	Step   int    `json:"step"`
	Detail string `json:"detail"`
	// Expected says the scenario declares it, or a known limit of the
	// algorithm excuses it for the faults the run had by then; Why says
	// which.
	Expected bool   `json:"expected"`
	Why      string `json:"why,omitempty"`
	// Faults are the faults the run had up to the failing step.
	Faults []string `json:"faults"`
}

// Result is one run of a campaign.
type Result struct {
	// Seed is the run's seed; Scenario the scenario it drew (nil when
	// drawing it failed, which Error then says).
	Seed     uint64             `json:"seed"`
	Scenario *scenario.Scenario `json:"-"`
	Steps    int                `json:"steps"`
	// Faults counts the faults injected (applied); Skipped the script's
	// faults that could not happen when their time came.
	Faults  int `json:"faults"`
	Skipped int `json:"skipped"`
	// Used names the faults the run had, in registry order (a scenario
	// starting with non-FIFO channels has "fifo", one with random loss
	// "drop", one with a process down from the start "crash").
	Used       []string    `json:"used,omitempty"`
	Violations []Violation `json:"violations,omitempty"`
	// Panic is what the run panicked with and where, or "".
	Panic string `json:"panic,omitempty"`
	// Error says why the run could not start (a bug of the campaign).
	Error string `json:"error,omitempty"`
}

// Unexpected lists the violations no declaration or known limit excuses.
func (r *Result) Unexpected() []Violation {
	var out []Violation
	for _, v := range r.Violations {
		if !v.Expected {
			out = append(out, v)
		}
	}
	return out
}

// Failed reports whether the run found a bug: an unexpected violation, a
// panic, or a scenario that would not run.
func (r *Result) Failed() bool {
	return r.Panic != "" || r.Error != "" || len(r.Unexpected()) > 0
}

// Run draws the scenario of seed and checks it.
func Run(spec *sim.Spec, seed uint64, opt Options) (res Result) {
	res.Seed = seed
	var s *scenario.Scenario
	res.Panic = capture(func() {
		var err error
		if s, err = Generate(spec, seed, opt); err != nil {
			res.Error = err.Error()
		}
	})
	if s == nil {
		return res
	}
	return Check(s)
}

// Check runs a scenario and judges every invariant that failed in it.
func Check(s *scenario.Scenario) (res Result) {
	res.Seed, res.Scenario = s.Seed, s
	var r *engine.Run
	var err error
	run := func() {
		var p *scenario.Plan
		if p, err = s.Compile(); err == nil {
			r, err = p.Run()
		}
	}
	if res.Panic = capture(run); res.Panic != "" {
		return res
	}
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Steps = r.Len()
	from := startingFaults(s)
	recs := r.Trace().Records
	for i := range recs {
		switch recs[i].Kind {
		case trace.Fault:
			res.Faults++
		case trace.Skip:
			res.Skipped++
		}
	}
	spec := r.Config().Spec // the run's own: a learner's program's, compiled once
	res.Used = usedBy(spec, recs, len(recs)-1, from)
	for _, f := range r.Failures() {
		if f.Step < 0 {
			continue
		}
		v := Violation{Invariant: f.Name, Step: f.Step + 1, Detail: f.Detail, Faults: usedBy(spec, recs, f.Step, from)}
		if s.Expected(f.Name) {
			v.Expected, v.Why = true, "the scenario declares it (expect.violations)"
		} else if why, ok := spec.Excuses(f.Name, set(v.Faults), switchedOn(spec, s)); ok {
			v.Expected, v.Why = true, why
		}
		res.Violations = append(res.Violations, v)
	}
	return res
}

// switchedOn is the set of the params of the switches s turns on.
func switchedOn(spec *sim.Spec, s *scenario.Scenario) map[string]bool {
	on := map[string]bool{}
	for _, sw := range spec.Learner.Switches {
		if s.Switched(sw) {
			on[sw.Param] = true
		}
	}
	return on
}

// startingFaults are the faults a scenario has before its first step.
func startingFaults(s *scenario.Scenario) map[string]bool {
	m := map[string]bool{}
	if !s.FIFO() {
		m["fifo"] = true
	}
	if s.Network.Loss > 0 {
		m["drop"] = true
	}
	if len(s.Down) > 0 {
		m["crash"] = true
	}
	return m
}

// usedBy names the faults applied in steps 0..last and those the scenario
// started with, in registry order: only a fault that happened before a
// violation can excuse it.
func usedBy(spec *sim.Spec, recs []trace.Record, last int, from map[string]bool) []string {
	m := map[string]bool{}
	for k := range from {
		m[k] = true
	}
	for i := 0; i <= last && i < len(recs); i++ {
		if k := recs[i].Kind; k == trace.Fault || k == trace.Command {
			m[recs[i].Tag()] = true
		}
	}
	out := []string{}
	for _, f := range faults.Registry {
		if m[f.Name] {
			out = append(out, f.Name)
		}
	}
	// the commands that break an algorithm on purpose (a careless token
	// regeneration) excuse what they break, as faults do
	for _, l := range spec.Checks.KnownLimits {
		for _, name := range l.Faults {
			if _, ok := spec.Command(name); ok && m[name] && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// capture calls f and, if it panics, says what with and in which function
// (the first frame outside the runtime): words that stay the same from one
// replay to the next, unlike a stack's addresses. Replaying the scenario
// with spacetime run shows the whole stack.
func capture(f func()) (panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = describePanic(p)
		}
	}()
	f()
	return ""
}

// describePanic is called in capture's deferred function, while the
// panicking frames are still on the stack.
func describePanic(p any) string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		fr, more := frames.Next()
		if !strings.HasPrefix(fr.Function, "runtime.") && fr.Function != "" {
			file := fr.File[strings.LastIndex(fr.File, "/")+1:]
			return fmt.Sprintf("%v (in %s, %s:%d)", p, fr.Function, file, fr.Line)
		}
		if !more {
			return fmt.Sprint(p)
		}
	}
}

// Tally sums a campaign's results for one subject.
type Tally struct {
	Subject    string `json:"subject"`
	Runs       int    `json:"runs"`
	Steps      int    `json:"steps"`
	Faults     int    `json:"faults_injected"`
	Skipped    int    `json:"faults_skipped"`
	Expected   int    `json:"violations_expected"`
	Unexpected int    `json:"violations_unexpected"`
	Panics     int    `json:"panics"`
	// Broken counts runs whose scenario would not run (a campaign bug).
	Broken int `json:"broken,omitempty"`
	// Excused counts the expected violations by invariant and reason.
	Excused []Excuse `json:"expected_by_reason,omitempty"`
}

// Excuse is how many expected violations of an invariant one reason
// covered.
type Excuse struct {
	Invariant string `json:"invariant"`
	Why       string `json:"why"`
	Count     int    `json:"count"`
}

// Add counts one result.
func (t *Tally) Add(r *Result) {
	t.Runs++
	t.Steps += r.Steps
	t.Faults += r.Faults
	t.Skipped += r.Skipped
	if r.Panic != "" {
		t.Panics++
	}
	if r.Error != "" {
		t.Broken++
	}
	for _, v := range r.Violations {
		if !v.Expected {
			t.Unexpected++
			continue
		}
		t.Expected++
		i := slices.IndexFunc(t.Excused, func(e Excuse) bool { return e.Invariant == v.Invariant && e.Why == v.Why })
		if i < 0 {
			t.Excused = append(t.Excused, Excuse{Invariant: v.Invariant, Why: v.Why})
			i = len(t.Excused) - 1
		}
		t.Excused[i].Count++
	}
}

// Failed reports whether the tally holds any bug.
func (t *Tally) Failed() bool { return t.Unexpected > 0 || t.Panics > 0 || t.Broken > 0 }
