// Package faults is the registry of what can go wrong: crash and recover, a
// stop-the-world GC pause, a message lost, delayed or duplicated by the
// network, a link cut and healed, a partition, a skewed clock, FIFO order
// switched off. Each fault is one Fault value: its name, its arguments (the
// scenario fields and their validation), its link letter, where the page
// offers it and with what words, when it can happen, how it changes the
// world (through the World the engine gives it) and its glyph and legend.
// Adding a fault is adding one entry to Registry.
package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"spacetime/core/sim"
)

// Health is a process's health and, when paused, when it wakes.
type Health struct {
	State sim.Health
	Until sim.Time
}

// Running reports whether the process takes events now.
func (h Health) Running() bool { return h.State.Running() }

// Param is one argument of a fault.
type Param struct {
	// Field is its name in a scenario's script entry.
	Field string
	Kind  *Kind
	// Optional params may be left out (heal without a node heals every link).
	Optional bool
	// Before and After are the words around its input in the page's menu:
	// "for [15] ticks".
	Before, After string
}

// Menu is where the page offers a fault.
type Menu uint8

// The menus.
const (
	// MenuProcess is the menu of a clicked process; the fault's node is
	// that process.
	MenuProcess Menu = iota + 1
	// MenuMessage is the menu of a clicked message; its msg is that message.
	MenuMessage
	// MenuLink is the menu of a clicked channel; its node and target are
	// the channel's ends.
	MenuLink
	// MenuNetwork is the network's own menu (no process or message).
	MenuNetwork
)

// World is the simulated world as a fault sees it. The engine implements
// it; every change goes through it, so that it lives in the cloned world
// (seeking and forking stay exact) and is recorded in the trace.
type World interface {
	N() int
	Name(id sim.NodeID) string
	Now() sim.Time
	Health(id sim.NodeID) Health
	SetHealth(id sim.NodeID, h Health)
	// DropTimers cancels every timer of a process and says how many it had.
	DropTimers(id sim.NodeID) int
	// EndIntervals ends the intervals the process's annotations opened (a
	// critical section, a held token): a crash ends what it was doing.
	EndIntervals(id sim.NodeID) int
	// Restart steps a crashed process with its Recover event (its Init, if
	// it was down from the start) and returns the caption the node gave.
	Restart(id sim.NodeID) string
	// InFlight reports whether message id is in flight, and its ends.
	InFlight(id int) (from, to sim.NodeID, ok bool)
	// Describe names a message for captions: "transfer $14 A→B (#12)".
	Describe(id int) string
	// Lose takes a message off the network.
	Lose(id int)
	// Delay makes a message in flight arrive by ticks later, and returns
	// its new earliest arrival.
	Delay(id int, by sim.Time) sim.Time
	// Duplicate puts a copy of a message in flight on its channel and
	// returns the copy's id.
	Duplicate(id int) int
	// LinkUp reports whether from→to carries messages.
	LinkUp(from, to sim.NodeID) bool
	// SetLink cuts or heals from→to; cutting it loses what is in flight on
	// it, and it returns how many messages that lost.
	SetLink(from, to sim.NodeID, up bool) int
	// Skew is how far a process's clock reads ahead of the time now, and
	// SetSkew sets it so (keeping its rate).
	Skew(id sim.NodeID) sim.Time
	SetSkew(id sim.NodeID, by sim.Time)
	// ClockRate is how many ticks a process's clock counts for every
	// hundred that pass (100: right), and SetClockRate makes it count so
	// many from now on, from what it reads.
	ClockRate(id sim.NodeID) int64
	SetClockRate(id sim.NodeID, rate int64)
	FIFO() bool
	SetFIFO(on bool)
}

// Fault is one kind of fault, with everything the product knows of it.
type Fault struct {
	Name string
	// Letter is its action letter in a link's input log (see Encode).
	Letter byte
	// Help says what it does, in the menu's tooltip and the README.
	Help   string
	Params []Param
	// Menus are where the page offers it, and Label is its button's words,
	// with {node} standing for the menu's process and {on} for the value of
	// a true-or-false argument the menu sets (it offers each value that can
	// happen); MenuLabels replace Label in the menus where it differs.
	Menus      []Menu
	Label      string
	MenuLabels map[Menu]string
	// Valid checks the arguments on their own (a scenario's, a link's),
	// beyond each param's own checks; nil when there is nothing more.
	Valid func(a Args, n int) error
	// Check says why the fault cannot happen in w now, or nil.
	Check func(w World, a Args) error
	// Apply makes it happen and returns the step's caption.
	Apply func(w World, a Args) string
	// Glyph and Tone mark the fault's step on the diagram; Legend explains it.
	Glyph  sim.Glyph
	Tone   sim.Tone
	Legend string
	// Leaves is the health the fault leaves its process in when it takes
	// it out of service (a crash's Crashed, a pause's Paused); Up for the
	// rest. A process down from the start is drawn as the fault that
	// leaves it Crashed would leave it.
	Leaves sim.Health
	// Mark is the words beside its mark, from its arguments (a skew's
	// "+5", "FIFO on"); nil: none on a process's lane, and the step's
	// words on a mark of the whole network.
	Mark func(a Args) string
	// Draw draws random arguments for a seeded campaign (spacetime check)
	// in the world s, at the time the fault is to happen, or reports false
	// when the fault cannot happen there (recover when nothing has
	// crashed). It knows what makes sense for this fault (a message in
	// flight, a link that is up), so a campaign needs no list of faults.
	Draw func(s Scene, d *Dice) (Args, bool)
	// Search lists the arguments a schedule search tries for the fault in
	// s (every process that can crash, every message in flight), so that
	// a search with a budget of faults needs no list of its own; nil: the
	// search does not try the fault (a pause's or a delay's length, a
	// cut's links, are too many choices to try them all).
	Search func(s Scene) []Args
}

