// Package clock holds Lamport and vector clock values: tick, merge, compare.
// The engine stamps both on every trace record, so every algorithm gets
// causal questions ("did a happen before b?") answered for free.
package clock

import "strconv"

// Lamport is a Lamport logical clock value.
type Lamport int64

// Tick returns the clock after a local event or a send.
func (l Lamport) Tick() Lamport { return l + 1 }

// Receive returns the clock after receiving a message stamped m.
func (l Lamport) Receive(m Lamport) Lamport { return max(l, m) + 1 }

// Vector is a vector clock: one counter per process. A nil Vector is all zeros.
type Vector []int32

// NewVector returns the zero vector for n processes.
func NewVector(n int) Vector { return make(Vector, n) }

// String writes the vector as the lessons do: [2,0,1].
func (v Vector) String() string { return Format(v) }

// Format writes any vector of counts as the lessons do, [2,0,1]: the
// engine's, and an algorithm's own (a vector clock with an increment d).
func Format[T ~int32 | ~int64](v []T) string {
	return string(AppendFormat(make([]byte, 0, 2+3*len(v)), v))
}

// AppendFormat appends v to b as Format writes it.
func AppendFormat[T ~int32 | ~int64](b []byte, v []T) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// FormatLog writes a vector as a ShiViz or GoVector log does, each
// process by name and zero entries left out: {"A":2, "B":1}. name names
// process i.
func FormatLog[T ~int32 | ~int64](v []T, name func(i int) string) string {
	b := append(make([]byte, 0, 2+8*len(v)), '{')
	for i, x := range v {
		if x != 0 {
			b = appendLogEntry(b, strconv.Quote(name(i)), int64(x))
		}
	}
	return string(append(b, '}'))
}

// AppendLog appends the vector to b as FormatLog writes it, given each
// process's name already quoted (strconv.Quote): a replayed log writes
// one for each of its events.
func AppendLog[T ~int32 | ~int64](b []byte, v []T, quoted []string) []byte {
	b = append(b, '{')
	for i, x := range v {
		if x != 0 {
			b = appendLogEntry(b, quoted[i], int64(x))
		}
	}
	return append(b, '}')
}

// appendLogEntry appends one entry of a clock in log form after the
// opening brace or the entries before it.
func appendLogEntry(b []byte, quoted string, x int64) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ", "...)
	}
	b = append(b, quoted...)
	b = append(b, ':')
	return strconv.AppendInt(b, x, 10)
}

// Clone returns an independent copy.
func (v Vector) Clone() Vector { return append(Vector(nil), v...) }

// At is entry i, 0 past the end (a nil Vector is all zeros).
func (v Vector) At(i int) int32 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// Tick increments process p's own entry in place.
func (v Vector) Tick(p int) { v[p]++ }

// Merge sets every entry to the maximum of v and m, in place.
func (v Vector) Merge(m Vector) {
	for i := range v {
		if i < len(m) && m[i] > v[i] {
			v[i] = m[i]
		}
	}
}

// Order is how two events relate causally.
type Order int

// The four possible relations of two vector stamps.
const (
	Equal Order = iota
	Before
	After
	Concurrent
)

var orderNames = [...]string{"equal", "happened before", "happened after", "concurrent"}

// String names the relation.
func (o Order) String() string { return orderNames[o] }

// Compare tells how the event stamped a relates to the event stamped b.
func Compare(a, b Vector) Order {
	less, greater := false, false
	for i := range max(len(a), len(b)) {
		if x, y := a.At(i), b.At(i); x < y {
			less = true
		} else if x > y {
			greater = true
		}
	}
	switch {
	case less && greater:
		return Concurrent
	case less:
		return Before
	case greater:
		return After
	}
	return Equal
}

// HappenedBefore reports whether a causally precedes b.
func HappenedBefore(a, b Vector) bool { return Compare(a, b) == Before }
