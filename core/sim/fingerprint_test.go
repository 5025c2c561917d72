package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/sim"
)

// inner and state stand for a node's state: unexported fields, slices,
// maps and pointers, as the algorithms hold them.
type inner struct{ votes []int }

type state struct {
	Name    string
	count   int64
	on      bool
	queue   []inner
	seen    map[string]int
	parent  *inner
	anyData any
}

func TestHashValueSeesEveryField(t *testing.T) {
	base := func() state {
		return state{Name: "a", count: 3, on: true, queue: []inner{{votes: []int{1, 2}}},
			seen: map[string]int{"x": 1, "y": 2, "z": 3}, parent: &inner{votes: []int{4}}, anyData: int64(5)}
	}
	sum := func(s state) uint64 {
		var h sim.Hash
		h.Value(s)
		return h.Sum()
	}
	want := sum(base())
	assert.Equal(t, want, sum(base()), "equal states, equal fingerprints (a map's order aside)")
	for name, change := range map[string]func(*state){
		"an exported text":      func(s *state) { s.Name = "b" },
		"an unexported number":  func(s *state) { s.count = 4 },
		"a truth value":         func(s *state) { s.on = false },
		"an element deep down":  func(s *state) { s.queue[0].votes[1] = 3 },
		"a slice's length":      func(s *state) { s.queue = append(s.queue, inner{}) },
		"a map's value":         func(s *state) { s.seen["y"] = 7 },
		"a map's key":           func(s *state) { delete(s.seen, "z"); s.seen["w"] = 3 },
		"a pointer's target":    func(s *state) { s.parent.votes[0] = 9 },
		"a nil pointer":         func(s *state) { s.parent = nil },
		"an interface's type":   func(s *state) { s.anyData = int32(5) },
		"an interface's value":  func(s *state) { s.anyData = int64(6) },
		"texts split elsewhere": func(s *state) { s.Name = "a\x00" },
	} {
		s := base()
		change(&s)
		assert.NotEqual(t, want, sum(s), name)
	}
}

func TestHashTellsTextsApart(t *testing.T) {
	var a, b sim.Hash
	a.String("ab")
	a.String("c")
	b.String("a")
	b.String("bc")
	assert.NotEqual(t, a.Sum(), b.Sum())
}
