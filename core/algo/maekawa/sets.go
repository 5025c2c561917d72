package maekawa

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// singer are perfect difference sets D modulo N = K(K−1)+1 (Singer's,
// from the projective planes of order K−1): every nonzero residue is the
// difference of exactly one pair of D, so the sets {i + d : d ∈ D} meet
// pairwise in exactly one process, each has K processes, each process is
// in K sets, and process i is in its own.
var singer = map[int][]int{
	3:  {0, 1},
	7:  {0, 1, 3},
	13: {0, 1, 3, 9},
	21: {0, 1, 4, 14, 16},
	31: {0, 1, 3, 8, 12, 18},
	57: {0, 1, 3, 13, 32, 36, 43, 52},
}

// Sizes are the numbers of processes that have built-in request sets.
var Sizes = []int{3, 7, 13, 21, 31, 57}

// Build gives n processes their request sets: from params.sets when
// given (lists of process numbers, one list per process), else Singer's
// construction, which exists for the n in Sizes. It refuses sets that are
// malformed or that do not meet pairwise, naming the field.
func Build(n int, given [][]int) ([][]sim.NodeID, error) {
	if given == nil {
		d, ok := singer[n]
		if !ok {
			return nil, strictjson.FieldErrorf("n", "maekawa builds request sets for N = K(K−1)+1 processes (%s), got %d; for another N give params.sets", sizes(), n)
		}
		sets := make([][]sim.NodeID, n)
		for i := range sets {
			for _, x := range d {
				sets[i] = append(sets[i], sim.NodeID((i+x)%n))
			}
			slices.Sort(sets[i])
		}
		return sets, Check(sets, "")
	}
	if len(given) != n {
		return nil, strictjson.FieldErrorf("params.sets", "want one request set per process, %d in all, got %d", n, len(given))
	}
	sets := make([][]sim.NodeID, n)
	for i, set := range given {
		field := fmt.Sprintf("params.sets[%d]", i)
		if len(set) == 0 {
			return nil, strictjson.FieldErrorf(field, "process %d's request set is empty", i+1)
		}
		for _, num := range set {
			if num < 1 || num > n {
				return nil, strictjson.FieldErrorf(field, "want process numbers from 1 to %d, got %d", n, num)
			}
			id := sim.NodeID(num - 1)
			if slices.Contains(sets[i], id) {
				return nil, strictjson.FieldErrorf(field, "process %d is in the set twice", num)
			}
			sets[i] = append(sets[i], id)
		}
		slices.Sort(sets[i])
	}
	return sets, Check(sets, "params.sets")
}

// Check refuses request sets two of which share no process: those two
// processes could both collect every vote and enter at once.
func Check(sets [][]sim.NodeID, field string) error {
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			if !meet(sets[i], sets[j]) {
				if field == "" {
					field = "n"
				}
				return strictjson.FieldErrorf(field, "the request sets of %d %s and %d %s share no process: both could enter at once", i+1, numbers(sets[i]), j+1, numbers(sets[j]))
			}
		}
	}
	return nil
}

func meet(a, b []sim.NodeID) bool {
	return slices.ContainsFunc(a, func(x sim.NodeID) bool { return slices.Contains(b, x) })
}

func sizes() string {
	out := make([]string, len(Sizes))
	for i, n := range Sizes {
		out[i] = fmt.Sprint(n)
	}
	return strings.Join(out, ", ")
}

// numbers writes a set as people number processes: {1, 2, 4}.
func numbers(set []sim.NodeID) string {
	out := make([]string, len(set))
	for i, id := range set {
		out[i] = fmt.Sprint(id.Number())
	}
	return "{" + strings.Join(out, ", ") + "}"
}
