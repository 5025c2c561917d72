// Package scenario is the scenario file format: a JSON document that fully
// determines a run (algorithm, processes, seed, network, parameters, timed
// script, workload, stop condition), its validation with messages that name
// the offending field, its compiled form that the engine runs (Plan), and
// the built-in lessons.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"spacetime/core/algo/all"
	"spacetime/core/engine"
	"spacetime/core/explore"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// MaxN bounds the number of processes of any scenario.
const MaxN = 64

// MaxScript bounds a scenario's script entries.
const MaxScript = 100_000

// MaxID is the most characters a scenario's id may have.
const MaxID = 64

// Scenario is one scenario file: the document a file and a link hold.
// It is data: Compile makes the run it describes (see Plan).
type Scenario struct {
	ID          string `json:"id,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Algorithm   string `json:"algorithm"`
	// Code is the program of an algorithm a learner writes (python); a
	// file may give it instead as CodeFile, the name of a file beside it,
	// which the command line reads into Code.
	Code      string          `json:"code,omitempty"`
	CodeFile  string          `json:"code_file,omitempty"`
	N         int             `json:"n,omitempty"`
	Names     []string        `json:"names,omitempty"`
	Seed      uint64          `json:"seed"`
	Scheduler string          `json:"scheduler,omitempty"`
	RNG       string          `json:"rng,omitempty"`
	Network   Network         `json:"network"`
	Down      []ProcessRef    `json:"down,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Workload  *Workload       `json:"workload,omitempty"`
	Script    []Entry         `json:"script,omitempty"`
	Until     Until           `json:"until"`
	Expect    *Expect         `json:"expect,omitempty"`
	Lesson    *Lesson         `json:"lesson,omitempty"`
}

// Lesson is how a scenario is presented as a lesson: where it belongs in
// the course and where it opens. Nothing in it changes the run.
type Lesson struct {
	// Topic is the part of the course it teaches (one of Topics), which
	// groups the lesson pickers.
	Topic string `json:"topic,omitempty"`
	// Opens is the step a link that names no step opens at: the lesson's
	// first interesting step.
	Opens int `json:"opens,omitempty"`
	// Frame is the interval of the time axis that holds the lesson's
	// point, [from, to]: the diagram opens framed on it.
	Frame []sim.Time `json:"frame,omitempty"`
	// Marks name the events the lesson's text talks about ("a", "b"),
	// written beside their dots.
	Marks []Mark `json:"marks,omitempty"`
	// Search is where the lesson's search for a breaking schedule starts
	// and what it looks for; nil: from the step the learner is at, for any
	// invariant, within the default bounds.
	Search *Search `json:"search,omitempty"`
	// Point names the invariant the lesson is about: the page's verdict
	// names it first, holding or failing, whatever else fails beside it.
	// Empty: the invariant its search looks for, else its one expected
	// violation, else none (the verdict leads with the first to fail).
	Point string `json:"point,omitempty"`
	// Tour is the lesson's guided tour: a few narrated stops. A built-in
	// lesson without one is toured through the claims of the course's
	// index it shows (see the page's lab.Session.Tour).
	Tour []TourStop `json:"tour,omitempty"`
}

// TourStop is one stop of a lesson's guided tour: a step, what to look at
// there, and what to try next.
type TourStop struct {
	// Step is where the stop is, counted as the page counts steps.
	Step int `json:"step"`
	// Say is the narration: what to look at and why it matters.
	Say string `json:"say"`
	// Event is the step whose event the stop selects, ringing its causal
	// past and future (0: none).
	Event int `json:"event,omitempty"`
	// Messages are the messages the stop points at, by id.
	Messages []int `json:"messages,omitempty"`
	// Try is the "now try" prompt: what the learner should do next.
	Try string `json:"try,omitempty"`
}

// Tour limits: a tour is a few stops, each a sentence or three.
const (
	MaxTourStops    = 12
	MaxTourSay      = 400
	MaxTourTry      = 200
	MaxTourMessages = 8
)

// Search sets a lesson's search for a schedule that breaks an invariant
// (see core/explore); a field left out takes the search's default.
type Search struct {
	// From is the step it starts at, counted as the page counts steps
	// (after From steps).
	From int `json:"from,omitempty"`
	// Invariant is the one to break.
	Invariant string `json:"invariant,omitempty"`
	// Depth and MaxStates bound it, and Faults is how many faults a
	// schedule may hold.
	Depth     int `json:"depth,omitempty"`
	MaxStates int `json:"max_states,omitempty"`
	Faults    int `json:"faults,omitempty"`
}

