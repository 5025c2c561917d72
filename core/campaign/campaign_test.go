package campaign

import (
	"encoding/json"
	"runtime"
	"slices"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/tokenring"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/central"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/algo/checkpoint"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// seeds is how many scenarios the generator's tests draw: fewer under
// js/wasm, where the same code runs ten times slower.
func seeds() int {
	if runtime.GOOS == "js" {
		return 9
	}
	return 120
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, spec := range all.Specs() {
		for i := range max(2, seeds()/12) {
			seed := RunSeed(7, spec.ID, i)
			a, err := Generate(spec, seed, Options{})
			require.NoError(t, err)
			b, err := Generate(spec, seed, Options{})
			require.NoError(t, err)
			assert.Equal(t, string(a.JSON()), string(b.JSON()), "%s seed %d: the same seed draws the same file", spec.ID, seed)
			c, err := Generate(spec, seed+1, Options{})
			require.NoError(t, err)
			assert.NotEqual(t, string(a.JSON()), string(c.JSON()), "another seed, another scenario")
		}
	}
}

// TestGeneratedScenariosAreValid checks that every drawn scenario is a
// file that parses back to itself and stays within the campaign's bounds
// and the algorithm's: size, steps, command arguments and targets.
func TestGeneratedScenariosAreValid(t *testing.T) {
	// a third of the seeds: cmd/spacetime's campaign test draws 200 more
	// scenarios an algorithm, and fails on one that would not run
	for _, spec := range all.Specs() {
		for i := range max(3, seeds()/3) {
			s, err := Generate(spec, RunSeed(1, spec.ID, i), Options{})
			require.NoError(t, err)
			back, err := scenario.Parse(s.JSON())
			require.NoError(t, err, "%s", s.JSON())
			assert.Equal(t, string(s.JSON()), string(back.JSON()), "the file round-trips")
			assert.GreaterOrEqual(t, s.N, spec.MinN)
			assert.LessOrEqual(t, s.N, min(spec.MaxN, MaxN))
			assert.LessOrEqual(t, s.Until.Steps, MaxSteps)
			assert.NotZero(t, s.Until.Steps)
			assert.True(t, slices.IsSortedFunc(s.Script, func(a, b scenario.Entry) int { return int(a.At - b.At) }), "the script is in time order")
			for _, e := range s.Script {
				if e.Command == "" {
					continue
				}
				c, ok := spec.Command(e.Command)
				require.True(t, ok, e.Command)
				assert.NoError(t, c.CheckArg(e.Arg))
				assert.Equal(t, c.Target, len(e.Target) > 0, "%s has a target exactly when it takes one", e.Command)
				if c.Target {
					assert.NotEqual(t, string(e.Node), string(e.Target))
				}
			}
		}
	}
}

func TestGenerateHonoursFaults(t *testing.T) {
	tests := []struct {
		name  string
		allow []string
	}{
		{"none", []string{}},
		{"crash and recover", []string{"crash", "recover"}},
		{"messages", []string{"drop", "delay", "duplicate"}},
		{"fifo", []string{"fifo"}},
		{"links", []string{"cut", "heal", "partition"}},
	}
	spec := chandylamport.Spec
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			drawn := map[string]bool{}
			for i := range seeds() / 2 {
				s, err := Generate(spec, RunSeed(3, tc.name, i), Options{Faults: tc.allow})
				require.NoError(t, err)
				for _, e := range s.Script {
					if e.Fault != "" {
						assert.Contains(t, tc.allow, e.Fault)
						drawn[e.Fault] = true
					}
				}
				if !slices.Contains(tc.allow, "fifo") {
					assert.True(t, s.FIFO(), "channels start FIFO unless the fifo fault is allowed")
				}
				if !slices.Contains(tc.allow, "drop") {
					assert.Zero(t, s.Network.Loss, "no random loss unless drop is allowed")
				}
				if !slices.Contains(tc.allow, "crash") {
					assert.Empty(t, s.Down, "nobody down from the start unless crash is allowed")
				}
				res := Check(s)
				for _, u := range res.Used {
					assert.Contains(t, tc.allow, u, "the run had only allowed faults")
				}
			}
			for _, f := range tc.allow {
				assert.True(t, drawn[f], "%s was drawn at least once", f)
			}
		})
	}
}

func TestParseFaults(t *testing.T) {
	tests := []struct {
		list string
		want []string
		err  string
	}{
		{"all", nil, ""},
		{"", []string{}, ""},
		{"none", []string{}, ""},
		{"crash", []string{"crash"}, ""},
		{"crash, drop,,fifo", []string{"crash", "drop", "fifo"}, ""},
		{"crash,melt", nil, `unknown fault "melt" (known: crash, recover`},
	}
	for _, tc := range tests {
		got, err := ParseFaults(tc.list)
		if tc.err != "" {
			require.Error(t, err, tc.list)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err, tc.list)
		assert.Equal(t, tc.want, got, tc.list)
	}
	_, err := Generate(chandylamport.Spec, 1, Options{Faults: []string{"melt"}})
	assert.ErrorContains(t, err, `unknown fault "melt"`)
}

