package engine_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/conformance"
)

// relay is the conformance fixture's ring of four, with pings to keep
// messages in flight; with a keyframe every `every` steps.
func relay(t *testing.T, every int) *engine.Run {
	t.Helper()
	cfg := conformance.RelayConfig(4, 5)
	cfg.Workload = &engine.Workload{Every: [2]sim.Time{1, 3}, Until: 120}
	cfg.KeyframeEvery = every
	r, err := engine.New(cfg)
	require.NoError(t, err)
	return r
}

// inFlightAt is a step with a message in flight from a process to another,
// and that message.
func inFlightAt(t *testing.T, r *engine.Run, from int) (int, int) {
	t.Helper()
	for k := from; k < r.Len(); k++ {
		v := r.At(k).View()
		for i := range v.N() {
			for j := range v.N() {
				if ids := v.InFlight(sim.NodeID(i), sim.NodeID(j)); len(ids) > 0 {
					return k, ids[0]
				}
			}
		}
	}
	t.Fatal("nothing is ever in flight")
	return 0, 0
}

// TestEveryFaultAppliesAndRewinds applies each fault of the registry as a
// learner's input, checks what it changed, and that seeking across it
// (with and without keyframes, forwards and back) gives what a fresh
// replay gives. A fault added to the registry needs its case here.
func TestEveryFaultAppliesAndRewinds(t *testing.T) {
	args := func(set func(*faults.Args)) faults.Args { a := faults.NoArgs(); set(&a); return a }
	type fixture struct {
		setup []engine.Input // inputs before the fault, at steps from 10
		fault func(k, msg int) faults.Args
		check func(t *testing.T, before, after engine.State, rec trace.Record)
	}
	cases := map[string]fixture{
		"crash": {fault: func(int, int) faults.Args { return args(func(a *faults.Args) { a.Node = 1 }) },
			check: func(t *testing.T, _, after engine.State, rec trace.Record) {
				assert.Equal(t, sim.Crashed, after.Health(1).State)
				assert.Empty(t, after.Timers(1), "a crash drops the process's timers")
				assert.NotEmpty(t, rec.Timers(), "and the trace says which")
			}},
		"recover": {setup: []engine.Input{{Step: 10, Action: crash(2)}},
			fault: func(int, int) faults.Args { return args(func(a *faults.Args) { a.Node = 2 }) },
			check: func(t *testing.T, before, after engine.State, rec trace.Record) {
				assert.Equal(t, sim.Crashed, before.Health(2).State)
				assert.Equal(t, sim.Up, after.Health(2).State)
				assert.Contains(t, rec.Caption, "recovers")
				assert.NotEmpty(t, after.Timers(2), "its Recover rule armed its beat again")
			}},
		"pause": {fault: func(int, int) faults.Args {
			return args(func(a *faults.Args) { a.Node = 0; *a = a.With("for", faults.ParamTicks.Num(9)) })
		},
			check: func(t *testing.T, _, after engine.State, _ trace.Record) {
				assert.Equal(t, sim.Paused, after.Health(0).State)
				assert.Equal(t, after.Now()+9, after.Health(0).Until)
			}},
		"drop": {fault: func(_, msg int) faults.Args { return args(func(a *faults.Args) { a.Msg = msg }) },
			check: func(t *testing.T, before, after engine.State, rec trace.Record) {
				assert.Equal(t, before.View().NumSent(), after.View().NumSent())
				assert.NotEqual(t, -1, after.View().Envelope(rec.Msg).DropStep)
			}},
		"delay": {fault: func(_, msg int) faults.Args {
			return args(func(a *faults.Args) { a.Msg = msg; *a = a.With("for", faults.ParamTicks.Num(25)) })
		},
			check: func(t *testing.T, before, after engine.State, rec trace.Record) {
				assert.Equal(t, max(before.Due(rec.Msg), before.Now())+25, after.Due(rec.Msg))
				require.Len(t, rec.Changes(), 1)
				assert.Equal(t, trace.ChangeDelay, rec.Changes()[0].What)
			}},
		"duplicate": {fault: func(_, msg int) faults.Args { return args(func(a *faults.Args) { a.Msg = msg }) },
			check: func(t *testing.T, before, after engine.State, rec trace.Record) {
				require.Equal(t, before.View().NumSent()+1, after.View().NumSent())
				dup := after.View().Envelope(after.View().NumSent() - 1)
				assert.Equal(t, rec.Msg, dup.Original)
				assert.Equal(t, before.View().Envelope(rec.Msg).Message, dup.Message)
			}},
		"cut": {fault: func(int, int) faults.Args { return args(func(a *faults.Args) { a.Node = 0; a.Target = 1 }) },
			check: func(t *testing.T, before, after engine.State, _ trace.Record) {
				assert.True(t, before.LinkUp(0, 1))
				assert.False(t, after.LinkUp(0, 1))
				assert.False(t, after.LinkUp(1, 0), "both ways")
				assert.Empty(t, after.View().InFlight(0, 1), "what was in flight on it is lost")
			}},
		"heal": {setup: []engine.Input{{Step: 10, Action: engine.Fault("cut", args(func(a *faults.Args) { a.Node = 2; a.Target = 3; *a = a.With("oneway", faults.ParamFlag.Bool(true)) }))}},
			fault: func(int, int) faults.Args { return faults.NoArgs() },
			check: func(t *testing.T, before, after engine.State, _ trace.Record) {
				assert.False(t, before.LinkUp(2, 3))
				assert.True(t, before.LinkUp(3, 2), "one way only")
				assert.True(t, after.LinkUp(2, 3))
			}},
		"partition": {fault: func(int, int) faults.Args {
			return args(func(a *faults.Args) { *a = a.With("groups", faults.ParamGroups.Of([][]sim.NodeID{{0, 1}, {2, 3}})) })
		},
			check: func(t *testing.T, _, after engine.State, _ trace.Record) {
				assert.True(t, after.LinkUp(0, 1))
				assert.True(t, after.LinkUp(3, 2))
				assert.False(t, after.LinkUp(1, 2))
				assert.False(t, after.LinkUp(3, 0))
			}},
		"skew": {fault: func(int, int) faults.Args {
			return args(func(a *faults.Args) { a.Node = 3; *a = a.With("by", faults.ParamOffset.Num(-6)) })
		},
			check: func(t *testing.T, _, after engine.State, _ trace.Record) {
				assert.Equal(t, sim.Time(-6), after.Skew(3))
				assert.Equal(t, after.Now()-6, after.View().LocalTime(3))
			}},
		"drift": {fault: func(int, int) faults.Args {
			return faults.AtProcess(2).With("rate", faults.ParamRate.Num(50))
		},
			check: func(t *testing.T, before, after engine.State, rec trace.Record) {
				assert.Equal(t, int64(100), before.ClockRate(2))
				assert.Equal(t, int64(50), after.ClockRate(2))
				assert.Equal(t, after.Now(), after.View().LocalTime(2), "it reads the time when it starts to drift")
				require.Len(t, rec.Changes(), 1)
				assert.Equal(t, trace.ChangeRate, rec.Changes()[0].What)
			}},
		"fifo": {fault: func(int, int) faults.Args {
			return args(func(a *faults.Args) { *a = a.With("on", faults.ParamFlag.Bool(false)) })
		},
			check: func(t *testing.T, before, after engine.State, _ trace.Record) {
				assert.True(t, before.FIFO())
				assert.False(t, after.FIFO())
			}},
	}
	for _, f := range faults.Registry {
		fx, ok := cases[f.Name]
		if !assert.True(t, ok, "the fault %s has no case in this table", f.Name) {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			base := relay(t, 8)
			require.NoError(t, base.Replay(fx.setup))
			k, msg := inFlightAt(t, base, 20)
			in := engine.Input{Step: k, Action: engine.Fault(f.Name, fx.fault(k, msg))}
			inputs := append(append([]engine.Input(nil), fx.setup...), in)

			r := relay(t, 8)
			require.NoError(t, r.Replay(inputs))
			rec := r.Trace().Records[k]
			assert.Equal(t, trace.Fault, rec.Kind)
			assert.Equal(t, f.Name, rec.What())
			assert.Equal(t, trace.Learner, rec.Source)
			assert.NotEmpty(t, rec.Caption)
			a, _, ok := rec.Args()
			require.True(t, ok, "the trace records the fault's arguments")
			assert.Equal(t, in.Action.Args, a)
			before := conformance.Fingerprint(r, r.At(k))
			// a State is valid until the next call on its run: the state
			// before comes from a second run of the same inputs
			ref := relay(t, 1<<30)
			require.NoError(t, ref.Replay(inputs))
			fx.check(t, ref.At(k), r.At(k+1), rec)

			// seeking across it, with keyframes and without, gives the
			// same states as a fresh replay of the same inputs
			require.Equal(t, conformance.TraceJSON(t, ref), conformance.TraceJSON(t, r))
			for _, j := range []int{k + 1, k - 1, r.Len(), k + 5, 0, k, k + 1} {
				j = min(j, r.Len())
				require.Equal(t, conformance.Fingerprint(ref, ref.At(j)), conformance.Fingerprint(r, r.At(j)), "seek to %d", j)
			}
			assert.Equal(t, before, conformance.Fingerprint(r, r.At(k)), "the state before the fault is as it was")
			assert.Equal(t, conformance.Fingerprint(base, base.At(k)), before, "and as a run without it has it")
		})
	}
}

