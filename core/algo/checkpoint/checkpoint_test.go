package checkpoint_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/checkpoint"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// cand is a candidate that sent sent[q] to q and took recv[q] from q.
func cand(id int, sent, recv []int) checkpoint.Candidate {
	return checkpoint.Candidate{ID: id, Sent: sent, Recv: recv}
}

// Rollback propagation on the domino lesson's checkpoints: each step finds
// one orphan and rolls its receiver back, until the line is consistent.
func TestRollbackPropagation(t *testing.T) {
	cands := [][]checkpoint.Candidate{
		// process 1 restarted: c1.0, and c1.1 after taking 2's #1
		{cand(0, []int{0, 0}, []int{0, 0}), cand(1, []int{0, 1}, []int{0, 1})},
		// process 2: c2.0, c2.1 (took 1's #1), c2.2 (took 1's #2, sent #1), now (sent #2)
		{cand(0, []int{0, 0}, []int{0, 0}), cand(1, []int{0, 0}, []int{1, 0}), cand(2, []int{1, 0}, []int{2, 0}), cand(-1, []int{2, 0}, []int{2, 0})},
	}
	line := []int{1, 3}
	var steps []string
	for {
		from, to, ok := checkpoint.Orphan(cands, line)
		if !ok {
			break
		}
		checkpoint.RollBack(cands, line, from, to)
		steps = append(steps, fmt.Sprintf("%d→%d: %v", from+1, to+1, line))
		require.Less(t, len(steps), 10, "propagation ends")
	}
	assert.Equal(t, []string{"1→2: [1 1]", "2→1: [0 1]", "1→2: [0 0]"}, steps, "the domino falls to the start")

	// a line with no orphan stays where it is
	line = []int{1, 1}
	cands[1][1] = cand(1, []int{1, 0}, []int{0, 0}) // 2 sent #1 before c2.1 and took nothing
	cands[0][1] = cand(1, []int{0, 0}, []int{0, 1}) // 1 took it before c1.1
	_, _, ok := checkpoint.Orphan(cands, line)
	assert.False(t, ok)
}

// The domino lesson loses all the work and reaches the start; the same
// schedule with coordinated checkpoints restores global checkpoint 1.
func TestDominoAndTheSwitch(t *testing.T) {
	s, r := scenariotest.Run(t, "checkpoint-domino")
	require.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 2, m["rolled_back_to_start"], "both processes are back at their start")
	assert.Equal(t, 3, m["propagation_steps"])
	assert.Equal(t, 8, m["lost_work"], "every unit of work: 2 in the crash, 2 and 4 in the rollbacks")
	assert.Equal(t, 0, m["markers"])

	coordinated, err := s.WithSwitch(checkpoint.Spec.Learner.Switches[0], true)
	require.NoError(t, err)
	r, err = scenariotest.Plan(t, coordinated).Run()
	require.NoError(t, err)
	require.Empty(t, algotest.Failed(r))
	m = algotest.Metrics(r)
	assert.Equal(t, 0, m["rolled_back_to_start"])
	assert.Equal(t, 2, m["markers"], "one global checkpoint: N(N−1) = 2 markers")
	assert.Equal(t, 4, m["lost_work"], "2 in the crash, 2 at process 2")
	assert.Contains(t, algotest.Captions(r), "The last global checkpoint every process completed is 1")
}

// Hundreds of seeds with random work, crashes and restarts, lost,
// duplicated and delayed messages: every recovery line is consistent (by
// the trace, not the counts), coordinated recovery loses no message on
// reliable channels, and everyone resumes once nothing is down.
func TestRecoveryUnderFaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	recoveries := map[string]int{}
	modes := []string{"uncoordinated", "markers", "two-phase"}
	for seed := range 450 {
		n := 2 + rng.IntN(5)
		mode := modes[seed%3]
		script, at := crashes(rng, n, 1+rng.IntN(3), 5, 40, 10)
		if rng.IntN(2) == 0 {
			script = append(script, fmt.Sprintf(`{"at": %d, "fault": "duplicate", "msg": %d}`, 1+rng.IntN(at), rng.IntN(20)))
		}
		doc := fmt.Sprintf(`{"algorithm": "checkpoint", "n": %d, "seed": %d, "network": {"delay": [1, %d]},
			"params": {"coordinated": %v, "two_phase": %v, "interval": %d}, "workload": {"p": 0.5, "every": [1, 3]},
			"script": [%s], "until": {"time": %d}}`, n, seed, 1+rng.IntN(6), mode != "uncoordinated", mode == "two-phase", 4+rng.IntN(12), strings.Join(script, ", "), at+150)
		r := algotest.Run(t, doc)
		require.Empty(t, algotest.Failed(r), doc)
		m := algotest.Metrics(r)
		recoveries[mode] += m["recoveries"].(int)
		if mode == "markers" {
			require.Equal(t, 0, m["lost_messages"], doc)
		}
		if mode == "two-phase" {
			require.Equal(t, 0, m["markers"], doc)
			checkHeldSends(t, r, doc)
		}
		st := r.At(r.Len())
		for i := range n {
			state := algotest.Field(t, st.View().Node(sim.NodeID(i)), "state")
			if mode == "two-phase" && state == "holds its sends" {
				continue // a global checkpoint under way as the run ends
			}
			require.Equal(t, "working", state, "process %d resumed\n%s", i+1, doc)
		}
	}
	for _, mode := range modes {
		assert.Greater(t, recoveries[mode], 200, mode)
	}
}

