package lab

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// URLVersion is the version of the link format this code writes. It reads
// version 1 too (and a link without v=, as that version's were): links
// made before processes were counted from 1 open exactly as they did.
const URLVersion = "2"

// Link limits: what a link can ask for is bounded.
const (
	// MaxViews is how many views one link may hold.
	MaxViews = 6
	// MaxInputs is how many learner inputs one view's link may hold.
	MaxInputs = 5000
	// MaxPacked is the size of a packed scenario, inflated.
	MaxPacked = 1 << 20
	// MaxPackedCode is the size of a program a link's code= carries,
	// inflated (a program itself is bounded by its algorithm too).
	MaxPackedCode = 64 << 10
	// MaxAt bounds where a pinned window may start.
	MaxAt = 1e9
)

// Query is the link of the session alone on a page (see Page.Query):
// its scenario, the learner's inputs, the step and what the diagram shows.
// Opening a link with it reproduces the exact view.
func (s *Session) Query() url.Values { return OpenPage(s).Query() }

// FromQuery opens the (first) view a link encodes, with the page's
// parameters read before the panes' (see linkParams). An error names the
// link parameter that is wrong and why; the link is checked as
// PageFromQuery checks it (a parameter given twice is refused here too).
func FromQuery(q url.Values) (*Session, error) {
	p, err := readLink(q, false, nil, true)
	if err != nil {
		return nil, err
	}
	return p.Views[0], nil
}

// clip shortens what a link said for an error message, so that a long bad
// parameter is not echoed back whole: it cuts after 40 characters, keeping
// the bytes as the link has them (%q then quotes a byte that is no
// character as \xff, not as U+FFFD).
func clip(s string) string {
	i := 0
	for range 40 {
		if i == len(s) {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i == len(s) {
		return s
	}
	return s[:i] + "…"
}

// ScenarioQuery is the link to a scenario at its first step, made without
// running it.
func ScenarioQuery(s *scenario.Scenario) url.Values { return RawScenarioQuery(s.JSON()) }

// RawScenarioQuery is the link to a scenario document as it is, valid or
// not (to see what the page says of a bad one).
func RawScenarioQuery(doc []byte) url.Values {
	q := url.Values{}
	q.Set("v", URLVersion)
	q.Set("sc", pack(doc))
	return q
}

// ScenarioFile is the session's part that keeps its scenario as a
// document: the file the Load panel shows and a link carries packed,
// encoded once for each scenario.
type ScenarioFile struct{ s *Session }

// ScenarioFile is the session's scenario file.
func (s *Session) ScenarioFile() ScenarioFile { return ScenarioFile{s} }

// packed is the session's scenario as a link writes it whole, packed once
// for each scenario; "" when it is larger than a link may carry
// (MaxPacked), as a long imported log is: its link cannot name it.
func (f ScenarioFile) packed() string {
	s := f.s
	f.cache()
	if s.packed == "" && s.file != nil {
		s.packed = pack(s.file)
	}
	return s.packed
}

// packedCode is the session's program as a link writes it, packed once
// for each program: the link is written at every step.
func (f ScenarioFile) packedCode() string {
	s := f.s
	if s.packedCode.of != s.scn.Code || s.packedCode.text == "" {
		s.packedCode.of, s.packedCode.text = s.scn.Code, pack([]byte(s.scn.Code))
	}
	return s.packedCode.text
}

// Bytes is the session's scenario file, as the Load panel shows it and a
// link carries it, or nil when it is larger than MaxPacked: a file that
// large is neither opened from the panel nor linked (a large log's is).
func (f ScenarioFile) Bytes() []byte {
	f.cache()
	return f.s.file
}

// cache encodes the scenario's file once, unless it is too large.
func (f ScenarioFile) cache() {
	s := f.s
	if s.packedOf == s.plan {
		return
	}
	s.packedOf, s.file, s.packed = s.plan, nil, ""
	if s.plan.LeastFileSize(MaxPacked) > MaxPacked {
		return
	}
	if doc := s.plan.Scenario().JSON(); len(doc) <= MaxPacked {
		s.file = doc
	}
}

// Linkable says whether a link can name the session's scenario.
func (f ScenarioFile) Linkable() bool { return f.s.link != linkPacked || f.packed() != "" }

// pack is a document deflated, in base64url.
func pack(doc []byte) string {
	var b bytes.Buffer
	w := packers.Get().(*flate.Writer)
	defer packers.Put(w)
	w.Reset(&b)
	w.Write(doc)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// packers are deflaters for pack to reuse: each holds about a megabyte
// of tables, which a page that packed its link anew would otherwise make
// and collect again and again.
var packers = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression)
	return w
}}

