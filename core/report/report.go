// Package report summarises a run as the command line's JSON report: message
// counts, invariants with their first failing step, and the algorithm's own
// metrics.
package report

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Report is the result of one run, as `spacetime run --json` prints it.
type Report struct {
	Scenario   string         `json:"scenario"`
	Algorithm  string         `json:"algorithm"`
	N          int            `json:"n"`
	Names      []string       `json:"names"`
	Seed       uint64         `json:"seed"`
	Steps      int            `json:"steps"`
	Time       sim.Time       `json:"time"`
	Stopped    string         `json:"stopped"`
	Messages   Messages       `json:"messages"`
	Invariants []Invariant    `json:"invariants"`
	Metrics    map[string]any `json:"metrics"`
	// Processes are the processes after the last step reported: each
	// one's health and state, as the page's Processes panel shows them.
	Processes []Process `json:"processes"`
	// Panels are the algorithm's tables after the last step reported, as
	// the page shows them beside the diagram (bully's "Seed 000's log":
	// the seed's program's output on this run); Build fills them.
	Panels []Panel `json:"panels,omitempty"`
	// Error says which step a process could not take (its program
	// failed), which ended the run; "" if none.
	Error   string `json:"error,omitempty"`
	metrics []sim.Metric
}

// Process is one process's health and state.
type Process struct {
	Name   string      `json:"name"`
	Health string      `json:"health"`
	State  []sim.Field `json:"state"`
}

