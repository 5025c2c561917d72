package sim

import (
	"math"
	"reflect"
	"sort"
)

// Fingerprinter is a node that writes its own fingerprint: what a schedule
// search compares to know it has been in a state before. A node that is
// not one is fingerprinted by its whole value (see Hash.Value), which is
// always safe; a node writes its own only to leave out what cannot change
// what it does next (a count kept for display), so that more states match.
type Fingerprinter interface {
	Fingerprint(h *Hash)
}

// Fingerprint is a node's fingerprint: equal for equal states (a node and
// its Clone), and different, but for a one in 2⁶⁴ chance, for states that
// differ in anything the node holds.
func Fingerprint(n Node) uint64 {
	var h Hash
	h.Node(n)
	return h.Sum()
}

// Hash accumulates a 64-bit hash of the values written to it: a word at
// a time, each mixed in with a multiply and a shift (texts a byte at a
// time, as FNV-1a does). The zero value is ready to use.
type Hash struct{ sum uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	wordMix   = 0xbf58476d1ce4e5b9 // splitmix64's
)

// Sum is the hash of what was written.
func (h *Hash) Sum() uint64 {
	if h.sum == 0 {
		return fnvOffset
	}
	return h.sum
}

// Uint writes a number.
func (h *Hash) Uint(v uint64) {
	s := (h.Sum() ^ v) * wordMix
	h.sum = s ^ s>>31
}

// Int writes a signed number.
func (h *Hash) Int(v int64) { h.Uint(uint64(v)) }

// Bool writes a truth value.
func (h *Hash) Bool(v bool) {
	if v {
		h.Uint(1)
	} else {
		h.Uint(0)
	}
}

// String writes a text, its length first, so that "ab","c" and "a","bc"
// differ.
func (h *Hash) String(s string) {
	h.Uint(uint64(len(s)))
	x := h.Sum()
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= fnvPrime
	}
	h.sum = x
}

// Node writes a node's fingerprint: its own, or its whole value.
func (h *Hash) Node(n Node) {
	if f, ok := n.(Fingerprinter); ok {
		f.Fingerprint(h)
		return
	}
	h.Value(n)
}

// Value writes the whole of v, as reflection sees it: every field,
// exported or not, of every struct; every element of slices and arrays,
// their lengths first; the targets of pointers; a map's entries in any
// order (each entry is hashed apart and the entries' hashes are added);
// an interface's dynamic type and value. Functions and channels are
// left out: a node's state is data.
func (h *Hash) Value(v any) {
	h.value(reflect.ValueOf(v), 0)
}

// maxDepth bounds how deep Value follows pointers, so that a cycle ends.
const maxDepth = 32

func (h *Hash) value(v reflect.Value, depth int) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.Invalid:
		h.Uint(0)
	case reflect.Bool:
		h.Bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		h.Int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		h.Uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		h.Uint(math.Float64bits(v.Float()))
	case reflect.String:
		h.String(v.String())
	case reflect.Slice, reflect.Array:
		n := v.Len()
		h.Uint(uint64(n))
		for i := range n {
			h.value(v.Index(i), depth)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			h.value(v.Field(i), depth)
		}
	case reflect.Pointer:
		if v.IsNil() {
			h.Uint(0)
			return
		}
		h.Uint(1)
		h.value(v.Elem(), depth+1)
	case reflect.Interface:
		if v.IsNil() {
			h.Uint(0)
			return
		}
		h.String(v.Elem().Type().String())
		h.value(v.Elem(), depth+1)
	case reflect.Map:
		h.Uint(uint64(v.Len()))
		sums := make([]uint64, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			var e Hash
			e.value(it.Key(), depth+1)
			e.value(it.Value(), depth+1)
			sums = append(sums, e.Sum())
		}
		sort.Slice(sums, func(i, j int) bool { return sums[i] < sums[j] })
		for _, s := range sums {
			h.Uint(s)
		}
	}
}
