package engine

import (
	"reflect"

	"spacetime/core/sim"
)

// nodeSizer reckons the memory the processes' states hold, by walking
// them with reflection. The engine cannot know what an algorithm keeps (a
// log, its checkpoints, a queue of tasks), and a state that grows with the
// run would otherwise pass a budget unseen: twelve processes that each
// save a checkpoint every tick keep more than the trace does.
//
// A walk counts what the states point to: the arrays of slices (their
// capacity), strings, maps (about twice their entries) and what pointers
// and interfaces lead to, each pointer, map and array of pointers once, so
// that what the processes share (their parameters) and cycles are counted
// once. It does not count what a walk from the head's processes does not
// reach: the old arrays of a slice that grew, kept by the keyframes'
// copies (see sim.Handoff), are at most as large as the new one.
type nodeSizer struct {
	seen map[uintptr]struct{}
	// deep caches, by type, whether a value of it holds pointers, and
	// fields a struct type's fields that do: the rest cost their size.
	deep   map[reflect.Type]bool
	fields map[reflect.Type][]int
	visits int
}

// measure returns the bytes the nodes' states hold, beyond the nodes
// themselves, and how many values it visited to find them out.
func (z *nodeSizer) measure(nodes []sim.Node) (bytes int64, visits int) {
	if z.seen == nil {
		z.seen = map[uintptr]struct{}{}
		z.deep = map[reflect.Type]bool{}
		z.fields = map[reflect.Type][]int{}
	}
	clear(z.seen)
	z.visits = 0
	for _, nd := range nodes {
		if nd != nil {
			bytes += z.walk(reflect.ValueOf(&nd).Elem())
		}
	}
	return bytes, z.visits
}

// walk returns the bytes v refers to, beyond its own size.
func (z *nodeSizer) walk(v reflect.Value) int64 {
	z.visits++
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || z.met(v.Pointer()) {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + z.walk(e)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
			return z.walk(e) // held in the interface itself
		}
		return int64(e.Type().Size()) + z.walk(e)
	case reflect.String:
		return int64(v.Len())
	case reflect.Slice:
		if v.Cap() == 0 {
			return 0
		}
		et := v.Type().Elem()
		bytes := int64(v.Cap()) * int64(et.Size())
		if !z.holdsPointers(et) {
			return bytes // a flat array cannot lead anywhere, nor be a cycle
		}
		if z.met(v.Pointer()) {
			return 0
		}
		for i := range v.Len() {
			bytes += z.walk(v.Index(i))
		}
		return bytes
	case reflect.Array:
		if !z.holdsPointers(v.Type()) {
			return 0
		}
		var bytes int64
		for i := range v.Len() {
			bytes += z.walk(v.Index(i))
		}
		return bytes
	case reflect.Struct:
		var bytes int64
		for _, i := range z.pointerFields(v.Type()) {
			bytes += z.walk(v.Field(i))
		}
		return bytes
	case reflect.Map:
		if v.IsNil() || z.met(v.Pointer()) {
			return 0
		}
		t := v.Type()
		// a map's table holds its entries with room to spare
		bytes := 2 * int64(v.Len()) * int64(t.Key().Size()+t.Elem().Size()+1)
		if z.holdsPointers(t.Key()) || z.holdsPointers(t.Elem()) {
			for it := v.MapRange(); it.Next(); {
				bytes += z.walk(it.Key()) + z.walk(it.Value())
			}
		}
		return bytes
	}
	return 0 // numbers, booleans; channels and functions are no state
}

// met reports whether the walk has been at p before, and notes it.
func (z *nodeSizer) met(p uintptr) bool {
	if _, ok := z.seen[p]; ok {
		return true
	}
	z.seen[p] = struct{}{}
	return false
}

// holdsPointers reports whether a value of type t refers to memory
// outside itself.
func (z *nodeSizer) holdsPointers(t reflect.Type) bool {
	if deep, ok := z.deep[t]; ok {
		return deep
	}
	deep := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.String, reflect.Slice, reflect.Map:
		deep = true
	case reflect.Array:
		deep = t.Len() > 0 && z.holdsPointers(t.Elem())
	case reflect.Struct:
		deep = len(z.pointerFields(t)) > 0
	}
	z.deep[t] = deep
	return deep
}

// pointerFields lists the fields of struct type t that refer to memory
// outside the struct, but for those tagged sim.FixedTag.
func (z *nodeSizer) pointerFields(t reflect.Type) []int {
	if fs, ok := z.fields[t]; ok {
		return fs
	}
	fs := []int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if z.holdsPointers(f.Type) && f.Tag.Get("state") != "fixed" { // sim.FixedTag: the scenario's
			fs = append(fs, i)
		}
	}
	z.fields[t] = fs
	return fs
}
