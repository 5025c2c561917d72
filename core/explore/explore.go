// Package explore searches a run's schedules for one that breaks an
// invariant: from a step of a run, it tries every choice of what happens
// next (the run's own next event, the delivery of any message a learner
// could deliver now and, within a budget, a fault), breadth first, and
// does not go on from a state it has been in before. The first violation
// it meets is at the fewest steps; it is reported as a learner's inputs,
// so that it opens as an ordinary run to step through and rewind.
//
// A search is worked in slices (Search.Work), so that a page can show its
// progress and stop it between two slices without a goroutine.
package explore

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/engine"
)

// Options bound a search.
type Options struct {
	// Depth is how many steps beyond the start the search looks, at most.
	Depth int
	// MaxStates is how many states it may visit, at most.
	MaxStates int
	// Faults is how many faults a schedule may hold (0: none).
	Faults int
	// Invariant names the one invariant to break; "": any of them.
	Invariant string
	// Differ asks for a schedule that differs from the run's own course:
	// at least one of its steps is the search's choice. A lesson whose
	// own schedule already breaks the invariant would otherwise have the
	// search find that schedule again.
	Differ bool `json:"-"`
	// Budget, when set, bounds the memory the search keeps, as the engine
	// reckons it: the copy of the run it searches from and every state it
	// has visited (see StateBytes). A search that would keep more stops,
	// bounded by memory; nil: no bound but the others.
	Budget *engine.Budget `json:"-"`
}

// The bounds a search may be asked for, at most: a link or a command line
// cannot make it hold more than this in memory (the visited states, about
// 60 bytes each, and the frontier's schedules).
const (
	MaxDepth     = 200
	MaxMaxStates = 2_000_000
	MaxFaults    = 3
)

// DefaultOptions are the bounds of a search that is asked for none.
var DefaultOptions = Options{Depth: 40, MaxStates: 100_000}

// Check says what is wrong with the bounds, naming the field.
func (o Options) Check() error {
	switch {
	case o.Depth < 1 || o.Depth > MaxDepth:
		return fmt.Errorf("depth: expected a number of steps from 1 to %d, found %d", MaxDepth, o.Depth)
	case o.MaxStates < 1 || o.MaxStates > MaxMaxStates:
		return fmt.Errorf("max-states: expected a number from 1 to %d, found %d", MaxMaxStates, o.MaxStates)
	case o.Faults < 0 || o.Faults > MaxFaults:
		return fmt.Errorf("faults: expected a number from 0 to %d, found %d", MaxFaults, o.Faults)
	}
	return nil
}

// Outcome is how a search ended.
type Outcome string

// The outcomes.
const (
	// Running: the search has more to do.
	Running Outcome = "running"
	// Found: a schedule breaks an invariant.
	Found Outcome = "found"
	// Exhausted: every state within the depth was visited, and none
	// breaks an invariant.
	Exhausted Outcome = "exhausted"
	// Bounded: the search stopped at one of its bounds (Progress.Bound
	// says which), with none found.
	Bounded Outcome = "bounded"
)

// Bound names the bound a search stopped at.
type Bound string

// The bounds.
const (
	// BoundDepth: every schedule of Options.Depth steps was tried.
	BoundDepth Bound = "depth"
	// BoundStates: Options.MaxStates states were visited.
	BoundStates Bound = "states"
	// BoundMemory: the search would keep more memory than its budget
	// (Options.Budget, or its caller's, see Search.OutOfMemory).
	BoundMemory Bound = "memory"
)

// StateBytes is what the search is reckoned to keep for each state it
// visits: its fingerprint in the visited set (with the set's room to
// spare), its node in the search's tree, and its place in the frontier.
const StateBytes = 48 + 112 + 16

