package report_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

func builtinRun(t *testing.T, id string) (*scenario.Scenario, *engine.Run) {
	t.Helper()
	return scenariotest.Run(t, id)
}

// failStep is the first failing step of the named invariant, or -1.
func failStep(t *testing.T, r *engine.Run, name string) int {
	t.Helper()
	for _, f := range r.Failures() {
		if f.Name == name {
			return f.Step
		}
	}
	require.Failf(t, "no invariant", "%q", name)
	return -1
}

const (
	conserved = "money is conserved"
	snapshot  = "snapshot total equals the money there is"
)

// TestBuildAtEveryStep reports every prefix of the worked example and
// checks the counts against the trace.
func TestBuildAtEveryStep(t *testing.T) {
	s, r := builtinRun(t, "snapshot-bank")
	n := r.Len()
	for k := 0; k <= n; k++ {
		rep := report.Build(s, r, k)
		require.Equal(t, k, rep.Steps)
		assert.Equal(t, "snapshot-bank", rep.Scenario)
		assert.Equal(t, "chandy-lamport", rep.Algorithm)
		assert.Equal(t, 3, rep.N)
		assert.Equal(t, []string{"A", "B", "C"}, rep.Names)
		assert.Equal(t, uint64(450), rep.Seed)
		assert.Equal(t, r.At(k).Now(), rep.Time, "k=%d", k)
		if k < n {
			assert.Equal(t, "", rep.Stopped, "k=%d: the run has not stopped at a prefix", k)
		} else {
			assert.Equal(t, "done", rep.Stopped)
		}
		want := map[string]int{"marker": 0, "transfer": 0}
		for _, m := range r.Trace().Msgs {
			if m.SendStep < k {
				want[m.Kind]++
			}
		}
		assert.Equal(t, want, rep.Messages.ByKind, "k=%d: only messages sent before step k", k)
		assert.Equal(t, want["marker"], rep.Messages.Total, "k=%d: total counts the algorithm's messages only", k)
		assert.Equal(t, []string{"transfer"}, rep.Messages.Application)
		assert.Contains(t, rep.Messages.Note, "transfer")
		require.GreaterOrEqual(t, len(rep.Invariants), 2)
		assert.Equal(t, conserved, rep.Invariants[0].Name, "in the algorithm's order")
		assert.Equal(t, snapshot, rep.Invariants[1].Name)
		assert.Len(t, rep.Invariants, len(r.Failures()), "every invariant is reported")
		for _, inv := range rep.Invariants {
			assert.True(t, inv.OK, "k=%d %s", k, inv.Name)
			assert.Nil(t, inv.FirstFailingStep)
		}
		assert.Empty(t, rep.Unexpected())
		assert.Equal(t, int64(300), rep.Metrics["initial_total"])
		assert.Equal(t, int64(300), rep.Metrics["live_total"], "k=%d", k)
	}
	// The worked example's figures at the end.
	rep := report.Build(s, r, n)
	assert.Equal(t, 59, rep.Steps)
	assert.Equal(t, 6, rep.Messages.Total)
	assert.Equal(t, 6, rep.Messages.ByKind["marker"])
	assert.Equal(t, map[string]int64{"A": 126, "B": 127, "C": 20}, rep.Metrics["recorded"])
	assert.Equal(t, map[string][]int64{"B->A": {14}, "C->B": {13}}, rep.Metrics["channel_state"])
	assert.Equal(t, int64(300), rep.Metrics["snapshot_total"])
}

func TestBuildClampsK(t *testing.T) {
	s, r := builtinRun(t, "snapshot-bank")
	assert.Equal(t, report.Build(s, r, 0), report.Build(s, r, -7))
	assert.Equal(t, report.Build(s, r, r.Len()), report.Build(s, r, r.Len()+100))
	assert.Equal(t, 0, report.Build(s, r, -7).Steps)
	assert.Equal(t, r.Len(), report.Build(s, r, 1<<30).Steps)
}