// Options are the search's bounds: the lesson's, or the default.
func (s *Search) Options() explore.Options {
	o := explore.DefaultOptions
	if s == nil {
		return o
	}
	if s.Depth > 0 {
		o.Depth = s.Depth
	}
	if s.MaxStates > 0 {
		o.MaxStates = s.MaxStates
	}
	o.Faults, o.Invariant = s.Faults, s.Invariant
	return o
}

// Mark names an event of a lesson: the step that made it, counted from 1
// as the page counts them.
type Mark struct {
	Name string `json:"name"`
	Step int    `json:"step"`
}

// MaxMarks bounds the events a lesson names.
const MaxMarks = 26

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

// ProcessRef names a process in a scenario: by its name ("A") or by its
// number, counted from 1 (2 is the second process).
type ProcessRef = json.RawMessage

// Entry is one timed input of the script: a command of the algorithm at a
// process, a fault with the fields the fault registry gives it, or, with
// only "msg", the delivery of that message (numbered from 0 in the order
// sent), which forces a schedule (an imported log is replayed so).
type Entry struct {
	At      sim.Time
	Node    ProcessRef
	Command string
	Target  ProcessRef
	Arg     int64
	Fault   string
	Msg     *int
	// Args are the fault's other arguments ("for": 15), by field, as the
	// file writes them: each is read by its kind (faults.Kind), so a
	// fault with a new kind of argument needs nothing here.
	Args map[string]json.RawMessage
}

// delivery says the entry delivers a message: it names one and neither a
// command nor a fault.
func (e *Entry) delivery() bool { return e.Command == "" && e.Fault == "" && e.Msg != nil }

// given reports whether the entry sets an argument.
func (e *Entry) given(field string) bool {
	switch field {
	case "node":
		return len(e.Node) > 0
	case "target":
		return len(e.Target) > 0
	case "msg":
		return e.Msg != nil
	case "arg":
		return e.Arg != 0
	}
	_, ok := e.Args[field]
	return ok
}

// firstOther is the first argument the entry gives, besides "at" and the
// action's name (node, target, arg and msg, then the fault's by name),
// that takes is false for, and whether there is one. It allocates only
// for a fault's arguments: a log's file checks 100,000 entries.
func (e *Entry) firstOther(takes func(field string) bool) (string, bool) {
	for _, f := range [...]string{"node", "target", "arg", "msg"} {
		if e.given(f) && !takes(f) {
			return f, true
		}
	}
	if len(e.Args) > 0 {
		for _, f := range slices.Sorted(maps.Keys(e.Args)) {
			if !takes(f) {
				return f, true
			}
		}
	}
	return "", false
}

// entryKeys are an entry's own fields, which every entry may take.
var entryKeys = []string{"at", "node", "command", "target", "arg", "fault", "msg"}

// UnmarshalJSON reads an entry strictly: a field of its own, or a field
// of a fault's argument in the registry, each once and spelt exactly.
func (e *Entry) UnmarshalJSON(data []byte) error {
	*e = Entry{}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == 'n' {
		return nil // null, as encoding/json leaves a value
	}
	return strictjson.Members(data, func(key string, raw []byte) error {
		var err error
		switch key {
		case "at":
			err = decodeField(raw, &e.At, key)
		case "node":
			e.Node = bytes.Clone(raw)
		case "command":
			err = decodeField(raw, &e.Command, key)
		case "target":
			e.Target = bytes.Clone(raw)
		case "arg":
			err = decodeField(raw, &e.Arg, key)
		case "fault":
			err = decodeField(raw, &e.Fault, key)
		case "msg":
			e.Msg = new(int)
			err = decodeField(raw, e.Msg, key)
		default:
			fields := faults.ArgFields()
			if !slices.Contains(fields, key) {
				known := slices.Sorted(slices.Values(append(fields, entryKeys...)))
				return strictjson.FieldErrorf(strictjson.ClipKey(key), "unknown field (known here: %s)", strings.Join(known, ", "))
			}
			if _, twice := e.Args[key]; twice {
				return strictjson.FieldErrorf(strictjson.ClipKey(key), "given twice")
			}
			if e.Args == nil {
				e.Args = map[string]json.RawMessage{}
			}
			e.Args[key] = bytes.Clone(raw)
		}
		return err
	})
}

// plainText says JSON writes s as it is between quotes: printable ASCII
// that needs no escape (encoding/json escapes <, > and & too).
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// decodeField decodes one of an entry's own fields, and says in plain
// words what is wrong with it.
func decodeField[T any](raw []byte, v *T, key string) error {
	if json.Unmarshal(raw, v) == nil {
		return nil
	}
	return strictjson.Decode(raw, v, key)
}

