package engine

import (
	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/pyrand"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// timer is an armed timer of one node.
type timer struct {
	node sim.NodeID
	tag  string
	due  sim.Time
	seq  uint64
}

// world is the whole simulated state after some number of steps. Copying it
// (clone) gives a checkpoint to rewind to.
type world struct {
	step int
	now  sim.Time
	// tickUsed says the Random and Manual schedulers already took this tick's
	// scheduled choice.
	tickUsed bool
	seq      uint64
	nextMsg  int
	inited   int
	script   int
	// nextWork is when the Earliest scheduler's next workload event is due.
	nextWork sim.Time

	nodes   []sim.Node
	health  []faults.Health
	net     *network.Net
	timers  []timer
	lamport []clock.Lamport
	vector  []clock.Vector
	// flight totals the messages in flight by kind (the spec's order).
	flight []sim.Total

	sched, netRand, work pcgStream
	nodeRand             []pcgStream
	// py is CPython's generator, present only for the Python generator.
	py *pyrand.Random
}

func newWorld(cfg *Config) *world {
	n := len(cfg.Nodes)
	w := &world{
		nodes:    make([]sim.Node, n),
		health:   make([]faults.Health, n),
		net:      network.New(n),
		lamport:  make([]clock.Lamport, n),
		vector:   make([]clock.Vector, n),
		nodeRand: make([]pcgStream, n),
		flight:   make([]sim.Total, len(cfg.Spec.Kinds)),
		sched:    newStream(cfg.Seed, streamScheduler),
		netRand:  newStream(cfg.Seed, streamNetwork),
		work:     newStream(cfg.Seed, streamWorkload),
		tickUsed: true,
	}
	for i, nd := range cfg.Nodes {
		w.nodes[i] = nd.Clone()
		w.vector[i] = clock.NewVector(n)
		w.nodeRand[i] = newStream(cfg.Seed, streamNode+uint64(i))
	}
	if cfg.Generator == Python {
		w.py = pyrand.New(int64(cfg.Seed))
	}
	if wl := cfg.Workload; wl != nil && cfg.Scheduler == Earliest {
		w.nextWork = w.drawGap(wl)
	}
	return w
}

func (w *world) clone() *world {
	c := *w
	c.nodes = make([]sim.Node, len(w.nodes))
	for i, nd := range w.nodes {
		c.nodes[i] = nd.Clone()
	}
	c.health = append([]faults.Health(nil), w.health...)
	c.net = w.net.Clone()
	c.timers = append([]timer(nil), w.timers...)
	c.lamport = append([]clock.Lamport(nil), w.lamport...)
	c.vector = make([]clock.Vector, len(w.vector))
	for i, v := range w.vector {
		c.vector[i] = v.Clone()
	}
	c.nodeRand = append([]pcgStream(nil), w.nodeRand...)
	c.flight = append([]sim.Total(nil), w.flight...)
	if w.py != nil {
		c.py = w.py.Clone()
	}
	return &c
}

// schedRand is the scheduler's random stream.
func (w *world) schedRand(g Generator) sim.Rand {
	if g == Python {
		return pyStream{w.py}
	}
	return &w.sched
}

// nodeRandOf is node id's random stream.
func (w *world) nodeRandOf(g Generator, id sim.NodeID) sim.Rand {
	if g == Python {
		return pyStream{w.py}
	}
	return &w.nodeRand[id]
}

func (w *world) drawGap(wl *Workload) sim.Time {
	lo, hi := max(wl.Every[0], 1), max(wl.Every[1], wl.Every[0], 1)
	return w.now + lo + sim.Time(w.work.IntN(int(hi-lo+1)))
}

// running reports whether node id takes events now.
func (w *world) running(id sim.NodeID) bool { return w.health[id].Running() }

// upNodes lists the running nodes in id order.
func (w *world) upNodes(buf []sim.NodeID) []sim.NodeID {
	buf = buf[:0]
	for i := range w.nodes {
		if w.running(sim.NodeID(i)) {
			buf = append(buf, sim.NodeID(i))
		}
	}
	return buf
}

// view is the world at one step as the algorithms' checkers see it.
type view struct {
	w     *world
	names []string
	tr    *trace.Trace
	spec  *sim.Spec
}

func (v *view) N() int                      { return len(v.w.nodes) }
func (v *view) Name(id sim.NodeID) string   { return v.names[id] }
func (v *view) Node(id sim.NodeID) sim.Node { return v.w.nodes[id] }
func (v *view) Health(id sim.NodeID) string { return v.w.health[id].State.String() }
func (v *view) Now() sim.Time               { return v.w.now }
func (v *view) Steps() int                  { return v.w.step }
func (v *view) InFlight(from, to sim.NodeID) []int {
	return v.w.net.Channel(from, to)
}
func (v *view) NumSent() int { return v.w.nextMsg }

func (v *view) InFlightTotal(kind string) sim.Total {
	for i, k := range v.spec.Kinds {
		if k.Name == kind {
			return v.w.flight[i]
		}
	}
	return sim.Total{}
}

func (v *view) LastMarks() []sim.Mark {
	if v.w.step == 0 || v.w.step > len(v.tr.Records) {
		return nil
	}
	return v.tr.Records[v.w.step-1].Marks
}

func (v *view) MarkSteps(kind string, group int) []int {
	steps := make([]int, len(v.w.nodes))
	for i := range steps {
		steps[i] = -1
	}
	for s, r := range v.tr.Records[:min(v.w.step, len(v.tr.Records))] {
		for _, m := range r.Marks {
			if m.Kind == kind && m.Group == group && steps[r.Node] < 0 {
				steps[r.Node] = s
			}
		}
	}
	return steps
}
func (v *view) Envelope(id int) sim.Envelope {
	m := &v.tr.Msgs[id]
	e := sim.Envelope{ID: m.ID, From: m.From, To: m.To, Message: m.Message, SendStep: m.SendStep, RecvStep: -1, DropStep: -1}
	if m.ReceivedAt(v.w.step) {
		e.RecvStep = m.RecvStep
	}
	if m.DroppedAt(v.w.step) {
		e.DropStep = m.DropStep
	}
	return e
}
