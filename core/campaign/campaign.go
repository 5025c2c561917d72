// Package campaign is the pure half of `spacetime check`, a seeded fault
// campaign in the manner of FoundationDB's simulation tests and
// TigerBeetle's VOPR: from a seed and an algorithm's Spec it draws a random
// scenario (size, scheduler, network, workload, the algorithm's commands
// and faults from the fault registry at random times), runs it with every
// invariant checked after every step, and sorts each violation into
// expected (the scenario declares it, or the Spec's KnownLimits excuse it
// for the faults the run had) and unexpected (a bug). A panic is caught
// and reported with where it happened.
//
// Everything comes from the seed: the same seed gives the same scenario
// file and the same run, so a failure found in a campaign of thousands of
// runs replays alone. The worker pool, files and output live in
// cmd/spacetime; this package does no I/O and starts no goroutine.
package campaign

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Bounds on what a campaign draws, so that a run stays a few milliseconds.
const (
	// MaxN is the most processes a drawn scenario has (fewer when the
	// algorithm allows fewer); most have two to four.
	MaxN = 16
	// MaxSteps is the most steps a drawn run takes.
	MaxSteps = 800
	// MaxFaults and MaxCommands bound the script's drawn entries.
	MaxFaults   = 10
	MaxCommands = 6
)

// streamCampaign keeps the campaign's draws apart from the engine's
// streams, which split the same seed.
const streamCampaign = 0xc4a3b1

// Options say what a campaign draws.
type Options struct {
	// Faults are the registry names of the faults it may inject: nil means
	// every fault of the registry, an empty list none. A scenario starts
	// with non-FIFO channels only when "fifo" is allowed.
	Faults []string
	// Lesson, when set, is varied (seed, size, network, more commands and
	// faults) instead of drawing scenarios from scratch; it keeps its
	// params, script and declared violations.
	Lesson *scenario.Scenario
}

// allowed returns the faults the options allow, in registry order.
func (o Options) allowed() ([]*faults.Fault, error) {
	if o.Faults == nil {
		return faults.Registry, nil
	}
	var out []*faults.Fault
	for _, name := range o.Faults {
		f, err := faults.Parse(name)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return registryIndex(out[i]) < registryIndex(out[j]) })
	return out, nil
}

func registryIndex(f *faults.Fault) int { return slices.Index(faults.Registry, f) }

// ParseFaults reads a comma-separated list of fault names ("crash,drop");
// "all" is every fault and "" or "none" none. An unknown name is refused
// with the list of known ones.
func ParseFaults(list string) ([]string, error) {
	switch strings.TrimSpace(list) {
	case "all":
		return nil, nil
	case "", "none":
		return []string{}, nil
	}
	out := []string{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, err := faults.Parse(name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

// RunSeed is the seed of run i of a subject (an algorithm's id, or a
// lesson's) in the campaign of seed campaign. It mixes the three so that
// runs of one campaign, and the same run of two subjects, are unrelated.
// It is part of what the command line prints: keep it stable.
func RunSeed(campaign uint64, subject string, i int) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for _, b := range []byte(subject) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return mix(mix(campaign^mix(h)) + uint64(i))
}

// mix is SplitMix64's finaliser: every input bit moves every output bit.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// gen is one scenario's drawing.
type gen struct {
	spec    *sim.Spec
	seed    uint64
	rng     *rand.Rand
	dice    *faults.Dice
	allowed []*faults.Fault
}

// Generate draws the scenario of seed for the algorithm spec. It is a
// valid scenario file (it went through scenario.Parse), and the same seed
// and options always give the same one.
func Generate(spec *sim.Spec, seed uint64, opt Options) (*scenario.Scenario, error) {
	allowed, err := opt.allowed()
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, streamCampaign))
	g := &gen{spec: spec, seed: seed, rng: rng, dice: faults.NewDice(rng), allowed: allowed}
	var s *scenario.Scenario
	if opt.Lesson != nil {
		if opt.Lesson.Algorithm != spec.ID {
			return nil, fmt.Errorf("the lesson %q is of %s, not %s", opt.Lesson.ID, opt.Lesson.Algorithm, spec.ID)
		}
		s, err = g.vary(opt.Lesson)
	} else {
		s, err = g.fresh()
	}
	if err != nil {
		return nil, err
	}
	s.Script = append(s.Script, g.script(s)...)
	sort.SliceStable(s.Script, func(i, j int) bool { return s.Script[i].At < s.Script[j].At })
	out, err := scenario.Parse(s.JSON())
	if err != nil {
		return nil, fmt.Errorf("the campaign drew an invalid scenario (a bug in core/campaign): %w", err)
	}
	return out, nil
}