// Progress is how far a search has gone.
type Progress struct {
	Outcome Outcome `json:"outcome"`
	// States counts the distinct states visited, Steps the steps taken
	// (a state met again is a step but not a state).
	States int `json:"states"`
	Steps  int `json:"steps"`
	// Depth is how many steps from the start every schedule has been
	// tried to (the violation's length, when one is found).
	Depth int `json:"depth"`
	// Bound is the bound a bounded search stopped at.
	Bound Bound `json:"bound,omitempty"`
}

// Step is one step of a violating schedule, as the run records it.
type Step struct {
	// Step is its number in the run, counted from 1 as the page counts.
	Step int `json:"step"`
	// Chosen says the step is not the run's own next event but the
	// search's choice (a delivery now, a fault): an input of the schedule.
	Chosen bool `json:"chosen"`
	// Caption is what happened, in the run's words.
	Caption string `json:"caption"`
}

// Violation is a schedule that breaks an invariant, at the fewest steps
// from the start.
type Violation struct {
	// Invariant is the broken invariant's name and Detail its words.
	Invariant string `json:"invariant"`
	Detail    string `json:"detail"`
	// Step is the step at which it fails, counted from 1 as the page
	// counts: the page at Step shows the failure.
	Step int `json:"step"`
	// Inputs open the schedule as a run: the run's own inputs before the
	// start, then the search's choices.
	Inputs []engine.Input `json:"-"`
	// Schedule is every step from the start to the failure.
	Schedule []Step `json:"schedule"`
}

// node is a state in the search's tree: the choice that led to it from
// its parent.
type node struct {
	parent *node
	choice engine.Choice
	depth  int
	faults int
	// chose says a step of the node's path is the search's choice rather
	// than the run's own next event.
	chose bool
}

// Search is a breadth-first search over a run's schedules.
type Search struct {
	opts    Options
	fork    *engine.Fork
	start   int
	ignored []string
	visited map[uint64]int // fingerprint → fewest faults it was reached with
	// own are the states of the run's own course within the search's
	// depth, for a search asked for a schedule that differs from it
	own      map[uint64]bool
	frontier []*node
	next     []*node
	at       int // the frontier's next node to expand
	level    int // the frontier's depth
	progress Progress
	found    *Violation
	// path is the fork's path, as nodes, so that moving to the next
	// node of the frontier takes only the steps where the paths differ.
	path []*node
}

// ErrNothingToBreak says every invariant had failed before the start.
var ErrNothingToBreak = errors.New("every invariant of the algorithm has failed before this step: there is nothing left to break")

// New starts a search of run from step k.
func New(run *engine.Run, k int, opts Options) (*Search, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	spec := run.Config().Spec
	if len(spec.Checks.Invariants) == 0 {
		return nil, fmt.Errorf("%s checks no invariant: there is nothing to break", spec.ID)
	}
	var names []string
	for _, inv := range spec.Checks.Invariants {
		names = append(names, inv.Name)
	}
	if opts.Invariant != "" && !slices.Contains(names, opts.Invariant) {
		return nil, fmt.Errorf("invariant: %s has no invariant %q (its invariants: %s)", spec.ID, opts.Invariant, strings.Join(names, "; "))
	}
	fork, err := run.ForkWithin(k, opts.Budget)
	if errors.Is(err, engine.ErrBudget) {
		// the copy of the run to search from is more than the budget holds
		return &Search{opts: opts, start: k, progress: Progress{Outcome: Bounded, Bound: BoundMemory}}, nil
	}
	if err != nil {
		return nil, err
	}
	s := &Search{opts: opts, fork: fork, start: k, visited: map[uint64]int{}}
	s.ignored = fork.FailedBefore()
	switch {
	case opts.Invariant != "" && slices.Contains(s.ignored, opts.Invariant):
		return nil, fmt.Errorf("%q has already failed before step %d: there is nothing left to find", opts.Invariant, k)
	case opts.Invariant != "":
		for _, name := range names {
			if name != opts.Invariant && !slices.Contains(s.ignored, name) {
				s.ignored = append(s.ignored, name)
			}
		}
	case len(s.ignored) == len(names):
		return nil, ErrNothingToBreak
	}
	if opts.Differ {
		s.own = ownCourse(fork, opts.Depth)
	}
	root := &node{}
	s.visited[fork.Fingerprint()] = 0
	s.frontier = []*node{root}
	s.progress = Progress{Outcome: Running, States: 1}
	if !opts.Budget.Keep(StateBytes) {
		s.progress.Outcome, s.progress.Bound = Bounded, BoundMemory
	}
	return s, nil
}

