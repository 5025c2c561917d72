package faults

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// Kind is a kind of fault argument, with everything the product does with
// one, in one place: its words in errors, its own checks, how a scenario
// file and a link write it, how the page's menu asks for it and how a
// campaign draws it. A fault's Params name a Kind each; a fault with an
// argument of a new kind is a new Kind beside it, here, and no other
// package changes.
type Kind struct {
	// Name names the kind in the README and in tests.
	Name string
	// Words says what an argument of the kind in field asks for, for an
	// error that misses it: `how many ticks ("for", at least 1)`.
	Words func(field string) string
	// Check checks a value among n processes, beside the fault's other
	// arguments a (nil: any value will do).
	Check func(v Value, a Args, n int) error
	// Read reads a value as a scenario file gives it; procs reads a
	// process as the file names it. An error may be a *strictjson.FieldError
	// whose path is inside the value ("[1][0]").
	Read func(raw json.RawMessage, procs Procs) (Value, error)
	// Write writes a value for a scenario file; ref writes a process.
	Write func(v Value, ref func(sim.NodeID) json.RawMessage) json.RawMessage
	// Encode writes a value for a link, and Decode reads it back; a link
	// counts processes from firstProcess (see DecodeArgs). Neither may use
	// a dot, which separates a link's arguments.
	Encode func(v Value) string
	Decode func(text string, firstProcess int) (Value, error)
	// Worth says an optional argument's value is worth writing (a false
	// flag is not); nil: every value is.
	Worth func(v Value) bool
	// Input is how the page's menu asks for it.
	Input Input
	// Draw draws a value at random among n processes, for a campaign or
	// the conformance suite, leaning towards what finds bugs.
	Draw func(d *Dice, n int) Value

	// anchor says which field of Args holds the node, target and msg
	// kinds' values; the others' are kept by their param's field.
	anchor anchor
}

type anchor uint8

const (
	notAnchored anchor = iota
	atNode
	atTarget
	atMsg
)

// Procs reads a process as a scenario file names it: by name, or by
// number from 1.
type Procs func(raw json.RawMessage) (sim.NodeID, error)

// Input is how the page's menu asks for an argument.
type Input struct {
	Type InputType
	// Min, Max and Default bound a number and fill it in at first.
	Min, Max, Default int64
	// Placeholder is an example of a text, for processes named names.
	Placeholder func(names []string) string
	// Parse reads a text as the learner typed it, for processes named
	// names.
	Parse func(text string, names []string) (Value, error)
}

// InputType is the kind of control that asks for an argument.
type InputType uint8

// The controls.
const (
	// InputFixed is no control: the menu's subject gives it (a clicked
	// process or message).
	InputFixed InputType = iota
	// InputProcess is a list of the processes it can name.
	InputProcess
	// InputNumber is a number field, between Min and Max.
	InputNumber
	// InputCheck is a check box; a required flag is a button per value.
	InputCheck
	// InputText is a text field that Parse reads.
	InputText
)

// Num is a value of kind k: a number.
func (k *Kind) Num(x int64) Value { return Value{Kind: k, Int: x} }

// Bool is a value of kind k: 1 for true, 0 for false.
func (k *Kind) Bool(on bool) Value {
	if on {
		return k.Num(1)
	}
	return k.Num(0)
}

// Of is a value of kind k: groups of processes.
func (k *Kind) Of(groups [][]sim.NodeID) Value { return Value{Kind: k, Groups: groups} }

func (k *Kind) worth(v Value) bool { return k.Worth == nil || k.Worth(v) }

// plain writes a value as a trace's JSON does: processes by id from 0.
func (k *Kind) plain(v Value) json.RawMessage {
	return k.Write(v, func(id sim.NodeID) json.RawMessage { return strconv.AppendInt(nil, int64(id), 10) })
}

// Get is the param's argument in a, and whether it is given.
func (p Param) Get(a Args) (Value, bool) {
	switch p.Kind.anchor {
	case atNode:
		return p.Kind.Num(int64(a.Node)), a.Node != sim.None
	case atTarget:
		return p.Kind.Num(int64(a.Target)), a.Target != sim.None
	case atMsg:
		return p.Kind.Num(int64(a.Msg)), a.Msg != sim.None
	}
	v, ok := a.Value(p.Field)
	return v, ok && p.Kind.worth(v)
}

// Set is a with the param's argument set to v; a value its kind would not
// write (a false flag) leaves the argument unset, which means the same.
func (p Param) Set(a Args, v Value) Args {
	switch p.Kind.anchor {
	case atNode:
		a.Node = sim.NodeID(v.Int)
	case atTarget:
		a.Target = sim.NodeID(v.Int)
	case atMsg:
		a.Msg = int(v.Int)
	default:
		v.Kind = p.Kind
		a = a.With(p.Field, v)
	}
	return a
}

