package python

import (
	"errors"
	"fmt"
	"math/bits"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
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
// (a range, how many numbers it counts), 0 for a value that holds none; a
// dict's or a set's elements count HashedCost each.
func size(v starlark.Value) int {
	switch v := v.(type) {
	case starlark.String:
		return len(v)
	case starlark.Bytes:
		return len(v)
	case *starlark.Dict: // before Sequence, which a dict and a set are too
		return HashedCost * v.Len()
	case *starlark.Set:
		return HashedCost * v.Len()
	case starlark.Sequence: // a list, a tuple, a range
		return v.Len()
	}
	return 0
}

// HashedCost is what an element of a dict or a set counts for, against
// one of a list: each was hashed into a table, which takes as long as a
// few instructions.
const HashedCost = 8

// visiting are Starlark's builtins that read the whole of what they are
// given, or make a value as large: each call is charged for both. Those
// that compare or hash the elements (comparing) are charged for all that
// comparing reads.
var (
	visiting  = []string{"all", "any", "dict", "enumerate", "list", "max", "min", "reversed", "set", "sorted", "tuple", "zip"}
	comparing = map[string]bool{"dict": true, "max": true, "min": true, "set": true, "sorted": true}
)

// charged is a builtin charged for what it reads and makes.
func charged(b *starlark.Builtin) *starlark.Builtin {
	name := b.Name()
	compares, sorts := comparing[name], name == "sorted"
	hashes := name == "set" || name == "dict" // each element into the table it makes
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if compares {
			if err := chargeReading(t, args...); err != nil {
				return nil, err
			}
		}
		n := 0
		for _, a := range args {
			n += size(a)
		}
		switch {
		case sorts:
			n *= bits.Len(uint(n)) // its comparisons
		case hashes:
			n *= HashedCost // charged before the table is made
		}
		if err := charge(t, n); err != nil {
			return nil, err
		}
		v, err := b.CallInternal(t, args, kwargs)
		if err == nil && !hashes {
			err = charge(t, size(v))
		}
		return v, err
	})
}

// deepSize is how many elements and characters a value holds, all the
// way down, counting one it holds many times over each time (what
// comparing or hashing it reads), or more than limit once it passes
// limit: the walk stops there.
func deepSize(v starlark.Value, limit int) int {
	m := sizeMeasure{limit: limit}
	m.walk(v)
	return m.n
}

// sizeMeasure is deepSize's walk: a method rather than a closure, which
// would be made on the heap at every charged call (max, sorted, ...).
type sizeMeasure struct{ n, limit int }

func (m *sizeMeasure) walk(v starlark.Value) {
	if m.n > m.limit {
		return
	}
	switch x := v.(type) {
	case starlark.String:
		m.n += len(x)
	case starlark.Bytes:
		m.n += len(x)
	case *starlark.List:
		m.n++
		for i := range x.Len() {
			m.walk(x.Index(i))
		}
	case starlark.Tuple:
		m.n++
		for _, e := range x {
			m.walk(e)
		}
	case *starlark.Dict:
		m.n++
		for k, e := range x.Entries() {
			m.walk(k)
			m.walk(e)
		}
	case *starlark.Set:
		m.n++
		iter := x.Iterate()
		var e starlark.Value
		for iter.Next(&e) && m.n <= m.limit {
			m.walk(e)
		}
		iter.Done()
	default:
		m.n++
	}
}

// chargeReading charges a builtin or a method that compares or hashes
// the whole of its values (sorted, set, max, l.index(x), s.union(t)), all
// the way down, and refuses one that would read more than MaxValue: a
// value that holds another many times over would take far longer to
// compare than its size says. The operators ==, < and in, and a dict's
// key written d[k], are not charged (README says so; the server runs no
// program but those Spacetime ships).
func chargeReading(t *starlark.Thread, vs ...starlark.Value) error {
	n := 0
	for _, v := range vs {
		if n += deepSize(v, MaxValue); n > MaxValue {
			return fmt.Errorf("this would compare or hash more than %s elements, more than a program may at once (a value held many times over counts each time)", grouped(MaxValue))
		}
	}
	return charge(t, n)
}

// intWork is what multiplying or dividing numbers of these many bits
// reads, in elements as charge counts them, about as long as that many
// instructions: the product of their words, a sixteenth (a number of
// 65,536 bits multiplied by itself is charged 32,768 steps; divided, or
// written in digits, it takes about as long as 50,000 instructions).
func intWork(xBits, yBits int) int {
	return ElementsPerStep * (xBits/64 + 1) * (yBits/64 + 1) / 16
}

// binaryWork is what x op y computes beyond what it makes: the product
// or quotient of two numbers, or a format's numbers written in digits
// (printedSize counts that).
func binaryWork(op syntax.Token, x, y starlark.Value) int {
	xi, xInt := x.(starlark.Int)
	yi, yInt := y.(starlark.Int)
	switch {
	case xInt && yInt && (op == syntax.STAR || op == syntax.PERCENT || op == syntax.SLASHSLASH):
		return intWork(bitLen(xi), bitLen(yi))
	case op == syntax.PERCENT:
		if _, isText := x.(starlark.String); isText {
			return printWork(y, MaxValue)
		}
	}
	return 0
}

// MaxDigits bounds the text int() reads a number from: a number of
// MaxIntBits bits has 19,729 digits.
const MaxDigits = 20_000

// boundedInt is int(x), refusing a text of more than MaxDigits
// characters and charged for reading the digits.
func boundedInt(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x := starlark.Value(nil)
	if len(args) > 0 {
		x = args[0]
	}
	for _, kw := range kwargs {
		if k, _ := kw[0].(starlark.String); k == "x" {
			x = kw[1] // int(x="…")
		}
	}
	if x != nil {
		if s, ok := x.(starlark.String); ok {
			if len(s) > MaxDigits {
				return nil, fmt.Errorf("int: a number is written in at most %s characters (%s bits), got %s", grouped(MaxDigits), grouped(MaxIntBits), grouped(len(s)))
			}
			if err := charge(t, intWork(len(s)*10/3, len(s)*10/3)); err != nil {
				return nil, err
			}
		}
	}
	return starlark.Call(t, starlark.Universe["int"], args, kwargs)
}