// unpack inflates a packed text of at most most bytes; what names it
// in errors ("scenario", "program").
func unpack(text, what string, most int) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("not a packed %s (it is not base64url text)", what)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), int64(most)+1))
	if err != nil {
		return nil, fmt.Errorf("not a packed %s (it does not inflate: %v)", what, err)
	}
	if len(data) > most {
		return nil, fmt.Errorf("the packed %s is too large: more than %d bytes once inflated", what, most)
	}
	return data, nil
}

// unpackCode reads a link's program: packed text of at most
// MaxPackedCode bytes, UTF-8.
func unpackCode(text string) (string, error) {
	data, err := unpack(text, "program", MaxPackedCode)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("the packed program is not text (UTF-8)")
	}
	return string(data), nil
}

func unpackScenario(text string, version int) (*scenario.Scenario, error) {
	data, err := unpack(text, "scenario", MaxPacked)
	if err != nil {
		return nil, err
	}
	if version == 1 {
		if data, err = firstVersionScenario(data); err != nil {
			return nil, err
		}
	}
	return scenario.Parse(data)
}

// firstVersionScenario brings a scenario packed by a version 1 link up to
// today's format: the page's FIFO toggle no longer needs "counterpart",
// and a script's "node" and "target" numbers counted processes from 0.
// A number that is none of the scenario's processes as version 1 counted
// them is refused as the link wrote it, with version 1's bounds: one past
// the last would read as the last process today, and the largest number
// would overflow.
func firstVersionScenario(data []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return data, nil // Parse will say what is wrong
	}
	delete(doc, "counterpart")
	n := firstVersionProcesses(doc)
	if raw, ok := doc["script"]; ok {
		var entries []map[string]json.RawMessage
		if json.Unmarshal(raw, &entries) == nil {
			for i, e := range entries {
				for _, k := range []string{"node", "target"} {
					v, ok := e[k]
					text := string(bytes.TrimSpace(v))
					if !ok || !wholeNumber(text) {
						continue // a name; or not a number, which Parse refuses
					}
					id, err := strconv.ParseInt(text, 10, 64)
					switch {
					case n > 0 && (err != nil || id < 0 || id >= int64(n)):
						return nil, fmt.Errorf("scenario: field %q: want a process name or a number from 0 to %d (this link, of format 1, counts processes from 0), got %s", fmt.Sprintf("script[%d].%s", i, k), n-1, clip(text))
					case err != nil || id < 0 || id >= scenario.MaxN:
						continue // Parse refuses the scenario's "n" first
					}
					e[k] = json.RawMessage(strconv.FormatInt(id+1, 10))
				}
			}
			doc["script"], _ = json.Marshal(entries)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return data, nil
	}
	return out, nil
}

// firstVersionProcesses is how many processes a version 1 scenario has,
// as its "names" or "n" say, or 0 when they say none Parse would take.
func firstVersionProcesses(doc map[string]json.RawMessage) int {
	var names []json.RawMessage
	if raw, ok := doc["names"]; ok && json.Unmarshal(raw, &names) == nil && len(names) > 0 {
		if len(names) > scenario.MaxN {
			return 0
		}
		return len(names)
	}
	var n int
	if raw, ok := doc["n"]; ok && json.Unmarshal(raw, &n) == nil && n >= 1 && n <= scenario.MaxN {
		return n
	}
	return 0
}

// wholeNumber reports whether text is an integer as written (digits after
// an optional minus sign), however large.
func wholeNumber(text string) bool {
	t := strings.TrimPrefix(text, "-")
	return t != "" && strings.Trim(t, "0123456789") == ""
}

