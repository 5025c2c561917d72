package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/chandylamport"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// queued is a manual run that stops with three transfers waiting on A→B
// (messages 0, 1, 2 of $1, $2, $3) and one on C→B (message 3 of $4).
func queued(fifo bool) string {
	return fmt.Sprintf(`{
  "algorithm": "chandy-lamport", "names": ["A", "B", "C"], "seed": 1,
  "scheduler": "manual", "network": {"fifo": %t},
  "script": [
    {"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": 1},
    {"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": 2},
    {"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": 3},
    {"at": 1, "node": "C", "command": "transfer", "target": "B", "arg": 4}
  ],
  "until": {"steps": 7}
}`, fifo)
}

// bank is a random-scheduler bank with snapshots, a pause, a crash and a
// recovery, and a transfer larger than any balance.
const bank = `{
  "algorithm": "chandy-lamport", "names": ["A", "B", "C"], "seed": 7,
  "scheduler": "random", "rng": "pcg", "network": {"fifo": true},
  "workload": {"p": 0.5},
  "script": [
    {"at": 20, "node": "A", "command": "snapshot"},
    {"at": 35, "fault": "pause", "node": "C", "for": 12},
    {"at": 50, "fault": "crash", "node": "B"},
    {"at": 60, "node": "B", "command": "snapshot"},
    {"at": 90, "fault": "recover", "node": "B"},
    {"at": 150, "node": "C", "command": "snapshot"},
    {"at": 160, "node": "A", "command": "transfer", "target": "C", "arg": 500}
  ],
  "until": {"steps": 300}
}`

// lossy is a discrete-event bank on a non-FIFO, lossy network with faults.
const lossy = `{
  "algorithm": "chandy-lamport", "n": 4, "seed": 11,
  "scheduler": "earliest", "network": {"fifo": false, "delay": [1, 8], "loss": 0.05},
  "workload": {"every": [1, 4]},
  "script": [
    {"at": 15, "node": "D", "command": "snapshot"},
    {"at": 25, "fault": "pause", "node": "A", "for": 9},
    {"at": 30, "fault": "crash", "node": "C"},
    {"at": 44, "fault": "drop", "msg": 40},
    {"at": 70, "fault": "recover", "node": "C"},
    {"at": 90, "node": "B", "command": "snapshot"}
  ],
  "until": {"steps": 300}
}`

func TestDeliverableFIFOHeadOnly(t *testing.T) {
	tests := []struct {
		fifo bool
		want []int
	}{
		{fifo: true, want: []int{0, 3}},
		{fifo: false, want: []int{0, 1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("fifo=%t", tt.fifo), func(t *testing.T) {
			r := start(t, parse(t, queued(tt.fifo)), 0)
			require.Equal(t, 7, r.Len())
			st := r.At(7)
			assert.Equal(t, []int{0, 1, 2}, st.View().InFlight(0, 1))
			assert.Equal(t, tt.want, st.Deliverable())
			for _, id := range []int{1, 2} {
				err := st.Check(engine.Deliver(id))
				if tt.fifo {
					assert.Error(t, err, "message %d is not the head of A→B", id)
				} else {
					assert.NoError(t, err, "a non-FIFO channel delivers any message")
				}
			}
		})
	}
}

func TestNonFIFODeliversAnyMessage(t *testing.T) {
	r := start(t, parse(t, queued(false)), 0)
	require.NoError(t, r.Insert(7, engine.Deliver(2)))
	rec := r.Trace().Records[7]
	assert.Equal(t, trace.Deliver, rec.Kind)
	assert.Equal(t, 2, rec.Msg)
	assert.Equal(t, trace.Learner, rec.Source)
	b := r.At(8).View().Node(1).(*chandylamport.Branch)
	assert.Equal(t, int64(103), b.Balance, "B got the $3 first")
	assert.Equal(t, []int{0, 1}, r.At(8).View().InFlight(0, 1))
}

func TestSchedulersKeepFIFOOrder(t *testing.T) {
	for _, sched := range []string{"random", "earliest"} {
		for _, fifo := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/fifo=%t", sched, fifo), func(t *testing.T) {
				inversions := 0
				for seed := 1; seed <= 10; seed++ {
					doc := fmt.Sprintf(`{"algorithm": "chandy-lamport", "n": 3, "seed": %d, "scheduler": %q,
						"network": {"fifo": %t, "delay": [1, 8]}, "workload": {"p": 0.5, "every": [1, 3]},
						"until": {"steps": 400}}`, seed, sched, fifo)
					r := start(t, parse(t, doc), 0)
					last := map[[2]sim.NodeID]int{}
					for _, rec := range r.Trace().Records {
						if rec.Kind != trace.Deliver {
							continue
						}
						m := r.Trace().Msgs[rec.Msg]
						ch := [2]sim.NodeID{m.From, m.To}
						if prev, ok := last[ch]; ok && prev > m.ID {
							inversions++
							require.False(t, fifo, "seed %d: FIFO channel %v delivered #%d after #%d", seed, ch, m.ID, prev)
						}
						last[ch] = max(last[ch], m.ID)
					}
				}
				if !fifo {
					assert.Positive(t, inversions, "a non-FIFO network never reordered anything")
				}
			})
		}
	}
}

