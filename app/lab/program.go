package lab

import (
	"net/url"
	"strings"

	"spacetime/core/algo/python/ports"
	"spacetime/core/scenario"
)

// Rewrite runs the session's scenario with another program, as the Write
// view's Run does: the learner's inputs (a crash, a delivery chosen, a
// command) are replayed on the new run, as flipping a switch does, and
// the step on screen stays where the new run reaches. err refuses a
// program that does not compile and leaves the session as it was; kept
// says that some inputs could not happen in the new run (those before
// the first that could not are kept).
func (s *Session) Rewrite(code string) (kept, err error) {
	changed := s.plan.Scenario().WithProgram(s.scn.Algorithm, code)
	if _, err := changed.Compile(); err != nil {
		return nil, err
	}
	return s.switches.rerun(changed, "with the program as edited"), nil
}

// StarterScenario is the run the Write view opens when its link names
// none: the starter program (ports.Starter) on four processes.
func StarterScenario() *scenario.Scenario {
	return &scenario.Scenario{ID: "my-program", Title: "Your program", Algorithm: scenario.ProgramAlgorithm,
		Code: ports.Starter(), N: 4, Seed: 1, Until: scenario.Until{Steps: 60}}
}

// WriteDefault is the link the Write view opens for q: q itself when it
// names a view's scenario, else q with the starter program's (so that a
// learner who opens the Write view starts from a program, not a lesson
// in Go, which has none to edit).
func WriteDefault(q url.Values) url.Values {
	for key := range q {
		if base, _, _ := strings.Cut(key, "."); base == "s" || base == "sc" {
			return q
		}
	}
	out := url.Values{}
	for k, v := range q {
		out[k] = v
	}
	if out.Get("v") == "" {
		out.Set("v", URLVersion)
	}
	out.Set("sc", pack(StarterScenario().JSON()))
	return out
}
