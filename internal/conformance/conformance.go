// Package conformance is the suite every registered algorithm must pass,
// and the tools it is made of, for other tests to reuse: the same run twice
// gives the same trace; seeking to any step gives what a fresh replay to it
// gives; Clone is deep; hundreds of runs with random faults and commands
// never panic and keep the trace well formed; and (run natively and under
// js/wasm) each lesson's trace hashes the same. Its tests run it over
// algo/all, so a new algorithm gets it by being registered.
package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/golden"
)

// Subject is what the suite checks: an algorithm, the runs to check
// exactly (its lessons), and a maker of random runs.
type Subject struct {
	Spec    *sim.Spec
	Lessons []Lesson
	// Random makes the run of a random scenario for seed: random size,
	// scheduler, network, workload, faults and commands.
	Random func(seed uint64) (engine.Config, string, error)
}

// Lesson is one run to check exactly.
type Lesson struct {
	Name   string
	Config func() (engine.Config, error)
	// Scenario is the lesson's scenario, nil for a fixture's run.
	Scenario func() (*scenario.Scenario, error)
}

// Registered is the subject of a registered algorithm: its built-in
// lessons, and random variations of the first.
func Registered(spec *sim.Spec) (Subject, error) {
	return lessonsOf(spec, spec.ID, "", func(s *scenario.Scenario) *scenario.Scenario { return s })
}

// maxProgramSteps bounds the lessons a program is checked on: a lesson
// longer (snapshot-long's 100,000 steps) repeats what the shorter ones
// hold, at an interpreter's pace, and its port's twin test compares its
// first steps.
const maxProgramSteps = 20_000

// Program is the subject of a learner's program that ports a built-in
// algorithm (core/algo/python/ports): the algorithm's lessons run by the
// program (named python-LESSON), and random variations of the first.
// python is the interpreter's algorithm id, which the caller links.
func Program(algorithm, python, code string) (Subject, error) {
	as := func(s *scenario.Scenario) *scenario.Scenario {
		if s.Until.Steps > maxProgramSteps {
			return nil
		}
		return s.WithProgram(python, code)
	}
	for _, id := range scenario.BuiltinIDs() {
		if s, err := scenario.Builtin(id); err == nil && s.Algorithm == algorithm && as(s) != nil {
			p, err := as(s).Compile()
			if err != nil {
				return Subject{}, err
			}
			return lessonsOf(p.Spec(), algorithm, python+"-", as)
		}
	}
	return Subject{}, fmt.Errorf("%s has no built-in lesson", algorithm)
}

// lessonsOf is the subject of spec over the built-in lessons of
// algorithm, each made the subject's run by as (nil: not the subject's)
// and named prefix+id.
func lessonsOf(spec *sim.Spec, algorithm, prefix string, as func(*scenario.Scenario) *scenario.Scenario) (Subject, error) {
	sub := Subject{Spec: spec}
	var base *scenario.Scenario
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		if err != nil || s.Algorithm != algorithm || as(s) == nil {
			continue
		}
		if base == nil {
			base = as(s)
		}
		lessonScenario := func() (*scenario.Scenario, error) {
			s, err := scenario.Builtin(id)
			if err != nil {
				return nil, err
			}
			return as(s), nil
		}
		sub.Lessons = append(sub.Lessons, Lesson{Name: prefix + id, Scenario: lessonScenario, Config: func() (engine.Config, error) {
			s, err := lessonScenario()
			if err != nil {
				return engine.Config{}, err
			}
			return configOf(s)
		}})
	}
	if base == nil {
		return sub, fmt.Errorf("%s has no built-in lesson: add one to core/scenario/builtin (the suite, and the page, need it)", spec.ID)
	}
	sub.Random = func(seed uint64) (engine.Config, string, error) {
		rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
		s := base.Clone()
		if n := spec.MinN + rng.IntN(min(spec.MaxN, 8)-spec.MinN+1); n != s.N {
			if resized, err := s.WithN(n); err == nil {
				s = resized
			}
		}
		cfg, err := configOf(s)
		if err != nil {
			return cfg, "", err
		}
		return Randomize(cfg, seed), fmt.Sprintf("%s with seed %d", base.ID, seed), nil
	}
	return sub, nil
}

