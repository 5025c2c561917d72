package engine

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/sim"
)

// sized is a process's state with one of each kind of thing that holds
// memory.
type sized struct {
	sim.Node
	flat   []int64 // 8 bytes an element, by capacity
	text   string
	next   *sized // a cycle, counted once
	shared *[16]int64
	table  map[int64]int64
	any    any
	lists  [][]int32
	count  int
}

// The sizer counts what a state points to by capacity, each pointer once
// (cycles, and what processes share, counted once), and not the values
// held in the state itself.
func TestNodeSizer(t *testing.T) {
	shared := &[16]int64{}
	a := &sized{flat: make([]int64, 2, 10), text: "hello", shared: shared, table: map[int64]int64{1: 1, 2: 2},
		any: [4]int64{}, lists: [][]int32{make([]int32, 4), nil}, count: 7}
	a.next = a
	b := &sized{shared: shared}
	var z nodeSizer
	got, visits := z.measure([]sim.Node{a, b})
	self := int64(reflect.TypeOf(sized{}).Size())
	want := 2*self + // the two processes
		10*8 + // flat, by capacity
		5 + // text
		16*8 + // shared, once for both
		2*2*(8+8+1) + // the map's entries, with room to spare
		4*8 + // the array the interface holds
		2*24 + 4*4 // lists and its one array
	assert.Equal(t, want, got)
	assert.Positive(t, visits)

	again, _ := z.measure([]sim.Node{a, b})
	assert.Equal(t, got, again, "a sizer is used again from scratch")
	one, _ := z.measure([]sim.Node{b})
	assert.Equal(t, self+16*8, one)
}

// fixedState is a state whose table, tagged sim.FixedTag, is what it was
// made with.
type fixedState struct {
	sim.Node
	table []string `state:"fixed"`
	done  []int64
}

// A field tagged as fixed is the scenario's, not the run's: the sizer
// neither counts it nor walks it.
func TestFixedStateIsNotCounted(t *testing.T) {
	table := make([]string, 100_000)
	for i := range table {
		table[i] = "an event's text"
	}
	var z nodeSizer
	got, visits := z.measure([]sim.Node{&fixedState{table: table, done: make([]int64, 4)}})
	assert.Equal(t, int64(reflect.TypeOf(fixedState{}).Size())+4*8, got)
	assert.Less(t, visits, 10, "the table is not walked")
}
