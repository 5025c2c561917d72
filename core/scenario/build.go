package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/sim"
)

// Config turns a validated scenario into the engine's configuration.
func (s *Scenario) Config() (engine.Config, error) {
	spec := s.Spec()
	if spec == nil {
		return engine.Config{}, fmt.Errorf("scenario: unknown algorithm %q", s.Algorithm)
	}
	nodes, err := s.newNodes(spec)
	if err != nil {
		return engine.Config{}, paramsError(err)
	}
	cfg := engine.Config{
		Spec:      spec,
		Names:     s.Names,
		Nodes:     nodes,
		Seed:      s.Seed,
		Scheduler: engine.Scheduler(s.Scheduler),
		Generator: engine.Generator(s.RNG),
		Net:       network.Config{FIFO: s.FIFO(), DelayMin: 1, DelayMax: 1, Loss: s.Network.Loss},
		Until:     engine.Until(s.Until),
	}
	if d := s.Network.Delay; len(d) == 2 {
		cfg.Net.DelayMin, cfg.Net.DelayMax = d[0], d[1]
	}
	for _, raw := range s.Down {
		id, err := s.nodeRef(raw)
		if err != nil {
			return engine.Config{}, fmt.Errorf("scenario: field \"down\": %v", err)
		}
		cfg.Down = append(cfg.Down, id)
	}
	if w := s.Workload; w != nil {
		wl := &engine.Workload{P: w.P, Until: w.Until, Every: [2]sim.Time{1, 1}}
		if len(w.Every) == 2 {
			wl.Every = [2]sim.Time{w.Every[0], w.Every[1]}
		}
		cfg.Workload = wl
	}
	if script, ok := s.runScript(); ok {
		cfg.Script = script // the engine only reads it
		return cfg, nil
	}
	cfg.Script = make([]engine.Timed, 0, len(s.Script))
	for i := range s.Script {
		e := &s.Script[i]
		var a engine.Action
		if e.Fault != "" {
			f, err := faults.Parse(e.Fault)
			if err != nil {
				return engine.Config{}, fieldErr(fmt.Sprintf("script[%d].fault", i), "%v", err)
			}
			args, err := s.entryArgs(e, f, func(f string) string { return fmt.Sprintf("script[%d].%s", i, f) })
			if err != nil {
				return engine.Config{}, err
			}
			a = engine.Fault(e.Fault, args)
		} else if e.delivery() {
			a = engine.Deliver(*e.Msg)
		} else {
			node, _ := s.nodeRef(e.Node)
			target := sim.NodeID(sim.None)
			if len(e.Target) > 0 {
				target, _ = s.nodeRef(e.Target)
			}
			a = engine.Command(e.Command, node, target, e.Arg)
		}
		cfg.Script = append(cfg.Script, engine.Timed{At: e.At, Action: a})
	}
	return cfg, nil
}

// Run starts the scenario's run.
func (s *Scenario) Run() (*engine.Run, error) { return s.RunWithin(nil) }

// RunWithin runs the scenario within a budget of work shared with other
// runs (nil: no budget beyond engine.MaxSteps); see engine.Budget.
func (s *Scenario) RunWithin(b *engine.Budget) (*engine.Run, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	cfg.Budget = b
	return engine.New(cfg)
}

// RunWithInputs runs the scenario with a learner's inputs, in one pass,
// within a budget (nil: none); see engine.NewWithInputs. The run is
// returned with an input's error.
func (s *Scenario) RunWithInputs(b *engine.Budget, inputs []engine.Input) (*engine.Run, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	cfg.Budget = b
	return engine.NewWithInputs(cfg, inputs)
}

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
	s.fileNow()
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
	if b, ok := builtins[s.ID]; ok && b.Switched(sw) == on {
		var own map[string]json.RawMessage
		_ = json.Unmarshal(b.Params, &own)
		value, present := own[sw.Param]
		if c := s.withParam(sw.Param, value, present); sameParams(c, b) {
			return c, nil
		}
	}
	value, _ := json.Marshal(on)
	c := s.withParam(sw.Param, value, true)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
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
