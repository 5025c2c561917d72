package termination_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/termination"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

var detectors = []string{"dijkstra-scholten", "credit-recovery", "idle-poll", "snapshot-termination"}

// The computation is the seed's, whatever the detector: the same WORK
// messages and the same end under all three. Dijkstra–Scholten sends one
// ACK per WORK; credit recovery at most one CREDIT per WORK.
func TestOneComputationUnderEveryDetector(t *testing.T) {
	var basicTotal, dsTotal, creditTotal, snapTotal int
	for seed := 1; seed <= 40; seed++ {
		n := 3 + seed%6
		got := map[string]map[string]any{}
		for _, id := range detectors {
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "seed": %d, "until": {"quiescent": true}}`, id, n, seed))
			got[id] = algotest.Metrics(r)
		}
		ds, credit, poll, snap := got["dijkstra-scholten"], got["credit-recovery"], got["idle-poll"], got["snapshot-termination"]
		for _, m := range []string{"basic_messages", "terminated_at"} {
			assert.Equal(t, ds[m], credit[m], "seed %d: %s", seed, m)
			assert.Equal(t, ds[m], poll[m], "seed %d: %s", seed, m)
			assert.Equal(t, ds[m], snap[m], "seed %d: %s", seed, m)
		}
		assert.Equal(t, ds["basic_messages"], ds["control_messages"], "seed %d: one ACK per WORK", seed)
		assert.LessOrEqual(t, credit["control_messages"], credit["basic_messages"], "seed %d", seed)
		basicTotal += ds["basic_messages"].(int)
		dsTotal += ds["control_messages"].(int)
		creditTotal += credit["control_messages"].(int)
		snapTotal += snap["control_messages"].(int)
	}
	t.Logf("40 computations, %d WORK messages: Dijkstra–Scholten %d ACKs (%.2f per WORK), credit recovery %d CREDITs (%.2f per WORK), snapshots %d markers and reports (%.2f per WORK)",
		basicTotal, dsTotal, float64(dsTotal)/float64(basicTotal), creditTotal, float64(creditTotal)/float64(basicTotal), snapTotal, float64(snapTotal)/float64(basicTotal))
}

// Hundreds of seeds with random delays, FIFO or not (FIFO for snapshots),
// and GC pauses: the detectors announce termination, never early and
// always eventually.
func TestNeverEarlyAlwaysEventually(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, id := range []string{"dijkstra-scholten", "credit-recovery", "snapshot-termination"} {
		for seed := range 300 {
			n := 2 + rng.IntN(8)
			fifo := rng.IntN(2) == 0 || id == "snapshot-termination" // a snapshot needs FIFO channels
			var script []string
			for range rng.IntN(3) {
				script = append(script, fmt.Sprintf(`{"at": %d, "fault": "pause", "node": %d, "for": %d}`, 1+rng.IntN(30), 1+rng.IntN(n), 1+rng.IntN(20)))
			}
			doc := fmt.Sprintf(`{"algorithm": %q, "n": %d, "seed": %d, "network": {"delay": [1, %d], "fifo": %v}, "params": {"depth": %d, "fanout": %d},
				"script": [%s], "until": {"quiescent": true}}`, id, n, seed, 1+rng.IntN(8), fifo, 1+rng.IntN(5), 1+rng.IntN(3), strings.Join(script, ", "))
			r := algotest.Run(t, doc)
			require.Empty(t, algotest.Failed(r), doc)
			m := algotest.Metrics(r)
			require.NotNil(t, m["detected_at"], "announced\n%s", doc)
			require.NotNil(t, m["terminated_at"], doc)
			require.GreaterOrEqual(t, m["detected_at"], m["terminated_at"], doc)
		}
	}
}

// Seed 003's interview point: every process idle with a WORK in flight.
// Asking who is idle announces termination too early; the two detectors
// wait for the message.
func TestIdleIsNotTerminated(t *testing.T) {
	s, r := scenariotest.Run(t, "termination-in-flight")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.Equal(t, termination.SafeName+": termination announced with every process passive but 1 WORK message(s) still in flight", failed[0])
	assert.True(t, s.Expected(termination.SafeName))
	assert.Equal(t, sim.Time(10), algotest.Metrics(r)["detected_at"])

	for _, id := range []string{"termination-in-flight-ds", "termination-in-flight-credit"} {
		_, r := scenariotest.Run(t, id)
		assert.Empty(t, algotest.Failed(r), id)
		m := algotest.Metrics(r)
		assert.Greater(t, m["detected_at"], sim.Time(36), "%s: after the delayed WORK arrives at 36", id)
	}

	// while the WORK is held back, a quarter of the credit is in it
	_, r = scenariotest.Run(t, "termination-in-flight-credit")
	for k := range r.Len() {
		if r.Trace().Records[k].Time == 20 {
			panel := r.Config().Spec.Figures.Panels(r.At(k).View())[0]
			assert.Equal(t, "held 0 + in flight 1/4 + returned to the root 3/4", panel.Note)
			break
		}
	}
}

// Bad parameters are refused, naming the field.
func TestParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"depth": -1}`:    `field "params.depth": want levels from 0 to 1000, got -1`,
		`{"fanout": 1001}`: `field "params.fanout": want messages from 0 to 1000, got 1001`,
		`{"work": 0}`:      `field "params.work": want ticks from 1 to 1000, got 0`,
		`{"credit": 1}`:    `params.credit`,
	} {
		for _, id := range detectors {
			s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": %q, "n": 3, "params": %s, "until": {"time": 9}}`, id, params)))
			if err == nil {
				_, err = scenariotest.Plan(t, s).Run()
			}
			require.Error(t, err, params)
			assert.Contains(t, err.Error(), want, params)
		}
	}
}

