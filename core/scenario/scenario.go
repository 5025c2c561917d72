// Package scenario is the scenario file format: a JSON document that fully
// determines a run (algorithm, processes, seed, network, parameters, timed
// script, workload, stop condition), its validation with messages that name
// the offending field, and the built-in lessons.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"spacetime/core/algo/all"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
)

// MaxN bounds the number of processes of any scenario.
const MaxN = 64

// Scenario is one scenario file.
type Scenario struct {
	ID          string          `json:"id,omitempty"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Algorithm   string          `json:"algorithm"`
	N           int             `json:"n,omitempty"`
	Names       []string        `json:"names,omitempty"`
	Seed        uint64          `json:"seed"`
	Scheduler   string          `json:"scheduler,omitempty"`
	RNG         string          `json:"rng,omitempty"`
	Network     Network         `json:"network"`
	Params      json.RawMessage `json:"params,omitempty"`
	Workload    *Workload       `json:"workload,omitempty"`
	Script      []Entry         `json:"script,omitempty"`
	Until       Until           `json:"until"`
	Expect      *Expect         `json:"expect,omitempty"`
	// Counterpart is the built-in scenario that shows the same lesson with
	// the other channel discipline; the page's FIFO toggle switches to it.
	Counterpart string `json:"counterpart,omitempty"`
}

// FIFO reports whether the scenario's channels are FIFO (the default).
func (s *Scenario) FIFO() bool { return s.Network.FIFO == nil || *s.Network.FIFO }

// Network is the scenario's channel behaviour.
type Network struct {
	FIFO  *bool      `json:"fifo,omitempty"`
	Delay []sim.Time `json:"delay,omitempty"`
	Loss  float64    `json:"loss,omitempty"`
}

// Workload is the application's random activity.
type Workload struct {
	P     float64    `json:"p,omitempty"`
	Every []sim.Time `json:"every,omitempty"`
	Until sim.Time   `json:"until,omitempty"`
}

// Entry is one timed input of the script.
type Entry struct {
	At      sim.Time        `json:"at"`
	Node    json.RawMessage `json:"node,omitempty"`
	Command string          `json:"command,omitempty"`
	Target  json.RawMessage `json:"target,omitempty"`
	Arg     int64           `json:"arg,omitempty"`
	Fault   string          `json:"fault,omitempty"`
	For     sim.Time        `json:"for,omitempty"`
	Msg     *int            `json:"msg,omitempty"`
}

// Until is when the run stops: the first condition met.
type Until struct {
	Steps     int      `json:"steps,omitempty"`
	Time      sim.Time `json:"time,omitempty"`
	Quiescent bool     `json:"quiescent,omitempty"`
	Done      bool     `json:"done,omitempty"`
}

// Expect declares what a scenario is meant to show.
type Expect struct {
	// Violations are invariants the scenario is meant to break.
	Violations []string `json:"violations,omitempty"`
}

// Parse reads and validates a scenario file.
func Parse(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("scenario: %s", jsonError(err, data))
	}
	if dec.More() {
		return nil, errors.New("scenario: unexpected data after the scenario object")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// jsonError rewords encoding/json's errors to name the field plainly.
func jsonError(err error, data []byte) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q: want %s, got %s", te.Field, te.Type, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "not valid JSON: the document ends early"
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if path := unknownField(data, reflect.TypeFor[Scenario](), ""); path != "" {
			return fmt.Sprintf("unknown field %q", path)
		}
		return "unknown field " + rest
	}
	return strings.TrimPrefix(msg, "json: ")
}

// unknownField finds the first key in raw, read as type t, that no field of
// t takes, and returns its path ("network.fifoo", "script[0].bogus"); it
// returns "" if there is none. encoding/json names only the key itself.
func unknownField(raw []byte, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return ""
		}
		for i, item := range items {
			if p := unknownField(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case t.Kind() == reflect.Struct:
		dec := json.NewDecoder(bytes.NewReader(raw))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return ""
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return ""
			}
			key, _ := tok.(string)
			var value json.RawMessage
			if dec.Decode(&value) != nil {
				return ""
			}
			field, ok := jsonField(t, key)
			p := key
			if path != "" {
				p = path + "." + key
			}
			if !ok {
				return p
			}
			if q := unknownField(value, field.Type, p); q != "" {
				return q
			}
		}
	}
	return ""
}

// jsonField finds the struct field that encoding/json decodes key into
// (names match without regard to case, as encoding/json does).
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// Validate checks every field and fills in the defaults.
func (s *Scenario) Validate() error {
	spec, ok := all.Lookup(s.Algorithm)
	if !ok {
		return fmt.Errorf("scenario: field \"algorithm\": unknown algorithm %q (known: %s)", s.Algorithm, strings.Join(all.IDs(), ", "))
	}
	if len(s.Names) > 0 {
		if s.N != 0 && s.N != len(s.Names) {
			return fmt.Errorf("scenario: field \"n\" is %d but \"names\" lists %d processes", s.N, len(s.Names))
		}
		s.N = len(s.Names)
	}
	lo, hi := max(spec.MinN, 1), min(spec.MaxN, MaxN)
	if s.N < lo || s.N > hi {
		return fmt.Errorf("scenario: field \"n\": %s needs %d to %d processes, got %d", s.Algorithm, lo, hi, s.N)
	}
	if len(s.Names) == 0 {
		s.Names = DefaultNames(s.N)
	}
	seen := map[string]bool{}
	for i, name := range s.Names {
		if err := checkName(name); err != nil {
			return fmt.Errorf("scenario: field \"names[%d]\": %v", i, err)
		}
		if seen[name] {
			return fmt.Errorf("scenario: field \"names[%d]\": %q is used twice", i, name)
		}
		seen[name] = true
	}
	if s.Scheduler == "" {
		s.Scheduler = string(engine.Earliest)
	}
	if !oneOf(s.Scheduler, engine.Schedulers) {
		return fmt.Errorf("scenario: field \"scheduler\": unknown scheduler %q (want earliest, random or manual)", s.Scheduler)
	}
	if s.RNG == "" {
		s.RNG = string(engine.PCG)
	}
	if s.RNG != string(engine.PCG) && s.RNG != string(engine.Python) {
		return fmt.Errorf("scenario: field \"rng\": unknown generator %q (want pcg or python)", s.RNG)
	}
	if err := s.Network.validate(); err != nil {
		return err
	}
	if w := s.Workload; w != nil {
		if w.P < 0 || w.P > 1 {
			return fmt.Errorf("scenario: field \"workload.p\": a probability is between 0 and 1, got %v", w.P)
		}
		if err := timeRange("workload.every", w.Every); err != nil {
			return err
		}
		if w.Until < 0 {
			return fmt.Errorf("scenario: field \"workload.until\": must not be negative, got %d", w.Until)
		}
	}
	for i := range s.Script {
		if err := s.checkEntry(i, spec); err != nil {
			return err
		}
	}
	u := s.Until
	if u.Steps < 0 || u.Time < 0 {
		return errors.New("scenario: field \"until\": steps and time must not be negative")
	}
	if u.Steps > engine.MaxSteps {
		return fmt.Errorf("scenario: field \"until.steps\": at most %d, got %d", engine.MaxSteps, u.Steps)
	}
	if u.Steps == 0 && u.Time == 0 && !u.Quiescent && !u.Done {
		return errors.New("scenario: field \"until\": say when the run stops (steps, time, quiescent or done)")
	}
	if s.Expect != nil {
		for i, v := range s.Expect.Violations {
			if !hasInvariant(spec, v) {
				return fmt.Errorf("scenario: field \"expect.violations[%d]\": %s has no invariant %q", i, s.Algorithm, v)
			}
		}
	}
	if _, err := spec.New(s.Names, s.Params); err != nil {
		return fmt.Errorf("scenario: field %w", err)
	}
	return nil
}

func (nw *Network) validate() error {
	if err := timeRange("network.delay", nw.Delay); err != nil {
		return err
	}
	if nw.Loss < 0 || nw.Loss > 1 {
		return fmt.Errorf("scenario: field \"network.loss\": a probability is between 0 and 1, got %v", nw.Loss)
	}
	return nil
}

func timeRange(field string, r []sim.Time) error {
	if r == nil {
		return nil
	}
	if len(r) != 2 || r[0] < 0 || r[1] < r[0] {
		return fmt.Errorf("scenario: field %q: want [min, max] with 0 <= min <= max, got %v", field, r)
	}
	return nil
}

func (s *Scenario) checkEntry(i int, spec *sim.Spec) error {
	e := &s.Script[i]
	field := func(f string) string { return fmt.Sprintf("script[%d].%s", i, f) }
	if e.At < 0 {
		return fmt.Errorf("scenario: field %q: a time must not be negative, got %d", field("at"), e.At)
	}
	if (e.Command == "") == (e.Fault == "") {
		return fmt.Errorf("scenario: field %q: give either a command or a fault", fmt.Sprintf("script[%d]", i))
	}
	if e.Fault != "" {
		k, err := faults.Parse(e.Fault)
		if err != nil {
			return fmt.Errorf("scenario: field %q: %v", field("fault"), err)
		}
		if k == faults.Drop {
			if e.Msg == nil || *e.Msg < 0 {
				return fmt.Errorf("scenario: field %q: a drop names the message id to lose", field("msg"))
			}
			return nil
		}
		if k == faults.Pause && e.For <= 0 {
			return fmt.Errorf("scenario: field %q: a pause lasts at least one tick", field("for"))
		}
	} else {
		c, ok := spec.Command(e.Command)
		if !ok {
			return fmt.Errorf("scenario: field %q: %s has no command %q", field("command"), s.Algorithm, e.Command)
		}
		if c.Target {
			t, err := s.nodeRef(e.Target)
			if err != nil {
				return fmt.Errorf("scenario: field %q: %v", field("target"), err)
			}
			if n, _ := s.nodeRef(e.Node); t == n {
				return fmt.Errorf("scenario: field %q: the target must be another process", field("target"))
			}
		}
	}
	if _, err := s.nodeRef(e.Node); err != nil {
		return fmt.Errorf("scenario: field %q: %v", field("node"), err)
	}
	return nil
}

// nodeRef resolves a process given by name ("A") or index (0).
func (s *Scenario) nodeRef(raw json.RawMessage) (sim.NodeID, error) {
	if len(raw) == 0 {
		return 0, errors.New("name the process")
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		for i, n := range s.Names {
			if n == name {
				return sim.NodeID(i), nil
			}
		}
		return 0, fmt.Errorf("no process is named %q (names: %s)", name, strings.Join(s.Names, ", "))
	}
	var idx int
	if err := json.Unmarshal(raw, &idx); err != nil || idx < 0 || idx >= s.N {
		return 0, fmt.Errorf("want a process name or an index from 0 to %d, got %s", s.N-1, raw)
	}
	return sim.NodeID(idx), nil
}

func checkName(name string) error {
	if name == "" || len(name) > 16 {
		return fmt.Errorf("a name has 1 to 16 characters, got %q", name)
	}
	for _, r := range name {
		if r <= ' ' || strings.ContainsRune(",;:/\\\"'<>&=#?", r) {
			return fmt.Errorf("%q: a name has no spaces or punctuation such as , ; : / \" < > & = # ?", name)
		}
	}
	return nil
}

// DefaultNames names n processes A, B, …, Z, AA, AB, … as spreadsheet
// columns are, so that a script naming A still works with more processes.
func DefaultNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		name := ""
		for k := i + 1; k > 0; k = (k - 1) / 26 {
			name = string(rune('A'+(k-1)%26)) + name
		}
		names[i] = name
	}
	return names
}

func oneOf[T ~string](s string, list []T) bool {
	for _, x := range list {
		if string(x) == s {
			return true
		}
	}
	return false
}

func hasInvariant(spec *sim.Spec, name string) bool {
	for _, inv := range spec.Invariants {
		if inv.Name == name {
			return true
		}
	}
	return false
}

// Spec is the scenario's algorithm.
func (s *Scenario) Spec() *sim.Spec {
	spec, _ := all.Lookup(s.Algorithm)
	return spec
}

// Expected reports whether the scenario declares that it breaks invariant name.
func (s *Scenario) Expected(name string) bool {
	if s.Expect == nil {
		return false
	}
	for _, v := range s.Expect.Violations {
		if v == name {
			return true
		}
	}
	return false
}

// Clone returns a deep copy, to vary a scenario (another seed, another n).
func (s *Scenario) Clone() *Scenario {
	data, _ := json.Marshal(s)
	var c Scenario
	_ = json.Unmarshal(data, &c)
	return &c
}

// JSON encodes the scenario as an indented file.
func (s *Scenario) JSON() []byte {
	data, _ := json.MarshalIndent(s, "", "  ")
	return append(data, '\n')
}