// checkHeldSends holds a two-phase run to its protocol: no process sends
// an application message between saving its part of a global checkpoint
// and hearing that the checkpoint is done (or forgetting it in a crash or
// a recovery).
func checkHeldSends(t *testing.T, r *engine.Run, doc string) {
	t.Helper()
	tr := r.Trace()
	held := make([]bool, len(tr.Names))
	sends := 0
	for i := range tr.Records {
		rec := &tr.Records[i]
		for j := rec.FirstSent; j < rec.FirstSent+rec.NumSent; j++ {
			if m := &tr.Msgs[j]; m.Kind == checkpoint.KindMsg {
				require.False(t, held[m.From], "step %d: %s sends message %s while it holds its sends\n%s", rec.Step+1, tr.Names[m.From], m.Label, doc)
				sends++
			}
		}
		if rec.Node < 0 {
			continue
		}
		if rec.Kind == trace.Fault && rec.Tag() == "crash" {
			held[rec.Node] = false
		}
		for _, a := range rec.Annotations() {
			if a.Role == checkpoint.RoleBlocked {
				held[rec.Node] = a.Phase == sim.Begin
			}
		}
	}
	require.Positive(t, sends)
}

// crashes scripts pairs of a crash and a recovery of random processes of
// n, each pair gap to gap+spread-1 ticks after the last, down for 1 to
// down ticks; it gives the script's entries and the time of the last.
func crashes(rng *rand.Rand, n, pairs, gap, spread, down int) (script []string, at int) {
	for range pairs {
		at += gap + rng.IntN(spread)
		node := 1 + rng.IntN(n)
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "crash", "node": %d}`, at, node))
		at += 1 + rng.IntN(down)
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "recover", "node": %d}`, at, node))
	}
	return script, at
}

// Bad parameters are refused, naming the field.
func TestParams(t *testing.T) {
	for params, want := range map[string]string{
		`{"interval": -1}`:     `field "params.interval": want ticks from 0 (only when commanded) to 100000, got -1`,
		`{"coordinated": 1}`:   `params.coordinated`,
		`{"checkpoints": 3}`:   `params.checkpoints`,
		`{"interval": 100001}`: `got 100001`,
	} {
		s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": "checkpoint", "n": 3, "params": %s, "until": {"time": 9}}`, params)))
		if err == nil {
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
}

// A process that restored its point on the line and crashed before RESUME
// restarts at that very point: it takes the message a process that resumed
// first sends it, instead of dropping it as if a rollback were to come.
func TestRestartedAfterRestoringTakesWhatComes(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "checkpoint", "n": 3, "seed": 1, "params": {"interval": 0}, "network": {"delay": [1, 1]},
		"script": [{"at": 1, "node": 2, "command": "send", "target": 3}, {"at": 2, "node": 3, "command": "send", "target": 2},
			{"at": 4, "fault": "crash", "node": 2}, {"at": 5, "fault": "recover", "node": 2}, {"at": 9, "fault": "crash", "node": 3},
			{"at": 12, "fault": "crash", "node": 2}, {"at": 13, "fault": "recover", "node": 2}, {"at": 20, "fault": "recover", "node": 3},
			{"at": 22, "fault": "delay", "msg": 14, "for": 5}, {"at": 23, "node": 3, "command": "send", "target": 2}],
		"until": {"time": 40}}`)
	require.Empty(t, algotest.Failed(r))
	v := r.At(r.Len()).View()
	two, three := v.Node(1).(*checkpoint.Proc), v.Node(2).(*checkpoint.Proc)
	assert.Equal(t, three.Sent[1], two.Recv[2], "2 has taken every message 3 sent it")
	assert.Contains(t, algotest.Captions(r), "2 takes message #1 from 3")
}

// A restart from a global checkpoint takes its channel state again: that
// work is not lost.
func TestRestartReplaysChannelState(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "checkpoint", "n": 2, "seed": 1, "params": {"coordinated": true, "interval": 0}, "network": {"delay": [2, 2]},
		"script": [{"at": 1, "node": 1, "command": "checkpoint"}, {"at": 1, "node": 2, "command": "send", "target": 1},
			{"at": 6, "fault": "crash", "node": 1}, {"at": 7, "fault": "recover", "node": 1}],
		"until": {"quiescent": true}}`)
	require.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, 0, m["lost_work"])
	assert.Equal(t, 2, m["work"])
	assert.Contains(t, algotest.Captions(r), "the 0 unit(s) of work since are lost")
}

