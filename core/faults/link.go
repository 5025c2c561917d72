package faults

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// EncodeArgs writes a fault's arguments for a link's input log, after its
// letter: its params in order, each as its kind writes it, separated by
// dots (processes by number from 1, flags as 0 or 1, groups as
// 1~2_3~4~5); optional params left out at the end are not written. "p2.15"
// pauses process 2 for 15 ticks.
func (f *Fault) EncodeArgs(a Args) string {
	parts := make([]string, len(f.Params))
	given := 0
	for i, p := range f.Params {
		v, ok := p.Get(a)
		parts[i] = p.Kind.Encode(v)
		if !p.Optional || ok {
			given = i + 1
		}
	}
	return string(f.Letter) + strings.Join(parts[:given], ".")
}

func nodeText(id sim.NodeID) string {
	if id == sim.None {
		return "0"
	}
	return strconv.Itoa(id.Number())
}

// DecodeArgs reads what EncodeArgs wrote (the text after the letter).
// firstProcess is the number of the first process: 1 in links of today,
// 0 in the first version's links, which counted processes from 0.
func (f *Fault) DecodeArgs(text string, firstProcess int) (Args, error) {
	a := NoArgs()
	var fields []string
	if text != "" {
		fields = strings.Split(text, ".")
	}
	required := 0
	for _, p := range f.Params {
		if !p.Optional {
			required++
		}
	}
	if len(fields) < required || len(fields) > len(f.Params) {
		if required == len(f.Params) {
			return a, fmt.Errorf("%s takes %d number(s), got %d", f.Name, required, len(fields))
		}
		return a, fmt.Errorf("%s takes %d to %d number(s), got %d", f.Name, required, len(f.Params), len(fields))
	}
	for i, text := range fields {
		p := f.Params[i]
		v, err := p.Kind.Decode(text, firstProcess)
		if of, ok := err.(ofField); ok {
			return a, fmt.Errorf("%s %s", p.Field, of)
		}
		if err != nil {
			return a, err
		}
		a = p.Set(a, v)
	}
	return a, nil
}

// Given says which arguments of a fault a set of Args holds, for
// validating arguments that came from a link rather than a document.
func (f *Fault) Given(a Args) func(field string) bool {
	return func(field string) bool {
		for _, p := range f.Params {
			if p.Field == field {
				_, ok := p.Get(a)
				return !p.Optional || ok
			}
		}
		return false
	}
}

// short keeps what a link said short enough to quote in an error.
func short(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:24]) + "…"
	}
	return s
}
