package chandylamport_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/chandylamport"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// builtinRun runs a built-in scenario.
func builtinRun(t testing.TB, id string) (*scenario.Scenario, *engine.Run) {
	t.Helper()
	return scenariotest.Run(t, id)
}

// metricsAt returns the algorithm's metrics after k steps, by name.
func metricsAt(r *engine.Run, k int) map[string]any {
	v := r.At(k).View()
	out := map[string]any{}
	for _, m := range r.Config().Spec.Figures.Metrics(v) {
		out[m.Name] = m.Value
	}
	return out
}

// TestWorkedExample replays the course text's Python example draw for draw
// and checks every figure it prints.
func TestWorkedExample(t *testing.T) {
	_, r := builtinRun(t, "snapshot-bank")
	require.Equal(t, "done", r.Stopped())
	for _, f := range r.Failures() {
		assert.Equal(t, -1, f.Step, "%s: %s", f.Name, f.Detail)
	}
	m := metricsAt(r, r.Len())
	assert.Equal(t, map[string]int64{"A": 126, "B": 127, "C": 20}, m["recorded"], "recorded branch balances")
	assert.Equal(t, map[string][]int64{"B->A": {14}, "C->B": {13}}, m["channel_state"], "recorded in-flight money")
	assert.Equal(t, int64(300), m["snapshot_total"])
	assert.Equal(t, map[string]int64{"A": 68, "B": 131, "C": 3}, m["live_balances"], "live balances now")
	assert.Equal(t, int64(98), m["live_in_flight"], "+ in channels")
	assert.Equal(t, int64(300), m["live_total"])
	assert.Equal(t, int64(300), m["initial_total"])
	assert.Equal(t, 1, m["snapshots"])
	assert.Equal(t, 1, m["snapshots_complete"])
	assert.Equal(t, 6, m["markers"], "N(N-1) markers")
	assert.Equal(t, 6, m["markers_expected"])

	// The live balances alone sum to $202, as the text says.
	var live int64
	for _, b := range m["live_balances"].(map[string]int64) {
		live += b
	}
	assert.Equal(t, int64(202), live)

	// The snapshot starts at tick 40, at A, as the script says.
	started := 0
	for _, rec := range r.Trace().Records {
		if rec.Kind == trace.Command && rec.Tag() == chandylamport.CmdSnapshot {
			started++
			assert.Equal(t, sim.Time(40), rec.Time)
			assert.Equal(t, sim.NodeID(0), rec.Node)
			assert.Contains(t, rec.Caption, "A starts snapshot 1: records its balance $126")
		}
	}
	assert.Equal(t, 1, started)
}

// TestWorkedExamplePanel checks the live-versus-recorded panel's totals.
func TestWorkedExamplePanel(t *testing.T) {
	_, r := builtinRun(t, "snapshot-bank")
	panels := r.Config().Spec.Figures.Panels(r.At(r.Len()).View())
	require.Len(t, panels, 1)
	rows := panels[0].Rows
	require.NotEmpty(t, rows)
	total := rows[len(rows)-1]
	assert.Equal(t, []string{"total (opening $300)", "$300", "$300"}, total.Cells)
	assert.Equal(t, []string{"", "good", "good"}, total.CellEmphasis)
	assert.Equal(t, "snapshot 1", panels[0].Columns[2])
	var balancesAlone []string
	for _, row := range rows {
		if row.Cells[0] == "balances alone" {
			balancesAlone = row.Cells
		}
	}
	assert.Equal(t, []string{"balances alone", "$202", "$273"}, balancesAlone)
}

// The snapshot's recorded balances, A $126, B $127 and C $20, stood
// together at no moment of the run: a consistent cut is a state the
// system could have been in, not one it was in (the index's claim).
func TestTheSnapshotWasNoMomentOfTheRun(t *testing.T) {
	_, r := builtinRun(t, "snapshot-bank")
	recorded := metricsAt(r, r.Len())["recorded"].(map[string]int64)
	require.Equal(t, map[string]int64{"A": 126, "B": 127, "C": 20}, recorded)
	for k := 0; k <= r.Len(); k++ {
		v := r.At(k).View()
		same := true
		for i := range v.N() {
			b := v.Node(sim.NodeID(i)).(*chandylamport.Branch)
			same = same && b.Balance == recorded[v.Name(sim.NodeID(i))]
		}
		assert.False(t, same, "at step %d the live balances are the snapshot's", k)
	}
}