// Counting WORK sent and received catches the WORK held back in
// termination-in-flight, but answers given at different times are an
// inconsistent cut: in termination-counting the totals agree while a WORK
// is in flight.
func TestCountingOnAnInconsistentCut(t *testing.T) {
	s, _ := scenariotest.Run(t, "termination-in-flight")
	counting, err := s.WithSwitch(termination.PollSpec.Learner.Switches[0], true)
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, counting).Run()
	require.NoError(t, err)
	assert.Empty(t, algotest.Failed(r), "the totals disagree while the WORK is held back")
	assert.Equal(t, sim.Time(40), algotest.Metrics(r)["detected_at"], "after it arrives at 36")

	_, r = scenariotest.Run(t, "termination-counting")
	failed := algotest.Failed(r)
	require.Len(t, failed, 1)
	assert.Equal(t, termination.SafeName+": termination announced with every process passive but 1 WORK message(s) still in flight", failed[0])
	assert.Contains(t, algotest.Captions(r), "the answers count 2 WORK sent and 2 received, so it announces termination")

	// the other detectors have no such param
	for _, id := range detectors[:2] {
		s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": %q, "n": 3, "params": {"count": true}, "until": {"time": 9}}`, id)))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, id)
		assert.Contains(t, err.Error(), "params.count", id)
	}
}

// Seed 000's stable property: termination read off recorded consistent
// cuts. The second snapshot finds every process passive and records the
// held-back WORK in its channel; the third finds termination, and it holds.
func TestTerminationReadOffSnapshots(t *testing.T) {
	_, r := scenariotest.Run(t, "termination-snapshot")
	require.Empty(t, algotest.Failed(r))
	panel := r.Config().Spec.Figures.Panels(r.At(r.Len()).View())[0]
	var got []string
	for _, row := range panel.Rows {
		got = append(got, strings.Join(row.Cells, " "))
	}
	assert.Equal(t, []string{"1 1 0 no", "2 0 1 no", "3 0 0 yes"}, got, "snapshot, active at the cut, WORK in channels, terminated")
	m := algotest.Metrics(r)
	assert.Equal(t, sim.Time(38), m["terminated_at"])
	assert.Equal(t, sim.Time(43), m["detected_at"])
	first := r.Config().Spec.Figures.Metrics(r.At(0).View())[0]
	assert.Equal(t, "terminated_at", first.Name)
	assert.Nil(t, first.Value, "before the root's start nothing has terminated")
}