// A two-phase CHECKPOINT that overtakes the last DONE, on channels that
// keep no order, stands for that DONE: process 1 starts a global
// checkpoint only once the last is done. A process that dropped it, still
// holding its sends for the DONE, never answered, and process 1 held its
// own for good.
func TestCheckpointOvertakingDoneIsAnswered(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "checkpoint", "n": 2, "seed": 1, "params": {"two_phase": true, "interval": 0},
		"network": {"delay": [1, 1], "fifo": false},
		"script": [{"at": 1, "node": 1, "command": "checkpoint"}, {"at": 4, "fault": "delay", "msg": 2, "for": 6},
			{"at": 4, "node": 1, "command": "checkpoint"}],
		"until": {"quiescent": true}}`)
	require.Empty(t, algotest.Failed(r))
	assert.Contains(t, algotest.Captions(r), "taking it as the DONE of global checkpoint 1 that it overtook")
	m := algotest.Metrics(r)
	assert.Equal(t, 2*3*(2-1), m["two_phase_messages"], "two global checkpoints, 3(N−1) messages each")
	v := r.At(r.Len()).View()
	for i := range 2 {
		assert.False(t, v.Node(sim.NodeID(i)).(*checkpoint.Proc).Blocked, "process %d sends again", i+1)
	}
}

// A process that crashes while stopped for recovery restarts stopped, and
// is drawn so (the crash ended the interval drawn); a copy of an old
// RESUME that reaches it after it stopped again, for a later recovery,
// does not set it working, on channels that keep no order.
func TestStoppedAgainStaysStopped(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "checkpoint", "n": 3, "seed": 1, "params": {"interval": 0}, "network": {"delay": [1, 1], "fifo": false},
		"script": [{"at": 1, "node": 2, "command": "send", "target": 3},
			{"at": 3, "fault": "crash", "node": 2}, {"at": 4, "fault": "recover", "node": 2},
			{"at": 9, "fault": "crash", "node": 3}, {"at": 10, "fault": "recover", "node": 3},
			{"at": 12, "fault": "duplicate", "msg": 13}, {"at": 12, "fault": "delay", "msg": 14, "for": 12},
			{"at": 18, "fault": "crash", "node": 2}, {"at": 19, "fault": "recover", "node": 2}],
		"until": {"time": 40}}`)
	require.Empty(t, algotest.Failed(r))
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "3 restarts from its last checkpoint c3.1")
	assert.Contains(t, captions, "3 drops a RESUME of recovery 1")
	assert.Contains(t, captions, "3 resumes work in epoch 2")
	restarted := false
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		if ev.Kind == sim.Recover && id == 2 {
			assert.True(t, v.Drawn(id, checkpoint.RoleFrozen, 0), "3 is drawn stopped at step %d", k)
			restarted = true
		}
	})
	assert.True(t, restarted)
}

// A two-phase CHECKPOINT that overtakes process 1's RESUME, on channels
// that keep no order, reaches a process that has restored its point and
// waits for RESUME: it takes part, as with markers. Dropping it, as a
// process stopped for recovery does, left the global checkpoint under
// way for good.
func TestCheckpointOvertakingResumeIsAnswered(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "checkpoint", "n": 3, "seed": 1, "params": {"two_phase": true, "interval": 0}, "network": {"delay": [1, 1], "fifo": false},
		"script": [{"at": 1, "fault": "crash", "node": 3}, {"at": 2, "fault": "recover", "node": 3},
			{"at": 9, "fault": "delay", "msg": 9, "for": 5}, {"at": 10, "node": 1, "command": "checkpoint"}],
		"until": {"quiescent": true}}`)
	require.Empty(t, algotest.Failed(r))
	captions := algotest.Captions(r)
	saves, resumes := strings.Index(captions, "2 saves its checkpoint for global checkpoint 1"), strings.Index(captions, "2 resumes work in epoch 1")
	require.True(t, saves >= 0 && resumes >= 0)
	assert.Less(t, saves, resumes, "2 saves its part before its RESUME comes")
	assert.Contains(t, captions, "1 has every ACK of global checkpoint 1")
}