// configOf compiles a scenario into the engine's configuration of a run.
func configOf(s *scenario.Scenario) (engine.Config, error) {
	p, err := s.Compile()
	if err != nil {
		return engine.Config{}, err
	}
	return p.Config(), nil
}

// Randomize varies a run's configuration from seed: scheduler, network,
// workload, stop condition and a script of random faults (every fault of
// the registry) and commands (every command of the algorithm).
func Randomize(cfg engine.Config, seed uint64) engine.Config {
	rng := rand.New(rand.NewPCG(seed, 0xfa17))
	dice := faults.NewDice(rng)
	n := len(cfg.Nodes)
	cfg.Seed = seed
	cfg.Scheduler = engine.Schedulers[rng.IntN(len(engine.Schedulers))]
	cfg.Generator = engine.PCG
	lo := sim.Time(rng.IntN(3))
	cfg.Net = network.Config{FIFO: rng.IntN(3) > 0, DelayMin: lo, DelayMax: lo + sim.Time(rng.IntN(8)), Loss: []float64{0, 0, 0.02, 0.1}[rng.IntN(4)]}
	cfg.Workload = &engine.Workload{P: 0.2 + 0.5*rng.Float64(), Every: [2]sim.Time{1, sim.Time(1 + rng.IntN(5))}, Until: sim.Time(100 + rng.IntN(300))}
	cfg.Until = engine.Until{Steps: 200 + rng.IntN(400), Time: 2000}
	cfg.Down = nil
	if rng.IntN(5) == 0 {
		cfg.Down = []sim.NodeID{sim.NodeID(rng.IntN(n))}
	}
	cfg.Script = nil
	horizon := 300
	node := func() sim.NodeID { return sim.NodeID(rng.IntN(n)) }
	other := func(id sim.NodeID) sim.NodeID { return (id + 1 + sim.NodeID(rng.IntN(n-1))) % sim.NodeID(n) }
	for range rng.IntN(12) {
		f := faults.Registry[rng.IntN(len(faults.Registry))]
		a := faults.NoArgs()
		for _, p := range f.Params {
			if p.Optional && rng.IntN(2) == 0 {
				continue
			}
			switch p.Kind {
			case faults.ParamNode:
				a.Node = node()
			case faults.ParamTarget:
				if a.Node < 0 {
					a.Node = node()
				}
				a.Target = other(a.Node)
			default:
				a = p.Set(a, p.Kind.Draw(dice, n))
			}
		}
		if f.Validate(a, n, f.Given(a)) != nil {
			continue // the registry refuses it before the run (a heal of one end)
		}
		cfg.Script = append(cfg.Script, engine.Timed{At: sim.Time(rng.IntN(horizon)), Action: engine.Fault(f.Name, a)})
	}
	for range rng.IntN(8) {
		if len(cfg.Spec.Learner.Commands) == 0 {
			break
		}
		c := cfg.Spec.Learner.Commands[rng.IntN(len(cfg.Spec.Learner.Commands))]
		at := node()
		target := sim.NodeID(sim.None)
		if c.Target {
			target = other(at)
		}
		arg := int64(0)
		if c.Arg != "" {
			arg = int64(1 + rng.IntN(50))
		}
		cfg.Script = append(cfg.Script, engine.Timed{At: sim.Time(rng.IntN(horizon)), Action: engine.Command(c.Name, at, target, arg)})
	}
	return cfg
}

