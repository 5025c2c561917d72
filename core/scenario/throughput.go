package scenario

import (
	"fmt"

	"spacetime/core/algo/all"
	"spacetime/core/sim"
)

// ThroughputSizes are the process counts an algorithm's throughput is
// measured at: 3 and 32, or the nearest its Spec allows (for Maekawa, the
// nearest sizes that have request sets); none for an algorithm that
// replays a record (a log), which has the record's size and takes no
// workload: the log import's figures measure it.
func ThroughputSizes(spec *sim.Spec) []int {
	if spec.Learner.Record {
		return nil
	}
	lo, hi := max(spec.MinN, 1), min(spec.MaxN, MaxN)
	near := func(want int) int { return min(max(want, lo), hi) }
	if len(spec.Sizes) > 0 {
		near = func(want int) int {
			best := spec.Sizes[0]
			for _, n := range spec.Sizes {
				if n >= lo && n <= hi && abs(n-want) < abs(best-want) {
					best = n
				}
			}
			return best
		}
	}
	small, large := near(3), near(32)
	if small == large {
		return []int{small}
	}
	return []int{small, large}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Throughput is the scenario the throughput figures run: the algorithm's
// first built-in lesson with a random workload (its first lesson
// otherwise, given a workload of one request every one to three ticks),
// with n processes, its workload running to the end, and stopping after
// the given number of steps. A lesson's script stays unless it names a
// process the size lacks: then the run goes without it, and without its
// params too if they are fitted to its own number of processes (a ring's
// order, a history per server).
func Throughput(algorithm string, n, steps int) (*Scenario, error) {
	if _, ok := all.Lookup(algorithm); !ok {
		return nil, fmt.Errorf("unknown algorithm %q", algorithm)
	}
	var first, busy *Scenario
	for _, id := range BuiltinIDs() {
		s, err := Builtin(id)
		if err != nil {
			continue
		}
		if s.Algorithm != algorithm {
			continue
		}
		if first == nil {
			first = s
		}
		if busy == nil && s.Workload != nil {
			busy = s
		}
	}
	if busy == nil {
		busy = first
	}
	if busy == nil {
		return nil, fmt.Errorf("no built-in scenario runs %s: add one to measure it", algorithm)
	}
	s, err := busy.WithN(n)
	if err != nil {
		bare := busy.Clone()
		bare.Script = nil
		if s, err = bare.WithN(n); err != nil {
			bare.Params = nil
			if s, err = bare.WithN(n); err != nil {
				return nil, fmt.Errorf("%s with n=%d: %v", busy.ID, n, err)
			}
		}
	}
	if s.Workload == nil {
		s.Workload = &Workload{P: 1, Every: []sim.Time{1, 3}}
	}
	s.Workload.Until = 0
	s.Until = Until{Steps: steps}
	return s, nil
}
