package lab

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// URLVersion is the version of the link format this code writes and reads.
const URLVersion = "1"

// Query encodes the whole view: scenario, learner inputs, step and axis.
// Opening a link with it reproduces the exact view.
//
//	v=1                link format version
//	s=snapshot-bank    a built-in scenario, or
//	sc=…               any other scenario: its JSON, deflated, base64url
//	in=12d5,30c1       learner inputs (see EncodeInputs)
//	k=57               the step on screen
//	axis=lamport       the diagram's axis, when not simulated time
//	span=40            the zoom: how much of the axis is visible
//	at=120             the window pinned at this point of the axis (else it
//	                   follows the present)
//	sel=12             the event (step) whose causal past and future show
//	cut=12.5,_,30      the cut tool's points, one per process (_: not placed)
func (s *Session) Query() url.Values {
	q := url.Values{}
	q.Set("v", URLVersion)
	if s.builtin {
		q.Set("s", s.scn.ID)
	} else {
		q.Set("sc", packScenario(s.scn))
	}
	if in := EncodeInputs(s.run.Inputs()); in != "" {
		q.Set("in", in)
	}
	q.Set("k", strconv.Itoa(s.step))
	if s.Axis != diagram.AxisTime && s.Axis != "" {
		q.Set("axis", string(s.Axis))
	}
	if s.View.Span > 0 {
		q.Set("span", strconv.FormatFloat(s.View.Span, 'g', 6, 64))
	}
	if s.View.Pinned {
		q.Set("at", strconv.FormatFloat(s.View.Start, 'g', 8, 64))
	}
	if s.Selected >= 0 {
		q.Set("sel", strconv.Itoa(s.Selected))
	}
	if s.Cut.On {
		q.Set("cut", encodeCut(s.Cut.Points))
	}
	return q
}

// FromQuery opens the view a link encodes. An error names the link
// parameter that is wrong and why.
func FromQuery(q url.Values) (*Session, error) {
	if v := q.Get("v"); v != "" && v != URLVersion {
		return nil, fmt.Errorf("link parameter \"v\": this link uses format %q; this Spacetime reads format %s", v, URLVersion)
	}
	var scn *scenario.Scenario
	var err error
	switch {
	case q.Get("sc") != "":
		scn, err = unpackScenario(q.Get("sc"))
		if err != nil {
			return nil, fmt.Errorf("link parameter \"sc\": %w", err)
		}
	case q.Get("s") != "":
		scn, err = scenario.Builtin(q.Get("s"))
		if err != nil {
			return nil, fmt.Errorf("link parameter \"s\": %w", err)
		}
	default:
		scn, _ = scenario.Builtin(scenario.Default)
	}
	sess, err := Open(scn)
	if err != nil {
		return nil, err
	}
	if raw := q.Get("in"); raw != "" {
		inputs, err := DecodeInputs(raw, sess.Spec())
		if err != nil {
			return nil, fmt.Errorf("link parameter \"in\": %w", err)
		}
		if err := sess.run.Replay(inputs); err != nil {
			return nil, fmt.Errorf("link parameter \"in\": %w", err)
		}
	}
	switch a := q.Get("axis"); a {
	case "", string(diagram.AxisTime):
	case string(diagram.AxisLamport):
		sess.Axis = diagram.AxisLamport
	default:
		return nil, fmt.Errorf("link parameter \"axis\": want time or lamport, got %q", a)
	}
	if raw := q.Get("span"); raw != "" {
		span, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(span) || span < MinSpan || span > MaxSpan {
			return nil, fmt.Errorf("link parameter \"span\": want a zoom from %d to %d, got %q", MinSpan, MaxSpan, raw)
		}
		sess.View.Span = span
	}
	if raw := q.Get("at"); raw != "" {
		at, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(at) || math.IsInf(at, 0) {
			return nil, fmt.Errorf("link parameter \"at\": want a point of the axis, got %q", raw)
		}
		sess.View.Pinned, sess.View.Start = true, at
	}
	if raw := q.Get("sel"); raw != "" {
		sel, err := strconv.Atoi(raw)
		if err != nil || sel < 0 || sel >= sess.Len() {
			return nil, fmt.Errorf("link parameter \"sel\": want a step from 0 to %d, got %q", sess.Len()-1, raw)
		}
		sess.Selected = sel
	}
	if raw := q.Get("cut"); raw != "" {
		points, err := decodeCut(raw, len(sess.scn.Names))
		if err != nil {
			return nil, fmt.Errorf("link parameter \"cut\": %w", err)
		}
		sess.Cut = CutTool{On: true, Points: points}
	}
	if raw := q.Get("k"); raw != "" {
		k, err := strconv.Atoi(raw)
		if err != nil || k < 0 {
			return nil, fmt.Errorf("link parameter \"k\": want a step number, got %q", raw)
		}
		if k > sess.Len() {
			return nil, fmt.Errorf("link parameter \"k\": step %d is past the end of the run (%d steps)", k, sess.Len())
		}
		sess.step = k
	}
	return sess, nil
}

