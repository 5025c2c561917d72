package python

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.starlark.net/starlark"

	"spacetime/core/sim"
)

// A state that holds itself, or holds one value many times over, costs
// what it holds to copy and to fingerprint, not what it would print: a
// list that holds itself, and a tuple and a list doubled sixty times
// (2^60 leaves), are copied and fingerprinted at once.
func TestValuesThatShareThemselves(t *testing.T) {
	cyclic := starlark.NewList(nil)
	_ = cyclic.Append(cyclic)
	var tuple starlark.Value = starlark.Tuple{starlark.MakeInt(1)}
	var list starlark.Value = starlark.NewList([]starlark.Value{starlark.MakeInt(1)})
	for range 60 {
		tuple = starlark.Tuple{tuple, tuple}
		list = starlark.NewList([]starlark.Value{list, list})
	}
	for name, v := range map[string]starlark.Value{"a list that holds itself": cyclic, "a tuple doubled": tuple, "a list doubled": list} {
		t.Run(name, func(t *testing.T) {
			state := starlark.NewDict(1)
			_ = state.SetKey(starlark.String("v"), v)
			c := copyDict(state)
			var a, b sim.Hash
			hashValue(&a, state)
			hashValue(&b, c)
			assert.Equal(t, a.Sum(), b.Sum(), "a copy has the fingerprint of what it copies")
			assert.NotEmpty(t, show(v, 80))
		})
	}
	var a, b sim.Hash
	one := starlark.NewList([]starlark.Value{starlark.MakeInt(1)})
	hashValue(&a, starlark.NewList([]starlark.Value{one, one}))
	hashValue(&b, starlark.NewList([]starlark.Value{one, starlark.NewList([]starlark.Value{starlark.MakeInt(1)})}))
	assert.NotEqual(t, a.Sum(), b.Sum(), "one list held twice is not two lists")
}
