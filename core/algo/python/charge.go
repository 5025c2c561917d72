package python

import (
	"errors"
	"math/bits"

	"go.starlark.net/starlark"
)

// An interpreter step is one instruction, but one instruction can copy or
// visit a million elements (s = s + "…" on a long text, list(range(n)),
// sorted(l), d.items()). So that MaxCallSteps bounds a call's time and
// not only its instructions, the operations that copy or visit a whole
// value are charged a step for every ElementsPerStep elements (or
// characters) they make or read, about what an instruction costs (sum,
// which adds each element as an instruction would, a step an element;
// sorted, a step for each of its comparisons): a loop that copies a long
// text each time round ends at the step bound as an empty endless loop
// does, and at the same step natively and in the browser.
const ElementsPerStep = 2

// charge counts an operation over n elements against the call's steps,
// and ends the call, before the operation, once they pass the bound.
func charge(t *starlark.Thread, n int) error {
	if t != nil && n > ElementsPerStep {
		if t.Steps += uint64(n / ElementsPerStep); t.Steps >= MaxCallSteps {
			return errTooManySteps
		}
	}
	return nil
}

// errTooManySteps is the interpreter's own words for the step bound,
// which evalError explains.
var errTooManySteps = errors.New("too many steps")

// size is how many elements or characters a value holds at its top level
// (a range, how many numbers it counts), 0 for a value that holds none.
func size(v starlark.Value) int {
	switch v := v.(type) {
	case starlark.String:
		return len(v)
	case starlark.Bytes:
		return len(v)
	case starlark.Sequence: // a list, a tuple, a range
		return v.Len()
	case *starlark.Dict:
		return v.Len()
	case *starlark.Set:
		return v.Len()
	}
	return 0
}

// visiting are Starlark's builtins that read the whole of what they are
// given, or make a value as large: each call is charged for both.
var visiting = []string{"all", "any", "dict", "enumerate", "list", "max", "min", "reversed", "set", "sorted", "tuple", "zip"}

// charged is a builtin charged for what it reads and makes.
func charged(b *starlark.Builtin) *starlark.Builtin {
	return starlark.NewBuiltin(b.Name(), func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		n := 0
		for _, a := range args {
			n += size(a)
		}
		if b.Name() == "sorted" {
			n *= bits.Len(uint(n)) // its comparisons
		}
		if err := charge(t, n); err != nil {
			return nil, err
		}
		v, err := b.CallInternal(t, args, kwargs)
		if err == nil {
			err = charge(t, size(v))
		}
		return v, err
	})
}
