package scenario

import (
	"bytes"
	"encoding/json"

	"spacetime/core/sim"
)

// WithSeed returns a copy with another seed.
func (s *Scenario) WithSeed(seed uint64) *Scenario {
	c := s.Clone()
	c.Seed = seed
	return c
}

// WithFIFO returns a copy whose channels are FIFO or not.
func (s *Scenario) WithFIFO(on bool) *Scenario {
	c := s.Clone()
	c.Network.FIFO = &on
	return c
}

// Switched is the value of a switch in the scenario's params, or its
// default when the params leave it out (or do not parse).
func (s *Scenario) Switched(sw sim.Switch) bool {
	var params map[string]json.RawMessage
	if json.Unmarshal(s.Params, &params) != nil {
		return sw.Default
	}
	var on bool
	if raw, ok := params[sw.Param]; !ok || json.Unmarshal(raw, &on) != nil {
		return sw.Default
	}
	return on
}

// WithSwitch returns a validated copy with a switch set. A built-in lesson
// switched back to its own value is that lesson again, byte for byte.
func (s *Scenario) WithSwitch(sw sim.Switch, on bool) (*Scenario, error) {
	if b, err := Builtin(s.ID); err == nil && b.Switched(sw) == on {
		var own map[string]json.RawMessage
		_ = json.Unmarshal(b.Params, &own)
		value, present := own[sw.Param]
		if c := s.withParam(sw.Param, value, present); sameParams(c, b) {
			return c, nil
		}
	}
	c := s.SwitchedTo(sw, on)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// SwitchedTo is a copy with a switch set, not validated: for a scenario
// still being drawn (a campaign's, before its end is).
func (s *Scenario) SwitchedTo(sw sim.Switch, on bool) *Scenario {
	value, _ := json.Marshal(on)
	return s.withParam(sw.Param, value, true)
}

// withParam is a copy with one param set to value, or left out when not
// present.
func (s *Scenario) withParam(param string, value json.RawMessage, present bool) *Scenario {
	c := s.Clone()
	params := map[string]json.RawMessage{}
	_ = json.Unmarshal(c.Params, &params)
	if present {
		params[param] = value
	} else {
		delete(params, param)
	}
	if len(params) == 0 {
		c.Params = nil
		return c
	}
	c.Params, _ = json.Marshal(params)
	return c
}

// sameParams says whether c is b with its params written in another order
// or spacing, and if so gives c b's params exactly.
func sameParams(c, b *Scenario) bool {
	canon := func(raw json.RawMessage) string {
		var v any
		_ = json.Unmarshal(raw, &v)
		out, _ := json.Marshal(v)
		return string(out)
	}
	if canon(c.Params) != canon(b.Params) {
		return false
	}
	c.Params = append(json.RawMessage(nil), b.Params...)
	return bytes.Equal(c.JSON(), b.JSON())
}

// WithN returns a validated copy with n processes under default names.
func (s *Scenario) WithN(n int) (*Scenario, error) {
	c := s.Clone()
	c.N, c.Names = n, nil
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// ProgramAlgorithm is the algorithm that runs a learner's program (its
// code): what a link's code= and "Open as code" run a lesson with.
const ProgramAlgorithm = "python"

// WithProgram is the scenario run by a program instead of its
// algorithm: the same processes (named as the algorithm names them),
// params, script, network and stop, the program as its code and
// algorithm (ProgramAlgorithm, unless a test's fixture runs programs).
// Its id stays the lesson's, and its title says it runs as code.
func (s *Scenario) WithProgram(algorithm, code string) *Scenario {
	c := s.Clone()
	if len(c.Names) == 0 {
		if spec := s.Spec(); spec != nil && c.N > 0 {
			c.Names = spec.Names(c.N)
		}
	}
	if s.Algorithm != algorithm && c.Title != "" {
		c.Title += " (as code)"
	}
	c.Algorithm, c.Code, c.CodeFile = algorithm, code, ""
	return c
}
