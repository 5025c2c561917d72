package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// TranscriptFull is how many steps a transcript shows in full; beyond them
// it shows only the steps where something other than ordinary traffic
// happened (a command, a fault, an annotation, a timer, a failure).
const TranscriptFull = 400

// Transcript is a run told one line a step, for people and for golden
// files: step (from 1), time, process, what happened, the caption, the
// step's annotations and timers, and the invariants that first fail there.
//
//	38     40  A    command snapshot   A starts snapshot 1: … ⟨recorded 1: $126⟩
func Transcript(sc *scenario.Scenario, r *engine.Run) string {
	var b strings.Builder
	tr := r.Trace()
	fmt.Fprintf(&b, "# %s: %s\n", sc.ID, sc.Title)
	fifo := "FIFO"
	if !sc.FIFO() {
		fifo = "non-FIFO"
	}
	fmt.Fprintf(&b, "# %s on %s, seed %d, %s scheduler, %s generator, %s channels\n",
		sc.Algorithm, strings.Join(sc.Names, " "), sc.Seed, sc.Scheduler, sc.RNG, fifo)
	if len(tr.Down) > 0 {
		var down []string
		for _, id := range tr.Down {
			down = append(down, tr.Names[id])
		}
		fmt.Fprintf(&b, "# down from the start: %s\n", strings.Join(down, " "))
	}
	for _, part := range []struct {
		name string
		v    any
	}{{"params", sc.Params}, {"network", sc.Network}, {"workload", sc.Workload}} {
		if text := headerJSON(part.v); text != "" {
			fmt.Fprintf(&b, "# %s %s\n", part.name, text)
		}
	}
	fmt.Fprintf(&b, "# step   time  proc what               caption ⟨annotations⟩ ⏲timers ✗failures\n")
	failed := map[int][]engine.Failure{}
	for _, f := range r.Failures() {
		if f.Step >= 0 {
			failed[f.Step] = append(failed[f.Step], f)
		}
	}
	spec := r.Config().Spec
	inputs := scriptInputs(sc)
	quiet := 0
	for i := range tr.Records {
		rec := &tr.Records[i]
		var input string
		if rec.Source == trace.Script && len(inputs) > 0 {
			input, inputs = inputs[0], inputs[1:]
		}
		if i >= TranscriptFull && !eventful(spec, rec) && len(failed[i]) == 0 {
			quiet++
			continue
		}
		if quiet > 0 {
			fmt.Fprintf(&b, "        … %d step(s) of ordinary traffic …\n", quiet)
			quiet = 0
		}
		if input != "" {
			fmt.Fprintf(&b, "     > %s\n", input) // the script's entry, before the step it causes
		}
		b.WriteString(transcriptLine(tr, rec, failed[i]))
		b.WriteByte('\n')
	}
	if quiet > 0 {
		fmt.Fprintf(&b, "        … %d step(s) of ordinary traffic …\n", quiet)
	}
	fmt.Fprintf(&b, "# %d steps, stopped: %s\n", tr.Len(), r.Stopped())
	for _, f := range r.Failures() {
		status := "holds"
		if f.Step >= 0 {
			status = fmt.Sprintf("fails at step %d", f.Step+1)
			if sc.Expected(f.Name) {
				status += " (expected)"
			}
		}
		fmt.Fprintf(&b, "# invariant %s: %s\n", f.Name, status)
	}
	return b.String()
}

// scriptInputs are the scenario's script entries as its file writes them,
// in the order the run takes them (by time, the file's order at equal
// times): each causes one step of the script, done or skipped.
func scriptInputs(sc *scenario.Scenario) []string {
	script := sc.Script
	order := make([]int, len(script))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return script[order[a]].At < script[order[b]].At })
	out := make([]string, len(order))
	for i, j := range order {
		data, err := json.Marshal(script[j])
		if err != nil {
			return nil
		}
		out[i] = string(data)
	}
	return out
}

// headerJSON writes a part of the scenario for the transcript's header:
// compact, and only when it says something and is short.
func headerJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var compact bytes.Buffer
	if json.Compact(&compact, data) != nil {
		return ""
	}
	text := compact.String()
	switch {
	case text == "null", text == "{}", text == `""`, len(text) > maxHeaderJSON:
		return ""
	}
	return text
}

// maxHeaderJSON is the longest part of a scenario a transcript's header
// writes out: a log's params are megabytes.
const maxHeaderJSON = 400

// eventful reports whether a step is more than ordinary traffic.
func eventful(spec *sim.Spec, rec *trace.Record) bool {
	switch rec.Kind {
	case trace.Command, trace.Fault, trace.Wake, trace.Skip, trace.Timer, trace.Init:
		return true
	}
	for _, a := range rec.Annotations() {
		if rs, ok := spec.Role(a.Role); ok && rs.Style != sim.StyleHidden {
			return true
		}
	}
	return len(rec.Timers()) > 0
}

func transcriptLine(tr *trace.Trace, rec *trace.Record, failures []engine.Failure) string {
	name := "·"
	if rec.Node >= 0 {
		name = tr.Names[rec.Node]
	}
	what := rec.What()
	switch rec.Kind {
	case trace.Command, trace.Timer:
		what += " " + rec.Tag()
	case trace.Deliver:
		what += fmt.Sprintf(" #%d", rec.Msg)
	}
	if rec.Source == trace.Learner || rec.Source == trace.Script {
		what += " (" + rec.Source.String() + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%6d %6d  %-4s %-18s %s", rec.Step+1, rec.Time, name, what, oneLine(rec.Caption))
	for _, a := range rec.Annotations() {
		fmt.Fprintf(&b, " ⟨%s", a.Role)
		if a.Phase != sim.Point {
			b.WriteString(" " + a.Phase.String())
		}
		if a.Group != 0 {
			fmt.Fprintf(&b, " %d", a.Group)
		}
		if a.Peer >= 0 {
			b.WriteString(" →" + tr.Names[a.Peer])
		}
		if a.Msg >= 0 {
			fmt.Fprintf(&b, " #%d", a.Msg)
		}
		if a.Text != "" {
			b.WriteString(": " + a.Text)
		}
		b.WriteString("⟩")
	}
	for _, t := range rec.Timers() {
		if t.Cancelled {
			fmt.Fprintf(&b, " ⏲%s cancelled", t.Tag)
		} else {
			fmt.Fprintf(&b, " ⏲%s@%d", t.Tag, t.Due)
		}
	}
	for _, f := range failures {
		fmt.Fprintf(&b, " ✗ %s: %s", f.Name, f.Detail)
	}
	return b.String()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