func TestRefusedActionsLeaveTheRunUnchanged(t *testing.T) {
	crashA := crash(0)
	crashB := crash(1)
	tests := []struct {
		name  string
		setup []engine.Action // inserted one after another at the end of the run
		act   engine.Action
		want  []string
	}{
		{name: "non-head on a FIFO channel", act: engine.Deliver(1),
			want: []string{"FIFO", "A→B", "only its head", "transfer $1 A→B (#0)"}},
		{name: "last on a FIFO channel", act: engine.Deliver(2),
			want: []string{"FIFO", "transfer $1 A→B (#0)"}},
		{name: "no such message", act: engine.Deliver(99), want: []string{"no message #99"}},
		{name: "delivered already", setup: []engine.Action{engine.Deliver(0)}, act: engine.Deliver(0),
			want: []string{"not in flight"}},
		{name: "receiver crashed", setup: []engine.Action{crashB}, act: engine.Deliver(0),
			want: []string{"B is crashed", "waits in its channel"}},
		{name: "crash a crashed process", setup: []engine.Action{crashA}, act: crashA,
			want: []string{"A has already crashed"}},
		{name: "recover an up process", act: recoverAt(1),
			want: []string{"B has not crashed"}},
		{name: "pause a crashed process", setup: []engine.Action{crashA}, act: pause(0, 5),
			want: []string{"A is crashed and cannot pause"}},
		{name: "pause for no time", act: pause(0, 0),
			want: []string{"at least one tick"}},
		{name: "unknown fault", act: engine.Fault("melt", faults.NoArgs()), want: []string{`unknown fault "melt"`}},
		{name: "no such process", act: crash(7), want: []string{"no process 8", "1 to 3"}},
		{name: "unknown command", act: engine.Command("explode", 0, sim.None, 0),
			want: []string{`no command "explode"`}},
		{name: "command at a crashed process", setup: []engine.Action{crashA}, act: engine.Command("snapshot", 0, sim.None, 0),
			want: []string{"A is crashed and cannot snapshot"}},
		{name: "transfer to itself", act: engine.Command("transfer", 0, 0, 5),
			want: []string{"transfer needs another process"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := start(t, parse(t, queued(true)), 0)
			for _, a := range tt.setup {
				require.NoError(t, r.Insert(r.Len(), a))
			}
			k := r.Len()
			before := takeSnapshot(t, r)
			checkErr := r.At(k).Check(tt.act)
			err := r.Insert(k, tt.act)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			require.Error(t, checkErr)
			assert.Equal(t, err.Error(), checkErr.Error(), "State.Check and Insert agree")
			assert.Equal(t, before, takeSnapshot(t, r), "a refused action changed the run")
		})
	}
	t.Run("step outside the run", func(t *testing.T) {
		r := start(t, parse(t, queued(true)), 0)
		before := takeSnapshot(t, r)
		for _, k := range []int{-1, r.Len() + 1} {
			err := r.Insert(k, crashA)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "outside the run")
		}
		assert.Equal(t, before, takeSnapshot(t, r))
	})
}