// TestOverdueTimersFireInDueOrder: process 1 arms "long" (due 40) before
// "short" (due 10), then a GC pause outlasts both; when it wakes they fire
// in the order they were due, after the one due before them all.
func TestOverdueTimersFireInDueOrder(t *testing.T) {
	cfg, err := conformance.RelaySubject().Lessons[2].Config()
	require.NoError(t, err)
	r, err := engine.New(cfg)
	require.NoError(t, err)
	var fired []string
	for _, rec := range r.Trace().Records {
		if rec.Node == 0 && rec.Kind == trace.Timer && rec.Time == 57 {
			fired = append(fired, rec.Tag())
		}
	}
	assert.Equal(t, []string{"pass", "beat", "short", "long"}, fired, "due at 3, 7, 10 and 40, all fired at the wake-up")
	for _, rec := range r.Trace().Records {
		if rec.Kind == trace.Timer && rec.Tag() == "short" {
			assert.Contains(t, rec.Caption, `1's timer "short" fires`, "the caption names the timer")
		}
	}
}

// TestSentDataIsCopied: a holder passes the token's array and then changes
// its own copy in place; the receiver changes what it received in place
// too. Neither rewrites history: every message keeps the array it was sent
// with, at every step.
func TestSentDataIsCopied(t *testing.T) {
	r := relay(t, 8)
	var tokens []int
	for _, m := range r.Trace().Msgs {
		if m.Kind == "token" {
			tokens = append(tokens, m.ID)
		}
	}
	require.Greater(t, len(tokens), 4, "the token goes round")
	first := r.Trace().Msgs[tokens[0]]
	assert.Equal(t, []int64{1, 0, 0, 0}, first.Data, "sent before the sender added 1000, and before the receiver counted its visit")
	second := r.Trace().Msgs[tokens[1]]
	assert.Equal(t, []int64{1, 1, 0, 0}, second.Data)
	for _, k := range []int{second.SendStep + 1, first.SendStep + 1, r.Len()} {
		assert.Equal(t, []int64{1, 0, 0, 0}, r.At(k).View().Envelope(tokens[0]).Data, "at step %d", k)
	}
	// and the receiver saw its own copy
	holder := r.At(first.RecvStep + 1).Fields(1)
	assert.Equal(t, "[1 1 0 0]", holder[1].Value)
}

