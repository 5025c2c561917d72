package faults

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// Args are a fault's arguments, as a script entry, a link or the page
// gives them. Node, Target and Msg are what a menu's subject fixes (the
// clicked process, the ends of the clicked link, the clicked message),
// sim.None when not given; every other argument is a Value kept under its
// param's field, whatever its Kind.
type Args struct {
	Node   sim.NodeID
	Target sim.NodeID
	Msg    int
	// values are the other arguments, in the order they were set; never
	// changed in place, so that copies of Args may share them.
	values []fieldValue
}

type fieldValue struct {
	field string
	v     Value
}

// Value is one argument's value, of its Kind: a number (ticks, an
// offset, a flag as 0 or 1, whatever the kind counts) or groups of
// processes. A Kind makes its values (Kind.Num, Kind.Bool, Kind.Of).
type Value struct {
	Kind   *Kind
	Int    int64
	Groups [][]sim.NodeID
}

// NoArgs are arguments with no process, target or message.
func NoArgs() Args { return Args{Node: sim.None, Target: sim.None, Msg: sim.None} }

// AtProcess are the arguments of a fault at process id (crash, recover…).
func AtProcess(id sim.NodeID) Args {
	a := NoArgs()
	a.Node = id
	return a
}

// OfMessage are the arguments of a fault of message id (drop, delay…).
func OfMessage(id int) Args {
	a := NoArgs()
	a.Msg = id
	return a
}

// With is a copy of a with the argument of the given field set to v. A
// value its kind would not write (a false flag) unsets the argument,
// which means the same.
func (a Args) With(field string, v Value) Args {
	a = a.without(field)
	if v.Kind != nil && !v.Kind.worth(v) {
		return a
	}
	a.values = append(a.values, fieldValue{field: field, v: v}) // without copied them
	return a
}

// without is a copy of a with no argument of the given field.
func (a Args) without(field string) Args {
	values := make([]fieldValue, 0, len(a.values))
	for _, fv := range a.values {
		if fv.field != field {
			values = append(values, fv)
		}
	}
	if len(values) == 0 {
		values = nil
	}
	a.values = values
	return a
}

// Value is the argument of the given field, and whether it is set.
func (a Args) Value(field string) (Value, bool) {
	for _, fv := range a.values {
		if fv.field == field {
			return fv.v, true
		}
	}
	return Value{}, false
}

// Int is a number argument (0 when it is not set).
func (a Args) Int(field string) int64 {
	v, _ := a.Value(field)
	return v.Int
}

// Ticks is a number argument as ticks.
func (a Args) Ticks(field string) sim.Time { return sim.Time(a.Int(field)) }

// Flag is a true-or-false argument (false when it is not set).
func (a Args) Flag(field string) bool { return a.Int(field) != 0 }

// Groups is a groups argument.
func (a Args) Groups(field string) [][]sim.NodeID {
	v, _ := a.Value(field)
	return v.Groups
}

// MarshalJSON writes the arguments as a trace records them: node, target
// and msg, then each other argument that its kind would write in a
// scenario (not a zero duration, not a false flag), by field name.
func (a Args) MarshalJSON() ([]byte, error) {
	b := []byte(`{"node":`)
	b = strconv.AppendInt(b, int64(a.Node), 10)
	b = append(b, `,"target":`...)
	b = strconv.AppendInt(b, int64(a.Target), 10)
	b = append(b, `,"msg":`...)
	b = strconv.AppendInt(b, int64(a.Msg), 10)
	values := slices.Clone(a.values)
	slices.SortFunc(values, func(x, y fieldValue) int { return strings.Compare(x.field, y.field) })
	for _, fv := range values {
		k := fv.v.Kind
		if k == nil || !k.worth(fv.v) {
			continue
		}
		raw, err := json.Marshal(k.plain(fv.v))
		if err != nil {
			return nil, err
		}
		b = append(b, ',')
		b = strconv.AppendQuote(b, fv.field)
		b = append(b, ':')
		b = append(b, raw...)
	}
	return append(b, '}'), nil
}