// Anchored says the menu's subject may give the param: a process, the
// far end of a link, a message.
func (p Param) Anchored() bool { return p.Kind.anchor != notAnchored }

// The kinds of argument the registry's faults take.
var (
	// ParamNode is the process the fault happens to ("node").
	ParamNode = processKind("node", atNode, `the process it happens to ("node")`)
	// ParamTarget is another process ("target": the far end of a link).
	ParamTarget = processKind("target", atTarget, `the process at the link's other end ("target")`)
	// ParamMsg is a message in flight, by id ("msg").
	ParamMsg = &Kind{
		Name:  "message",
		Words: func(string) string { return `the id of a message in flight ("msg")` },
		Check: func(v Value, _ Args, n int) error {
			if v.Int < 0 {
				return fmt.Errorf("a message id is 0 or more, got %d", v.Int)
			}
			return nil
		},
		Read:   readNumber,
		Write:  writeNumber,
		Encode: encodeNumber,
		Decode: func(text string, _ int) (Value, error) {
			x, err := decodeNumber(text)
			if err == nil && (x < 0 || x > 1<<40) {
				err = fmt.Errorf("there is no message #%d", x)
			}
			return Value{Int: x}, err
		},
		Draw:   func(d *Dice, n int) Value { return Value{Int: int64(d.IntN(80))} },
		anchor: atMsg,
	}
	// ParamTicks is a duration of at least one tick ("for").
	ParamTicks = &Kind{
		Name:  "ticks",
		Words: func(field string) string { return fmt.Sprintf("how many ticks (%q, at least 1)", field) },
		Check: func(v Value, _ Args, n int) error {
			if v.Int < 1 {
				return fmt.Errorf("it lasts at least one tick, got %d", v.Int)
			}
			if v.Int > MaxTicks {
				return fmt.Errorf("at most %d ticks, got %d", MaxTicks, v.Int)
			}
			return nil
		},
		Read: readNumber, Write: writeNumber, Encode: encodeNumber, Decode: decodeNumberValue,
		Input: Input{Type: InputNumber, Min: 1, Max: MaxTicks, Default: 15},
		Draw:  func(d *Dice, n int) Value { return Value{Int: int64(d.Ticks())} },
	}
	// ParamOffset is a number of ticks, negative or positive ("by").
	ParamOffset = &Kind{
		Name:  "offset",
		Words: func(field string) string { return fmt.Sprintf("a number of ticks (%q)", field) },
		Check: func(v Value, _ Args, n int) error {
			if v.Int < -MaxTicks || v.Int > MaxTicks {
				return fmt.Errorf("from %d to %d ticks, got %d", -MaxTicks, MaxTicks, v.Int)
			}
			return nil
		},
		Read: readNumber, Write: writeNumber, Encode: encodeNumber, Decode: decodeNumberValue,
		Input: Input{Type: InputNumber, Min: -MaxTicks, Max: MaxTicks, Default: 5},
		Draw:  func(d *Dice, n int) Value { return Value{Int: int64(d.Offset())} },
	}
	// ParamFlag is true or false ("oneway", "on").
	ParamFlag = &Kind{
		Name:  "flag",
		Words: func(field string) string { return fmt.Sprintf("%q: true or false", field) },
		Read: func(raw json.RawMessage, _ Procs) (Value, error) {
			var on bool
			if err := json.Unmarshal(raw, &on); err != nil {
				return Value{}, strictjson.Decode(raw, &on, "")
			}
			return Value{Int: boolInt(on)}, nil
		},
		Write: func(v Value, _ func(sim.NodeID) json.RawMessage) json.RawMessage {
			return json.RawMessage(strconv.FormatBool(v.Int != 0))
		},
		Encode: encodeNumber,
		Decode: func(text string, _ int) (Value, error) {
			x, err := decodeNumber(text)
			if err == nil && x != 0 && x != 1 {
				err = ofField(fmt.Sprintf("is 0 or 1, got %d", x))
			}
			return Value{Int: x}, err
		},
		Worth: func(v Value) bool { return v.Int != 0 },
		Input: Input{Type: InputCheck},
		Draw:  func(d *Dice, n int) Value { return Value{Int: int64(d.IntN(2))} },
	}
	// ParamRate is a clock's rate: the ticks it counts for every hundred
	// that pass, from 0 (it stands still) to MaxRate. A scenario writes
	// it as a ratio ("rate": 0.5), a link and the menu in hundredths.
	ParamRate = &Kind{
		Name: "rate",
		Words: func(field string) string {
			return fmt.Sprintf("a clock's rate (%q: 1 is right, 0.5 half speed, 2 twice)", field)
		},
		Check: func(v Value, _ Args, _ int) error {
			if v.Int < 0 || v.Int > MaxRate {
				return fmt.Errorf("from 0 (a clock that stands still) to %d, got %s", MaxRate/100, sim.RateText(v.Int))
			}
			return nil
		},
		Read: func(raw json.RawMessage, _ Procs) (Value, error) {
			var x float64
			if err := json.Unmarshal(raw, &x); err != nil {
				return Value{}, strictjson.Decode(raw, &x, "")
			}
			if x < 0 || x > MaxRate/100 {
				return Value{}, fmt.Errorf("from 0 (a clock that stands still) to %d, got %s", MaxRate/100, raw)
			}
			return Value{Int: int64(math.Round(x * 100))}, nil
		},
		Write: func(v Value, _ func(sim.NodeID) json.RawMessage) json.RawMessage {
			return json.RawMessage(sim.RateText(v.Int))
		},
		Encode: encodeNumber,
		Decode: decodeNumberValue,
		Input:  Input{Type: InputNumber, Min: 0, Max: MaxRate, Default: 50},
		Draw: func(d *Dice, n int) Value {
			rates := []int64{0, 50, 90, 110, 200, 100}
			return Value{Int: rates[d.IntN(len(rates))]}
		},
	}
	// ParamGroups is a list of groups of processes ("groups").
	ParamGroups = &Kind{
		Name:   "groups",
		Words:  func(string) string { return `the groups of processes ("groups": [[1, 2], [3, 4, 5]])` },
		Check:  checkGroups,
		Read:   readGroups,
		Write:  writeGroups,
		Encode: encodeGroups,
		Decode: decodeGroups,
		Input:  Input{Type: InputText, Placeholder: groupsExample, Parse: parseGroups},
		Draw:   func(d *Dice, n int) Value { return Value{Groups: d.Groups(n)} },
	}
)