// TestBuildMidSnapshot reports while the snapshot is under way: the
// metrics show what is recorded so far and no total yet.
func TestBuildMidSnapshot(t *testing.T) {
	s, r := builtinRun(t, "snapshot-bank")
	k := -1
	for i, rec := range r.Trace().Records {
		if rec.Kind == trace.Command && rec.Tag() == "snapshot" {
			k = i + 1
		}
	}
	require.Positive(t, k)
	rep := report.Build(s, r, k)
	assert.Equal(t, map[string]int64{"A": 126}, rep.Metrics["recorded"])
	assert.Nil(t, rep.Metrics["snapshot_total"], "no total until the snapshot completes")
	assert.Equal(t, 1, rep.Metrics["snapshots"])
	assert.Equal(t, 0, rep.Metrics["snapshots_complete"])
	assert.Equal(t, 2, rep.Messages.Total, "A's two markers")
	assert.Contains(t, rep.Text(), "snapshot_total –")
	data, err := json.Marshal(rep)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"snapshot_total":null`)

	before := report.Build(s, r, k-1)
	assert.NotContains(t, before.Metrics, "recorded", "no snapshot yet")
	assert.Equal(t, 0, before.Metrics["snapshots"])
	assert.Equal(t, 0, before.Messages.Total)
}

func TestUnexpected(t *testing.T) {
	s, r := builtinRun(t, "snapshot-nonfifo")
	fail := failStep(t, r, snapshot)
	require.GreaterOrEqual(t, fail, 0)
	assert.Equal(t, -1, failStep(t, r, conserved))

	noExpect := s.Clone()
	noExpect.Expect = nil

	tests := []struct {
		name       string
		scn        *scenario.Scenario
		k          int
		unexpected []string
		failed     bool
	}{
		{"declared, before it fails", s, fail, nil, false},
		{"declared, when it fails", s, fail + 1, nil, true},
		{"declared, at the end", s, r.Len(), nil, true},
		{"undeclared, before it fails", noExpect, fail, nil, false},
		{"undeclared, when it fails", noExpect, fail + 1, []string{snapshot}, true},
		{"undeclared, at the end", noExpect, r.Len(), []string{snapshot}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := report.Build(tc.scn, r, tc.k)
			var names []string
			for _, inv := range rep.Unexpected() {
				names = append(names, inv.Name)
				assert.False(t, inv.OK)
				assert.False(t, inv.Expected)
			}
			assert.Equal(t, tc.unexpected, names)
			var inv report.Invariant
			for _, i := range rep.Invariants {
				if i.Name == snapshot {
					inv = i
				}
			}
			assert.Equal(t, !tc.failed, inv.OK)
			assert.Equal(t, tc.scn.Expect != nil, inv.Expected, "the scenario declares it")
			if tc.failed {
				require.NotNil(t, inv.FirstFailingStep)
				assert.Equal(t, fail+1, *inv.FirstFailingStep, "numbered from 1, as the page numbers steps")
				assert.Contains(t, inv.Detail, "$284")
			} else {
				assert.Nil(t, inv.FirstFailingStep)
				assert.Empty(t, inv.Detail)
			}
		})
	}
}

// TestUnexpectedLostMoney forks the worked example: the network loses a
// transfer, which breaks conservation (which no scenario expects).
func TestUnexpectedLostMoney(t *testing.T) {
	s, r := builtinRun(t, "snapshot-bank")
	k := 20
	var victim = -1
	for _, m := range r.Trace().MsgsBefore(k) {
		if m.Kind == "transfer" && m.InFlightAt(k) {
			victim = m.ID
		}
	}
	require.GreaterOrEqual(t, victim, 0)
	drop := faults.OfMessage(victim)
	require.NoError(t, r.Insert(k, engine.Fault("drop", drop)))
	rep := report.Build(s, r, r.Len())
	unexpected := rep.Unexpected()
	require.NotEmpty(t, unexpected)
	assert.Equal(t, conserved, unexpected[0].Name)
	require.NotNil(t, unexpected[0].FirstFailingStep)
	assert.Equal(t, k+1, *unexpected[0].FirstFailingStep, "the drop is step k+1, numbered from 1")
	assert.Contains(t, unexpected[0].Detail, "lost")
	for _, inv := range unexpected {
		assert.Contains(t, rep.Text(), "invariant  FAIL "+inv.Name)
	}
	// Still fine just before the loss.
	assert.Empty(t, report.Build(s, r, k).Unexpected())
}

func TestText(t *testing.T) {
	s, r := builtinRun(t, "snapshot-bank")
	rep := report.Build(s, r, r.Len())
	text := rep.Text()
	transfers := rep.Messages.ByKind["transfer"]
	for _, line := range []string{
		"scenario   snapshot-bank (chandy-lamport, n=3, seed 450)",
		fmt.Sprintf("steps      59, time %d, stopped: done", rep.Time),
		fmt.Sprintf("messages   6 (marker 6, transfer %d)", transfers),
		"           total counts chandy-lamport messages only; transfer is the application's traffic",
		"invariant  ok   money is conserved",
		"invariant  ok   snapshot total equals the money there is",
		"initial_total 300",
		"recorded   A 126, B 127, C 20",
		"channel_state B->A [14], C->B [13]",
		"snapshot_total 300",
		"live_total 300",
		"markers    6",
	} {
		assert.Contains(t, strings.Split(text, "\n"), line)
	}
	assert.True(t, strings.HasSuffix(text, "\n"))
	assert.NotContains(t, text, "FAIL")

	// Metrics come in the algorithm's order, after the invariants.
	assert.Less(t, strings.Index(text, "invariant"), strings.Index(text, "initial_total"))
	assert.Less(t, strings.Index(text, "initial_total"), strings.Index(text, "snapshot_total"))

	s, r = builtinRun(t, "snapshot-nonfifo")
	fail := failStep(t, r, snapshot)
	rep = report.Build(s, r, r.Len())
	text = rep.Text()
	var detail string
	for _, inv := range rep.Invariants {
		if inv.Name == snapshot {
			detail = inv.Detail
		}
	}
	require.NotEmpty(t, detail)
	assert.Contains(t, strings.Split(text, "\n"), "invariant  ok   money is conserved")
	assert.Contains(t, strings.Split(text, "\n"),
		fmt.Sprintf("invariant  fail (expected) snapshot total equals the money there is (first at step %d: %s)", fail+1, detail))
	assert.NotContains(t, text, "FAIL")

	noExpect := s.Clone()
	noExpect.Expect = nil
	text = report.Build(noExpect, r, r.Len()).Text()
	assert.Contains(t, strings.Split(text, "\n"),
		fmt.Sprintf("invariant  FAIL snapshot total equals the money there is (first at step %d: %s)", fail+1, detail))

	// A prefix says it has not stopped.
	text = report.Build(s, r, 5).Text()
	assert.Contains(t, text, "steps      5, time ")
	assert.NotContains(t, text, "stopped: done")
}

func TestJSONFields(t *testing.T) {
	s, r := builtinRun(t, "snapshot-nonfifo")
	data, err := json.Marshal(report.Build(s, r, r.Len()))
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.ElementsMatch(t, []string{"scenario", "algorithm", "n", "names", "seed", "steps", "time", "stopped", "messages", "invariants", "metrics", "processes", "panels"}, keys(doc))

	var msgs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc["messages"], &msgs))
	assert.ElementsMatch(t, []string{"total", "by_kind", "application", "note"}, keys(msgs))

	var list []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc["invariants"], &list))
	invs := map[string]map[string]json.RawMessage{}
	for _, inv := range list {
		var name string
		require.NoError(t, json.Unmarshal(inv["name"], &name))
		invs[name] = inv
	}
	require.Contains(t, invs, conserved)
	require.Contains(t, invs, snapshot)
	assert.ElementsMatch(t, []string{"name", "ok", "first_failing_step"}, keys(invs[conserved]), "a holding invariant")
	assert.Equal(t, "null", string(invs[conserved]["first_failing_step"]))
	assert.Equal(t, "true", string(invs[conserved]["ok"]))
	assert.ElementsMatch(t, []string{"name", "ok", "first_failing_step", "detail", "expected"}, keys(invs[snapshot]), "a failing one")
	assert.Equal(t, "true", string(invs[snapshot]["expected"]))
	assert.Equal(t, "false", string(invs[snapshot]["ok"]))

	var metrics map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc["metrics"], &metrics))
	for _, k := range []string{"recorded", "channel_state", "snapshot_total", "live_total", "initial_total"} {
		assert.Contains(t, metrics, k)
	}
	assert.JSONEq(t, `{"A": 53, "B": 115, "C": 116}`, string(metrics["recorded"]))
	assert.Equal(t, "284", string(metrics["snapshot_total"]))
	assert.Equal(t, "300", string(metrics["live_total"]))
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// A map by name reads as names and numbers, whatever its numbers' type.
func TestFormatValueOfMaps(t *testing.T) {
	assert.Equal(t, "A 100, B 100, C 100", report.FormatValue(map[string]int64{"C": 100, "A": 100, "B": 100}))
	assert.Equal(t, "x 0.5", report.FormatValue(map[string]float64{"x": 0.5}))
	assert.Equal(t, "–", report.FormatValue(nil))
	assert.Equal(t, "7", report.FormatValue(7))
}
