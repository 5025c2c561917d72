package python

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"spacetime/core/sim"
)

// A process's state is data: None, booleans, numbers, texts and the
// lists, tuples, dicts and sets made of them. The engine copies it for its
// keyframes and the search (copy), fingerprints it (hashValue), and a
// message carries such data as words (encode, decode), so that the engine
// copies and delivers it as it does any algorithm's.

// copyValue is a deep copy of v: its lists, dicts and sets are new, and
// one that v holds twice (a tuple too) is copied once, so that a value
// that shares itself costs what it holds, not what it prints.
func copyValue(v starlark.Value, memo map[any]starlark.Value) starlark.Value {
	switch x := v.(type) {
	case *starlark.List:
		if c, ok := memo[x]; ok {
			return c
		}
		elems := make([]starlark.Value, x.Len())
		c := starlark.NewList(nil)
		memo[x] = c
		for i := range elems {
			elems[i] = copyValue(x.Index(i), memo)
		}
		*c = *starlark.NewList(elems)
		return c
	case *starlark.Dict:
		if c, ok := memo[x]; ok {
			return c
		}
		c := starlark.NewDict(x.Len())
		memo[x] = c
		for k, v := range x.Entries() {
			_ = c.SetKey(k, copyValue(v, memo)) // keys are hashable, so immutable
		}
		return c
	case *starlark.Set:
		if c, ok := memo[x]; ok {
			return c
		}
		c := starlark.NewSet(x.Len())
		memo[x] = c
		iter := x.Iterate()
		var e starlark.Value
		for iter.Next(&e) {
			_ = c.Insert(e)
		}
		iter.Done()
		return c
	case starlark.Tuple:
		if len(x) == 0 {
			return x
		}
		id := identity(x)
		if c, ok := memo[id]; ok {
			return c
		}
		c := make(starlark.Tuple, len(x))
		for i, e := range x {
			c[i] = copyValue(e, memo)
		}
		memo[id] = c
		return c
	case *message:
		return &message{kind: x.kind, sender: x.sender, receiver: x.receiver, fields: copyValue(x.dict(), memo).(*starlark.Dict)}
	}
	return v // immutable: a number, a text, None, a frozen function
}

// tupleID is a tuple's identity: its elements' array and length (a tuple
// is a slice, which cannot be a map's key).
type tupleID struct {
	first *starlark.Value
	n     int
}

// identity is what names a container that a value may hold more than
// once, as a map's key: the pointer of a list, dict or set, a tuple's
// tupleID; nil for a value that holds nothing.
func identity(v starlark.Value) any {
	switch x := v.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set:
		return x
	case starlark.Tuple:
		if len(x) > 0 {
			return tupleID{&x[0], len(x)}
		}
	}
	return nil
}

// copyDict copies a dict deeply: a dict of plain values (numbers,
// texts, booleans) without the bookkeeping of shared containers.
func copyDict(d *starlark.Dict) *starlark.Dict {
	c := starlark.NewDict(d.Len())
	for k, v := range d.Entries() {
		switch v.(type) {
		case *starlark.List, *starlark.Dict, *starlark.Set, starlark.Tuple, *message:
			return copyValue(d, map[any]starlark.Value{}).(*starlark.Dict)
		}
		_ = c.SetKey(k, v)
	}
	return c
}

// frozenCopy is a deep copy that cannot be changed: what an invariant
// reads.
func frozenCopy(d *starlark.Dict) *starlark.Dict {
	c := copyDict(d)
	c.Freeze()
	return c
}

// The tags of encoded values.
const (
	tagNone int64 = iota
	tagFalse
	tagTrue
	tagInt
	tagBigInt
	tagFloat
	tagString
	tagList
	tagTuple
	tagDict
	tagSet
	tagBytes
	// tagRef, in a fingerprint only, is a container met before.
	tagRef
)

// MaxMessageWords bounds the words a message's fields are carried in
// (8 bytes each).
const MaxMessageWords = 1 << 16

// encoder writes values as words.
type encoder struct {
	words []int64
	err   error
}

func (e *encoder) put(w ...int64) {
	if e.err != nil {
		return
	}
	if len(e.words)+len(w) > MaxMessageWords {
		e.err = fmt.Errorf("a message's fields may take at most %s words (8 bytes each)", grouped(MaxMessageWords))
		return
	}
	e.words = append(e.words, w...)
}