func packScenario(s *scenario.Scenario) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(s.JSON())
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func unpackScenario(text string) (*scenario.Scenario, error) {
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("not a packed scenario (bad base64: %v)", err)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), 1<<20))
	if err != nil {
		return nil, fmt.Errorf("not a packed scenario (%v)", err)
	}
	return scenario.Parse(data)
}

// EncodeInputs writes learner inputs compactly, comma-separated: the step,
// a letter, then numbers separated by dots.
//
//	12d5      deliver message 5 as step 12
//	12x5      drop message 5
//	30c1      crash process 1
//	31r1      recover process 1
//	40p2.15   pause process 2 for 15 ticks
//	50ksnapshot.1.0.0       run the command "snapshot" at process 1
//	50ktransfer.0.2.15      "transfer" at process 0 to process 2, argument 15
func EncodeInputs(inputs []engine.Input) string {
	parts := make([]string, 0, len(inputs))
	for _, in := range inputs {
		a := in.Action
		var p string
		switch a.Fault {
		case faults.Drop:
			p = fmt.Sprintf("x%d", a.Msg)
		case faults.Crash:
			p = fmt.Sprintf("c%d", a.Node)
		case faults.Recover:
			p = fmt.Sprintf("r%d", a.Node)
		case faults.Pause:
			p = fmt.Sprintf("p%d.%d", a.Node, a.For)
		default:
			if a.Command == "" {
				p = fmt.Sprintf("d%d", a.Msg)
			} else {
				p = fmt.Sprintf("k%s.%d.%d.%d", a.Command, a.Node, a.Target, a.Arg)
			}
		}
		parts = append(parts, strconv.Itoa(in.Step)+p)
	}
	return strings.Join(parts, ",")
}

// DecodeInputs reads what EncodeInputs wrote; commands are checked against
// the algorithm's spec.
func DecodeInputs(text string, spec *sim.Spec) ([]engine.Input, error) {
	var out []engine.Input
	for _, part := range strings.Split(text, ",") {
		i := strings.IndexFunc(part, func(r rune) bool { return r < '0' || r > '9' })
		if i <= 0 {
			return nil, fmt.Errorf("%q is not an input (want a step then a letter, such as 12d5)", part)
		}
		step, err := strconv.Atoi(part[:i])
		if err != nil {
			return nil, fmt.Errorf("%q is not an input: step %s is too large", part, part[:i])
		}
		// Each input forks the run at its step and forgets the inputs from
		// that step on, so inputs out of order would be silently lost.
		if len(out) > 0 && step <= out[len(out)-1].Step {
			return nil, fmt.Errorf("%q is not an input here: steps must increase (the input before is at step %d)", part, out[len(out)-1].Step)
		}
		letter, rest := part[i], part[i+1:]
		fields := strings.Split(rest, ".")
		nums := make([]int64, 0, len(fields))
		start := 0
		if letter == 'k' {
			start = 1
		}
		for _, f := range fields[start:] {
			x, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not an input: %q is not a number", part, f)
			}
			nums = append(nums, x)
		}
		want := map[byte]int{'d': 1, 'x': 1, 'c': 1, 'r': 1, 'p': 2, 'k': 3}[letter]
		if want == 0 {
			return nil, fmt.Errorf("%q is not an input: unknown action %q (want d, x, c, r, p or k)", part, letter)
		}
		if len(nums) != want {
			return nil, fmt.Errorf("%q is not an input: action %q takes %d numbers", part, letter, want)
		}
		a := engine.Action{Msg: -1}
		switch letter {
		case 'd':
			a.Msg = int(nums[0])
		case 'x':
			a.Fault, a.Msg = faults.Drop, int(nums[0])
		case 'c':
			a.Fault, a.Node = faults.Crash, sim.NodeID(nums[0])
		case 'r':
			a.Fault, a.Node = faults.Recover, sim.NodeID(nums[0])
		case 'p':
			a.Fault, a.Node, a.For = faults.Pause, sim.NodeID(nums[0]), sim.Time(nums[1])
		case 'k':
			a.Command = fields[0]
			if _, ok := spec.Command(a.Command); !ok {
				return nil, fmt.Errorf("%q is not an input: %s has no command %q", part, spec.ID, a.Command)
			}
			a.Node, a.Target, a.Arg = sim.NodeID(nums[0]), sim.NodeID(nums[1]), nums[2]
		}
		out = append(out, engine.Input{Step: step, Action: a})
	}
	return out, nil
}

// EncodeQuery encodes a link's query as url.Values.Encode does, but keeps the
// commas between inputs readable (a comma needs no escaping in a query).
func EncodeQuery(q url.Values) string { return strings.ReplaceAll(q.Encode(), "%2C", ",") }
