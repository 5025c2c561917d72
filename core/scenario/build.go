package scenario

import (
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/network"
	"spacetime/core/sim"
)

// Config turns a validated scenario into the engine's configuration.
func (s *Scenario) Config() (engine.Config, error) {
	spec := s.Spec()
	if spec == nil {
		return engine.Config{}, fmt.Errorf("scenario: unknown algorithm %q", s.Algorithm)
	}
	nodes, err := spec.New(s.Names, s.Params)
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
	for i := range s.Script {
		e := &s.Script[i]
		var a engine.Action
		if e.Fault != "" {
			args, err := s.entryArgs(e, func(f string) string { return fmt.Sprintf("script[%d].%s", i, f) })
			if err != nil {
				return engine.Config{}, err
			}
			a = engine.Fault(e.Fault, args)
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

// WithN returns a validated copy with n processes under default names.
func (s *Scenario) WithN(n int) (*Scenario, error) {
	c := s.Clone()
	c.N, c.Names = n, nil
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}