// Fingerprint prints everything observable about a state: time, health,
// node internals, clocks, timers, the network and the algorithm's metrics.
func Fingerprint(r *engine.Run, st engine.State) string {
	var b strings.Builder
	v := st.View()
	n := v.N()
	fmt.Fprintf(&b, "step %d now %d view-steps %d sent %d fifo %v\n", st.Step(), st.Now(), v.Steps(), v.NumSent(), st.FIFO())
	for i := range n {
		id := sim.NodeID(i)
		fmt.Fprintf(&b, "%s %v/%s started %v %v lamport %d vector %v skew %d timers %v local %d\n",
			v.Name(id), st.Health(id), v.Health(id), st.Started(id), st.Fields(id), st.Lamport(id), st.Vector(id), st.Skew(id), st.Timers(id), v.LocalTime(id))
		for j := range n {
			if i == j {
				continue
			}
			if !st.LinkUp(id, sim.NodeID(j)) {
				fmt.Fprintf(&b, "cut %d->%d\n", i, j)
			}
			if ids := v.InFlight(id, sim.NodeID(j)); len(ids) > 0 {
				fmt.Fprintf(&b, "chan %d->%d %v\n", i, j, ids)
				for _, m := range ids {
					fmt.Fprintf(&b, "  due #%d %d\n", m, st.Due(m))
				}
			}
		}
	}
	fmt.Fprintf(&b, "deliverable %v\n", st.Deliverable())
	for id := range v.NumSent() {
		fmt.Fprintf(&b, "msg %+v\n", v.Envelope(id))
	}
	if r.Config().Spec.Figures.Metrics != nil {
		for _, m := range r.Config().Spec.Figures.Metrics(v) {
			fmt.Fprintf(&b, "metric %s %v\n", m.Name, m.Value)
		}
	}
	return b.String()
}