// Panel is one of the algorithm's tables: its title, a note on what it
// shows, its column heads and its rows of cells.
type Panel struct {
	Title   string     `json:"title"`
	Note    string     `json:"note,omitempty"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	// Output says the panel is what a program prints on this run
	// (sim.Panel's Output).
	Output bool `json:"output,omitempty"`
}

// Messages counts the messages sent.
type Messages struct {
	// Total counts the algorithm's own messages only.
	Total int `json:"total"`
	// ByKind counts every kind, application traffic included.
	ByKind map[string]int `json:"by_kind"`
	// Application names the kinds left out of Total, if any.
	Application []string `json:"application,omitempty"`
	Note        string   `json:"note,omitempty"`
}

// Invariant is one invariant's outcome.
type Invariant struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// FirstFailingStep is the number of the step that broke it, counting
	// steps from 1 as the page does (so `export --step N` includes it); nil
	// while the invariant holds.
	FirstFailingStep *int   `json:"first_failing_step"`
	Detail           string `json:"detail,omitempty"`
	// Expected says the scenario declares this violation as its lesson.
	Expected bool `json:"expected,omitempty"`
}

// Invariants are where the run's invariants stand after k steps: each
// holding, or failing since its first failing step.
func Invariants(sc *scenario.Scenario, r *engine.Run, k int) []Invariant {
	var out []Invariant
	for _, f := range r.FailuresAt(k) {
		inv := Invariant{Name: f.Name, OK: f.Step < 0, Detail: f.Detail, Expected: sc.Expected(f.Name)}
		if f.Step >= 0 {
			step := f.Step + 1
			inv.FirstFailingStep = &step
		}
		out = append(out, inv)
	}
	return out
}

// Counter counts a run's messages by kind before any step, without visiting
// them all each time: build it once per trace (per engine.Run.Version).
type Counter struct {
	tr *trace.Trace
	// ids lists each kind's message ids in order, and kinds the kinds
	// sent, in order.
	ids   map[string][]int
	kinds []string
}

// NewCounter indexes the messages of a run's trace.
func NewCounter(tr *trace.Trace) *Counter {
	c := &Counter{tr: tr, ids: map[string][]int{}}
	for _, m := range tr.Msgs {
		c.ids[m.Kind] = append(c.ids[m.Kind], m.ID)
	}
	c.kinds = slices.Sorted(maps.Keys(c.ids))
	return c
}

// Count is how many messages of kind were sent in the first k steps.
func (c *Counter) Count(kind string, k int) int {
	return sort.SearchInts(c.ids[kind], len(c.tr.MsgsBefore(k)))
}

// Build reports the first k steps of a run of scenario sc, with the
// algorithm's panels (what the command line prints; the page draws its
// panels itself, and builds its report with BuildWith).
func Build(sc *scenario.Scenario, r *engine.Run, k int) *Report {
	rep := BuildWith(sc, r, k, NewCounter(r.Trace()))
	rep.Panels = panelsAt(r, rep.Steps)
	return rep
}

// panelsAt are the algorithm's panels after the first k steps of r.
func panelsAt(r *engine.Run, k int) []Panel {
	panels := r.Config().Spec.Figures.Panels
	if panels == nil {
		return nil
	}
	var out []Panel
	for _, p := range panels(r.At(k).View()) {
		rows := make([][]string, len(p.Rows))
		for i, row := range p.Rows {
			rows[i] = row.Cells
		}
		out = append(out, Panel{Title: p.Title, Note: p.Note, Columns: p.Columns, Rows: rows, Output: p.Output})
	}
	return out
}

// Printed is what the programs of r print after its first k steps, for
// people: its output panels (Panel.Output), as the report writes them,
// or "" when it has none.
func Printed(r *engine.Run, k int) string {
	var b strings.Builder
	for _, p := range panelsAt(r, min(max(k, 0), r.Len())) {
		if p.Output {
			writePanel(&b, p)
		}
	}
	return strings.TrimPrefix(b.String(), "\n")
}

// BuildWith is Build with a Counter already made for the run's trace.
func BuildWith(sc *scenario.Scenario, r *engine.Run, k int, counter *Counter) *Report {
	k = min(max(k, 0), r.Len())
	spec := r.Config().Spec
	st := r.At(k)
	v := st.View()
	rep := &Report{
		Scenario: sc.ID, Algorithm: spec.ID, N: v.N(), Names: sc.Names, Seed: sc.Seed,
		Steps: k, Time: st.Now(), Stopped: r.Stopped(),
		Messages: Messages{ByKind: map[string]int{}},
		Metrics:  map[string]any{},
	}
	if k < r.Len() {
		rep.Stopped = ""
	}
	for _, ks := range spec.Kinds {
		n := counter.Count(ks.Name, k)
		rep.Messages.ByKind[ks.Name] = n
		if ks.Application {
			rep.Messages.Application = append(rep.Messages.Application, ks.Name)
		} else {
			rep.Messages.Total += n
		}
	}
	// kinds the algorithm does not declare, as a log's own are (a
	// Spacetime export's receipts name them), count as its messages
	for _, kind := range counter.kinds {
		if _, declared := spec.Kind(kind); !declared {
			if n := counter.Count(kind, k); n > 0 {
				rep.Messages.ByKind[kind] = n
				rep.Messages.Total += n
			}
		}
	}
	if len(rep.Messages.Application) > 0 {
		rep.Messages.Note = fmt.Sprintf("total counts %s messages only; %s is the application's traffic",
			spec.ID, strings.Join(rep.Messages.Application, ", "))
	}
	rep.Invariants = Invariants(sc, r, k)
	for id := range v.N() {
		nd := sim.NodeID(id)
		fields := v.Node(nd).Inspect()
		if fields == nil {
			fields = []sim.Field{}
		}
		rep.Processes = append(rep.Processes, Process{Name: v.Name(nd), Health: v.Health(nd).String(), State: fields})
	}
	if e := r.Err(); e != nil && e.Step < k {
		rep.Error = fmt.Sprintf("step %d, %s: %v", e.Step+1, v.Name(e.Node), e.Err)
	}
	if spec.Figures.Metrics != nil {
		rep.metrics = spec.Figures.Metrics(v)
		for _, m := range rep.metrics {
			rep.Metrics[m.Name] = m.Value
		}
	}
	return rep
}

// Unexpected lists the invariants that failed although the scenario does not
// declare it.
func (r *Report) Unexpected() []Invariant {
	var out []Invariant
	for _, inv := range r.Invariants {
		if !inv.OK && !inv.Expected {
			out = append(out, inv)
		}
	}
	return out
}

// Text is the report for people: a few aligned lines.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario   %s (%s, n=%d, seed %d)\n", r.Scenario, r.Algorithm, r.N, r.Seed)
	stopped := r.Stopped
	if stopped == "" {
		stopped = "not yet (a prefix of the run)"
	}
	fmt.Fprintf(&b, "steps      %d, time %d, stopped: %s\n", r.Steps, r.Time, stopped)
	kinds := make([]string, 0, len(r.Messages.ByKind))
	for k := range r.Messages.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.Messages.ByKind[k]))
	}
	fmt.Fprintf(&b, "messages   %d (%s)\n", r.Messages.Total, strings.Join(parts, ", "))
	if r.Messages.Note != "" {
		fmt.Fprintf(&b, "           %s\n", r.Messages.Note)
	}
	for _, inv := range r.Invariants {
		mark := "ok  "
		if !inv.OK {
			mark = "FAIL"
			if inv.Expected {
				mark = "fail (expected)"
			}
		}
		fmt.Fprintf(&b, "invariant  %s %s", mark, inv.Name)
		if inv.FirstFailingStep != nil {
			fmt.Fprintf(&b, " (first at step %d: %s)", *inv.FirstFailingStep, inv.Detail)
		}
		b.WriteString("\n")
	}
	for _, m := range r.metrics {
		fmt.Fprintf(&b, "%-10s %v\n", m.Name, FormatValue(m.Value))
	}
	for _, p := range r.Panels {
		writePanel(&b, p)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "error      %s\n", r.Error)
	}
	return b.String()
}

// writePanel writes a panel for people: its title and note, then its
// column heads and rows, each cell padded to its column's width.
func writePanel(b *strings.Builder, p Panel) {
	fmt.Fprintf(b, "\n%s", p.Title)
	if p.Note != "" {
		fmt.Fprintf(b, " (%s)", p.Note)
	}
	b.WriteString("\n")
	widths := make([]int, len(p.Columns))
	for _, row := range append([][]string{p.Columns}, p.Rows...) {
		for i, c := range row {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	for _, row := range append([][]string{p.Columns}, p.Rows...) {
		var line strings.Builder
		line.WriteString("  ")
		for i, c := range row {
			line.WriteString(c)
			if i < len(row)-1 && i < len(widths) {
				line.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// MetricList is the algorithm's figures in the algorithm's order.
func (r *Report) MetricList() []sim.Metric { return r.metrics }

// FormatValue writes a metric's value for people: a map as its entries in
// key order ("max 5, mean 2.62"), nil as "–".
func FormatValue(v any) string {
	if v == nil {
		return "–"
	}
	// a map by name (balances, counts per process), of whatever numbers:
	// "A 100, B 100, C 100", not Go's map[A:100 B:100 C:100]
	if m := reflect.ValueOf(v); m.Kind() == reflect.Map && m.Type().Key().Kind() == reflect.String {
		keys := make([]string, 0, m.Len())
		for _, k := range m.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %v", k, m.MapIndex(reflect.ValueOf(k).Convert(m.Type().Key())).Interface())
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}