// EncodeInputs writes learner inputs compactly, comma-separated: the step,
// a letter, then numbers separated by dots. Processes are numbered from 1.
//
//	12d5      deliver message 5 as step 12
//	50ksnapshot.1.0.0       run the command "snapshot" at process 1
//	50ktransfer.1.3.15      "transfer" at process 1 to process 3, argument 15
//
// and every fault by its registry letter and arguments (faults.EncodeArgs):
//
//	30c2      crash process 2
//	40p2.15   pause process 2 for 15 ticks
//	12x5      lose message 5
//	44l1.3    cut the link between processes 1 and 3
func EncodeInputs(inputs []engine.Input) string {
	parts := make([]string, 0, len(inputs))
	for _, in := range inputs {
		a := in.Action
		var p string
		switch {
		case a.Fault != "":
			f, ok := faults.Lookup(a.Fault)
			if !ok {
				continue
			}
			p = f.EncodeArgs(a.Args)
		case a.Command != "":
			target := 0
			if a.Target >= 0 {
				target = a.Target.Number()
			}
			p = fmt.Sprintf("k%s.%d.%d.%d", a.Command, a.Node.Number(), target, a.Arg)
		default:
			p = fmt.Sprintf("d%d", a.Msg)
		}
		parts = append(parts, strconv.Itoa(in.Step)+p)
	}
	return strings.Join(parts, ",")
}

// DecodeInputs reads what EncodeInputs wrote; commands are checked against
// the algorithm's spec. version 1 links counted processes from 0.
func DecodeInputs(text string, spec *sim.Spec, version int) ([]engine.Input, error) {
	return decodeInputs(text, spec, 0, version)
}

// decodeInputs is DecodeInputs for a scenario of n processes (0: not
// known). A version 1 link's process numbers are checked against them as
// the link wrote them: once read, they are counted from 1, and the
// replay's errors would quote another number than the link's.
func decodeInputs(text string, spec *sim.Spec, n, version int) ([]engine.Input, error) {
	first := 1
	if version == 1 {
		first = 0
	}
	parts := strings.Split(text, ",")
	if len(parts) > MaxInputs {
		return nil, fmt.Errorf("at most %d inputs, got %d", MaxInputs, len(parts))
	}
	var out []engine.Input
	for _, part := range parts {
		i := strings.IndexFunc(part, func(r rune) bool { return r < '0' || r > '9' })
		if i <= 0 {
			return nil, fmt.Errorf("%q is not an input (want a step then a letter, such as 12d5)", clip(part))
		}
		step, err := strconv.Atoi(part[:i])
		if err != nil || step > engine.MaxSteps {
			return nil, fmt.Errorf("%q is not an input: step %s is past any run (at most %d steps)", clip(part), clip(part[:i]), engine.MaxSteps)
		}
		// Each input forks the run at its step and forgets the inputs from
		// that step on, so inputs out of order would be silently lost.
		if len(out) > 0 && step <= out[len(out)-1].Step {
			return nil, fmt.Errorf("%q is not an input here: steps must increase (the input before is at step %d)", clip(part), out[len(out)-1].Step)
		}
		// the letter is a character, which may take several bytes
		_, size := utf8.DecodeRuneInString(part[i:])
		a, err := decodeAction(part[i:i+size], part[i+size:], spec, first, n)
		if err != nil {
			return nil, fmt.Errorf("%q is not an input: %v", clip(part), err)
		}
		out = append(out, engine.Input{Step: step, Action: a})
	}
	return out, nil
}