// processKind is the node or target kind.
func processKind(field string, at anchor, words string) *Kind {
	k := &Kind{
		Name:  field,
		Words: func(string) string { return words },
		Read: func(raw json.RawMessage, procs Procs) (Value, error) {
			id, err := procs(raw)
			return Value{Int: int64(id)}, err
		},
		Write: func(v Value, ref func(sim.NodeID) json.RawMessage) json.RawMessage {
			return ref(sim.NodeID(v.Int))
		},
		Encode: func(v Value) string { return nodeText(sim.NodeID(v.Int)) },
		Decode: func(text string, firstProcess int) (Value, error) {
			x, err := decodeNumber(text)
			if err == nil && (x < int64(firstProcess) || x > 1<<20) {
				err = fmt.Errorf("there is no process %d", x)
			}
			return Value{Int: x - int64(firstProcess)}, err
		},
		Draw:   func(d *Dice, n int) Value { return Value{Int: int64(d.IntN(n))} },
		anchor: at,
	}
	k.Check = func(v Value, a Args, n int) error {
		id := sim.NodeID(v.Int)
		if err := inRange(id, n); err != nil {
			return err
		}
		if at == atTarget && id == a.Node {
			return fmt.Errorf("the target must be another process than %d", a.Node.Number())
		}
		return nil
	}
	if at == atTarget {
		k.Input = Input{Type: InputProcess}
	}
	return k
}

// ofField is a link's value that is wrong for its field: the error names
// the field before it ("on is 0 or 1, got 2").
type ofField string

func (e ofField) Error() string { return string(e) }

// MaxRate bounds a clock's rate, in ticks for every hundred that pass.
const MaxRate = 10_000

func inRange(id sim.NodeID, n int) error {
	if id < 0 || int(id) >= n {
		return fmt.Errorf("there is no process %d (the processes are 1 to %d)", id.Number(), n)
	}
	return nil
}

func boolInt(on bool) int64 {
	if on {
		return 1
	}
	return 0
}

// readNumber reads a whole number, and says in the words of the rest of
// a scenario's errors what is wrong with one.
func readNumber(raw json.RawMessage, _ Procs) (Value, error) {
	var x int64
	if err := json.Unmarshal(raw, &x); err != nil {
		return Value{}, strictjson.Decode(raw, &x, "")
	}
	return Value{Int: x}, nil
}

func writeNumber(v Value, _ func(sim.NodeID) json.RawMessage) json.RawMessage {
	return strconv.AppendInt(nil, v.Int, 10)
}

func encodeNumber(v Value) string { return strconv.FormatInt(v.Int, 10) }

func decodeNumber(text string) (int64, error) {
	x, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", short(text))
	}
	return x, nil
}