// TraceJSON is a run's whole trace as JSON.
func TraceJSON(t testing.TB, r *engine.Run) string {
	t.Helper()
	data, err := r.Trace().JSON(r.Len())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Hash is the SHA-256 of a run's trace as JSON.
func Hash(t testing.TB, r *engine.Run) string {
	sum := sha256.Sum256([]byte(TraceJSON(t, r)))
	return hex.EncodeToString(sum[:])
}

// start runs a configuration.
func start(t testing.TB, cfg engine.Config) *engine.Run {
	t.Helper()
	r, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// CheckDeterminism runs a lesson twice: the traces and failures are equal.
func CheckDeterminism(t *testing.T, l Lesson) {
	t.Helper()
	cfg1, err := l.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg2, _ := l.Config()
	a, b := start(t, cfg1), start(t, cfg2)
	if TraceJSON(t, a) != TraceJSON(t, b) {
		t.Fatalf("%s: the same scenario gave two different traces", l.Name)
	}
	if fmt.Sprint(a.Failures()) != fmt.Sprint(b.Failures()) {
		t.Fatalf("%s: the same scenario failed differently", l.Name)
	}
}

// CheckSeek seeks a run to random steps, forwards and back, and compares
// each state with a run that replays from the start (no keyframes) and
// with a fresh run stopped at that step.
func CheckSeek(t *testing.T, l Lesson, seed uint64, seeks int) {
	t.Helper()
	cfg, err := l.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.KeyframeEvery = 16
	r := start(t, cfg)
	plain, _ := l.Config()
	plain.KeyframeEvery = 1 << 30
	ref := start(t, plain)
	rng := rand.New(rand.NewPCG(seed, 7))
	for range seeks {
		k := rng.IntN(r.Len() + 1)
		got, want := Fingerprint(r, r.At(k)), Fingerprint(ref, ref.At(k))
		if got != want {
			t.Fatalf("%s: At(%d) differs from a replay from the start:\n%s", l.Name, k, golden.FirstDiff(want, got))
		}
		if k > 0 && rng.IntN(4) == 0 {
			fresh, _ := l.Config()
			fresh.Until = engine.Until{Steps: k}
			f := start(t, fresh)
			if f.Len() == k {
				if fp := Fingerprint(f, f.At(k)); fp != got {
					t.Fatalf("%s: At(%d) differs from a fresh run of %d steps:\n%s", l.Name, k, k, golden.FirstDiff(fp, got))
				}
			}
		}
	}
}

// CheckClones clones every process at some steps, steps the clones with
// every kind of event, and checks that the originals did not change.
func CheckClones(t *testing.T, l Lesson, seed uint64) {
	t.Helper()
	cfg, err := l.Config()
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg)
	rng := rand.New(rand.NewPCG(seed, 9))
	names := r.Config().Names
	var env sim.Env
	for range 6 {
		k := rng.IntN(r.Len() + 1)
		st := r.At(k)
		v := st.View()
		var events []sim.Event
		for id := range v.NumSent() {
			e := v.Envelope(id)
			msg := e.Message
			msg.Data = append([]int64(nil), msg.Data...) // as the engine hands it over: a copy
			events = append(events, sim.Event{Kind: sim.Deliver, From: e.From, Msg: msg, MsgID: e.ID})
			if len(events) > 4 {
				break
			}
		}
		events = append(events, sim.Event{Kind: sim.Workload}, sim.Event{Kind: sim.Recover}, sim.Event{Kind: sim.Timer, Tag: "pass"}, sim.Event{Kind: sim.Timer, Tag: "beat"})
		for _, c := range r.Config().Spec.Learner.Commands {
			events = append(events, sim.Event{Kind: sim.Command, Tag: c.Name, Target: 0, Arg: 5})
		}
		for i := range v.N() {
			id := sim.NodeID(i)
			before := fmt.Sprint(v.Node(id).Inspect())
			fp := sim.Fingerprint(v.Node(id))
			clone := v.Node(id).Clone()
			if fmt.Sprint(clone.Inspect()) != before {
				t.Fatalf("%s: a clone of %s at step %d does not look like it", l.Name, names[id], k)
			}
			if sim.Fingerprint(clone) != fp {
				t.Fatalf("%s: a clone of %s at step %d has another fingerprint: a search would not know it has been there", l.Name, names[id], k)
			}
			for _, ev := range events {
				if ev.Kind == sim.Deliver && ev.From == id {
					continue
				}
				if ev.Kind == sim.Command && ev.Target == id {
					ev.Target = (id + 1) % sim.NodeID(v.N())
				}
				env.Reset(sim.Context{Self: id, Now: st.Now(), Local: st.Now(), Names: names, Rand: rand.New(rand.NewPCG(1, 2)), Vector: make([]int32, v.N())})
				func() {
					defer func() { _ = recover() }() // an event it would never get may upset it; the original is what matters
					clone.Step(&env, ev)
				}()
				if fmt.Sprint(clone.Inspect()) != before && sim.Fingerprint(clone) == fp {
					t.Fatalf("%s: %s at step %d changed with %s but kept its fingerprint: a search would take it for where it was", l.Name, names[id], k, ev.Kind)
				}
			}
			if sim.Fingerprint(v.Node(id)) != fp {
				t.Fatalf("%s: stepping a clone of %s at step %d changed the original's fingerprint", l.Name, names[id], k)
			}
			if after := fmt.Sprint(v.Node(id).Inspect()); after != before {
				t.Fatalf("%s: stepping a clone of %s at step %d changed the original:\nbefore %s\nafter  %s", l.Name, names[id], k, before, after)
			}
		}
	}
}

// RandomRuns runs random scenarios of the subject and checks that none
// panics and each trace is well formed; it returns how many runs and steps
// it made.
func RandomRuns(t *testing.T, sub Subject, runs int) (int, int) {
	t.Helper()
	steps := 0
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		cfg, what, err := sub.Random(seed)
		if err != nil {
			t.Fatalf("%s: seed %d: %v", sub.Spec.ID, seed, err)
		}
		var r *engine.Run
		func() {
			defer func() {
				if p := recover(); p != nil {
					buf := make([]byte, 8<<10)
					buf = buf[:runtime.Stack(buf, false)]
					t.Fatalf("%s: %s panicked: %v\n%s", sub.Spec.ID, what, p, buf)
				}
			}()
			r = start(t, cfg)
			if r.Len() > 0 {
				r.At(int(seed) % r.Len()) // and seeking back into it
			}
		}()
		if err := WellFormed(r); err != nil {
			t.Fatalf("%s: %s: %v", sub.Spec.ID, what, err)
		}
		steps += r.Len()
	}
	return runs, steps
}

