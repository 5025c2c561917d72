package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"spacetime/core/algo/all"
	"spacetime/core/campaign"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Verdict is what one algorithm's checks made of one build: the first run
// that failed (an unexpected violation, a panic, a run that would not
// start), or none in Runs runs.
type Verdict struct {
	Algorithm string `json:"algorithm"`
	Killed    bool   `json:"killed"`
	// Subject is what the failing run drew from: the algorithm (a fresh
	// scenario) or a lesson it varied; Seed its run seed, which
	// `spacetime check --algorithm|--scenario Subject --run-seed Seed`
	// replays. Lesson says the lesson failed as it is, unvaried.
	Subject string `json:"subject,omitempty"`
	Seed    uint64 `json:"seed,omitempty"`
	Lesson  bool   `json:"lesson,omitempty"`
	// Invariant and Step are the violation's; Panic or Error what the
	// run stopped with instead.
	Invariant string `json:"invariant,omitempty"`
	Step      int    `json:"step,omitempty"`
	Detail    string `json:"detail,omitempty"`
	Panic     string `json:"panic,omitempty"`
	Error     string `json:"error,omitempty"`
	// Runs is how many runs it took, the lessons as they are included.
	Runs int `json:"runs"`
}

// subject is one thing a campaign draws runs from.
type subject struct {
	name   string
	lesson *scenario.Scenario
}

// lessonsOf lists the built-in lessons of an algorithm, in id order.
func lessonsOf(id string) []*scenario.Scenario {
	var out []*scenario.Scenario
	for _, l := range scenario.BuiltinIDs() {
		if s, err := scenario.Builtin(l); err == nil && s.Algorithm == id {
			out = append(out, s)
		}
	}
	return out
}

// namesMutant says the lesson turns a switch that is no variant away
// from its default (sim.Switch.Variant): it runs a version that breaks a
// rule on purpose, a mutant the course names (see errata), not the
// algorithm, so it judges no other mutant. Varied, such a lesson finds
// its own bug (Raft's Figure 8 by counting replicas, whose lesson leaves
// the finding to the schedule search).
func namesMutant(spec *sim.Spec, l *scenario.Scenario) bool {
	return slices.ContainsFunc(turned(spec, l.Params), func(sw sim.Switch) bool { return !sw.Variant })
}

// turned lists the switches params set away from their defaults.
func turned(spec *sim.Spec, params json.RawMessage) []sim.Switch {
	var m map[string]any
	if json.Unmarshal(params, &m) != nil {
		return nil
	}
	var out []sim.Switch
	for _, sw := range spec.Learner.Switches {
		if b, ok := m[sw.Param].(bool); ok && b != sw.Default {
			out = append(out, sw)
		}
	}
	return out
}

// judge checks one algorithm as this binary was built: each of its
// lessons as it is, then seeded runs, drawn in turn from scratch and from
// each lesson varied, as `spacetime check` draws them. It stops at the
// first failure. A lesson that names a mutant (namesMutant) is left out.
func judge(id string, runs int, seed uint64) Verdict {
	v := Verdict{Algorithm: id}
	spec, ok := all.Lookup(id)
	if !ok {
		v.Killed, v.Error = true, "no algorithm "+id
		return v
	}
	lessons := slices.DeleteFunc(lessonsOf(id), func(l *scenario.Scenario) bool { return namesMutant(spec, l) })
	for _, l := range lessons {
		v.Runs++
		res := campaign.Check(l)
		strict(l, &res)
		if res.Failed() {
			v.Subject, v.Seed, v.Lesson = l.ID, l.Seed, true
			return failed(v, &res)
		}
		if name := unshown(l, &res); name != "" {
			v.Subject, v.Seed, v.Lesson = l.ID, l.Seed, true
			v.Killed, v.Invariant = true, name
			v.Detail = "the lesson is meant to break it (expect.violations), and it holds"
			if strings.Contains(name, "; ") {
				v.Detail = "the lesson is meant to break one of these (expect.violations), and they all hold"
			}
			return v
		}
	}
	subjects := []subject{{name: id}}
	for _, l := range lessons {
		subjects = append(subjects, subject{name: l.ID, lesson: l})
	}
	for i := range runs {
		s := subjects[i%len(subjects)]
		rs := campaign.RunSeed(seed, s.name, i/len(subjects))
		v.Runs++
		res := campaign.Run(spec, rs, campaign.Options{Lesson: s.lesson})
		if res.Failed() {
			v.Subject, v.Seed = s.name, rs
			return failed(v, &res)
		}
	}
	return v
}