// OutOfMemory stops the search, bounded by memory, for a caller that
// measures the memory it keeps in its own way (a process's heap) and
// finds it too much. A search that has ended is left as it is.
func (s *Search) OutOfMemory() {
	if s.progress.Outcome == Running {
		s.progress.Outcome, s.progress.Bound = Bounded, BoundMemory
	}
}

// Ignored names the invariants the search does not look for: those that
// had failed before the start, and all but the one it was asked to break.
func (s *Search) Ignored() []string { return s.ignored }

// Progress is how far the search has gone.
func (s *Search) Progress() Progress { return s.progress }

// Violation is the schedule found, or nil.
func (s *Search) Violation() *Violation { return s.found }

// Run works the search to its end.
func (s *Search) Run() Progress {
	for s.Work(1 << 30) {
	}
	return s.progress
}

// Work takes up to steps steps of the search and reports whether it has
// more to do.
func (s *Search) Work(steps int) bool {
	for budget := steps; budget > 0 && s.progress.Outcome == Running; {
		if s.at == len(s.frontier) {
			// every schedule one step longer than the frontier's was tried
			s.progress.Depth = s.level + 1
			switch {
			case len(s.next) == 0:
				s.progress.Outcome = Exhausted
			case s.level+1 >= s.opts.Depth:
				s.progress.Outcome, s.progress.Bound = Bounded, BoundDepth
			default:
				s.frontier, s.next, s.at = s.next, nil, 0
				s.level++
			}
			continue
		}
		n := s.frontier[s.at]
		s.frontier[s.at] = nil // a node the search is done with is kept by its children alone
		s.at++
		budget -= s.expand(n)
	}
	return s.progress.Outcome == Running
}

// expand tries every choice from node n, and returns the steps it took.
func (s *Search) expand(n *node) int {
	s.moveTo(n)
	taken := 0
	for _, c := range s.fork.Choices(n.faults < s.opts.Faults) {
		if s.fork.Take(c) != nil {
			continue
		}
		taken++
		s.progress.Steps++
		child := &node{parent: n, choice: c, depth: n.depth + 1, faults: n.faults, chose: n.chose || !c.Own}
		if !c.Own && c.Action.Fault != "" {
			child.faults++
		}
		fp := s.fork.Fingerprint()
		if s.opts.Differ && s.own[fp] {
			// back on a state of the run's own course (a delivery the
			// scheduler makes next anyway, two independent steps swapped):
			// no different schedule yet
			child.chose = false
		}
		if f := s.failure(); f != nil {
			if s.opts.Differ && !child.chose {
				// the run's own course, which was not asked for: nothing
				// past it breaks anything new
				s.fork.Back()
				continue
			}
			s.path = append(s.path, child)
			s.report(f)
			return taken
		}
		if s.opts.Differ && child.chose {
			// a state met off the run's own course is another search
			// state than the same state on it, which cannot be reported
			fp ^= choseSalt
		}
		if least, seen := s.visited[fp]; !seen || child.faults < least {
			if !seen {
				s.progress.States++
			}
			s.visited[fp] = child.faults
			s.next = append(s.next, child)
			if !s.opts.Budget.Keep(StateBytes) {
				s.fork.Back()
				s.progress.Outcome, s.progress.Bound = Bounded, BoundMemory
				return taken
			}
		}
		s.fork.Back()
		if s.progress.States >= s.opts.MaxStates {
			s.progress.Outcome, s.progress.Bound = Bounded, BoundStates
			return taken
		}
	}
	return max(taken, 1)
}