// allows reports whether the campaign may inject the fault name.
func (g *gen) allows(name string) bool {
	return slices.ContainsFunc(g.allowed, func(f *faults.Fault) bool { return f.Name == name })
}

// drawN draws a number of processes, mostly small: small worlds reach
// corner cases in fewer steps, and a few large ones catch what only size
// shows.
func (g *gen) drawN() int {
	lo, hi := max(g.spec.MinN, 1), min(g.spec.MaxN, scenario.MaxN, MaxN)
	if len(g.spec.Sizes) > 0 {
		var fit []int
		for _, n := range g.spec.Sizes {
			if n >= lo && n <= hi {
				fit = append(fit, n)
			}
		}
		if len(fit) > 0 {
			// mostly the smallest, as below
			if g.rng.IntN(10) < 6 {
				return fit[0]
			}
			return fit[g.rng.IntN(len(fit))]
		}
	}
	switch k := g.rng.IntN(10); {
	case k < 6:
		hi = min(hi, lo+2)
	case k < 9:
		hi = min(hi, max(lo, 8))
	}
	return lo + g.rng.IntN(hi-lo+1)
}

// fresh draws a scenario from scratch: everything but its script.
func (g *gen) fresh() (*scenario.Scenario, error) {
	n := g.drawN()
	params, n, err := defaultParams(g.spec, n)
	if err != nil {
		return nil, err
	}
	s := &scenario.Scenario{
		ID:          checkID(g.spec.ID, g.seed),
		Title:       "A seeded check of " + g.spec.Title,
		Description: "Drawn by spacetime check: a random scenario with random faults.",
		Algorithm:   g.spec.ID,
		N:           n,
		Seed:        g.seed,
		Params:      params,
	}
	s = g.variants(s)
	switch k := g.rng.IntN(10); {
	case k < 5 || g.maxDelay(s) > 0: // timeouts need time to mean something
		s.Scheduler = string(engine.Earliest)
	case k < 9:
		s.Scheduler = string(engine.Random)
	default:
		s.Scheduler = string(engine.Manual)
	}
	s.RNG = string(engine.PCG)
	if g.dice.OneIn(10) {
		s.RNG = string(engine.Python)
	}
	g.network(&s.Network, g.maxDelay(s))
	if g.allows("drop") && g.dice.OneIn(10) {
		// the network's own random loss is the drop fault, spread out
		s.Network.Loss = []float64{0.01, 0.05, 0.2}[g.rng.IntN(3)]
	}
	w := &scenario.Workload{P: 0.2 + 0.6*g.rng.Float64(), Every: []sim.Time{1, sim.Time(1 + g.rng.IntN(6))}}
	if g.dice.OneIn(3) {
		w.Until = sim.Time(50 + g.rng.IntN(400))
	}
	s.Workload = w
	if g.allows("crash") && g.dice.OneIn(10) {
		s.Down = []scenario.ProcessRef{ref(g.rng.IntN(n) + 1)}
	}
	steps := 100 + g.rng.IntN(MaxSteps-100+1)
	s.Until = scenario.Until{Steps: steps, Time: sim.Time(4 * steps), Done: g.dice.OneIn(10)}
	return s, s.Validate()
}

// variants flips each of the algorithm's variant switches away from its
// default in half the runs. It draws nothing for an algorithm without
// one, whose runs stay as they were drawn before variants were.
func (g *gen) variants(s *scenario.Scenario) *scenario.Scenario {
	for _, sw := range g.spec.Learner.Switches {
		if sw.Variant && g.rng.IntN(2) == 1 {
			s = s.SwitchedTo(sw, !sw.Default)
		}
	}
	return s
}