func (e *encoder) text(s string) {
	e.put(int64(len(s)))
	for i := 0; i < len(s) && e.err == nil; i += 8 {
		var w uint64
		for j := 0; j < 8 && i+j < len(s); j++ {
			w |= uint64(s[i+j]) << (8 * j)
		}
		e.put(int64(w))
	}
}

func (e *encoder) value(v starlark.Value) {
	if e.err != nil {
		return
	}
	switch x := v.(type) {
	case starlark.NoneType:
		e.put(tagNone)
	case starlark.Bool:
		if x {
			e.put(tagTrue)
		} else {
			e.put(tagFalse)
		}
	case starlark.Int:
		if i, ok := x.Int64(); ok {
			e.put(tagInt, i)
		} else {
			e.put(tagBigInt)
			e.text(x.String())
		}
	case starlark.Float:
		e.put(tagFloat, int64(math.Float64bits(float64(x))))
	case starlark.String:
		e.put(tagString)
		e.text(string(x))
	case starlark.Bytes:
		e.put(tagBytes)
		e.text(string(x))
	case *starlark.List:
		e.put(tagList, int64(x.Len()))
		for i := range x.Len() {
			e.value(x.Index(i))
		}
	case starlark.Tuple:
		e.put(tagTuple, int64(len(x)))
		for _, el := range x {
			e.value(el)
		}
	case *starlark.Dict:
		e.put(tagDict, int64(x.Len()))
		for k, v := range x.Entries() {
			e.value(k)
			e.value(v)
		}
	case *starlark.Set:
		e.put(tagSet, int64(x.Len()))
		iter := x.Iterate()
		var el starlark.Value
		for iter.Next(&el) {
			e.value(el)
		}
		iter.Done()
	default:
		e.err = fmt.Errorf("a message may carry None, booleans, numbers, texts, and lists, tuples, dicts and sets of them, not a %s", v.Type())
	}
}

// encodeFields writes a message's fields, given by name, as words: as
// a dict of them is written.
func encodeFields(fields []starlark.Tuple) ([]int64, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	e := encoder{words: make([]int64, 0, 4*len(fields)+2)}
	e.put(tagDict, int64(len(fields)))
	for _, kv := range fields {
		e.value(kv[0])
		e.value(kv[1])
	}
	return e.words, e.err
}

// decoder reads what encoder wrote.
type decoder struct {
	words []int64
	at    int
}

func (d *decoder) next() int64 {
	if d.at >= len(d.words) {
		return tagNone
	}
	d.at++
	return d.words[d.at-1]
}

func (d *decoder) text() string {
	n := int(d.next())
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i += 8 {
		w := uint64(d.next())
		for j := 0; j < 8 && i+j < n; j++ {
			b.WriteByte(byte(w >> (8 * j)))
		}
	}
	return b.String()
}

func (d *decoder) value() starlark.Value {
	switch d.next() {
	case tagFalse:
		return starlark.False
	case tagTrue:
		return starlark.True
	case tagInt:
		return intValue(d.next())
	case tagBigInt:
		i, _ := new(big.Int).SetString(d.text(), 10)
		return starlark.MakeBigInt(i)
	case tagFloat:
		return starlark.Float(math.Float64frombits(uint64(d.next())))
	case tagString:
		return starlark.String(d.text())
	case tagBytes:
		return starlark.Bytes(d.text())
	case tagList:
		n := int(d.next())
		elems := make([]starlark.Value, n)
		for i := range elems {
			elems[i] = d.value()
		}
		return starlark.NewList(elems)
	case tagTuple:
		t := make(starlark.Tuple, d.next())
		for i := range t {
			t[i] = d.value()
		}
		return t
	case tagDict:
		n := int(d.next())
		m := starlark.NewDict(n)
		for range n {
			k := d.value()
			_ = m.SetKey(k, d.value())
		}
		return m
	case tagSet:
		n := int(d.next())
		s := starlark.NewSet(n)
		for range n {
			_ = s.Insert(d.value())
		}
		return s
	}
	return starlark.None
}

// skip passes over one value.
func (d *decoder) skip() {
	switch d.next() {
	case tagInt, tagFloat:
		d.next()
	case tagBigInt, tagString, tagBytes:
		n := int(d.next())
		d.at += (n + 7) / 8
	case tagList, tagTuple, tagSet:
		for range int(d.next()) {
			d.skip()
		}
	case tagDict:
		for range 2 * int(d.next()) {
			d.skip()
		}
	}
}