// WellFormed checks what every run's trace must satisfy whatever the
// algorithm: steps numbered in order, time never going back, messages
// received after they were sent and by their addressee, every annotation
// of a declared role, every message of a declared kind, every step of a
// process captioned, and every overlay of a declared overlay role and
// anchored to processes of the run.
func WellFormed(r *engine.Run) error {
	tr := r.Trace()
	spec := r.Config().Spec
	for _, k := range []int{r.Len() / 2, r.Len()} {
		if err := overlaysFit(spec, r.At(k).View()); err != nil {
			return fmt.Errorf("step %d: %w", k, err)
		}
	}
	var last sim.Time
	for i := range tr.Records {
		rec := &tr.Records[i]
		if rec.Step != i {
			return fmt.Errorf("record %d says it is step %d", i, rec.Step)
		}
		if rec.Time < last {
			return fmt.Errorf("step %d goes back in time (%d after %d)", i, rec.Time, last)
		}
		last = rec.Time
		if rec.Caption == "" {
			return fmt.Errorf("step %d (%s) has no caption", i+1, rec.What())
		}
		for _, a := range rec.Annotations() {
			rs, ok := spec.Role(a.Role)
			if !ok {
				return fmt.Errorf("step %d annotates with the role %q, which %s's Spec.Roles does not declare", i+1, a.Role, spec.ID)
			}
			if rs.Style.Overlays() {
				return fmt.Errorf("step %d annotates with the role %q, whose style %s is an overlay's", i+1, a.Role, rs.Style)
			}
		}
		if rec.Kind == trace.Deliver && (rec.Msg < 0 || tr.Msgs[rec.Msg].To != rec.Node || tr.Msgs[rec.Msg].RecvStep != i) {
			return fmt.Errorf("step %d delivers message %d wrongly", i+1, rec.Msg)
		}
	}
	for _, m := range tr.Msgs {
		if _, ok := spec.Kind(m.Kind); !ok {
			return fmt.Errorf("message %d is of the kind %q, which %s's Spec.Kinds does not declare", m.ID, m.Kind, spec.ID)
		}
		if m.RecvStep >= 0 && m.RecvStep <= m.SendStep {
			return fmt.Errorf("message %d is received (step %d) no later than it is sent (step %d)", m.ID, m.RecvStep, m.SendStep)
		}
		if m.RecvStep >= 0 && m.DropStep >= 0 {
			return fmt.Errorf("message %d is both received and lost", m.ID)
		}
	}
	return nil
}