// TestEveryFaultIsDrawnAndHappens checks that the registry gives every
// entry what a campaign needs, and that what the campaign draws can
// happen when its time comes: nearly every drawn fault is applied, not
// skipped.
func TestEveryFaultIsDrawnAndHappens(t *testing.T) {
	for _, f := range faults.Registry {
		assert.NotNil(t, f.Draw, "%s has no Draw: a campaign cannot inject it", f.Name)
	}
	applied := map[string]int{}
	skipped, total := 0, 0
	every := func() bool {
		for _, f := range faults.Registry {
			if applied[f.Name] == 0 {
				return false
			}
		}
		return true
	}
	// the seeds' runs, and more until every fault has happened (a few
	// under js/wasm, where runs are slower, may miss one of a dozen)
	for i := 0; i < 2*seeds() || (!every() && i < 240); i++ {
		s, err := Generate(chandylamport.Spec, RunSeed(5, "every", i), Options{})
		require.NoError(t, err)
		r, err := scenariotest.Plan(t, s).Run()
		require.NoError(t, err)
		for _, rec := range r.Trace().Records {
			switch rec.Kind {
			case trace.Fault:
				applied[rec.Tag()]++
				total++
			case trace.Skip:
				skipped++
				total++
			}
		}
	}
	for _, f := range faults.Registry {
		assert.Positive(t, applied[f.Name], "%s was injected at least once", f.Name)
	}
	assert.Less(t, skipped*20, total, "fewer than 1 in 20 drawn faults are skipped (%d of %d)", skipped, total)
}

func TestVaryLesson(t *testing.T) {
	lesson, err := scenario.Builtin("snapshot-nonfifo")
	require.NoError(t, err)
	spec := lesson.Spec()
	for i := range seeds() / 2 {
		s, err := Generate(spec, RunSeed(2, lesson.ID, i), Options{Lesson: lesson})
		require.NoError(t, err)
		assert.Equal(t, lesson.Expect, s.Expect, "a variation keeps the lesson's declared violations")
		assert.JSONEq(t, string(lesson.Params), string(s.Params))
		assert.False(t, s.FIFO(), "the lesson's channels stay non-FIFO")
		for _, e := range lesson.Script {
			assert.Contains(t, s.Script, e, "a variation keeps the lesson's script")
		}
		res := Check(s)
		assert.False(t, res.Failed(), "%s: %+v", s.JSON(), res)
	}
	_, err = Generate(&sim.Spec{ID: "other"}, 1, Options{Lesson: lesson})
	assert.ErrorContains(t, err, "is of chandy-lamport")
}

func TestRunSeed(t *testing.T) {
	// the seeds are part of the command line's output: they must not change
	assert.Equal(t, RunSeed(1, "chandy-lamport", 0), RunSeed(1, "chandy-lamport", 0))
	seen := map[uint64]bool{}
	for _, subject := range []string{"chandy-lamport", "snapshot-bank", "x"} {
		for campaign := range uint64(3) {
			for i := range 100 {
				s := RunSeed(campaign, subject, i)
				assert.False(t, seen[s], "seed %d drawn twice", s)
				seen[s] = true
			}
		}
	}
	assert.Equal(t, uint64(0x1cd20daf2b1710ca), RunSeed(1, "chandy-lamport", 0), "a printed seed stays the same seed")
}

// TestCheckClassifies runs scenarios whose violations are declared,
// excused by a known limit, or neither.
func TestCheckClassifies(t *testing.T) {
	nonfifo, err := scenario.Builtin("snapshot-nonfifo")
	require.NoError(t, err)
	undeclared := nonfifo.Clone()
	undeclared.Expect = nil
	bank, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	lossy := withScript(t, bank, `[{"at": 40, "node": "A", "command": "snapshot"}, {"at": 10, "fault": "drop", "msg": 2}]`)
	tests := []struct {
		name     string
		s        *scenario.Scenario
		used     []string
		expected map[string]string // invariant -> a word of why
	}{
		{"declared", nonfifo, []string{"fifo"}, map[string]string{"snapshot total equals the money there is": "declares"}},
		{"excused by a known limit", undeclared, []string{"fifo"}, map[string]string{"snapshot total equals the money there is": "FIFO"}},
		{"lost transfer", lossy, []string{"drop"}, map[string]string{"money is conserved": "lost", "snapshot total equals the money there is": "lost"}},
		{"clean", bank, []string{}, map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(tc.s)
			assert.Empty(t, res.Panic)
			assert.Empty(t, res.Error)
			assert.Equal(t, tc.used, res.Used)
			got := map[string]string{}
			for _, v := range res.Violations {
				assert.True(t, v.Expected, "%s: %s", v.Invariant, v.Detail)
				got[v.Invariant] = v.Why
				assert.Positive(t, v.Step)
			}
			require.Len(t, got, len(tc.expected), "%+v", res.Violations)
			for inv, word := range tc.expected {
				assert.Contains(t, got[inv], word)
			}
			assert.False(t, res.Failed())
			assert.Positive(t, res.Steps)
		})
	}
}