// field reads one field of a message's words by name, or nil.
func field(words []int64, name string) starlark.Value {
	d := decoder{words: words}
	if len(words) == 0 || d.next() != tagDict {
		return nil
	}
	for range int(d.next()) {
		at := d.at
		if d.next() == tagString && d.text() == name {
			return d.value()
		}
		d.at = at
		d.skip()
		d.skip()
	}
	return nil
}

// decode reads a message's fields.
func decode(words []int64) *starlark.Dict {
	if len(words) == 0 {
		return starlark.NewDict(0)
	}
	d := decoder{words: words}
	if m, ok := d.value().(*starlark.Dict); ok {
		return m
	}
	return starlark.NewDict(0)
}

// hashValue writes a value to a fingerprint. A container met again (a
// value that holds itself, or holds one list twice) is written as a
// reference to its first meeting, so that the walk is as long as what the
// value holds, not what it prints.
func hashValue(h *sim.Hash, v starlark.Value) {
	(&valueHasher{h: h}).hash(v)
}

// valueHasher writes values to a fingerprint, remembering the containers
// it has met (the map made at the first that holds another).
type valueHasher struct {
	h    *sim.Hash
	seen map[any]int
}

// met says whether the container v was met before (and writes the
// reference to it), or remembers it.
func (w *valueHasher) met(v starlark.Value) bool {
	id := identity(v)
	if id == nil {
		return false
	}
	if w.seen == nil {
		w.seen = map[any]int{}
	}
	if at, ok := w.seen[id]; ok {
		w.h.Uint(uint64(tagRef))
		w.h.Int(int64(at))
		return true
	}
	w.seen[id] = len(w.seen)
	return false
}

func (w *valueHasher) hash(v starlark.Value) {
	h := w.h
	switch x := v.(type) {
	case starlark.NoneType:
		h.Uint(uint64(tagNone))
	case starlark.Bool:
		h.Bool(bool(x))
	case starlark.Int:
		h.Uint(uint64(tagInt))
		if i, ok := x.Int64(); ok {
			h.Int(i)
		} else {
			h.String(x.String())
		}
	case starlark.Float:
		h.Uint(math.Float64bits(float64(x)))
	case starlark.String:
		h.String(string(x))
	case *starlark.List:
		if w.met(x) {
			return
		}
		h.Uint(uint64(tagList))
		h.Int(int64(x.Len()))
		for i := range x.Len() {
			w.hash(x.Index(i))
		}
	case starlark.Tuple:
		if w.met(x) {
			return
		}
		h.Uint(uint64(tagTuple))
		h.Int(int64(len(x)))
		for _, e := range x {
			w.hash(e)
		}
	case *starlark.Dict:
		if w.met(x) {
			return
		}
		h.Uint(uint64(tagDict))
		h.Int(int64(x.Len()))
		for k, v := range x.Entries() {
			w.hash(k)
			w.hash(v)
		}
	default:
		h.String(v.Type())
		h.String(show(v, 200))
	}
}

// show is a value as a program would print it, cut to about limit
// characters: a process's state in the Processes panel.
func show(v starlark.Value, limit int) string {
	if s, ok := v.(starlark.String); ok && len(s) <= limit {
		return string(s)
	}
	if printedSize(v, 4*limit) > 4*limit {
		switch x := v.(type) {
		case starlark.String:
			return clip(string(x), limit)
		case starlark.Sequence:
			return fmt.Sprintf("a %s of %s elements", v.Type(), grouped(x.Len()))
		}
		return "a large " + v.Type()
	}
	return clip(v.String(), limit)
}

// clip cuts a text to limit characters, ending it with "…" when cut.
func clip(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-1]) + "…"
}

// smallInts are the numbers from minSmall to maxSmall as values, made
// once: on js/wasm a starlark.Int is two words, which every conversion to
// a starlark.Value allocates (natively it is one tagged word), and a step
// hands a program a few such numbers (p.id, p.n, m.sender, its fields).
const minSmall, maxSmall = -256, 4096

var smallInts = func() []starlark.Value {
	vs := make([]starlark.Value, maxSmall-minSmall+1)
	for i := range vs {
		vs[i] = starlark.MakeInt(i + minSmall)
	}
	return vs
}()

// intValue is n as a program reads it.
func intValue[T ~int | ~int64](n T) starlark.Value {
	if n >= minSmall && n <= maxSmall {
		return smallInts[int(n)-minSmall]
	}
	return starlark.MakeInt64(int64(n))
}