// CheckSpec checks what a Spec must say for the engine, the page and the
// link format to work with it.
func CheckSpec(spec *sim.Spec) error {
	if spec.ID == "" || spec.Title == "" || spec.Summary == "" {
		return fmt.Errorf("a Spec needs an ID, a Title and a Summary")
	}
	if !validName(spec.ID) {
		return fmt.Errorf("the id %q is not lower-case words joined by hyphens", spec.ID)
	}
	if spec.MinN < 1 || spec.MaxN < spec.MinN {
		return fmt.Errorf("MinN %d and MaxN %d do not make a range of sizes", spec.MinN, spec.MaxN)
	}
	if spec.New == nil {
		return fmt.Errorf("a Spec needs New")
	}
	if spec.DefaultNames != nil {
		for _, n := range []int{spec.MinN, min(spec.MaxN, 8)} {
			if got := len(spec.DefaultNames(n)); got != n {
				return fmt.Errorf("DefaultNames(%d) names %d processes", n, got)
			}
		}
	}
	kinds := map[string]bool{}
	for _, k := range spec.Kinds {
		if k.Name == "" || kinds[k.Name] {
			return fmt.Errorf("the message kind %q is empty or declared twice", k.Name)
		}
		kinds[k.Name] = true
		switch k.Role {
		case sim.RoleMessage, sim.RoleMarker, sim.RoleToken, sim.RoleControl:
		default:
			return fmt.Errorf("the message kind %s has no known role (%q)", k.Name, k.Role)
		}
		if k.Tone != "" && !knownTone(k.Tone) {
			return fmt.Errorf("the message kind %s has the unknown tone %q", k.Name, k.Tone)
		}
	}
	if a, b, ok := lookAlike(spec.Kinds); ok {
		return fmt.Errorf("the message kinds %s and %s differ only by colour: give one a Glyph of its own (a reader who cannot tell the colours apart sees one kind)", a, b)
	}
	commands := map[string]bool{}
	for _, c := range spec.Learner.Commands {
		if !validName(c.Name) || commands[c.Name] {
			return fmt.Errorf("the command %q is declared twice or is not lower-case words joined by hyphens (links write it)", c.Name)
		}
		commands[c.Name] = true
		if c.Help == "" {
			return fmt.Errorf("the command %s has no Help for the page", c.Name)
		}
		if c.Takes != nil && c.Who == "" {
			return fmt.Errorf("the command %s is taken by some processes only, but Who does not say which", c.Name)
		}
		if c.Arg == "" && (c.ArgMin != 0 || c.ArgMax != 0) {
			return fmt.Errorf("the command %s bounds an argument it does not name (Arg is empty)", c.Name)
		}
		if c.Arg != "" && c.ArgMin > c.ArgMax {
			return fmt.Errorf("the command %s's %s is bounded from %d to %d: no number fits", c.Name, c.Arg, c.ArgMin, c.ArgMax)
		}
	}
	roles := map[string]sim.RoleSpec{}
	for _, r := range spec.Picture.Roles {
		if r.Name == "" || roles[r.Name].Name != "" {
			return fmt.Errorf("the annotation role %q is empty or declared twice", r.Name)
		}
		roles[r.Name] = r
	}
	for _, r := range spec.Picture.Roles {
		if r.Style == sim.StyleHidden || r.Style == sim.StyleState {
			continue // not drawn, or words that say what they are
		}
		if !r.Style.Known() {
			return fmt.Errorf("the role %s has an unknown style", r.Name)
		}
		if !knownTone(r.Tone) {
			return fmt.Errorf("the role %s has the unknown tone %q", r.Name, r.Tone)
		}
		if r.Legend == "" {
			return fmt.Errorf("the role %s is drawn but has no Legend", r.Name)
		}
		if r.Of != "" && roles[r.Of].Style != sim.StyleCut {
			return fmt.Errorf("the role %s belongs Of %q, which is not a cut role", r.Name, r.Of)
		}
	}
	invariants := map[string]bool{}
	for _, inv := range spec.Checks.Invariants {
		if inv.Name == "" || invariants[inv.Name] || inv.Check == nil {
			return fmt.Errorf("the invariant %q is empty, declared twice or has no Check", inv.Name)
		}
		invariants[inv.Name] = true
	}
	for _, l := range spec.Checks.KnownLimits {
		if !invariants[l.Invariant] {
			return fmt.Errorf("a known limit names %q, which is not an invariant of %s", l.Invariant, spec.ID)
		}
		if (len(l.Faults) == 0 && !l.Always) || l.Why == "" {
			return fmt.Errorf("the known limit of %q needs the faults that excuse it and a Why", l.Invariant)
		}
		for _, f := range l.Faults {
			if _, ok := faults.Lookup(f); !ok {
				if _, ok := spec.Command(f); ok {
					continue
				}
				return fmt.Errorf("the known limit of %q names the fault %q, which neither the registry (%s) nor the algorithm's commands have", l.Invariant, f, strings.Join(faults.Names(), ", "))
			}
		}
	}
	return nil
}

