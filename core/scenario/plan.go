package scenario

import (
	"encoding/json"
	"errors"
	"fmt"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// Plan is a scenario compiled: validated, its processes made from its
// params and its script in the engine's form. The engine runs it; every
// run starts from clones of its processes, so a plan is compiled once
// and run as often as asked (a large log's params are most of the cost
// of opening it). A plan does not change once made.
type Plan struct {
	// head is the document, but for the script and params of a plan an
	// importer made, which file writes.
	head *Scenario
	// file writes the document's script and params (nil: head has them),
	// and whole is the document once written.
	file  func() ([]Entry, json.RawMessage)
	whole *Scenario
	// paramsLen and fields size an importer's document before it is
	// written (see LeastFileSize).
	paramsLen, fields int

	spec   *sim.Spec
	nodes  []sim.Node
	down   []sim.NodeID
	script []engine.Timed
}

// Compile validates the scenario (filling in its defaults, as Validate
// does) and makes its plan. The plan keeps s: change a copy instead
// (Clone, WithSeed, WithN).
func (s *Scenario) Compile() (*Plan, error) {
	spec, err := s.check(len(s.Script))
	if err != nil {
		return nil, err
	}
	nodes, err := spec.New(s.Names, s.Params)
	if err != nil {
		return nil, paramsError(err)
	}
	p := &Plan{head: s, spec: spec, nodes: nodes}
	if p.down, err = s.downIDs(); err != nil {
		return nil, err
	}
	p.script = make([]engine.Timed, 0, len(s.Script))
	for i := range s.Script {
		a, err := s.action(i)
		if err != nil {
			return nil, err
		}
		p.script = append(p.script, engine.Timed{At: s.Script[i].At, Action: a})
	}
	return p, nil
}

// Made is a run an importer made in the engine's own form: its processes
// and script, and a writer of the document's script and params, called
// only when saving or linking asks for the document. A large log's are
// tens of megabytes that opening and running it never read.
type Made struct {
	Nodes  []sim.Node
	Script []engine.Timed
	// File writes the document's script and params.
	File func() ([]Entry, json.RawMessage)
	// ParamsLen is the length of the params File writes, and Fields
	// counts the fields of its script's entries other than "at".
	ParamsLen, Fields int
}

// CompileMade validates head, a document without its script and params
// (filling in its defaults), and makes the plan of the run an importer
// made for it. The importer answers for the processes and the script.
func (head *Scenario) CompileMade(m Made) (*Plan, error) {
	if head.Script != nil || head.Params != nil {
		return nil, errors.New("scenario: a made run's script and params are written by its File")
	}
	spec, err := head.check(len(m.Script))
	if err != nil {
		return nil, err
	}
	p := &Plan{head: head, file: m.File, paramsLen: m.ParamsLen, fields: m.Fields, spec: spec, nodes: m.Nodes, script: m.Script}
	if p.down, err = head.downIDs(); err != nil {
		return nil, err
	}
	return p, nil
}

// Head is the document the plan was made from, but for the script and
// params of a plan an importer made, which are empty there: its names,
// title, lesson, seed and network, read without writing the rest. Do
// not change it.
func (p *Plan) Head() *Scenario { return p.head }

// Scenario is the plan's document whole, as a file or a link holds it:
// an importer's is written the first time it is asked for. Do not
// change it.
func (p *Plan) Scenario() *Scenario {
	if p.file == nil {
		return p.head
	}
	if p.whole == nil {
		whole := *p.head
		whole.Script, whole.Params = p.file()
		p.whole = &whole
	}
	return p.whole
}

// WithID is the plan under another id, which names it in reports and
// transcripts (the command line names a file by its name); the run is
// the same.
func (p *Plan) WithID(id string) *Plan { return p.with(func(s *Scenario) { s.ID = id }) }

// WithSeed is the plan run from another seed, without compiling it again
// (a process is made from the params, not the seed): the runs of a check
// over many seeds share one compiled program.
func (p *Plan) WithSeed(seed uint64) *Plan { return p.with(func(s *Scenario) { s.Seed = seed }) }

// with is the plan whose document change changes, in a field that does
// not change its processes or script.
func (p *Plan) with(change func(*Scenario)) *Plan {
	c := *p
	head := *p.head
	change(&head)
	c.head = &head
	if p.whole != nil {
		whole := *p.whole
		change(&whole)
		c.whole = &whole
	}
	return &c
}

// Spec is the plan's algorithm.
func (p *Plan) Spec() *sim.Spec { return p.spec }

// LeastFileSize is at most the size of the plan's file (see
// Scenario.LeastFileSize), found without writing an importer's document.
func (p *Plan) LeastFileSize(stop int) int {
	if p.file == nil || p.whole != nil {
		return p.Scenario().LeastFileSize(stop)
	}
	least := leastEntry * len(p.script)
	if least > stop {
		return least // a large log's script alone
	}
	return least + leastField*p.fields + p.paramsLen
}

// Config is the engine's configuration of a run of the plan, with
// processes of its own.
func (p *Plan) Config() engine.Config {
	s := p.head
	nodes := make([]sim.Node, len(p.nodes))
	for i, n := range p.nodes {
		nodes[i] = n.Clone()
	}
	cfg := engine.Config{
		Spec:      p.spec,
		Names:     s.Names,
		Nodes:     nodes,
		Seed:      s.Seed,
		Scheduler: engine.Scheduler(s.Scheduler),
		Generator: engine.Generator(s.RNG),
		Net:       network.Config{FIFO: s.FIFO(), DelayMin: 1, DelayMax: 1, Loss: s.Network.Loss},
		Until:     engine.Until(s.Until),
		Down:      p.down,
		Script:    p.script, // the engine only reads them
	}
	if d := s.Network.Delay; len(d) == 2 {
		cfg.Net.DelayMin, cfg.Net.DelayMax = d[0], d[1]
	}
	if w := s.Workload; w != nil {
		wl := &engine.Workload{P: w.P, Until: w.Until, Every: [2]sim.Time{1, 1}}
		if len(w.Every) == 2 {
			wl.Every = [2]sim.Time{w.Every[0], w.Every[1]}
		}
		cfg.Workload = wl
	}
	return cfg
}

// Run starts the plan's run.
func (p *Plan) Run() (*engine.Run, error) { return p.RunWithin(nil) }

// RunWithin runs the plan within a budget of work shared with other runs
// (nil: no budget beyond engine.MaxSteps); see engine.Budget.
func (p *Plan) RunWithin(b *engine.Budget) (*engine.Run, error) {
	cfg := p.Config()
	cfg.Budget = b
	return engine.New(cfg)
}

// RunWithInputs runs the plan with a learner's inputs, in one pass,
// within a budget (nil: none); see engine.NewWithInputs. The run is
// returned with an input's error.
func (p *Plan) RunWithInputs(b *engine.Budget, inputs []engine.Input) (*engine.Run, error) {
	cfg := p.Config()
	cfg.Budget = b
	return engine.NewWithInputs(cfg, inputs)
}

// downIDs are the processes down from the start.
func (s *Scenario) downIDs() ([]sim.NodeID, error) {
	var ids []sim.NodeID
	for _, raw := range s.Down {
		id, err := s.nodeRef(raw)
		if err != nil {
			return nil, fmt.Errorf("scenario: field \"down\": %v", err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// action is the engine's form of the script's entry i, once checked.
func (s *Scenario) action(i int) (engine.Action, error) {
	e := &s.Script[i]
	switch {
	case e.Fault != "":
		f, err := faults.Parse(e.Fault)
		if err != nil {
			return engine.Action{}, fieldErr(fmt.Sprintf("script[%d].fault", i), "%v", err)
		}
		args, err := s.entryArgs(e, f, func(f string) string { return fmt.Sprintf("script[%d].%s", i, f) })
		if err != nil {
			return engine.Action{}, err
		}
		return engine.Fault(e.Fault, args), nil
	case e.delivery():
		return engine.Deliver(*e.Msg), nil
	}
	node, _ := s.nodeRef(e.Node)
	target := sim.NodeID(sim.None)
	if len(e.Target) > 0 {
		target, _ = s.nodeRef(e.Target)
	}
	return engine.Command(e.Command, node, target, e.Arg), nil
}

// paramsError words an algorithm's refusal of its params.
func paramsError(err error) error {
	var fe *strictjson.FieldError
	if errors.As(err, &fe) {
		return fmt.Errorf("scenario: %w", err)
	}
	return fmt.Errorf("scenario: %w", strictjson.FieldErrorf("params", "%v", err))
}