// strict holds a lesson as it is to what it declares: a violation it does
// not declare kills, though a known limit would excuse it in a drawn run
// (a lesson whose pause shows fencing at work excuses no stale write).
func strict(l *scenario.Scenario, res *campaign.Result) {
	for i := range res.Violations {
		if x := &res.Violations[i]; !l.Expected(x.Invariant) {
			x.Expected, x.Why = false, ""
		}
	}
}

// failed fills in a verdict from the run that failed.
func failed(v Verdict, res *campaign.Result) Verdict {
	v.Killed, v.Panic, v.Error = true, res.Panic, res.Error
	if u := res.Unexpected(); len(u) > 0 {
		v.Invariant, v.Step, v.Detail = u[0].Invariant, u[0].Step, u[0].Detail
	}
	return v
}

// judgeMain is the mode a mutant's build runs in: it judges each
// algorithm named and writes the verdicts as JSON lines.
func judgeMain(w io.Writer, ids []string, runs int, seed uint64) error {
	enc := json.NewEncoder(w)
	for _, id := range ids {
		if err := enc.Encode(judge(id, runs, seed)); err != nil {
			return err
		}
	}
	return nil
}

// unshown names what a lesson declares it breaks (expect.violations)
// when its run breaks none of it, or is "": a lesson that no longer shows
// what it is about is a check the course makes of the algorithm, as its
// page says ("As the lesson expects, … fails"). A lesson may declare more
// than its run as it is breaks (what a learner's step there may break),
// so one of them is enough.
func unshown(l *scenario.Scenario, res *campaign.Result) string {
	if l.Expect == nil || len(l.Expect.Violations) == 0 {
		return ""
	}
	for _, v := range res.Violations {
		if slices.Contains(l.Expect.Violations, v.Invariant) {
			return ""
		}
	}
	return strings.Join(l.Expect.Violations, "; ")
}

// ErrataSwitch is a switch the course names as a text's error: a lesson
// turns it on and declares the violation it makes.
type ErrataSwitch struct {
	Algorithm string `json:"algorithm"`
	Switch    string `json:"switch"`
	Lesson    string `json:"lesson"`
	// Killed says the lesson's run broke an invariant it declares, and
	// Invariant and Step say which and where.
	Killed    bool   `json:"killed"`
	Invariant string `json:"invariant,omitempty"`
	Step      int    `json:"step,omitempty"`
}

// errata runs every lesson that turns a switch that is no variant away
// from its default and declares a violation: the switch is a mutant the
// course names, and the lesson's invariant must catch it.
func errata(ids []string) []ErrataSwitch {
	var out []ErrataSwitch
	for _, id := range ids {
		spec, _ := all.Lookup(id)
		for _, l := range lessonsOf(id) {
			if !namesMutant(spec, l) || l.Expect == nil || len(l.Expect.Violations) == 0 {
				continue
			}
			e := ErrataSwitch{Algorithm: id, Switch: flipped(spec, l.Params), Lesson: l.ID}
			res := campaign.Check(l)
			for _, viol := range res.Violations {
				if l.Expected(viol.Invariant) {
					e.Killed, e.Invariant, e.Step = true, viol.Invariant, viol.Step
					break
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// flipped names the switches params set away from their defaults, "" if
// none.
func flipped(spec *sim.Spec, params json.RawMessage) string {
	var names []string
	for _, sw := range turned(spec, params) {
		names = append(names, fmt.Sprintf("%s=%v", sw.Param, !sw.Default))
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprint(names)
}