func decodeNumberValue(text string, _ int) (Value, error) {
	x, err := decodeNumber(text)
	return Value{Int: x}, err
}

func checkGroups(v Value, _ Args, n int) error {
	if len(v.Groups) < 2 {
		return fmt.Errorf("a partition needs at least two groups, got %d", len(v.Groups))
	}
	seen := map[sim.NodeID]bool{}
	for _, g := range v.Groups {
		if len(g) == 0 {
			return fmt.Errorf("a group is empty")
		}
		for _, id := range g {
			if err := inRange(id, n); err != nil {
				return err
			}
			if seen[id] {
				return fmt.Errorf("process %d is in two groups", id.Number())
			}
			seen[id] = true
		}
	}
	return nil
}

func readGroups(raw json.RawMessage, procs Procs) (Value, error) {
	var refs [][]json.RawMessage
	if err := json.Unmarshal(raw, &refs); err != nil {
		return Value{}, strictjson.Decode(raw, &refs, "")
	}
	groups := make([][]sim.NodeID, 0, len(refs))
	for gi, g := range refs {
		ids := make([]sim.NodeID, 0, len(g))
		for pi, ref := range g {
			id, err := procs(ref)
			if err != nil {
				return Value{}, strictjson.FieldErrorf(fmt.Sprintf("[%d][%d]", gi, pi), "%v", err)
			}
			ids = append(ids, id)
		}
		groups = append(groups, ids)
	}
	return Value{Groups: groups}, nil
}

func writeGroups(v Value, ref func(sim.NodeID) json.RawMessage) json.RawMessage {
	b := []byte{'['}
	for i, g := range v.Groups {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, id := range g {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, ref(id)...)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// encodeGroups writes groups for a link: 1~2_3~4~5.
func encodeGroups(v Value) string {
	groups := make([]string, len(v.Groups))
	for j, g := range v.Groups {
		ids := make([]string, len(g))
		for k, id := range g {
			ids[k] = strconv.Itoa(id.Number())
		}
		groups[j] = strings.Join(ids, "~")
	}
	return strings.Join(groups, "_")
}

func decodeGroups(text string, firstProcess int) (Value, error) {
	var groups [][]sim.NodeID
	for _, g := range strings.Split(text, "_") {
		var ids []sim.NodeID
		for _, s := range strings.Split(g, "~") {
			// digits only, as links write them: Atoi's "+1" would name a
			// process the link's other readers do not see
			x, err := strconv.Atoi(s)
			if err != nil || strings.Trim(s, "0123456789") != "" || x < firstProcess || x > 1<<20 {
				return Value{}, fmt.Errorf("%q is not a process number", short(s))
			}
			ids = append(ids, sim.NodeID(x-firstProcess))
		}
		groups = append(groups, ids)
	}
	return Value{Groups: groups}, nil
}

// parseGroups reads a partition as the learner types it: groups of
// process names or numbers, separated by "|" ("A B | C D E"); nothing
// typed splits the processes in two halves.
func parseGroups(text string, names []string) (Value, error) {
	if strings.TrimSpace(text) == "" {
		half := len(names) / 2
		var a, b []sim.NodeID
		for i := range names {
			if i < half {
				a = append(a, sim.NodeID(i))
			} else {
				b = append(b, sim.NodeID(i))
			}
		}
		return Value{Groups: [][]sim.NodeID{a, b}}, nil
	}
	var groups [][]sim.NodeID
	for _, g := range strings.Split(text, "|") {
		var ids []sim.NodeID
		for _, word := range strings.FieldsFunc(g, func(r rune) bool { return r == ' ' || r == ',' }) {
			id, ok := processNamed(word, names)
			if !ok {
				return Value{}, fmt.Errorf("no process is called %q", short(word))
			}
			ids = append(ids, id)
		}
		groups = append(groups, ids)
	}
	return Value{Groups: groups}, nil
}

// processNamed finds a process by name or by number from 1.
func processNamed(word string, names []string) (sim.NodeID, bool) {
	for i, n := range names {
		if n == word {
			return sim.NodeID(i), true
		}
	}
	if x, err := strconv.Atoi(word); err == nil && x >= 1 && x <= len(names) {
		return sim.NodeID(x - 1), true
	}
	return 0, false
}

// groupsExample is a partition of processes named names, as the learner
// would type it: at most four in each group.
func groupsExample(names []string) string {
	if len(names) < 2 {
		return "A | B"
	}
	half := min((len(names)+1)/2, 4)
	rest := names[half:min(len(names), half+4)]
	return strings.Join(names[:half], " ") + " | " + strings.Join(rest, " ")
}