// maxDelay is the longest a message of s may take for its timeouts to
// work: the algorithm's bound, or that of a switch s turns on (central's
// re-election), whichever is shorter; 0 for none.
func (g *gen) maxDelay(s *scenario.Scenario) sim.Time {
	most := g.spec.Checks.MaxDelay
	for _, sw := range g.spec.Learner.Switches {
		if sw.MaxDelay > 0 && (most == 0 || sw.MaxDelay < most) && s.Switched(sw) {
			most = sw.MaxDelay
		}
	}
	return most
}

// network draws the channels' delay, within most ticks when most is not
// 0, and, when the fifo fault is allowed, whether they start out of order.
func (g *gen) network(nw *scenario.Network, most sim.Time) {
	lo := sim.Time(g.rng.IntN(4))
	nw.Delay = []sim.Time{lo, lo + sim.Time(g.rng.IntN(11))}
	if most > 0 {
		lo = min(lo, most)
		nw.Delay = []sim.Time{lo, lo + sim.Time(g.rng.IntN(int(most-lo)+1))}
	}
	if g.allows("fifo") && g.dice.OneIn(4) {
		off := false
		nw.FIFO = &off
	} else {
		on := true
		nw.FIFO = &on
	}
}

// checkID names a drawn scenario after what it was drawn from and its seed,
// "check-<from>-<seed>", shortening <from> to keep within what a scenario's
// id may be.
func checkID(from string, seed uint64) string {
	tail := fmt.Sprintf("-%d", seed)
	room := scenario.MaxID - len("check-") - len(tail)
	if r := []rune(from); len(r) > room {
		from = string(r[:room])
	}
	return "check-" + from + tail
}

// vary draws a variation of a lesson: everything but the added script.
func (g *gen) vary(lesson *scenario.Scenario) (*scenario.Scenario, error) {
	s := lesson.WithSeed(g.seed)
	s.ID = checkID(lesson.ID, g.seed)
	s.Title = "A seeded variation of " + lesson.ID
	s.Description = "Drawn by spacetime check from the lesson " + lesson.ID + ": " + lesson.Title
	if g.dice.OneIn(2) {
		if c, err := s.WithN(g.drawN()); err == nil {
			s = c
		}
	}
	if g.dice.OneIn(2) {
		fifo := s.FIFO()
		g.network(&s.Network, g.maxDelay(s))
		if !fifo || !g.allows("fifo") {
			// a lesson's channels stay as it made them, unless they are
			// FIFO and the campaign may start them without
			s.Network.FIFO = &fifo
		}
	}
	if s.Until.Done && g.dice.OneIn(2) {
		s.Until.Done = false // and run on after the goal, into the faults
	}
	if s.Until.Steps == 0 || s.Until.Steps > MaxSteps {
		s.Until.Steps = 100 + g.rng.IntN(MaxSteps-100+1)
	}
	return s, s.Validate()
}

// defaultParams finds params for n processes: none (the algorithm's
// defaults) when the algorithm takes that, else the first built-in
// lesson's, at its own size when they only fit it.
func defaultParams(spec *sim.Spec, n int) (json.RawMessage, int, error) {
	if _, err := spec.New(spec.Names(n), nil); err == nil {
		return nil, n, nil
	}
	for _, id := range scenario.BuiltinIDs() {
		l, err := scenario.Builtin(id)
		if err != nil || l.Algorithm != spec.ID {
			continue
		}
		if _, err := spec.New(spec.Names(n), l.Params); err == nil {
			return l.Params, n, nil
		}
		return l.Params, l.N, nil
	}
	return nil, 0, fmt.Errorf("%s needs params and has no built-in lesson to take them from", spec.ID)
}

// ref is a process reference by number, from 1.
func ref(number int) scenario.ProcessRef {
	return scenario.ProcessRef(fmt.Sprint(number))
}

// nameRef is a process reference by name, which reads best in a file.
func nameRef(s *scenario.Scenario, id sim.NodeID) scenario.ProcessRef {
	data, _ := json.Marshal(s.Names[id])
	return data
}