func TestInsertForksANewFuture(t *testing.T) {
	s := parse(t, bank)
	r := start(t, s, 7)
	require.Equal(t, 300, r.Len())
	orig := traceJSON(t, r)
	origPrefix := map[int]string{60: prefixJSON(t, r, 60), 120: prefixJSON(t, r, 120)}

	crash := crash(0)
	require.NoError(t, r.Insert(120, crash))
	checkTrace(t, r)
	assert.Equal(t, 300, r.Len())
	assert.Equal(t, origPrefix[120], prefixJSON(t, r, 120), "steps before the input are kept")
	rec := r.Trace().Records[120]
	assert.Equal(t, "crash", rec.What())
	assert.Equal(t, trace.Learner, rec.Source)
	assert.Equal(t, sim.NodeID(0), rec.Node)
	assert.Equal(t, sim.Crashed, r.At(121).Health(0).State)
	assert.NotEqual(t, orig, traceJSON(t, r), "the fork differs")
	assert.Equal(t, []engine.Input{{Step: 120, Action: crash}}, r.Inputs())
	forked := traceJSON(t, r)

	// Rewinding to the same step and making the same choice again gives the
	// same future.
	require.NoError(t, r.Insert(120, crash))
	assert.Equal(t, forked, traceJSON(t, r))
	assert.Len(t, r.Inputs(), 1)

	// A later input, then the same earlier one again: the later is forgotten.
	transfer := engine.Command("transfer", 2, 0, 5)
	require.Equal(t, sim.Up, r.At(200).Health(2).State)
	require.Equal(t, sim.Up, r.At(60).Health(2).State)
	require.NoError(t, r.Insert(200, transfer))
	assert.Len(t, r.Inputs(), 2)
	assert.NotEqual(t, forked, traceJSON(t, r))
	require.NoError(t, r.Insert(120, crash))
	assert.Equal(t, forked, traceJSON(t, r))
	assert.Equal(t, []engine.Input{{Step: 120, Action: crash}}, r.Inputs())

	// An input at an earlier step truncates the later inputs and the trace.
	require.NoError(t, r.Insert(60, transfer))
	checkTrace(t, r)
	assert.Equal(t, []engine.Input{{Step: 60, Action: transfer}}, r.Inputs())
	assert.Equal(t, origPrefix[60], prefixJSON(t, r, 60))
	assert.NotEqual(t, forked, traceJSON(t, r))
	assert.Equal(t, trace.Command, r.Trace().Records[60].Kind)
	for _, rec := range r.Trace().Records[61:] {
		assert.NotEqual(t, trace.Learner, rec.Source, "step %d comes from a forgotten input", rec.Step)
	}

	// A fresh run given the same inputs reproduces the fork exactly.
	fresh := start(t, s, 0)
	require.NoError(t, fresh.Replay([]engine.Input{{Step: 120, Action: crash}}))
	assert.Equal(t, forked, traceJSON(t, fresh))
	fresh2 := start(t, s, 256)
	require.NoError(t, fresh2.Replay([]engine.Input{{Step: 120, Action: crash}, {Step: 200, Action: transfer}}))
	again := start(t, s, 7)
	require.NoError(t, again.Insert(120, crash))
	require.NoError(t, again.Insert(200, transfer))
	assert.Equal(t, traceJSON(t, again), traceJSON(t, fresh2))

	// Replay stops at the first input that cannot happen.
	err := start(t, s, 0).Replay([]engine.Input{{Step: 120, Action: crash}, {Step: 130, Action: crash}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "input at step 130")
	assert.Contains(t, err.Error(), "already crashed")
}

func TestInsertDeliveryChoosesTheMessage(t *testing.T) {
	r := start(t, parse(t, bank), 0)
	for _, k := range []int{25, 80, 170} {
		for len(r.At(k).Deliverable()) == 0 {
			k++
		}
		ids := r.At(k).Deliverable()
		id := ids[len(ids)-1]
		require.NoError(t, r.Insert(k, engine.Deliver(id)))
		rec := r.Trace().Records[k]
		assert.Equal(t, trace.Deliver, rec.Kind)
		assert.Equal(t, id, rec.Msg)
		assert.Equal(t, r.Trace().Msgs[id].To, rec.Node)
		assert.Equal(t, k, r.Trace().Msgs[id].RecvStep)
		checkTrace(t, r)
	}
}

// TestSeekEqualsFreshRun compares At(k) against the worlds the run recorded
// as it went (a run that keyframes every step) and against fresh runs cut
// at k, for every k, seeking forwards, backwards and at random, with
// keyframes every 7 steps and every 256.
func TestSeekEqualsFreshRun(t *testing.T) {
	for name, doc := range map[string]string{"bank": bank, "lossy": lossy} {
		t.Run(name, func(t *testing.T) {
			s := parse(t, doc)
			ref := start(t, s, 1)
			n := ref.Len()
			want := make([]string, n+1)
			for k := range want {
				want[k] = fingerprint(ref, ref.At(k))
			}
			for k := 1; k <= n; k += 11 {
				c := s.Clone()
				c.Until.Steps = k
				fresh := start(t, c, 0)
				require.Equal(t, k, fresh.Len())
				require.Equal(t, want[k], fingerprint(fresh, fresh.At(k)), "fresh run cut at %d", k)
			}
			for _, every := range []int{7, 256} {
				r := start(t, s, every)
				require.Equal(t, traceJSON(t, ref), traceJSON(t, r))
				rng := rand.New(rand.NewPCG(uint64(every), 3))
				var order []int
				for k := 0; k <= n; k++ {
					order = append(order, k)
				}
				for k := n; k >= 0; k-- {
					order = append(order, k)
				}
				for range 3 * n {
					order = append(order, rng.IntN(n+1))
				}
				for _, k := range order {
					require.Equal(t, want[k], fingerprint(r, r.At(k)), "every %d: seek to %d", every, k)
				}
				assert.Equal(t, want[n], fingerprint(r, r.At(n+50)), "seeking past the end clamps")
				assert.Equal(t, want[0], fingerprint(r, r.At(-3)), "seeking before the start clamps")
			}
		})
	}
}

// TestSeekAfterFork checks that forking at any step gives the same future
// whatever the keyframe spacing, and that seeking in the fork agrees.
func TestSeekAfterFork(t *testing.T) {
	s := parse(t, bank)
	pause := pause(2, 9)
	for _, k := range []int{6, 7, 8, 13, 14, 15, 99, 140, 255, 256, 257, 299, 300} {
		ref := start(t, s, 1)
		a := pause
		if ref.At(k).Health(2).State != sim.Up {
			a = engine.Command("snapshot", 0, sim.None, 0)
		}
		require.NoError(t, ref.Insert(k, a), "step %d", k)
		for _, every := range []int{7, 256} {
			r := start(t, s, every)
			r.At(k / 2) // leave something in the seek cache
			require.NoError(t, r.Insert(k, a))
			require.Equal(t, traceJSON(t, ref), traceJSON(t, r), "fork at %d, keyframes every %d", k, every)
			for _, j := range []int{k + 1, k - 1, ref.Len(), 0, k, k + 9} {
				require.Equal(t, fingerprint(ref, ref.At(j)), fingerprint(r, r.At(j)), "fork at %d, seek to %d", k, j)
			}
		}
	}
}

// TestScriptFaultsThatCannotHappen: a script may ask for a fault that makes
// no sense when its time comes (pause a crashed process, drop a message that
// has arrived). The engine must not crash, corrupt the trace or resurrect a
// crashed process; the step says the fault is not applied.
func TestScriptFaultsThatCannotHappen(t *testing.T) {
	doc := `{
  "algorithm": "chandy-lamport", "names": ["A", "B", "C"], "seed": 3, "scheduler": "manual",
  "script": [
    {"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": 5},
    {"at": 2, "fault": "crash", "node": "B"},
    {"at": 3, "fault": "pause", "node": "B", "for": 5},
    {"at": 4, "fault": "crash", "node": "B"},
    {"at": 5, "node": "A", "command": "transfer", "target": "B", "arg": 7},
    {"at": 6, "fault": "drop", "msg": 0},
    {"at": 7, "fault": "drop", "msg": 99},
    {"at": 8, "node": "B", "command": "snapshot"},
    {"at": 10, "fault": "recover", "node": "B"},
    {"at": 11, "fault": "recover", "node": "B"},
    {"at": 12, "fault": "pause", "node": "A", "for": 3}
  ],
  "until": {"time": 20}
}`
	r := start(t, parse(t, doc), 0)
	checkTrace(t, r)
	checkCausality(t, r)
	tr := r.Trace()
	m0 := tr.Msgs[0]
	require.GreaterOrEqual(t, m0.RecvStep, 0, "message 0 arrives before the script tries to drop it")
	assert.Equal(t, -1, m0.DropStep, "a delivered message must not be marked lost")
	assert.GreaterOrEqual(t, tr.Msgs[1].RecvTime, sim.Time(10), "message 1 waits for B to recover")

	notApplied := 0
	for _, rec := range tr.Records {
		if rec.Source == trace.Script && rec.Time >= 3 && rec.Time < 10 && rec.Kind != trace.Command {
			assert.Contains(t, rec.Caption, "not applied", "step %d", rec.Step)
			notApplied++
		}
		if rec.Time >= 2 && rec.Time < 10 {
			st := r.At(rec.Step + 1)
			assert.Equal(t, sim.Crashed, st.Health(1).State, "B stays crashed until it recovers (step %d: %s)", rec.Step, rec.Caption)
		}
	}
	assert.Equal(t, 4, notApplied)
	var sawSecondRecover, sawPauseA bool
	for _, rec := range tr.Records {
		switch {
		case rec.Time == 11 && rec.Kind == trace.Skip:
			sawSecondRecover = true
			assert.Contains(t, rec.Caption, "not applied")
		case rec.Time == 12 && rec.What() == "pause":
			sawPauseA = true
			assert.NotContains(t, rec.Caption, "not applied")
		}
	}
	assert.True(t, sawSecondRecover)
	assert.True(t, sawPauseA)
}

func TestDeterministicTrace(t *testing.T) {
	for name, doc := range map[string]string{"bank": bank, "lossy": lossy} {
		t.Run(name, func(t *testing.T) {
			s := parse(t, doc)
			a := traceJSON(t, start(t, s, 0))
			b := traceJSON(t, start(t, s, 5))
			c := traceJSON(t, start(t, parse(t, string(s.JSON())), 0))
			assert.Equal(t, a, b)
			assert.Equal(t, a, c)
			other := s.WithSeed(s.Seed + 1)
			assert.NotEqual(t, a, traceJSON(t, start(t, other, 0)), "another seed, another run")
		})
	}
}

// checkTrace checks the trace's bookkeeping: steps and ids are dense, every
// message's send and receipt point at the right records.
func checkTrace(t *testing.T, r *engine.Run) {
	t.Helper()
	tr := r.Trace()
	require.Equal(t, r.Len(), tr.Len())
	sent := 0
	for i, rec := range tr.Records {
		require.Equal(t, i, rec.Step)
		require.Equal(t, sent, rec.FirstSent, "step %d", i)
		for id := rec.FirstSent; id < rec.FirstSent+rec.NumSent; id++ {
			require.Equal(t, i, tr.Msgs[id].SendStep, "message %d", id)
			require.Equal(t, rec.Node, tr.Msgs[id].From, "message %d", id)
		}
		sent += rec.NumSent
		if rec.Kind == trace.Deliver {
			require.Equal(t, i, tr.Msgs[rec.Msg].RecvStep, "step %d delivers #%d", i, rec.Msg)
		}
	}
	require.Len(t, tr.Msgs, sent)
	for id, m := range tr.Msgs {
		require.Equal(t, id, m.ID)
		if m.RecvStep >= 0 {
			require.Greater(t, m.RecvStep, m.SendStep)
			require.Less(t, m.RecvStep, tr.Len())
			require.Equal(t, id, tr.Records[m.RecvStep].Msg)
			require.Equal(t, -1, m.DropStep, "message %d both arrived and was lost", id)
		}
	}
}

// With every process crashed for good, a random run with a workload ends
// (quiescent) instead of ticking forever.
func TestEveryoneCrashedEndsTheRun(t *testing.T) {
	s := parse(t, `{"algorithm": "chandy-lamport", "n": 2, "seed": 1, "scheduler": "random", "workload": {"p": 0.5},
		"script": [{"at": 5, "fault": "crash", "node": "A"}, {"at": 5, "fault": "crash", "node": "B"}],
		"until": {"quiescent": true}}`)
	r := start(t, s, 0)
	assert.Equal(t, "quiescent", r.Stopped())
	assert.Less(t, r.Len(), 20)
}

func TestRunsStopAtTheirTimeLimits(t *testing.T) {
	for _, sched := range []string{"earliest", "random"} {
		s := parse(t, `{"algorithm": "chandy-lamport", "n": 3, "seed": 3, "scheduler": "`+sched+`",
			"network": {"delay": [20, 40]}, "workload": {"p": 0.5, "every": [30, 30], "until": 50},
			"script": [{"at": 10, "fault": "pause", "node": "A", "for": 900}], "until": {"time": 100}}`)
		r := start(t, s, 0)
		for _, rec := range r.Trace().Records {
			assert.LessOrEqual(t, rec.Time, sim.Time(100), "%s: step %d", sched, rec.Step)
			if rec.Kind == trace.Workload {
				assert.Less(t, rec.Time, sim.Time(50), "%s: step %d: the workload stops at 50", sched, rec.Step)
			}
		}
		assert.Equal(t, "time", r.Stopped(), sched)
	}
}

// A learner's input at the end of a finished lesson is carried out and
// followed, not swallowed because the goal still holds.
func TestAnInputAfterTheGoalIsFollowed(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	require.Equal(t, "done", r.Stopped())
	end := r.Len()
	require.NoError(t, r.Insert(end, pause(1, 5)))
	assert.Greater(t, r.Len(), end+1, "the run goes on past the pause")
	woke := false
	for _, rec := range r.Trace().Records[end:] {
		woke = woke || rec.Kind == trace.Wake
	}
	assert.True(t, woke, "B wakes from its pause")
}