// MarshalJSON writes an entry: at, its own fields that are given, then the
// fault's arguments in the order of its params.
func (e Entry) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 64), `{"at":`...)
	b = strconv.AppendInt(b, int64(e.At), 10)
	field := func(key string, raw []byte) {
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = append(b, raw...)
	}
	text := func(key, s string) {
		if plainText(s) { // most names: quoted as encoding/json would, without it
			b = append(b, ',', '"')
			b = append(b, key...)
			b = append(b, '"', ':', '"')
			b = append(b, s...)
			b = append(b, '"')
			return
		}
		raw, _ := json.Marshal(s)
		field(key, raw)
	}
	if len(e.Node) > 0 {
		field("node", e.Node)
	}
	if e.Command != "" {
		text("command", e.Command)
	}
	if len(e.Target) > 0 {
		field("target", e.Target)
	}
	if e.Arg != 0 {
		field("arg", strconv.AppendInt(nil, e.Arg, 10))
	}
	if e.Fault != "" {
		text("fault", e.Fault)
	}
	if e.Msg != nil {
		field("msg", strconv.AppendInt(nil, int64(*e.Msg), 10))
	}
	keys := slices.Sorted(maps.Keys(e.Args))
	if f, ok := faults.Lookup(e.Fault); ok {
		order := func(key string) int {
			for i, p := range f.Params {
				if p.Field == key {
					return i
				}
			}
			return len(f.Params)
		}
		slices.SortStableFunc(keys, func(x, y string) int { return order(x) - order(y) })
	}
	for _, k := range keys {
		var compact bytes.Buffer
		if err := json.Compact(&compact, e.Args[k]); err != nil {
			return nil, fmt.Errorf("script entry field %q: %w", k, err)
		}
		field(k, compact.Bytes())
	}
	return append(b, '}'), nil
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
	var s Scenario
	if err := strictjson.Decode(data, &s, ""); err != nil {
		var fe *strictjson.FieldError
		if errors.As(err, &fe) && fe.Path == "" && strings.HasPrefix(fe.Problem, "want an object") {
			return nil, fmt.Errorf("scenario: a scenario is a JSON object of fields (algorithm, n, seed, …); %s", fe.Problem)
		}
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

func fieldErr(path, format string, args ...any) error {
	return fmt.Errorf("scenario: %w", strictjson.FieldErrorf(path, format, args...))
}

// Validate checks every field, the params as the algorithm reads them,
// and fills in the defaults.
func (s *Scenario) Validate() error {
	_, err := s.Compile()
	return err
}

// check checks every field but the params, and fills in the defaults;
// scriptLen is the number of the script's entries, written or not (an
// importer's plan has them in the engine's form only).
func (s *Scenario) check(scriptLen int) (*sim.Spec, error) {
	for _, t := range []struct {
		field, text string
		most        int
	}{{"id", s.ID, MaxID}, {"title", s.Title, 200}, {"description", s.Description, 4000}} {
		if err := checkText(t.text, t.most, t.field == "description"); err != nil {
			return nil, fieldErr(t.field, "%v", err)
		}
	}
	spec, ok := all.Lookup(s.Algorithm)
	if !ok {
		if s.Algorithm == "" {
			return nil, fieldErr("algorithm", "say which algorithm runs (known: %s)", strings.Join(all.IDs(), ", "))
		}
		if err := all.Missing(s.Algorithm); err != nil {
			// another page's client runs it: whoever opened it can go there
			return nil, fmt.Errorf("scenario: field \"algorithm\": %w", err)
		}
		return nil, fieldErr("algorithm", "unknown algorithm %q (known: %s)", clipText(s.Algorithm), strings.Join(all.IDs(), ", "))
	}
	spec, err := s.program(spec)
	if err != nil {
		return nil, err
	}
	if len(s.Names) > 0 {
		if s.N != 0 && s.N != len(s.Names) {
			return nil, fieldErr("n", "%d, but \"names\" lists %d processes", s.N, len(s.Names))
		}
		s.N = len(s.Names)
	}
	lo, hi := max(spec.MinN, 1), min(spec.MaxN, MaxN)
	if s.N < lo || s.N > hi {
		return nil, fieldErr("n", "%s runs on %d to %d processes, got %d", s.Algorithm, lo, hi, s.N)
	}
	if len(s.Names) == 0 {
		s.Names = spec.Names(s.N)
	}
	seen := map[string]int{} // by skeleton: what the name looks like
	for i, name := range s.Names {
		if err := CheckName(name); err != nil {
			return nil, fieldErr(fmt.Sprintf("names[%d]", i), "%v", err)
		}
		if j, ok := seen[skeleton(name)]; ok {
			if s.Names[j] == name {
				return nil, fieldErr(fmt.Sprintf("names[%d]", i), "%q is used twice", name)
			}
			return nil, fieldErr(fmt.Sprintf("names[%d]", i), "%q looks like %q (names[%d]): names must tell processes apart at a glance", name, s.Names[j], j)
		}
		seen[skeleton(name)] = i
	}
	if s.Scheduler == "" {
		s.Scheduler = string(engine.Earliest)
	}
	if !oneOf(s.Scheduler, engine.Schedulers) {
		return nil, fieldErr("scheduler", "unknown scheduler %q (want earliest, random or manual)", clipText(s.Scheduler))
	}
	if s.RNG == "" {
		s.RNG = string(engine.PCG)
	}
	if s.RNG != string(engine.PCG) && s.RNG != string(engine.Python) {
		return nil, fieldErr("rng", "unknown generator %q (want pcg or python)", clipText(s.RNG))
	}
	if err := s.Network.validate(); err != nil {
		return nil, err
	}
	downSeen := map[sim.NodeID]bool{}
	for i, raw := range s.Down {
		id, err := s.nodeRef(raw)
		if err != nil {
			return nil, fieldErr(fmt.Sprintf("down[%d]", i), "%v", err)
		}
		if downSeen[id] {
			return nil, fieldErr(fmt.Sprintf("down[%d]", i), "process %s is listed twice", s.Names[id])
		}
		downSeen[id] = true
	}
	if w := s.Workload; w != nil {
		if w.P < 0 || w.P > 1 {
			return nil, fieldErr("workload.p", "a probability is between 0 and 1, got %v", w.P)
		}
		if err := timeRange("workload.every", w.Every); err != nil {
			return nil, err
		}
		if err := timeField("workload.until", w.Until); err != nil {
			return nil, err
		}
	}
	if n := max(scriptLen, len(s.Script)); n > MaxScript {
		return nil, fieldErr("script", "at most %d entries, got %d", MaxScript, n)
	}
	for i := range s.Script {
		if err := s.checkEntry(i, spec); err != nil {
			return nil, err
		}
	}
	u := s.Until
	if u.Steps < 0 {
		return nil, fieldErr("until.steps", "a number of steps is 0 or more, got %d", u.Steps)
	}
	if err := timeField("until.time", u.Time); err != nil {
		return nil, err
	}
	if u.Steps > engine.MaxSteps {
		return nil, fieldErr("until.steps", "at most %d, got %d", engine.MaxSteps, u.Steps)
	}
	if u.Steps == 0 && u.Time == 0 && !u.Quiescent && !u.Done {
		return nil, fieldErr("until", "say when the run stops (steps, time, quiescent or done)")
	}
	if s.Expect != nil {
		for i, v := range s.Expect.Violations {
			if !hasInvariant(spec, v) {
				return nil, fieldErr(fmt.Sprintf("expect.violations[%d]", i), "%s has no invariant %q (its invariants: %s)", s.Algorithm, clipText(v), strings.Join(invariantNames(spec), "; "))
			}
		}
	}
	if err := s.Lesson.validate(); err != nil {
		return nil, err
	}
	if l := s.Lesson; l != nil && l.Search != nil && l.Search.Invariant != "" && !hasInvariant(spec, l.Search.Invariant) {
		return nil, fieldErr("lesson.search.invariant", "%s has no invariant %q (its invariants: %s)", s.Algorithm, clipText(l.Search.Invariant), strings.Join(invariantNames(spec), "; "))
	}
	if l := s.Lesson; l != nil && l.Point != "" && !hasInvariant(spec, l.Point) {
		return nil, fieldErr("lesson.point", "%s has no invariant %q (its invariants: %s)", s.Algorithm, clipText(l.Point), strings.Join(invariantNames(spec), "; "))
	}
	return spec, nil
}

func (nw *Network) validate() error {
	if err := timeRange("network.delay", nw.Delay); err != nil {
		return err
	}
	if nw.Loss < 0 || nw.Loss > 1 {
		return fieldErr("network.loss", "a probability is between 0 and 1, got %v", nw.Loss)
	}
	return nil
}

// timeField refuses a time before 0 or after sim.MaxTime.
func timeField(field string, t sim.Time) error {
	if t < 0 || t > sim.MaxTime {
		return fieldErr(field, "a time is from 0 to %d ticks, got %d", sim.MaxTime, t)
	}
	return nil
}

func timeRange(field string, r []sim.Time) error {
	if r == nil {
		return nil
	}
	if len(r) != 2 || r[0] < 0 || r[1] < r[0] || r[1] > faults.MaxTicks {
		return fieldErr(field, "want [min, max] ticks with 0 <= min <= max <= %d, got %v", faults.MaxTicks, r)
	}
	return nil
}

func (s *Scenario) checkEntry(i int, spec *sim.Spec) error {
	e := &s.Script[i]
	field := func(f string) string { return fmt.Sprintf("script[%d].%s", i, f) }
	if e.At < 0 || e.At > sim.MaxTime { // checked before the field is named: a log has 100,000 entries
		return timeField(field("at"), e.At)
	}
	if e.delivery() {
		if name, ok := e.firstOther(func(f string) bool { return f == "msg" }); ok {
			return fieldErr(field(name), "a delivery takes only \"at\" and \"msg\"")
		}
		if *e.Msg < 0 || *e.Msg >= engine.MaxSteps {
			return fieldErr(field("msg"), "want a message number from 0 to %d, got %d", engine.MaxSteps-1, *e.Msg)
		}
		return nil
	}
	if (e.Command == "") == (e.Fault == "") {
		return fieldErr(fmt.Sprintf("script[%d]", i), "give either a \"command\" of %s, a \"fault\" (%s), or only a \"msg\" to deliver", s.Algorithm, strings.Join(faults.Names(), ", "))
	}
	if e.Fault != "" {
		f, err := faults.Parse(e.Fault)
		if err != nil {
			return fieldErr(field("fault"), "%v", err)
		}
		if name, ok := e.firstOther(f.Takes); ok {
			return fieldErr(field(name), "the fault %s takes no %q (it takes %s)", f.Name, name, paramList(f))
		}
		a, err := s.entryArgs(e, f, field)
		if err != nil {
			return err
		}
		if ae := f.Validate(a, s.N, e.given); ae != nil {
			if ae.Field == "" {
				return fieldErr(fmt.Sprintf("script[%d]", i), "%s", ae.Problem)
			}
			return fieldErr(field(ae.Field), "%s", ae.Problem)
		}
		return nil
	}
	if name, ok := e.firstOther(func(f string) bool { return f == "node" || f == "target" || f == "arg" }); ok {
		return fieldErr(field(name), "only faults take %q; a command takes node, target and arg", name)
	}
	c, ok := spec.Command(e.Command)
	if !ok {
		names := strings.Join(commandNames(spec), ", ")
		if s.Code != "" {
			if names == "" {
				names = "none"
			}
			return fieldErr(field("command"), "the program has no command %q (its commands: %s; a program names its commands in COMMANDS and takes them in on_command)", clipText(e.Command), names)
		}
		return fieldErr(field("command"), "%s has no command %q (its commands: %s)", s.Algorithm, clipText(e.Command), names)
	}
	n, err := s.nodeRef(e.Node)
	if err != nil {
		return fieldErr(field("node"), "%v", err)
	}
	switch {
	case c.Target:
		t, err := s.nodeRef(e.Target)
		if err != nil {
			return fieldErr(field("target"), "%v", err)
		}
		if t == n {
			return fieldErr(field("target"), "the target must be another process than %s", s.Names[n])
		}
	case len(e.Target) > 0:
		return fieldErr(field("target"), "the command %s takes no target", c.Name)
	}
	if err := c.CheckArg(e.Arg); err != nil {
		return fieldErr(field("arg"), "%v", err)
	}
	return nil
}

// entryArgs reads a fault entry's arguments: its process, target and
// message, and each other argument as its kind reads it.
func (s *Scenario) entryArgs(e *Entry, f *faults.Fault, field func(string) string) (faults.Args, error) {
	a := faults.NoArgs()
	var err error
	if len(e.Node) > 0 {
		if a.Node, err = s.nodeRef(e.Node); err != nil {
			return a, fieldErr(field("node"), "%v", err)
		}
	}
	if len(e.Target) > 0 {
		if a.Target, err = s.nodeRef(e.Target); err != nil {
			return a, fieldErr(field("target"), "%v", err)
		}
	}
	if e.Msg != nil {
		a.Msg = *e.Msg
	}
	for _, p := range f.Params {
		raw, ok := e.Args[p.Field]
		if !ok || p.Anchored() {
			continue
		}
		v, err := p.Kind.Read(raw, s.nodeRef)
		if err != nil {
			var fe *strictjson.FieldError
			if errors.As(err, &fe) {
				return a, fieldErr(strictjson.JoinPath(field(p.Field), fe.Path), "%s", fe.Problem)
			}
			return a, fieldErr(field(p.Field), "%v", err)
		}
		a = p.Set(a, v)
	}
	return a, nil
}

func paramList(f *faults.Fault) string {
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Field
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// nodeRef resolves a process given by name ("A") or by number, from 1.
func (s *Scenario) nodeRef(raw json.RawMessage) (sim.NodeID, error) {
	if len(raw) == 0 {
		return 0, errors.New("name the process (by name, or by number from 1)")
	}
	if len(raw) > 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && !bytes.ContainsAny(raw, "\\\x00") {
		// a plain quoted name, read without a decoder: a log's script
		// names a process 100,000 times
		for i, n := range s.Names {
			if string(raw[1:len(raw)-1]) == n {
				return sim.NodeID(i), nil
			}
		}
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		for i, n := range s.Names {
			if n == name {
				return sim.NodeID(i), nil
			}
		}
		return 0, fmt.Errorf("no process is named %q (names: %s)", clipText(name), strings.Join(s.Names, ", "))
	}
	var num int
	if err := json.Unmarshal(raw, &num); err != nil || num < 1 || num > s.N {
		return 0, fmt.Errorf("want a process name or a number from 1 to %d, got %s", s.N, clipText(strings.ToValidUTF8(string(raw), "\uFFFD")))
	}
	return sim.NodeID(num - 1), nil
}

// MaxNameLength bounds a process's name, in characters: longer than the
// host names of ShiViz's own example logs (a Chord test client's is 27,
// a Voldemort server thread's 68), which a diagram's lane shortens in its
// middle.
const MaxNameLength = 80

// CheckName refuses names that cannot be told apart or that would break a
// link, a log or a caption: empty or long ones, spaces, punctuation that
// captions, clocks and files use, and invisible or control characters (a
// zero-width space makes "A\u200b" look like "A"). Brackets and commas,
// which a thread's name holds ("Thread[main,5,main]"), are allowed: links
// name processes by number.
func CheckName(name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxNameLength {
		return fmt.Errorf("a name has 1 to %d characters, got %q", MaxNameLength, clipText(name))
	}
	for _, r := range name {
		switch {
		case r == unicode.ReplacementChar:
			return fmt.Errorf("%q is not valid text", name)
		case r == ' ':
			return fmt.Errorf("%q: a name has no spaces", name)
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r), unicode.IsSpace(r):
			return fmt.Errorf("%q has an invisible or control character (U+%04X): names must be visible", name, r)
		case !unicode.IsGraphic(r):
			return fmt.Errorf("%q has a character that cannot be shown (U+%04X)", name, r)
		case strings.ContainsRune(";:/\\\"'<>&=#?{}", r):
			return fmt.Errorf("%q: a name has no spaces or punctuation such as ; : / \" < > & = # ? { }", name)
		}
	}
	return nil
}

// checkText refuses a scenario's id, title or description when it is long
// or holds characters that hide or reorder what is shown (a right-to-left
// override makes a title read backwards); only a description may break
// lines.
func checkText(text string, most int, lines bool) error {
	if n := len([]rune(text)); n > most {
		return fmt.Errorf("at most %d characters, got %d", most, n)
	}
	for _, r := range text {
		switch {
		case r == '\n' && lines:
		case r == unicode.ReplacementChar:
			return fmt.Errorf("%q is not valid text", clipText(text))
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
			return fmt.Errorf("%q has an invisible or control character (U+%04X)", clipText(text), r)
		}
	}
	return nil
}

// clipText shortens a text quoted in an error.
func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// DefaultNames names n processes A, B, …, Z, AA, AB, … (see sim.LetterNames).
func DefaultNames(n int) []string { return sim.LetterNames(n) }

func oneOf[T ~string](s string, list []T) bool {
	for _, x := range list {
		if string(x) == s {
			return true
		}
	}
	return false
}

func hasInvariant(spec *sim.Spec, name string) bool {
	for _, inv := range spec.Checks.Invariants {
		if inv.Name == name {
			return true
		}
	}
	return false
}

func invariantNames(spec *sim.Spec) []string {
	out := make([]string, len(spec.Checks.Invariants))
	for i, inv := range spec.Checks.Invariants {
		out[i] = inv.Name
	}
	return out
}

func commandNames(spec *sim.Spec) []string {
	out := make([]string, len(spec.Learner.Commands))
	for i, c := range spec.Learner.Commands {
		out[i] = c.Name
	}
	return out
}

// Spec is the scenario's algorithm (a learner's program's own, when its
// code compiles).
func (s *Scenario) Spec() *sim.Spec {
	spec, _ := all.Lookup(s.Algorithm)
	if spec != nil && spec.Program != nil {
		if p, err := spec.Program(s.Code); err == nil {
			return p
		}
	}
	return spec
}

// program is the Spec of the scenario's program, for an algorithm a
// learner writes, or spec itself; it refuses code given to an algorithm
// that takes none, and a program that does not compile, at its line.
func (s *Scenario) program(spec *sim.Spec) (*sim.Spec, error) {
	switch {
	case spec.Program == nil && (s.Code != "" || s.CodeFile != ""):
		field := "code"
		if s.Code == "" {
			field = "code_file"
		}
		return nil, fieldErr(field, "only an algorithm you write takes code (%q does not; \"algorithm\": \"python\" does)", s.Algorithm)
	case spec.Program == nil:
		return spec, nil
	case s.Code != "" && s.CodeFile != "":
		return nil, fieldErr("code_file", "give the program as code or as code_file, not both")
	case s.CodeFile != "":
		return nil, fieldErr("code_file", "a program's file is read beside a scenario file, by the command line; here give the program's text as code")
	case s.Code == "":
		return nil, fieldErr("code", "the %s algorithm runs your program: give its text as code (or, in a file, code_file naming a file beside it)", s.Algorithm)
	}
	p, err := spec.Program(s.Code)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", &strictjson.FieldError{Path: "code", Problem: err.Error(), Cause: err})
	}
	return p, nil
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

// PointInvariant is the invariant the lesson is about (see Lesson.Point),
// or "" when it names none.
func (s *Scenario) PointInvariant() string {
	l := s.Lesson
	switch {
	case l != nil && l.Point != "":
		return l.Point
	case l != nil && l.Search != nil && l.Search.Invariant != "":
		return l.Search.Invariant
	case s.Expect != nil && len(s.Expect.Violations) == 1:
		return s.Expect.Violations[0]
	}
	return ""
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

// validate checks a lesson's presentation.
func (l *Lesson) validate() error {
	if l == nil {
		return nil
	}
	if l.Topic != "" && !oneOf(l.Topic, Topics()) {
		return fieldErr("lesson.topic", "unknown topic %q (want one of: %s)", clipText(l.Topic), strings.Join(Topics(), "; "))
	}
	if l.Opens < 0 || l.Opens > engine.MaxSteps {
		return fieldErr("lesson.opens", "a step from 0 to %d, got %d", engine.MaxSteps, l.Opens)
	}
	if len(l.Marks) > MaxMarks {
		return fieldErr("lesson.marks", "at most %d marks, got %d", MaxMarks, len(l.Marks))
	}
	for i, m := range l.Marks {
		if m.Name == "" || len(m.Name) > 12 {
			return fieldErr(fmt.Sprintf("lesson.marks[%d].name", i), "want a short name (1 to 12 bytes), got %q", clipText(m.Name))
		}
		if err := checkText(m.Name, 12, false); err != nil {
			return fieldErr(fmt.Sprintf("lesson.marks[%d].name", i), "%v", err)
		}
		if m.Step < 1 || m.Step > engine.MaxSteps {
			return fieldErr(fmt.Sprintf("lesson.marks[%d].step", i), "a step from 1 to %d, got %d", engine.MaxSteps, m.Step)
		}
	}
	if len(l.Tour) > MaxTourStops {
		return fieldErr("lesson.tour", "at most %d stops, got %d", MaxTourStops, len(l.Tour))
	}
	for i, st := range l.Tour {
		field := func(name string) string { return fmt.Sprintf("lesson.tour[%d].%s", i, name) }
		switch {
		case st.Step < 0 || st.Step > engine.MaxSteps:
			return fieldErr(field("step"), "a step from 0 to %d, got %d", engine.MaxSteps, st.Step)
		case st.Say == "":
			return fieldErr(field("say"), "say what to look at (1 to %d characters), got nothing", MaxTourSay)
		case st.Event < 0 || st.Event > st.Step:
			return fieldErr(field("event"), "a step from 1 to the stop's step %d, got %d", st.Step, st.Event)
		case len(st.Messages) > MaxTourMessages:
			return fieldErr(field("messages"), "at most %d messages, got %d", MaxTourMessages, len(st.Messages))
		case i > 0 && st.Step < l.Tour[i-1].Step:
			return fieldErr(field("step"), "stops come in step order: %d comes after step %d", st.Step, l.Tour[i-1].Step)
		}
		if err := checkText(st.Say, MaxTourSay, false); err != nil {
			return fieldErr(field("say"), "%v", err)
		}
		if err := checkText(st.Try, MaxTourTry, false); err != nil {
			return fieldErr(field("try"), "%v", err)
		}
		for j, m := range st.Messages {
			if m < 0 || m > engine.MaxSteps {
				return fieldErr(fmt.Sprintf("lesson.tour[%d].messages[%d]", i, j), "a message id from 0 to %d, got %d", engine.MaxSteps, m)
			}
		}
	}
	if x := l.Search; x != nil {
		switch {
		case x.From < 0 || x.From > engine.MaxSteps:
			return fieldErr("lesson.search.from", "a step from 0 to %d, got %d", engine.MaxSteps, x.From)
		case x.Depth < 0 || x.Depth > explore.MaxDepth:
			return fieldErr("lesson.search.depth", "a number of steps from 1 to %d, got %d", explore.MaxDepth, x.Depth)
		case x.MaxStates < 0 || x.MaxStates > explore.MaxMaxStates:
			return fieldErr("lesson.search.max_states", "a number from 1 to %d, got %d", explore.MaxMaxStates, x.MaxStates)
		case x.Faults < 0 || x.Faults > explore.MaxFaults:
			return fieldErr("lesson.search.faults", "a number from 0 to %d, got %d", explore.MaxFaults, x.Faults)
		}
	}
	if l.Frame != nil {
		if len(l.Frame) != 2 || l.Frame[1] <= l.Frame[0] {
			return fieldErr("lesson.frame", "want [from, to] with from before to, got %v", l.Frame)
		}
		if err := timeRange("lesson.frame", l.Frame); err != nil {
			return err
		}
	}
	return nil
}

// TopicOf is the topic of a lesson, or "" when it names none.
func (s *Scenario) TopicOf() string {
	if s.Lesson == nil {
		return ""
	}
	return s.Lesson.Topic
}

// MaxCodeFile bounds the file a scenario's code_file names, in bytes (a
// program is bounded again, more tightly, by its algorithm).
const MaxCodeFile = 1 << 20

// ParseBeside reads a scenario file as Parse does, first reading the
// program its code_file names with readBeside, which is given the name
// as the file writes it and reads it beside the scenario file: the
// scenario then holds the program as its code, which exports and links
// carry. A name that is not a plain relative path inside the scenario's
// directory is refused.
func ParseBeside(data []byte, readBeside func(name string) ([]byte, error)) (*Scenario, error) {
	var s Scenario
	if err := strictjson.Decode(data, &s, ""); err != nil {
		return Parse(data) // its words for what is wrong
	}
	if s.CodeFile != "" && s.Code == "" {
		name := s.CodeFile
		if err := checkBesideName(name); err != nil {
			return nil, fieldErr("code_file", "%v", err)
		}
		code, err := readBeside(name)
		if err != nil {
			return nil, fieldErr("code_file", "%v", err)
		}
		if len(code) > MaxCodeFile {
			return nil, fieldErr("code_file", "%s is %d bytes; a program's file may be at most %d", name, len(code), MaxCodeFile)
		}
		s.Code, s.CodeFile = string(code), ""
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// checkBesideName refuses a code_file that is not a plain relative path
// below the scenario's directory.
func checkBesideName(name string) error {
	switch {
	case len(name) > 255:
		return errors.New("want a file name of at most 255 characters")
	case strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || strings.Contains(name, ":"):
		return fmt.Errorf("want a file beside the scenario (ring.py), not an absolute path, got %q", clipText(name))
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return fmt.Errorf("want a file beside the scenario or below it, not above it, got %q", clipText(name))
		}
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return errors.New("a file name has no control characters")
		}
	}
	return nil
}

// ForProgram is the scenario of a program file given alone: the program
// run on n processes from seed 1 for steps steps, named id.
func ForProgram(id, algorithm, code string, n, steps int) (*Scenario, error) {
	s := &Scenario{ID: id, Algorithm: algorithm, Code: code, N: n, Seed: 1, Until: Until{Steps: steps}}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// ProgramID makes a scenario id of a program file's name: the letters,
// digits, dashes and underscores of it, at most MaxID, "program" if none.
func ProgramID(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			if b.Len() < MaxID {
				b.WriteRune(r)
			}
		}
	}
	if b.Len() == 0 {
		return "program"
	}
	return b.String()
}