// script draws the campaign's script entries for s: the algorithm's
// commands, then faults. Each is drawn against the world as it stands when
// its time comes, so that what it names exists then: a process that takes
// the command, a message in flight, a crashed process to recover, a link
// to heal. Faults see that world exactly (s is run again with the entries
// drawn so far); commands, which only need to know who is up, see the
// world without the campaign's faults, which saves a run per command.
func (g *gen) script(s *scenario.Scenario) []scenario.Entry {
	p := &prober{base: s}
	horizon := sim.Time(50)
	if r, ok := p.at(nil, s.Until.Time); ok && r.Len() > 0 {
		// entries up to a little after the run's natural end
		horizon = max(horizon, r.Trace().Records[r.Len()-1].Time*11/10+1)
	}
	if s.Until.Time > 0 {
		horizon = min(horizon, s.Until.Time-1)
	}
	if horizon < 1 {
		return nil
	}
	times := func(k int) []sim.Time {
		out := make([]sim.Time, k)
		for i := range out {
			out[i] = 1 + sim.Time(g.rng.Int64N(int64(horizon)))
		}
		slices.Sort(out)
		return out
	}
	var drawn []scenario.Entry
	draw := func(at sim.Time, entries []scenario.Entry, pick func(engine.State) (scenario.Entry, bool)) bool {
		r, ok := p.at(entries, at)
		if !ok {
			return false // the world panicked: the run will show it
		}
		k, reached := prefix(r, at, s.Until)
		if !reached {
			return true // the run ends before this time
		}
		if e, ok := pick(r.At(k)); ok {
			e.At = at
			drawn = append(drawn, e)
		}
		return true
	}
	if len(g.spec.Learner.Commands) > 0 {
		for _, at := range times(1 + g.rng.IntN(MaxCommands)) {
			if !draw(at, nil, func(st engine.State) (scenario.Entry, bool) { return g.drawCommand(s, st) }) {
				return drawn
			}
		}
	}
	if len(g.allowed) > 0 {
		for _, at := range times(g.rng.IntN(MaxFaults + 1)) {
			if !draw(at, drawn, func(st engine.State) (scenario.Entry, bool) { return g.drawFault(s, st) }) {
				break
			}
		}
	}
	return drawn
}

// prefix is the number of steps of r before an entry at time t runs, and
// whether the run gets there: the steps before t, and the script's own
// entries at t (a script entry goes before anything else due then).
func prefix(r *engine.Run, t sim.Time, until scenario.Until) (int, bool) {
	recs := r.Trace().Records
	k := sort.Search(len(recs), func(i int) bool {
		return recs[i].Time > t || (recs[i].Time == t && recs[i].Source != trace.Script)
	})
	if k < len(recs) {
		return k, true
	}
	switch r.Stopped() {
	case "quiescent", "time":
		// nothing else happened, or the probe stopped at t on purpose: the
		// entry still runs at its time (a script entry wakes a quiet world)
		return k, until.Time == 0 || t < until.Time
	}
	return k, false // steps or done: the run is over before t
}

// prober runs a scenario with the entries drawn so far, reusing its last
// run while the entries are the same and it reaches far enough.
type prober struct {
	base    *scenario.Scenario
	last    *engine.Run
	entries int
	until   sim.Time
}

// at returns a run of the base scenario plus entries that reaches time t
// (or ends before it), or false when the run panicked.
func (p *prober) at(entries []scenario.Entry, t sim.Time) (r *engine.Run, ok bool) {
	if p.last != nil && p.entries == len(entries) && (p.until == 0 || p.until > t || p.last.Stopped() != "time") {
		return p.last, true
	}
	s := *p.base
	s.Script = append(slices.Clip(p.base.Script), entries...)
	stop := p.base.Until.Time
	if len(entries) > 0 && (stop == 0 || t+1 < stop) {
		stop = t + 1 // only the steps before t matter for the next entry
	}
	s.Until.Time = stop
	defer func() {
		if recover() != nil {
			r, ok = nil, false
		}
	}()
	plan, err := s.Compile()
	if err != nil {
		return nil, false
	}
	run, err := plan.Run()
	if err != nil {
		return nil, false
	}
	p.last, p.entries, p.until = run, len(entries), stop
	return run, true
}

// scene is a state of a probe run as the fault registry's Draw sees it.
type scene struct {
	st engine.State
	v  sim.View
}