// lookAlike finds two message kinds drawn alike but for their colour: the
// same glyph, stroke (dashed or not) and weight (a token's thick line or
// a thin one; 1.2 and 1.6 pixels are not told apart).
func lookAlike(kinds []sim.KindSpec) (a, b string, ok bool) {
	type look struct {
		glyph        sim.Glyph
		dashed, bold bool
	}
	seen := map[look]string{}
	for _, k := range kinds {
		_, width, flags := diagram.KindStyle(k)
		l := look{k.Glyph, flags&diagram.FlagDashed != 0, width >= 2.5}
		if other, dup := seen[l]; dup {
			return other, k.Name, true
		}
		seen[l] = k.Name
	}
	return "", "", false
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func knownTone(t sim.Tone) bool {
	for _, x := range sim.Tones {
		if x == t {
			return true
		}
	}
	return false
}

// RelayConfig is a run of the fixture algorithm on n processes.
func RelayConfig(n int, seed uint64) engine.Config {
	names := sim.NumberNames(n)
	nodes, _ := Relay.New(names, nil)
	return engine.Config{Spec: Relay, Names: names, Nodes: nodes, Seed: seed, Scheduler: engine.Earliest, Generator: engine.PCG,
		Net: network.Config{FIFO: true, DelayMin: 1, DelayMax: 3}, Until: engine.Until{Time: 200}}
}

// RelaySubject is the fixture algorithm as the suite checks it: a plain
// ring, one with every kind of fault scripted, one that pauses the token's
// first holder past both its timers, and random variations.
func RelaySubject() Subject {
	plain := func() (engine.Config, error) { return RelayConfig(4, 3), nil }
	faulty := func() (engine.Config, error) {
		cfg := RelayConfig(5, 8)
		cfg.Down = []sim.NodeID{4}
		cfg.Workload = &engine.Workload{Every: [2]sim.Time{2, 6}, Until: 150}
		at := func(t sim.Time, a engine.Action) engine.Timed { return engine.Timed{At: t, Action: a} }
		cfg.Script = []engine.Timed{
			at(5, engine.Command("poke", 0, sim.None, 0)),
			at(6, engine.Command("ping", 1, 3, 0)),
			at(9, engine.Fault("skew", faults.AtProcess(2).With("by", faults.ParamOffset.Num(9)))),
			at(12, engine.Fault("pause", faults.AtProcess(1).With("for", faults.ParamTicks.Num(20)))),
			at(15, engine.Fault("cut", faults.Args{Node: 2, Target: 3, Msg: sim.None})),
			at(22, engine.Fault("duplicate", faults.OfMessage(6))),
			at(23, engine.Fault("delay", faults.OfMessage(7).With("for", faults.ParamTicks.Num(30)))),
			at(24, engine.Fault("drop", faults.OfMessage(8))),
			at(30, engine.Fault("fifo", faults.NoArgs().With("on", faults.ParamFlag.Bool(false)))),
			at(40, engine.Fault("partition", faults.NoArgs().With("groups", faults.ParamGroups.Of([][]sim.NodeID{{0, 1}, {2, 3, 4}})))),
			at(50, engine.Fault("crash", faults.AtProcess(0))),
			at(60, engine.Fault("heal", faults.NoArgs())),
			at(70, engine.Fault("recover", faults.AtProcess(0))),
			at(75, engine.Fault("recover", faults.AtProcess(4))),
			at(80, engine.Fault("fifo", faults.NoArgs().With("on", faults.ParamFlag.Bool(true)))),
		}
		return cfg, nil
	}
	paused := func() (engine.Config, error) {
		cfg := RelayConfig(3, 1)
		a := faults.AtProcess(0).With("for", faults.ParamTicks.Num(55))
		cfg.Script = []engine.Timed{{At: 2, Action: engine.Fault("pause", a)}}
		return cfg, nil
	}
	return Subject{
		Spec:    Relay,
		Lessons: []Lesson{{Name: "relay-ring", Config: plain}, {Name: "relay-faults", Config: faulty}, {Name: "relay-paused", Config: paused}},
		Random: func(seed uint64) (engine.Config, string, error) {
			n := 2 + int(seed%7)
			return Randomize(RelayConfig(n, seed), seed), fmt.Sprintf("relay on %d processes, seed %d", n, seed), nil
		},
	}
}

// stress are params that make an algorithm's run long and heavy where its
// lesson's would end early or stay light: computations a thousand wide and
// deep, a checkpoint every tick.
var stress = map[string]string{
	"dijkstra-scholten":    `{"fanout": 1000, "depth": 1000, "work": 1}`,
	"credit-recovery":      `{"fanout": 1000, "depth": 1000, "work": 1}`,
	"idle-poll":            `{"fanout": 1000, "depth": 1000, "work": 1}`,
	"snapshot-termination": `{"fanout": 1000, "depth": 1000, "work": 1}`,
	"checkpoint":           `{"interval": 1}`,
}

// Long is a long run of the subject with n processes (clamped to its
// sizes): its first lesson (with its stress params), the Earliest
// scheduler, a workload that never stops, and the last process crashed at
// tick 5 for good, so that messages to it pile up; it stops after steps
// steps, and takes a keyframe every 8.
func Long(sub Subject, n, steps int) (engine.Config, string, error) {
	lesson := sub.Lessons[0]
	if lesson.Scenario == nil {
		return engine.Config{}, "", fmt.Errorf("%s: a fixture's run has no scenario to make long", lesson.Name)
	}
	s, err := lesson.Scenario()
	if err != nil {
		return engine.Config{}, "", err
	}
	if p, ok := stress[sub.Spec.ID]; ok {
		s = s.Clone()
		s.Params = json.RawMessage(p)
	}
	n = min(max(n, sub.Spec.MinN, 2), sub.Spec.MaxN, scenario.MaxN)
	if resized, err := s.WithN(n); err == nil {
		s = resized
	}
	cfg, err := configOf(s)
	if err != nil {
		return cfg, "", err
	}
	cfg.Scheduler = engine.Earliest
	cfg.Workload = &engine.Workload{P: 0.5, Every: [2]sim.Time{1, 3}}
	cfg.Until = engine.Until{Steps: steps}
	// a keyframe every few steps, so that what one copies weighs in a
	// step's cost as it would over a run a hundred times longer
	cfg.KeyframeEvery = 8
	cfg.Script = []engine.Timed{{At: 5, Action: engine.Fault("crash", faults.AtProcess(sim.NodeID(len(cfg.Nodes)-1)))}}
	return cfg, fmt.Sprintf("%s at %d processes, %d steps, the last process down from tick 5", lesson.Name, len(cfg.Nodes), steps), nil
}

// CostGrowth runs the subject's Long run of n processes for steps and for
// four times as many, and compares what a step costs in each: the bytes it allocates
// (which count what keyframes copy and invariants compute) and its time
// (the process's CPU time, not the wall clock, which other programs on a
// shared machine stretch; the least of a few runs). A step that costs more late in a run than
// early (a keyframe that copies everything in flight, an invariant that
// visits the whole trace) makes a long run quadratic: it returns the two
// ratios, late over early, which stay near 1 when a step's cost is flat.
func CostGrowth(t testing.TB, sub Subject, n, steps int) (allocRatio, timeRatio float64, what string) {
	t.Helper()
	measure := func(steps int) (bytes, seconds float64) {
		seconds = math.Inf(1)
		for range 3 {
			cfg, desc, err := Long(sub, n, steps)
			if err != nil {
				t.Fatal(err)
			}
			what = desc
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			began := cpuTime()
			r := start(t, cfg)
			el := (cpuTime() - began).Seconds()
			runtime.ReadMemStats(&m1)
			if r.Len() != steps {
				t.Fatalf("%s: the run ended at step %d (%s)", desc, r.Len(), r.Stopped())
			}
			bytes = float64(m1.TotalAlloc - m0.TotalAlloc)
			seconds = min(seconds, el)
		}
		return bytes / float64(steps), seconds / float64(steps)
	}
	earlyBytes, earlyTime := measure(steps)
	lateBytes, lateTime := measure(4 * steps)
	return lateBytes / earlyBytes, lateTime / earlyTime, what
}

// overlaysFit checks the algorithm's overlays at v: each of a role it
// declares with an overlay's style, and anchored to processes of the run.
func overlaysFit(spec *sim.Spec, v sim.View) error {
	if spec.Picture.Overlays == nil {
		return nil
	}
	in := func(id sim.NodeID) bool { return id >= 0 && int(id) < v.N() }
	for _, o := range spec.Picture.Overlays(v) {
		rs, ok := spec.Role(o.Role)
		switch {
		case !ok:
			return fmt.Errorf("an overlay of the role %q, which %s's Spec.Roles does not declare", o.Role, spec.ID)
		case !rs.Style.Overlays():
			return fmt.Errorf("an overlay of the role %q, whose style %s is an annotation's", o.Role, rs.Style)
		case rs.Style == sim.StyleLine:
			for _, p := range append(slices.Clone(o.Points), o.Undone...) {
				if !in(p.Node) {
					return fmt.Errorf("the line %q has a point at process %d, of %d", o.Text, p.Node.Number(), v.N())
				}
			}
		case !in(o.Node) || (rs.Style != sim.StyleState && rs.Style != sim.StyleCells && (!in(o.Peer) || o.Peer == o.Node)):
			return fmt.Errorf("an overlay of the role %q at processes %d and %d, of %d", o.Role, o.Node.Number(), o.Peer.Number(), v.N())
		}
	}
	return nil
}