// TestEnvGivesStampsAndTheLocalClock: a node reads its Lamport stamp and
// its skewed local clock from Env.
func TestEnvGivesStampsAndTheLocalClock(t *testing.T) {
	cfg := conformance.RelayConfig(3, 1)
	a := faults.NoArgs()
	a.Node = 1
	a = a.With("by", faults.ParamOffset.Num(100))
	cfg.Script = []engine.Timed{{At: 1, Action: engine.Fault("skew", a)}}
	r, err := engine.New(cfg)
	require.NoError(t, err)
	assert.Contains(t, r.Trace().Records[0].Caption, "local clock 0, Lamport 1")
	for _, rec := range r.Trace().Records {
		if rec.Node == 1 && rec.Kind == trace.Timer && rec.Tag() == "beat" {
			assert.Contains(t, rec.Caption, "local clock "+strconv.Itoa(int(rec.Time)+100))
			return
		}
	}
	t.Fatal("process 2 never beat")
}

// TestCommandsTakenBySomeProcesses: the fixture's poke is taken by odd
// numbered processes only; the engine refuses it elsewhere, saying who.
func TestCommandsTakenBySomeProcesses(t *testing.T) {
	r := relay(t, 8)
	err := r.At(5).Check(engine.Command("poke", 1, sim.None, 0))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 does not take the command \"poke\": only the odd-numbered processes take it")
	assert.NoError(t, r.At(5).Check(engine.Command("poke", 2, sim.None, 0)))
}

// TestDownFromTheStart: a process down from the start takes no Init step
// until it recovers, and then takes its Init.
func TestDownFromTheStart(t *testing.T) {
	cfg := conformance.RelayConfig(3, 1)
	cfg.Down = []sim.NodeID{2}
	a := faults.AtProcess(2)
	cfg.Script = []engine.Timed{{At: 30, Action: engine.Fault("recover", a)}}
	r, err := engine.New(cfg)
	require.NoError(t, err)
	assert.Equal(t, []sim.NodeID{2}, r.Trace().Down)
	for _, rec := range r.Trace().Records {
		if rec.Node != 2 {
			continue
		}
		assert.GreaterOrEqual(t, rec.Time, sim.Time(30), "3 does nothing before it recovers (%s)", rec.Caption)
	}
	st := r.At(2)
	assert.Equal(t, sim.Crashed, st.Health(2).State)
	assert.False(t, st.Started(2))
	for _, rec := range r.Trace().Records {
		if rec.Node == 2 && rec.What() == "recover" {
			assert.Contains(t, rec.Caption, "3 joins the ring", "its first step is its Init")
			return
		}
	}
	t.Fatal("3 never recovered")
}
