package engine

import (
	"maps"
	"slices"
	"sort"

	"spacetime/core/clock"
	"spacetime/core/faults"
	"spacetime/core/network"
	"spacetime/core/pyrand"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// timer is an armed timer of one node.
type timer struct {
	tag string
	due sim.Time
	seq uint64
}

// world is the whole simulated state after some number of steps. Copying it
// (clone) gives a keyframe to rewind to: everything a step or a fault
// changes lives here, never in the shared trace.
type world struct {
	step int
	now  sim.Time
	// tickUsed says the Random and Manual schedulers already took this tick's
	// scheduled choice.
	tickUsed bool
	seq      uint64
	nextMsg  int
	// inited counts the processes the start-up has passed (those down from
	// the start are passed without an Init step).
	inited int
	script int
	// nextWork is when the Earliest scheduler's next workload event is due.
	nextWork sim.Time

	nodes []sim.Node
	// owned says a node is this world's own: a copy shares the nodes of
	// the world it was copied from, and each is copied only before it next
	// takes a step, so that a keyframe costs the processes that changed.
	owned []bool
	// started says a process has taken its Init step.
	started []bool
	health  []faults.Health
	net     *network.Net
	// timers holds each process's armed timers.
	timers  [][]timer
	queue   queue
	lamport []clock.Lamport
	vector  []clock.Vector
	// flight totals the messages in flight by kind (the spec's order).
	flight []sim.Total
	fifo   bool
	// cut marks cut links, index from*n+to; nil while none is cut.
	cut []bool
	// clocks are the processes' wall clocks; nil while every one reads
	// the simulated time.
	clocks []sim.WallClock
	// delayed holds the arrival times a delay fault pushed back, by message.
	delayed map[int]sim.Time
	// intervals are the annotated intervals open on each process (their
	// Begin annotations), so that a crash can end them.
	intervals [][]sim.Annotation
	// stepped is the process that took the last step's event, and the
	// event (None when no process took one): what the checks read to
	// hold a process to what it was told. Messages' data stay the
	// trace's: nothing changes them.
	stepped   sim.NodeID
	steppedEv sim.Event
	// tally is the algorithm's tally of the run so far, or nil, and ledger
	// the same tally when it is a ledger (asked once, not every step).
	tally  sim.Tally
	ledger sim.Ledger

	sched, netRand, work pcgStream
	nodeRand             []pcgStream
	// py is CPython's generator, present only for the Python generator.
	py *pyrand.Random
}

func newWorld(cfg *Config) *world {
	n := len(cfg.Nodes)
	w := &world{
		nodes:     make([]sim.Node, n),
		owned:     make([]bool, n),
		started:   make([]bool, n),
		health:    make([]faults.Health, n),
		net:       network.New(n),
		timers:    make([][]timer, n),
		intervals: make([][]sim.Annotation, n),
		lamport:   make([]clock.Lamport, n),
		vector:    make([]clock.Vector, n),
		nodeRand:  make([]pcgStream, n),
		flight:    make([]sim.Total, len(cfg.Spec.Kinds)),
		fifo:      cfg.Net.FIFO,
		sched:     newStream(cfg.Seed, streamScheduler),
		netRand:   newStream(cfg.Seed, streamNetwork),
		work:      newStream(cfg.Seed, streamWorkload),
		tickUsed:  true,
		stepped:   sim.None,
	}
	for i, nd := range cfg.Nodes {
		w.nodes[i] = nd.Clone()
		w.owned[i] = true
		w.vector[i] = clock.NewVector(n)
		w.nodeRand[i] = newStream(cfg.Seed, streamNode+uint64(i))
	}
	for _, id := range cfg.Down {
		w.health[id] = faults.Health{State: sim.Crashed}
	}
	if cfg.Generator == Python {
		w.py = pyrand.New(int64(cfg.Seed))
	}
	if cfg.Spec.Figures.NewTally != nil {
		w.tally = cfg.Spec.Figures.NewTally(n)
		w.ledger, _ = w.tally.(sim.Ledger)
	}
	if wl := cfg.Workload; wl != nil && cfg.Scheduler == Earliest {
		w.nextWork = w.drawGap(wl)
	}
	return w
}

// clone copies the world, for a keyframe or a seek. The copy shares
// what it can with w: the nodes (each side copies one before stepping it)
// and the messages in flight (see network.Net).
func (w *world) clone() *world {
	c := *w
	c.nodes = append([]sim.Node(nil), w.nodes...)
	c.owned = make([]bool, len(w.nodes))
	clear(w.owned)
	c.started = append([]bool(nil), w.started...)
	c.health = append([]faults.Health(nil), w.health...)
	c.net = w.net.Clone()
	c.timers = make([][]timer, len(w.timers))
	for i, ts := range w.timers {
		if len(ts) > 0 {
			c.timers[i] = append([]timer(nil), ts...)
		}
	}
	c.queue = append(queue(nil), w.queue...)
	if w.tally != nil {
		c.tally = w.tally.Clone()
		c.ledger, _ = c.tally.(sim.Ledger)
	}
	c.intervals = make([][]sim.Annotation, len(w.intervals))
	for i, open := range w.intervals {
		if len(open) > 0 {
			c.intervals[i] = append([]sim.Annotation(nil), open...)
		}
	}
	c.lamport = append([]clock.Lamport(nil), w.lamport...)
	c.vector = make([]clock.Vector, len(w.vector))
	for i, v := range w.vector {
		c.vector[i] = v.Clone()
	}
	c.nodeRand = append([]pcgStream(nil), w.nodeRand...)
	c.flight = append([]sim.Total(nil), w.flight...)
	if w.cut != nil {
		c.cut = append([]bool(nil), w.cut...)
	}
	if w.clocks != nil {
		c.clocks = append([]sim.WallClock(nil), w.clocks...)
	}
	if w.delayed != nil {
		c.delayed = maps.Clone(w.delayed)
	}
	if w.py != nil {
		c.py = w.py.Clone()
	}
	return &c
}

// cloneCost is about how many words clone copies, not counting the nodes
// (copied later, as they step: nodeCost each).
func (w *world) cloneCost() int {
	n := len(w.nodes)
	cost := 16*n + n*n/2 + w.net.CloneCost() + 4*len(w.queue) + 3*len(w.delayed) + len(w.cut)/8
	for i := range n {
		cost += 3*len(w.timers[i]) + 9*len(w.intervals[i])
	}
	if w.tally != nil {
		cost += 64
	}
	if w.py != nil {
		cost += 320 // CPython's generator: 624 words of 32 bits
	}
	return cost
}

// nodeCost is what a node's copy is reckoned to cost, in words. A node
// whose state grows with the run shares it with its copies (see
// sim.Shared), so that its copy costs about this.
const nodeCost = 32

// own makes node id this world's own before it steps, copying it if it is
// shared with another world; it reports whether it made a copy.
func (w *world) own(id sim.NodeID) bool {
	if w.owned[id] {
		return false
	}
	w.nodes[id] = w.nodes[id].Clone()
	w.owned[id] = true
	return true
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

// linkUp reports whether from→to carries messages.
func (w *world) linkUp(from, to sim.NodeID) bool {
	return w.cut == nil || !w.cut[int(from)*len(w.nodes)+int(to)]
}

// clock is a process's wall clock.
func (w *world) clock(id sim.NodeID) sim.WallClock {
	if w.clocks == nil {
		return sim.WallClock{}
	}
	return w.clocks[id]
}

// setClock sets a process's wall clock.
func (w *world) setClock(id sim.NodeID, c sim.WallClock) {
	if w.clocks == nil {
		w.clocks = make([]sim.WallClock, len(w.nodes))
	}
	w.clocks[id] = c
}

// localTime is what a process's own clock reads now.
func (w *world) localTime(id sim.NodeID) sim.Time {
	if w.clocks == nil {
		return w.now
	}
	return w.clocks[id].Reads(w.now)
}

// timerOf finds a node's armed timer by tag.
func (w *world) timerOf(id sim.NodeID, tag string) (int, bool) {
	for i, t := range w.timers[id] {
		if t.tag == tag {
			return i, true
		}
	}
	return -1, false
}

// view is the world at one step as the algorithms' checkers see it.
type view struct {
	r     *Run
	w     *world
	names []string
	tr    *trace.Trace
	spec  *sim.Spec
	kinds map[string]int
}

func (v *view) N() int                              { return len(v.w.nodes) }
func (v *view) Name(id sim.NodeID) string           { return v.names[id] }
func (v *view) Node(id sim.NodeID) sim.Node         { return v.w.nodes[id] }
func (v *view) Health(id sim.NodeID) sim.Health     { return v.w.health[id].State }
func (v *view) Now() sim.Time                       { return v.w.now }
func (v *view) LocalTime(id sim.NodeID) sim.Time    { return v.w.localTime(id) }
func (v *view) Lamport(id sim.NodeID) clock.Lamport { return v.w.lamport[id] }
func (v *view) Vector(id sim.NodeID) clock.Vector   { return v.w.vector[id] }
func (v *view) Steps() int                          { return v.w.step }
func (v *view) Timer(id sim.NodeID, tag string) (sim.Time, bool) {
	for _, t := range v.w.timers[id] {
		if t.tag == tag {
			return t.due, true
		}
	}
	return 0, false
}
func (v *view) Drawn(id sim.NodeID, role string, group int) bool {
	return slices.ContainsFunc(v.w.intervals[id], func(a sim.Annotation) bool { return a.Role == role && a.Group == group })
}
func (v *view) FIFO() bool                         { return v.w.fifo }
func (v *view) LinkUp(from, to sim.NodeID) bool    { return v.w.linkUp(from, to) }
func (v *view) InFlight(from, to sim.NodeID) []int { return v.w.net.Channel(from, to) }
func (v *view) NumSent() int                       { return v.w.nextMsg }
func (v *view) SentFrom(step int) int {
	switch {
	case step <= 0:
		return 0
	case step >= v.w.step:
		return v.w.nextMsg
	}
	return v.tr.Records[step].FirstSent
}
func (v *view) InFlightCount() int {
	n := 0
	v.w.net.Busy(func(_, _ sim.NodeID, ids []int) { n += len(ids) })
	return n
}

func (v *view) InFlightTotal(kind string) sim.Total {
	if k, ok := v.kinds[kind]; ok {
		return v.w.flight[k]
	}
	return sim.Total{}
}

func (v *view) LastAnnotations() []sim.Annotation {
	if v.w.step == 0 || v.w.step > len(v.tr.Records) {
		return nil
	}
	return v.tr.Records[v.w.step-1].Annotations()
}

func (v *view) AnnotationStep(id sim.NodeID, role string, group int) int {
	firsts := v.r.firstSteps(role, group)
	if firsts == nil || int(id) < 0 || int(id) >= len(firsts) || firsts[id] >= v.w.step {
		return -1
	}
	return firsts[id]
}

func (v *view) AnnotationSteps(role string, group int) []int {
	firsts := v.r.firstSteps(role, group)
	steps := make([]int, len(v.w.nodes))
	for i := range steps {
		steps[i] = -1
		if firsts != nil && firsts[i] < v.w.step {
			steps[i] = firsts[i]
		}
	}
	return steps
}

func (v *view) LastStep() (sim.NodeID, sim.Event, bool) {
	return v.w.stepped, v.w.steppedEv, v.w.stepped != sim.None
}

func (v *view) DrawnBefore(id sim.NodeID, role string, group, step int) bool {
	flips := v.r.flipSteps(role, group)
	if flips == nil || int(id) < 0 || int(id) >= len(flips) {
		return false
	}
	before := sort.SearchInts(flips[id], min(step, v.w.step))
	return before%2 == 1
}

// track keeps a process's open intervals, and the algorithm's tally, up
// to date with the annotations of its step.
func (w *world) track(id sim.NodeID, as []sim.Annotation) {
	if w.tally != nil && len(as) > 0 {
		w.tally.Note(w.now, id, as)
	}
	for _, a := range as {
		if a.Phase == sim.Point {
			continue
		}
		open := w.intervals[id]
		i := slices.IndexFunc(open, func(b sim.Annotation) bool { return b.Role == a.Role && b.Group == a.Group })
		switch {
		case a.Phase == sim.Begin && i < 0:
			w.intervals[id] = append(open, a)
		case a.Phase == sim.End && i >= 0:
			w.intervals[id] = slices.Delete(open, i, i+1)
		}
	}
}

func (v *view) Tally() sim.Tally { return v.w.tally }

func (v *view) Envelope(id int) sim.Envelope {
	m := &v.tr.Msgs[id]
	e := sim.Envelope{ID: m.ID, From: m.From, To: m.To, Message: m.Message, SendStep: m.SendStep, RecvStep: -1, DropStep: -1, Original: m.Original}
	if m.ReceivedAt(v.w.step) {
		e.RecvStep, e.RecvTime = m.RecvStep, m.RecvTime
	}
	if m.DroppedAt(v.w.step) {
		e.DropStep = m.DropStep
	}
	return e
}
