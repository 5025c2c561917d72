package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"spacetime/core/algo/all"
)

// Comparison is a lesson that runs several algorithms on one workload and
// one fault schedule, to be read side by side in the compare view: each
// algorithm's run is a built-in scenario of its own, with the id
// "<comparison>-<algorithm>", so that a link names it as any lesson.
type Comparison struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Algorithms  []string `json:"algorithms"`
	// Scenario is what every run shares: a scenario without its id, title,
	// description or algorithm.
	Scenario json.RawMessage `json:"scenario"`
	// Expect gives a run its own "expect", by algorithm (the deadlock one
	// algorithm reaches and the others do not).
	Expect map[string]json.RawMessage `json:"expect,omitempty"`
	// Params gives a run its own "params", by algorithm (a write's time
	// that one algorithm takes and the other has no use for); they replace
	// the shared scenario's params for that run.
	Params map[string]json.RawMessage `json:"params,omitempty"`
}

// MaxCompared is how many algorithms one comparison runs (one pane each).
const MaxCompared = 6

// Members builds the comparison's scenarios, one per algorithm, in order.
func (c *Comparison) Members() ([]*Scenario, error) {
	if len(c.Algorithms) < 2 || len(c.Algorithms) > MaxCompared {
		return nil, fieldErr("algorithms", "a comparison runs 2 to %d algorithms, got %d", MaxCompared, len(c.Algorithms))
	}
	var shared map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(c.Scenario))
	if err := dec.Decode(&shared); err != nil || shared == nil {
		return nil, fieldErr("scenario", "want the scenario the runs share, as an object")
	}
	for _, own := range []struct {
		field  string
		byAlgo map[string]json.RawMessage
	}{{"expect", c.Expect}, {"params", c.Params}} {
		for _, algo := range slices.Sorted(maps.Keys(own.byAlgo)) {
			if !slices.Contains(c.Algorithms, algo) {
				return nil, fieldErr(own.field+"."+clipText(algo), "not one of the comparison's algorithms (%s)", strings.Join(c.Algorithms, ", "))
			}
		}
	}
	for _, own := range []string{"id", "title", "description", "algorithm"} {
		if _, ok := shared[own]; ok {
			return nil, fieldErr("scenario."+own, "each run has its own %s: leave it out of the shared scenario", own)
		}
	}
	out := make([]*Scenario, len(c.Algorithms))
	for i, id := range c.Algorithms {
		spec, ok := all.Lookup(id)
		if !ok {
			if err := all.Missing(id); err != nil {
				return nil, fmt.Errorf("scenario: field \"algorithms[%d]\": %w", i, err)
			}
			return nil, fieldErr(fmt.Sprintf("algorithms[%d]", i), "unknown algorithm %q (known: %s)", clipText(id), strings.Join(all.IDs(), ", "))
		}
		fields := map[string]json.RawMessage{}
		for k, v := range shared {
			fields[k] = v
		}
		set := func(k, v string) { fields[k], _ = json.Marshal(v) }
		set("id", c.ID+"-"+id)
		set("title", c.Title+": "+spec.Title)
		set("description", c.Description)
		set("algorithm", id)
		if e, ok := c.Expect[id]; ok {
			fields["expect"] = e
		}
		if p, ok := c.Params[id]; ok {
			fields["params"] = p
		}
		doc, err := json.Marshal(fields)
		if err != nil {
			return nil, err
		}
		if out[i], err = Parse(doc); err != nil {
			return nil, fmt.Errorf("the run of %s: %w", id, err)
		}
	}
	return out, nil
}

// ParseComparison reads a comparison file and checks that every run
// parses.
func ParseComparison(data []byte) (*Comparison, error) {
	c, _, err := parseComparison(data)
	return c, err
}

// parseComparison is ParseComparison, with the runs it parsed.
func parseComparison(data []byte) (*Comparison, []*Scenario, error) {
	var c Comparison
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, nil, fmt.Errorf("comparison: %v", err)
	}
	for _, t := range []struct {
		field, text string
		most        int
	}{{"id", c.ID, 48}, {"title", c.Title, 200}, {"description", c.Description, 4000}} {
		if err := checkText(t.text, t.most, t.field == "description"); err != nil {
			return nil, nil, fieldErr(t.field, "%v", err)
		}
	}
	if c.ID == "" {
		return nil, nil, fieldErr("id", "a comparison needs an id")
	}
	members, err := c.Members()
	if err != nil {
		return nil, nil, err
	}
	return &c, members, nil
}

// Comparisons parses the built-in comparisons, in id order (those that
// do not parse are left out: Broken says why).
func Comparisons() []*Comparison {
	var out []*Comparison
	for _, head := range index.comparisons {
		if c, ok := LookupComparison(head.ID); ok {
			out = append(out, c)
		}
	}
	return out
}

// LookupComparison parses a built-in comparison.
func LookupComparison(id string) (*Comparison, bool) {
	if !slices.ContainsFunc(index.comparisons, func(c comparisonHead) bool { return c.ID == id }) {
		return nil, false
	}
	c, _, err := parseComparisonFile(id)
	return c, err == nil
}

// MemberIDs are the ids of the comparison's runs, in order.
func (c *Comparison) MemberIDs() []string {
	out := make([]string, len(c.Algorithms))
	for i, a := range c.Algorithms {
		out[i] = c.ID + "-" + a
	}
	return out
}