// TestOnlyEarlierFaultsExcuse checks that a fault after a violation does
// not excuse it.
func TestOnlyEarlierFaultsExcuse(t *testing.T) {
	recs := []trace.Record{
		{Kind: trace.Init}, {Kind: trace.Fault, Extra: &trace.Extra{Tag: "crash"}},
		{Kind: trace.Deliver}, {Kind: trace.Fault, Extra: &trace.Extra{Tag: "drop"}},
		{Kind: trace.Skip, Extra: &trace.Extra{Tag: "cut"}},
	}
	spec := tokenring.Spec
	assert.Equal(t, []string{}, usedBy(spec, recs, 0, nil))
	assert.Equal(t, []string{"crash"}, usedBy(spec, recs, 2, nil))
	assert.Equal(t, []string{"crash", "drop"}, usedBy(spec, recs, 4, nil), "a skipped fault did not happen")
	assert.Equal(t, []string{"crash", "fifo"}, usedBy(spec, recs, 1, map[string]bool{"fifo": true}), "in registry order")
	// a command the algorithm declares it breaks on purpose counts too,
	// and an ordinary command does not
	recs = append(recs, trace.Record{Kind: trace.Command, Extra: &trace.Extra{Tag: mutex.CmdRequest}}, trace.Record{Kind: trace.Command, Extra: &trace.Extra{Tag: tokenring.CmdRegenerate}})
	assert.Equal(t, []string{"crash", "drop"}, usedBy(spec, recs, 5, nil))
	assert.Equal(t, []string{"crash", "drop", tokenring.CmdRegenerate}, usedBy(spec, recs, 6, nil))
}

func TestPanicsAreCaught(t *testing.T) {
	var m map[string]int
	got := capture(func() { m["x"] = 1 })
	assert.Contains(t, got, "assignment to entry in nil map")
	assert.Contains(t, got, "TestPanicsAreCaught", "it names the function that panicked")
	assert.Contains(t, got, "campaign_test.go:")
	assert.Empty(t, capture(func() {}))
	got = capture(func() { panic("on purpose") })
	assert.Contains(t, got, "on purpose (in ")
}

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add(&Result{Steps: 10, Faults: 2, Skipped: 1, Violations: []Violation{
		{Invariant: "a", Expected: true, Why: "w"}, {Invariant: "b"},
	}})
	tl.Add(&Result{Steps: 5, Panic: "boom", Violations: []Violation{{Invariant: "a", Expected: true, Why: "w"}}})
	assert.Equal(t, Tally{Runs: 2, Steps: 15, Faults: 2, Skipped: 1, Expected: 2, Unexpected: 1, Panics: 1,
		Excused: []Excuse{{Invariant: "a", Why: "w", Count: 2}}}, tl)
	assert.True(t, tl.Failed())
	assert.False(t, (&Tally{Runs: 3, Expected: 4}).Failed())
}

func withScript(t *testing.T, s *scenario.Scenario, script string) *scenario.Scenario {
	t.Helper()
	c := s.Clone()
	require.NoError(t, json.Unmarshal([]byte(script), &c.Script))
	out, err := scenario.Parse(c.JSON())
	require.NoError(t, err)
	return out
}

// A variant switch is drawn either way, with the timing its timeouts
// need; a switch that breaks a rule on purpose is never drawn.
func TestVariantsAreDrawn(t *testing.T) {
	coordinated, reelect, erratum := map[bool]int{}, map[bool]int{}, 0
	for i := range seeds() {
		s, err := Generate(checkpoint.Spec, RunSeed(3, checkpoint.ID, i), Options{})
		require.NoError(t, err)
		coordinated[s.Switched(checkpoint.Spec.Learner.Switches[0])]++

		s, err = Generate(central.Spec, RunSeed(3, central.ID, i), Options{})
		require.NoError(t, err)
		on := s.Switched(central.Reelect)
		reelect[on]++
		if on {
			assert.LessOrEqual(t, s.Network.Delay[1], central.Reelect.MaxDelay, "%s", s.JSON())
			assert.Equal(t, "earliest", s.Scheduler, "timeouts need time to mean something")
		}

		s, err = Generate(chandylamport.Spec, RunSeed(3, chandylamport.ID, i), Options{})
		require.NoError(t, err)
		for _, sw := range chandylamport.Spec.Learner.Switches {
			if s.Switched(sw) != sw.Default {
				erratum++
			}
		}
	}
	assert.Positive(t, coordinated[true])
	assert.Positive(t, coordinated[false])
	assert.Positive(t, reelect[true])
	assert.Positive(t, reelect[false])
	assert.Zero(t, erratum, "the course's errata are lessons, never drawn")
}

// A known limit that needs a switch excuses only runs that turn it on:
// central's coordinator is fooled by a pause only with re-election.
func TestLimitsWhenSwitched(t *testing.T) {
	pause := map[string]bool{"pause": true}
	_, excused := central.Spec.Excuses(mutex.SafetyName, pause, nil)
	assert.False(t, excused)
	_, excused = central.Spec.Excuses(mutex.SafetyName, pause, map[string]bool{central.Reelect.Param: true})
	assert.True(t, excused)
}