// LabelIn is the fault's button words in menu m.
func (f *Fault) LabelIn(m Menu) string {
	if l, ok := f.MenuLabels[m]; ok {
		return l
	}
	return f.Label
}

// Takes reports whether the fault has an argument of the given field.
func (f *Fault) Takes(field string) bool {
	for _, p := range f.Params {
		if p.Field == field {
			return true
		}
	}
	return false
}

// Offered reports whether the page offers the fault in menu m.
func (f *Fault) Offered(m Menu) bool {
	for _, x := range f.Menus {
		if x == m {
			return true
		}
	}
	return false
}

// Lookup finds a fault by name.
func Lookup(name string) (*Fault, bool) {
	for _, f := range Registry {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// ByLetter finds a fault by its link letter.
func ByLetter(b byte) (*Fault, bool) {
	for _, f := range Registry {
		if f.Letter == b {
			return f, true
		}
	}
	return nil, false
}

// Names lists every fault's name, in registry order.
func Names() []string {
	out := make([]string, len(Registry))
	for i, f := range Registry {
		out[i] = f.Name
	}
	return out
}

// Parse finds a fault by name, or says which faults there are.
func Parse(name string) (*Fault, error) {
	if f, ok := Lookup(name); ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown fault %q (known: %s)", short(name), strings.Join(Names(), ", "))
}

// ArgError is a fault argument that is wrong on its own: which field,
// and what is wrong with it. An empty Field is about the arguments together.
type ArgError struct {
	Field   string
	Problem string
}

func (e *ArgError) Error() string {
	if e.Field == "" {
		return e.Problem
	}
	return e.Field + ": " + e.Problem
}

// Validate checks a fault's arguments for n processes on their own: every
// required argument given, each in range, and the fault's own rule. given
// says whether the document or link gave an argument.
func (f *Fault) Validate(a Args, n int, given func(field string) bool) *ArgError {
	for _, p := range f.Params {
		if !given(p.Field) {
			if !p.Optional {
				return &ArgError{Field: p.Field, Problem: fmt.Sprintf("%s needs %s", f.Name, p.Kind.Words(p.Field))}
			}
			continue
		}
		if p.Kind.Check == nil {
			continue
		}
		v, _ := p.Get(a)
		if err := p.Kind.Check(v, a, n); err != nil {
			return &ArgError{Field: p.Field, Problem: err.Error()}
		}
	}
	if f.Valid != nil {
		if err := f.Valid(a, n); err != nil {
			return &ArgError{Problem: err.Error()}
		}
	}
	return nil
}

// MaxTicks bounds a fault's durations and offsets.
const MaxTicks = 1_000_000

// Scene is the world as a seeded campaign sees it when it draws a fault's
// arguments: read-only, as it stands just before the fault happens.
type Scene interface {
	N() int
	Health(id sim.NodeID) Health
	LinkUp(from, to sim.NodeID) bool
	FIFO() bool
	// Messages lists the ids of the messages in flight, in id order.
	Messages() []int
}

// Dice draws a campaign's random arguments from its seeded generator. Its
// draws lean towards what finds bugs: mostly small values, now and then
// the bounds (a pause of MaxTicks, a clock skewed by -MaxTicks).
type Dice struct{ r *rand.Rand }

// NewDice draws from r.
func NewDice(r *rand.Rand) *Dice { return &Dice{r: r} }

// IntN is a uniform number in [0, n); n must be positive.
func (d *Dice) IntN(n int) int { return d.r.IntN(n) }

// OneIn reports true once in k draws on average.
func (d *Dice) OneIn(k int) bool { return d.r.IntN(k) == 0 }

// Pick is one of ids, which must not be empty.
func (d *Dice) Pick(ids []sim.NodeID) sim.NodeID { return ids[d.r.IntN(len(ids))] }

// PickMsg is one of the message ids, which must not be empty.
func (d *Dice) PickMsg(ids []int) int { return ids[d.r.IntN(len(ids))] }

// Between is a number from lo to hi, both included, leaning towards lo:
// half the draws fall in the first fifty values, one in eight is a bound,
// the rest are spread evenly on a logarithmic scale.
func (d *Dice) Between(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	span := uint64(hi - lo)
	switch k := d.r.IntN(8); {
	case k == 0:
		if d.r.IntN(2) == 0 {
			return lo
		}
		return hi
	case k <= 4:
		return lo + int64(d.r.Uint64N(min(span, 49)+1))
	default:
		// a magnitude of 1 to 63 bits, then a value below it
		top := min(span, uint64(1)<<(1+d.r.IntN(63))-1)
		return lo + int64(d.r.Uint64N(top+1))
	}
}

// Ticks is a duration of at least one tick, mostly a few dozen.
func (d *Dice) Ticks() sim.Time {
	if d.OneIn(50) {
		return MaxTicks
	}
	return sim.Time(d.Between(1, 400))
}

// Offset is a clock offset, ahead or behind, mostly small.
func (d *Dice) Offset() sim.Time {
	by := sim.Time(d.Between(0, 400))
	if d.OneIn(50) {
		by = MaxTicks
	}
	if d.OneIn(2) {
		by = -by
	}
	return by
}

// Groups splits n processes (n >= 2) into two to four non-empty groups;
// now and then some processes are in none (they keep every link).
func (d *Dice) Groups(n int) [][]sim.NodeID {
	k := 2 + d.r.IntN(min(n, 4)-1)
	order := d.r.Perm(n)
	keep := n
	if n > k && d.OneIn(4) {
		keep = k + d.r.IntN(n-k+1)
	}
	groups := make([][]sim.NodeID, k)
	for i, p := range order[:keep] {
		g := i
		if i >= k {
			g = d.r.IntN(k)
		}
		groups[g] = append(groups[g], sim.NodeID(p))
	}
	for _, g := range groups {
		for i := 1; i < len(g); i++ { // in process order, as a person writes them
			for j := i; j > 0 && g[j] < g[j-1]; j-- {
				g[j], g[j-1] = g[j-1], g[j]
			}
		}
	}
	return groups
}

// nodesWhere lists the processes of s for which keep holds.
func nodesWhere(s Scene, keep func(id sim.NodeID) bool) []sim.NodeID {
	var out []sim.NodeID
	for i := range s.N() {
		if keep(sim.NodeID(i)) {
			out = append(out, sim.NodeID(i))
		}
	}
	return out
}

// linksWhere lists the links from→to of s for which keep holds.
func linksWhere(s Scene, keep func(from, to sim.NodeID) bool) [][2]sim.NodeID {
	var out [][2]sim.NodeID
	for i := range s.N() {
		for j := range s.N() {
			if i != j && keep(sim.NodeID(i), sim.NodeID(j)) {
				out = append(out, [2]sim.NodeID{sim.NodeID(i), sim.NodeID(j)})
			}
		}
	}
	return out
}

// drawAtProcess draws the arguments of a fault at one of the processes
// for which keep holds.
func drawAtProcess(s Scene, d *Dice, keep func(h Health) bool) (Args, bool) {
	ids := nodesWhere(s, func(id sim.NodeID) bool { return keep(s.Health(id)) })
	if len(ids) == 0 {
		return Args{}, false
	}
	return AtProcess(d.Pick(ids)), true
}

// eachProcess is the arguments of a fault at each process whose health
// keep accepts.
func eachProcess(s Scene, keep func(h Health) bool) []Args {
	ids := nodesWhere(s, func(id sim.NodeID) bool { return keep(s.Health(id)) })
	out := make([]Args, len(ids))
	for i, id := range ids {
		out[i] = AtProcess(id)
	}
	return out
}

// eachMessage is the arguments of a fault of each message in flight.
func eachMessage(s Scene) []Args {
	ids := s.Messages()
	out := make([]Args, len(ids))
	for i, id := range ids {
		out[i] = OfMessage(id)
	}
	return out
}

// drawOfMessage draws the arguments of a fault of a message in flight.
func drawOfMessage(s Scene, d *Dice) (Args, bool) {
	ids := s.Messages()
	if len(ids) == 0 {
		return Args{}, false
	}
	return OfMessage(d.PickMsg(ids)), true
}

// drawLink draws a link for which keep holds, one way or both.
func drawLink(s Scene, d *Dice, keep func(from, to sim.NodeID) bool) (Args, bool) {
	links := linksWhere(s, keep)
	if len(links) == 0 {
		return Args{}, false
	}
	l := links[d.IntN(len(links))]
	a := NoArgs()
	a.Node, a.Target = l[0], l[1]
	if d.OneIn(3) {
		a = a.With("oneway", ParamFlag.Bool(true))
	}
	return a, true
}

// ArgFields lists the scenario fields of the registry's arguments that
// are not a process, a target or a message ("for", "oneway", …), each
// once, in registry order: the fields a script entry keeps by name.
func ArgFields() []string {
	var out []string
	for _, f := range Registry {
		for _, p := range f.Params {
			if !p.Anchored() && !slices.Contains(out, p.Field) {
				out = append(out, p.Field)
			}
		}
	}
	return out
}

// Leaving is the first fault of the registry that leaves its process in
// health h, and false if none does.
func Leaving(h sim.Health) (*Fault, bool) {
	for _, f := range Registry {
		if f.Leaves == h && h != sim.Up {
			return f, true
		}
	}
	return nil, false
}