// A copied marker or report is counted once: the root never reads a
// snapshot as complete with a part missing.
func TestSnapshotsCountCopiesOnce(t *testing.T) {
	for msg := range 40 {
		for _, at := range []int{4, 5, 7, 10, 11, 12} {
			doc := fmt.Sprintf(`{"algorithm": "snapshot-termination", "n": 4, "seed": 4, "params": {"depth": 2, "fanout": 1},
				"script": [{"at": 6, "fault": "delay", "msg": 13, "for": 30}, {"at": %d, "fault": "duplicate", "msg": %d}], "until": {"quiescent": true}}`, at, msg)
			r := algotest.Run(t, doc)
			require.Empty(t, algotest.Failed(r), doc)
			assert.NotNil(t, algotest.Metrics(r)["detected_at"], doc)
		}
	}
}

// Credit recovery's books, and credit-integer's, kept step by step from
// what moved, say credit is conserved exactly when adding up every
// process and channel says so, at every step of random runs that crash,
// lose, copy and delay messages.
func TestCreditBooksAgreeWithTheSum(t *testing.T) {
	t.Run("credit-recovery", func(t *testing.T) { booksAgree(t, "credit-recovery", termination.CreditSum) })
	t.Run("credit-integer", func(t *testing.T) { booksAgree(t, "credit-integer", termination.UnitsSum) })
}

// booksAgree holds an algorithm's books (sum: what a visit adds up, and
// what the books say) to the sum over random faulty runs.
func booksAgree(t *testing.T, algorithm string, sum func(sim.View) (bool, bool)) {
	rng := rand.New(rand.NewPCG(5, 5))
	broken := 0
	for seed := range 80 {
		n := 2 + rng.IntN(5)
		var script []string
		for range rng.IntN(4) {
			at := 1 + rng.IntN(40)
			switch rng.IntN(4) {
			case 0:
				script = append(script, fmt.Sprintf(`{"at": %d, "fault": "duplicate", "msg": %d}`, at, rng.IntN(20)))
			case 1:
				script = append(script, fmt.Sprintf(`{"at": %d, "fault": "drop", "msg": %d}`, at, rng.IntN(20)))
			case 2:
				node := 1 + rng.IntN(n)
				script = append(script, fmt.Sprintf(`{"at": %d, "fault": "crash", "node": %d}, {"at": %d, "fault": "recover", "node": %d}`, at, node, at+3, node))
			default:
				script = append(script, fmt.Sprintf(`{"at": %d, "fault": "delay", "msg": %d, "for": 9}`, at, rng.IntN(20)))
			}
		}
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": %q, "n": %d, "seed": %d, "network": {"delay": [1, 4]},
			"params": {"fanout": %d, "depth": %d}, "script": [%s], "until": {"steps": 400}}`, algorithm, n, seed, 1+rng.IntN(6), 1+rng.IntN(6), strings.Join(script, ", ")))
		for k := 1; k <= r.Len(); k++ {
			one, balanced := sum(r.At(k).View())
			require.Equal(t, one, balanced, "seed %d, step %d", seed, k)
			if !one {
				broken++
			}
		}
	}
	assert.Positive(t, broken, "faults broke conservation, and the books said so")
}

// Seed 003's rule returns credit to the parent: on termination-credit's
// computation a passive parent keeps what comes back, and the root never
// announces; by the paper's rule, the same computation is announced.
func TestSeedRuleStrandsCreditAtAParent(t *testing.T) {
	doc := `{"algorithm": "credit-recovery", "n": 5, "seed": 2, "params": {"seed_parent": %t}, "until": {"quiescent": true}}`
	seed := algotest.Run(t, fmt.Sprintf(doc, true))
	assert.Equal(t, []string{termination.LiveName + ": the computation has terminated and nothing is in flight, but termination was never announced"}, algotest.Failed(seed))
	assert.Contains(t, algotest.Captions(seed), "3 gets credit 1/512 back from 5 and, passive already, keeps it: by seed 003's rule a process returns credit when it goes idle, and it has; it holds 15/512")
	paper := algotest.Run(t, fmt.Sprintf(doc, false))
	assert.Empty(t, algotest.Failed(paper))
	assert.Equal(t, algotest.Metrics(paper)["basic_messages"], algotest.Metrics(seed)["basic_messages"], "the same computation; only the credit goes elsewhere")
	_, err := scenario.Parse([]byte(`{"algorithm": "dijkstra-scholten", "n": 3, "params": {"seed_parent": true}, "until": {"steps": 5}}`))
	require.Error(t, err, "the switch is credit recovery's own")
	assert.Contains(t, err.Error(), "params.seed_parent")
}