// decodeAction reads one input's letter and arguments, for n processes
// (0: not known) numbered from first.
func decodeAction(letter, rest string, spec *sim.Spec, first, n int) (engine.Action, error) {
	switch letter {
	case "d":
		id, err := strconv.Atoi(rest)
		if err != nil || id < 0 {
			return engine.Action{}, fmt.Errorf("deliver takes a message number, got %q", clip(rest))
		}
		return engine.Deliver(id), nil
	case "k":
		fields := strings.Split(rest, ".")
		if len(fields) != 4 {
			return engine.Action{}, fmt.Errorf("a command takes its name and 3 numbers (process, target, argument)")
		}
		name := fields[0]
		c, ok := spec.Command(name)
		if !ok {
			return engine.Action{}, fmt.Errorf("%s has no command %q", spec.ID, clip(name))
		}
		var nums [3]int64
		for j, f := range fields[1:] {
			x, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return engine.Action{}, fmt.Errorf("%q is not a number", clip(f))
			}
			nums[j] = x
		}
		last := int64(scenario.MaxN - 1 + first) // the number of the 64th process
		bounds := ""                             // version 1's, as its link counts
		if first == 0 && n > 0 {
			bounds = firstVersionBounds(n)
		}
		if nums[0] < int64(first) || nums[0] > last || bounds != "" && nums[0] >= int64(n) {
			return engine.Action{}, fmt.Errorf("there is no process %d%s", nums[0], bounds)
		}
		// no target is 0 today, and was -1 in version 1 (whose 0 was the
		// first process)
		if nums[1] < int64(first)-1 || nums[1] > last || bounds != "" && c.Target && nums[1] >= int64(n) {
			return engine.Action{}, fmt.Errorf("there is no process %d to target%s", nums[1], bounds)
		}
		target := sim.NodeID(nums[1] - int64(first))
		if first == 1 && nums[1] == 0 {
			target = sim.None // no target
		}
		// as strict as a scenario file: what the command does not take is
		// refused, not carried along unused (version 1 wrote the first
		// process for no target)
		switch {
		case c.Target:
		case first == 0:
			target = sim.None
		case target != sim.None:
			return engine.Action{}, fmt.Errorf("the command %s takes no target, got process %d", name, nums[1])
		}
		if err := c.CheckArg(nums[2]); err != nil {
			return engine.Action{}, err
		}
		return engine.Command(name, sim.NodeID(nums[0]-int64(first)), target, nums[2]), nil
	}
	var f *faults.Fault
	if r := letter[0]; len(letter) == 1 && r < utf8.RuneSelf {
		f, _ = faults.ByLetter(r)
	}
	if f == nil {
		letters := []string{"d (deliver)", "k (command)"}
		for _, f := range faults.Registry {
			letters = append(letters, fmt.Sprintf("%c (%s)", f.Letter, f.Name))
		}
		return engine.Action{}, fmt.Errorf("unknown action %q (known: %s)", letter, strings.Join(letters, ", "))
	}
	if first == 0 && n > 0 {
		if err := checkFirstVersionFault(f, rest, n); err != nil {
			return engine.Action{}, err
		}
	}
	args, err := f.DecodeArgs(rest, first)
	if err != nil {
		return engine.Action{}, err
	}
	return engine.Fault(f.Name, args), nil
}

// firstVersionBounds says, after a process number a version 1 link gave,
// how that version counted the n processes.
func firstVersionBounds(n int) string {
	return fmt.Sprintf(" (this link, of format 1, counts processes from 0: they are 0 to %d)", n-1)
}

// checkFirstVersionFault checks the process numbers of a version 1 link's
// fault (its arguments' text, rest) as the link wrote them, counted from
// 0, against the scenario's n processes: the registry's checks would
// quote them counted from 1. What is not a number is left to DecodeArgs.
func checkFirstVersionFault(f *faults.Fault, rest string, n int) error {
	if rest == "" {
		return nil
	}
	fields := strings.Split(rest, ".")
	// process reads one process number; ok is false for what is not one
	process := func(text string) (id int64, ok bool, err error) {
		if !wholeNumber(text) {
			return 0, false, nil
		}
		id, perr := strconv.ParseInt(text, 10, 64)
		if perr != nil || id < 0 || id >= int64(n) {
			return 0, true, fmt.Errorf("there is no process %s%s", clip(text), firstVersionBounds(n))
		}
		return id, true, nil
	}
	node := int64(-1)
	for i, text := range fields[:min(len(fields), len(f.Params))] {
		switch f.Params[i].Kind {
		case faults.ParamNode, faults.ParamTarget:
			id, ok, err := process(text)
			switch {
			case err != nil:
				return err
			case !ok:
			case f.Params[i].Kind == faults.ParamNode:
				node = id
			case id == node:
				return fmt.Errorf("%s: the target must be another process than %d", f.Params[i].Field, node)
			}
		case faults.ParamGroups:
			// a partition of one group is refused as such (Check)
			groups := strings.Split(text, "_")
			seen := map[int64]bool{}
			for _, g := range groups {
				for m := range strings.SplitSeq(g, "~") {
					id, ok, err := process(m)
					switch {
					case err != nil:
						return err
					case !ok:
					case seen[id] && len(groups) > 1:
						return fmt.Errorf("%s: process %d is in two groups", f.Params[i].Field, id)
					}
					seen[id] = true
				}
			}
		}
	}
	return nil
}

// EncodeQuery encodes a link's query as url.Values.Encode does, but keeps the
// commas between inputs readable (a comma needs no escaping in a query).
func EncodeQuery(q url.Values) string { return strings.ReplaceAll(q.Encode(), "%2C", ",") }