func (s scene) N() int                                       { return s.v.N() }
func (s scene) Health(id sim.NodeID) faults.Health           { return s.st.Health(id) }
func (s scene) LinkUp(from, to sim.NodeID) bool              { return s.st.LinkUp(from, to) }
func (s scene) FIFO() bool                                   { return s.st.FIFO() }
func (s scene) Messages() []int                              { return inFlight(s.v) }
func newScene(st engine.State) scene                         { return scene{st: st, v: st.View()} }
func (s scene) running(id sim.NodeID) bool                   { return s.st.Health(id).Running() }
func (s scene) takes(c *sim.CommandSpec, id sim.NodeID) bool { return c.TakenBy(s.v, id) }

// inFlight lists every message in flight, in id order.
func inFlight(v sim.View) []int {
	var ids []int
	for i := range v.N() {
		for j := range v.N() {
			if i != j {
				ids = append(ids, v.InFlight(sim.NodeID(i), sim.NodeID(j))...)
			}
		}
	}
	sort.Ints(ids)
	return ids
}

// drawFault draws a fault that can happen in st: a fault chosen at
// random among those allowed, else the next one that can.
func (g *gen) drawFault(s *scenario.Scenario, st engine.State) (scenario.Entry, bool) {
	sc := newScene(st)
	for _, i := range g.rng.Perm(len(g.allowed)) {
		f := g.allowed[i]
		if f.Draw == nil {
			continue
		}
		for range 3 {
			a, ok := f.Draw(sc, g.dice)
			if !ok {
				break
			}
			if f.Validate(a, s.N, f.Given(a)) != nil {
				continue
			}
			if st.CheckScripted(engine.Fault(f.Name, a)) != nil {
				continue // the engine knows better than the draw
			}
			return faultEntry(s, f, a), true
		}
	}
	return scenario.Entry{}, false
}

// faultEntry writes a fault and its arguments as a script entry: each
// argument in the field its param names, as its kind writes it.
func faultEntry(s *scenario.Scenario, f *faults.Fault, a faults.Args) scenario.Entry {
	e := scenario.Entry{Fault: f.Name}
	ref := func(id sim.NodeID) json.RawMessage { return nameRef(s, id) }
	for _, p := range f.Params {
		v, ok := p.Get(a)
		if !ok && p.Optional {
			continue
		}
		switch {
		case p.Kind == faults.ParamNode:
			e.Node = nameRef(s, a.Node)
		case p.Kind == faults.ParamTarget:
			e.Target = nameRef(s, a.Target)
		case p.Kind == faults.ParamMsg:
			e.Msg = &a.Msg
		default:
			if e.Args == nil {
				e.Args = map[string]json.RawMessage{}
			}
			e.Args[p.Field] = p.Kind.Write(v, ref)
		}
	}
	return e
}

// drawCommand draws one of the algorithm's commands at a process that
// takes it now, with a target and an argument within the command's bounds.
func (g *gen) drawCommand(s *scenario.Scenario, st engine.State) (scenario.Entry, bool) {
	c := &g.spec.Learner.Commands[g.rng.IntN(len(g.spec.Learner.Commands))]
	sc := newScene(st)
	var takers []sim.NodeID
	for i := range s.N {
		if id := sim.NodeID(i); sc.running(id) && sc.takes(c, id) {
			takers = append(takers, id)
		}
	}
	if len(takers) == 0 {
		if !g.dice.OneIn(10) {
			return scenario.Entry{}, false
		}
		// one that cannot take it now: the run shows the refusal
		takers = []sim.NodeID{sim.NodeID(g.rng.IntN(s.N))}
	}
	at := g.dice.Pick(takers)
	e := scenario.Entry{Command: c.Name, Node: nameRef(s, at)}
	if c.Target {
		if s.N < 2 {
			return scenario.Entry{}, false
		}
		e.Target = nameRef(s, (at+1+sim.NodeID(g.rng.IntN(s.N-1)))%sim.NodeID(s.N))
	}
	if c.Arg != "" {
		e.Arg = g.dice.Between(c.ArgMin, c.ArgMax)
	}
	return e, true
}
