package faults

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// EncodeArgs writes a fault's arguments for a link's input log, after its
// letter: its params in order, separated by dots, processes by number (from
// 1), flags as 0 or 1, groups as 1~2_3~4~5; optional params left out at the
// end are not written. "p2.15" pauses process 2 for 15 ticks.
func (f *Fault) EncodeArgs(a Args) string {
	parts := make([]string, len(f.Params))
	given := 0
	for i, p := range f.Params {
		switch p.Kind {
		case ParamNode:
			parts[i] = nodeText(a.Node)
		case ParamTarget:
			parts[i] = nodeText(a.Target)
		case ParamMsg:
			parts[i] = strconv.Itoa(a.Msg)
		case ParamTicks:
			parts[i] = strconv.FormatInt(int64(a.For), 10)
		case ParamOffset:
			parts[i] = strconv.FormatInt(int64(a.By), 10)
		case ParamFlag:
			parts[i] = "0"
			if p.flag(a) {
				parts[i] = "1"
			}
		case ParamGroups:
			groups := make([]string, len(a.Groups))
			for j, g := range a.Groups {
				ids := make([]string, len(g))
				for k, id := range g {
					ids[k] = strconv.Itoa(id.Number())
				}
				groups[j] = strings.Join(ids, "~")
			}
			parts[i] = strings.Join(groups, "_")
		}
		if !p.Optional || p.given(a) {
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

// flag reads a flag param's value.
func (p Param) flag(a Args) bool {
	if p.Field == "on" {
		return a.On
	}
	return a.OneWay
}

// given reports whether an optional param holds a value worth writing.
func (p Param) given(a Args) bool {
	switch p.Kind {
	case ParamNode:
		return a.Node != sim.None
	case ParamTarget:
		return a.Target != sim.None
	case ParamFlag:
		return p.flag(a)
	}
	return true
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
		if p.Kind == ParamGroups {
			groups, err := decodeGroups(text, firstProcess)
			if err != nil {
				return a, err
			}
			a.Groups = groups
			continue
		}
		x, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return a, fmt.Errorf("%q is not a number", short(text))
		}
		switch p.Kind {
		case ParamNode, ParamTarget:
			id := sim.NodeID(x - int64(firstProcess))
			if x < int64(firstProcess) || x > 1<<20 {
				return a, fmt.Errorf("there is no process %d", x)
			}
			if p.Kind == ParamNode {
				a.Node = id
			} else {
				a.Target = id
			}
		case ParamMsg:
			if x < 0 || x > 1<<40 {
				return a, fmt.Errorf("there is no message #%d", x)
			}
			a.Msg = int(x)
		case ParamTicks:
			a.For = sim.Time(x)
		case ParamOffset:
			a.By = sim.Time(x)
		case ParamFlag:
			if x != 0 && x != 1 {
				return a, fmt.Errorf("%s is 0 or 1, got %d", p.Field, x)
			}
			if p.Field == "on" {
				a.On = x == 1
			} else {
				a.OneWay = x == 1
			}
		}
	}
	return a, nil
}

func decodeGroups(text string, firstProcess int) ([][]sim.NodeID, error) {
	var groups [][]sim.NodeID
	for _, g := range strings.Split(text, "_") {
		var ids []sim.NodeID
		for _, s := range strings.Split(g, "~") {
			x, err := strconv.Atoi(s)
			if err != nil || x < firstProcess || x > 1<<20 {
				return nil, fmt.Errorf("%q is not a process number", short(s))
			}
			ids = append(ids, sim.NodeID(x-firstProcess))
		}
		groups = append(groups, ids)
	}
	return groups, nil
}

// Given says which arguments of a fault a set of Args holds, for
// validating arguments that came from a link rather than a document.
func (f *Fault) Given(a Args) func(field string) bool {
	return func(field string) bool {
		for _, p := range f.Params {
			if p.Field == field {
				return !p.Optional || p.given(a)
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