// ownCourse is the fingerprints of the states the run's own course goes
// through from the fork, up to depth steps on; the fork is left where it
// was.
func ownCourse(fork *engine.Fork, depth int) map[uint64]bool {
	own := map[uint64]bool{fork.Fingerprint(): true}
	taken := 0
	for ; taken < depth; taken++ {
		if fork.Take(engine.Choice{Own: true}) != nil {
			break
		}
		own[fork.Fingerprint()] = true
	}
	for range taken {
		fork.Back()
	}
	return own
}

// choseSalt sets apart the fingerprints of states reached off the run's
// own course, for a search asked for a schedule that differs from it.
const choseSalt = 0x9e3779b97f4a7c15

// failure is the first invariant that fails at the fork's newest step,
// among those the search looks for.
func (s *Search) failure() *engine.Failure {
	for _, f := range s.fork.Failed() {
		if !slices.Contains(s.ignored, f.Name) {
			return &f
		}
	}
	return nil
}

// moveTo brings the fork to node n: back up to where its path and n's
// meet, then down n's.
func (s *Search) moveTo(n *node) {
	want := make([]*node, n.depth)
	for x := n; x.depth > 0; x = x.parent {
		want[x.depth-1] = x
	}
	common := 0
	for common < len(s.path) && common < len(want) && s.path[common] == want[common] {
		common++
	}
	for len(s.path) > common {
		s.fork.Back()
		s.path = s.path[:len(s.path)-1]
	}
	for _, x := range want[common:] {
		if err := s.fork.Take(x.choice); err != nil {
			// the fork is deterministic: a choice taken once is taken again
			panic(fmt.Sprintf("explore: a schedule could not be taken again: %v", err))
		}
		s.path = append(s.path, x)
	}
}

// report keeps the violation the fork stands at.
func (s *Search) report(f *engine.Failure) {
	v := &Violation{Invariant: f.Name, Detail: f.Detail, Step: f.Step + 1, Inputs: s.fork.Inputs()}
	for i, c := range s.fork.Taken() {
		v.Schedule = append(v.Schedule, Step{Step: s.start + i + 1, Chosen: !c.Own, Caption: s.fork.Caption(i + 1)})
	}
	s.found = v
	s.progress.Outcome = Found
	s.progress.Depth = len(v.Schedule)
}

// Describe says how the search ended, in a sentence.
func (s *Search) Describe() string {
	p := s.progress
	switch p.Outcome {
	case Found:
		v := s.found
		chosen := 0
		for _, st := range v.Schedule {
			if st.Chosen {
				chosen++
			}
		}
		return fmt.Sprintf("found: %q fails at step %d, %d steps on, %d of them chosen by the search (%d states visited)",
			v.Invariant, v.Step, len(v.Schedule), chosen, p.States)
	case Exhausted:
		return fmt.Sprintf("no schedule breaks an invariant: the run cannot go anywhere else (%d states, none more than %d steps away)", p.States, p.Depth)
	case Bounded:
		if p.Bound == BoundMemory {
			return fmt.Sprintf("none found before the search would keep more memory than it may: every schedule of up to %d steps tried (%d states)", p.Depth, p.States)
		}
		return fmt.Sprintf("none found within the bound: every schedule of up to %d steps tried (%d states)", p.Depth, p.States)
	}
	return fmt.Sprintf("searching: every schedule of up to %d steps tried (%d states)", p.Depth, p.States)
}

// String writes the schedule one step a line, the search's choices marked.
func (v *Violation) String() string {
	var b strings.Builder
	for _, st := range v.Schedule {
		mark := " "
		if st.Chosen {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %3d  %s\n", mark, st.Step, st.Caption)
	}
	return b.String()
}
