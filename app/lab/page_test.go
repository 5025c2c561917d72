package lab_test

import (
	"fmt"
	"net/url"
	"spacetime/internal/scenariotest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

func comparePage(t *testing.T) *lab.Page {
	t.Helper()
	p, err := lab.PageFromQuery(url.Values{}, true)
	require.NoError(t, err)
	require.Len(t, p.Views, 2)
	return p
}

// lastTime is the time of the last step a view shows (-1 before any).
func lastTime(s *lab.Session) sim.Time {
	if s.Step() == 0 {
		return -1
	}
	return s.Run().Trace().Records[s.Step()-1].Time
}

// nextTime is the time of the next step a view would show.
func nextTime(s *lab.Session) (sim.Time, bool) {
	if s.Step() >= s.Len() {
		return 0, false
	}
	return s.Run().Trace().Records[s.Step()].Time, true
}

// Stepping together shows the events of both runs in time order: after
// every step, no run's next event is earlier than another's last one.
func TestSteppingTogetherFollowsTime(t *testing.T) {
	p := comparePage(t)
	assert.True(t, p.Together)
	assert.Equal(t, []string{"snapshot-bank", "snapshot-nonfifo"}, []string{p.Views[0].Scenario().ID, p.Views[1].Scenario().ID})
	total := p.Views[0].Len() + p.Views[1].Len()
	assert.Equal(t, total, p.Len(0))
	moves := 0
	for p.Forward(0) {
		moves++
		for _, a := range p.Views {
			for _, b := range p.Views {
				if next, ok := nextTime(b); ok {
					assert.GreaterOrEqual(t, next, lastTime(a), "a later event was shown before an earlier one")
				}
			}
		}
		require.Less(t, moves, total+1)
	}
	assert.Equal(t, total, p.Position(0), "every event is shown at the end")
	assert.LessOrEqual(t, moves, total, "events at the same time move together")
	for p.Back(0) {
	}
	assert.Equal(t, 0, p.Position(0))
	// apart, only the view asked moves
	p.Together = false
	p.Forward(1)
	assert.Equal(t, 0, p.Views[0].Step())
	assert.Equal(t, 1, p.Views[1].Step())
	assert.Equal(t, p.Views[1].Len(), p.Len(1))
}

// Seeking stepping together shows the first k events in time order: k
// events in all, and none unshown earlier than one shown.
func TestSeekingTogetherMergesInTime(t *testing.T) {
	p := comparePage(t)
	for k := 0; k <= p.Len(0); k++ {
		p.Seek(0, k)
		require.Equal(t, k, p.Position(0), "seek to %d", k)
		for _, a := range p.Views {
			for _, b := range p.Views {
				if next, ok := nextTime(b); ok {
					require.GreaterOrEqual(t, next, lastTime(a), "k=%d: an earlier event is left out", k)
				}
			}
		}
	}
	p.Seek(0, -5)
	assert.Equal(t, 0, p.Position(0))
	p.Seek(0, 1<<30)
	assert.Equal(t, p.Len(0), p.Position(0))
}

// Views stepped together share one window: the latest present, and the
// whole of the longer run when it fits.
func TestTheSharedWindow(t *testing.T) {
	p := comparePage(t)
	p.Seek(0, p.Len(0))
	w := p.SharedWindow()
	assert.True(t, w.Pinned)
	assert.Equal(t, 0.0, w.Start, "both lessons fit in the default zoom")
	a := p.Scene(0, 900, 300)
	b := p.Scene(1, 900, 300)
	assert.Equal(t, a.T0, b.T0, "one axis for both")
	assert.Equal(t, a.T1, b.T1)
	p.SetView(0, lab.View{Span: 20})
	w = p.SharedWindow()
	assert.Equal(t, 20.0, w.Span)
	assert.Equal(t, p.Scene(0, 900, 300).T0, p.Scene(1, 900, 300).T0)
	assert.Equal(t, lab.View{Span: 20}, p.ViewOf(1), "the zoom is the page's, not the view's")
}

// A link holds several views; it reads back to the same page.
func TestALinkHoldsSeveralViews(t *testing.T) {
	p := comparePage(t)
	require.NoError(t, p.Views[0].Fault("crash", faults.AtProcess(2)))
	for range 9 {
		p.Forward(0)
	}
	p.Views[1].Cut().Toggle()
	q := p.Query()
	assert.Equal(t, "2", q.Get("v"))
	assert.Equal(t, "snapshot-bank", q.Get("s"))
	assert.Equal(t, "snapshot-nonfifo", q.Get("s.2"))
	assert.Equal(t, "0c3", q.Get("in"), "the crash of C, in the first view")
	assert.NotEmpty(t, q.Get("cut.2"))
	assert.Empty(t, q.Get("steps"), "together is the default")
	back, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	require.Len(t, back.Views, 2)
	assert.True(t, back.Together)
	for i := range p.Views {
		assert.Equal(t, p.Views[i].Step(), back.Views[i].Step(), "view %d", i+1)
		assert.Equal(t, traceJSON(t, p.Views[i]), traceJSON(t, back.Views[i]))
	}
	assert.Equal(t, q, back.Query())

	p.Together = false
	assert.Equal(t, "apart", p.Query().Get("steps"))
	apart, err := lab.PageFromQuery(p.Query(), false)
	require.NoError(t, err)
	assert.False(t, apart.Together)
}

func TestPageLinkErrors(t *testing.T) {
	tests := []struct {
		q    url.Values
		want string
	}{
		{url.Values{"s.2": {"nope"}, "v": {"2"}}, `link parameter "s.2"`},
		{url.Values{"s.2": {"snapshot-bank"}, "k.2": {"-1"}, "v": {"2"}}, `link parameter "k.2": want a step number`},
		{url.Values{"s.2": {"snapshot-bank"}, "steps": {"sideways"}, "v": {"2"}}, `link parameter "steps"`},
		{url.Values{"s.2": {"snapshot-bank"}, "span.shared": {"1"}, "v": {"2"}}, `link parameter "span.shared"`},
		// nothing a link says is dropped without a word
		{url.Values{"s": {"snapshot-bank"}, "s.3": {"lease-crash"}, "v": {"2"}}, `link parameter "s.3": the link names no view 2 (no "s.2" or "sc.2")`},
		{url.Values{"s": {"snapshot-bank"}, "k.2": {"3"}, "v": {"2"}}, `link parameter "k.2": the link names no view 2`},
		{url.Values{"s": {"snapshot-bank"}, "k.7": {"3"}, "v": {"2"}}, `link parameter "k.7": a view's parameter ends in .2 to .6 (its view), got ".7"`},
		{url.Values{"s": {"snapshot-bank"}, "k.02": {"3"}, "v": {"2"}}, `link parameter "k.02": a view's parameter ends in .2 to .6`},
		{url.Values{"s": {"snapshot-bank"}, "k": {"3", "4"}, "v": {"2"}}, `link parameter "k" is given 2 times: give it once`},
		{url.Values{"s": {"snapshot-bank"}, "v": {"2", "2"}}, `link parameter "v" is given 2 times`},
		{url.Values{"s": {"snapshot-bank"}, "cut": {"1e308,_,_"}, "v": {"2"}}, `link parameter "cut": want points of the axis from -1e+09 to 1e+09, got "1e308"`},
		{url.Values{"s": {"snapshot-bank"}, "in": {"3ksnapshot.1.2.0"}, "v": {"2"}}, `the command snapshot takes no target, got process 2`},
		{url.Values{"s": {"snapshot-bank"}, "in": {"3ksnapshot.1.0.5"}, "v": {"2"}}, `the command snapshot takes no number, got 5`},
	}
	for _, tc := range tests {
		_, err := lab.PageFromQuery(tc.q, false)
		require.Error(t, err, "%v", tc.q)
		assert.Contains(t, err.Error(), tc.want)
	}
	q := url.Values{"v": {"2"}}
	for i := 2; i <= lab.MaxViews+1; i++ {
		q.Set("s."+strconv.Itoa(i), "snapshot-bank")
	}
	_, err := lab.PageFromQuery(q, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `link parameter "s.7": a view's parameter ends in .2 to .6`)

	// /compare's default comparison names no view, and takes none's
	// parameters; a link that names a second view opens it beside the
	// default lesson
	_, err = lab.PageFromQuery(url.Values{"v": {"2"}, "k": {"5"}}, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `link parameter "k": /compare without "s" opens its default comparison`)
	p, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s.2": {"lease-crash"}}, true)
	require.NoError(t, err)
	require.Len(t, p.Views, 2)
	assert.Equal(t, "lease-crash", p.Views[1].Scenario().ID)
	// other parameters are not the link's, and are left alone
	_, err = lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "utm_source": {"a", "b"}}, false)
	require.NoError(t, err)
	// a page can be grown and shrunk
	p = comparePage(t)
	p.Remove(0)
	assert.Len(t, p.Views, 1)
	assert.False(t, p.Together, "one view steps alone")
	p.Remove(0)
	assert.Len(t, p.Views, 1, "the last view stays")
}

// The FIFO switch runs the same scenario on the other network, keeping the
// learner's inputs and the step on screen; the link names the built-in.
func TestSetFIFOKeepsTheInputs(t *testing.T) {
	sess := open(t, "snapshot-bank")
	sess.Seek(20)
	require.NoError(t, sess.Fault("crash", faults.AtProcess(1)))
	sess.Seek(30)
	sess.Causality().Select(25)
	require.NoError(t, sess.Switches().SetFIFO(false))
	assert.False(t, sess.Scenario().FIFO())
	assert.Equal(t, 30, sess.Step())
	assert.Equal(t, 25, sess.Causality().Selected())
	require.Len(t, sess.Run().Inputs(), 1)
	assert.Equal(t, crashAction(1), sess.Run().Inputs()[0].Action)
	q := sess.Query()
	assert.Equal(t, "snapshot-bank", q.Get("s"))
	assert.Equal(t, "0", q.Get("fifo"))
	assert.Empty(t, q.Get("sc"), "a built-in with its channels switched is named, not packed")
	back, err := lab.FromQuery(q)
	require.NoError(t, err)
	assert.Equal(t, traceJSON(t, sess), traceJSON(t, back))
	require.NoError(t, sess.Switches().SetFIFO(true))
	assert.Empty(t, sess.Query().Get("fifo"))
	assert.NoError(t, sess.Switches().SetFIFO(true), "already FIFO: nothing to do")
}

// A page opened within a budget is the same page as without one while the
// budget holds; a link that asks for more (a million steps of 64
// processes, or several long views) says so, and a bad link still says
// what is wrong with it.
func TestPageWithinABudget(t *testing.T) {
	within := func(q url.Values, work int64) (*lab.Page, error) {
		return lab.PageFromQueryWithin(q, false, &engine.Budget{Work: work})
	}
	p, err := within(url.Values{"s": {"snapshot-long"}, "k": {"500"}}, 600_000)
	require.NoError(t, err)
	free, err := lab.PageFromQuery(url.Values{"s": {"snapshot-long"}, "k": {"500"}}, false)
	require.NoError(t, err)
	assert.Equal(t, free.Query(), p.Query())
	assert.Equal(t, free.Views[0].Len(), p.Views[0].Len())

	huge, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 64, "workload": {"p": 0.5}, "until": {"steps": 1000000}}`))
	require.NoError(t, err)
	cut, err := lab.OpenWithin(huge, &engine.Budget{Work: 10})
	require.NoError(t, err)
	tests := []struct {
		name string
		q    url.Values
	}{
		{"a million steps of 64 processes", cut.Query()},
		{"two long views", url.Values{"v": {"2"}, "s": {"snapshot-long"}, "s.2": {"snapshot-long"}}},
		{"a long view forked early by an input", url.Values{"s": {"snapshot-long"}, "in": {"5c1"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := within(tc.q, 400_000)
			assert.ErrorIs(t, err, lab.ErrTooMuchWork)
			assert.Nil(t, p)
		})
	}
	_, err = within(url.Values{"s": {"nope"}}, 400_000)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `link parameter "s"`)
}

// A page that bounds what it computes (a browser's) shows a link's run as
// far as it got and says where and why it stops; a step past that is the
// last one; a learner's action on it gets a budget of its own.
func TestPageShowsARunCutByItsBounds(t *testing.T) {
	lab.Bounds = func(bool) *engine.Budget { return &engine.Budget{Bytes: 1 << 20} }
	t.Cleanup(func() { lab.Bounds = nil })
	s, err := scenario.Parse([]byte(`{"id": "pile-up", "algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
		"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"steps": 1000000}}`))
	require.NoError(t, err)
	q := lab.ScenarioQuery(s)
	q.Set("k", "900000")
	p, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	v := p.Views[0]
	assert.Less(t, v.Len(), 10_000)
	assert.Equal(t, v.Len(), v.Step(), "a step past the cut is the last one")
	assert.Equal(t, fmt.Sprintf("The run of pile-up stops at step %d: it would keep more than the 1 MB this page keeps for a run. The command line runs it whole (spacetime run).", v.Len()), v.Stopped())
	assert.Equal(t, v.Stopped(), p.Notice())

	v.Seek(100)
	require.NoError(t, v.Command(0, "local", sim.None, 0))
	assert.Equal(t, 101, v.Step())
	assert.Greater(t, v.Len(), 1000, "the action's run has a budget of its own")
	assert.NotEmpty(t, v.Stopped())

	lesson, err := lab.PageFromQuery(url.Values{"s": {"snapshot-bank"}}, false)
	require.NoError(t, err)
	assert.Empty(t, lesson.Notice(), "a lesson is within the bounds")
}

// A lesson as the course wrote it, or with its channels flipped, is
// bounded in memory only, however slow the machine (a page's time is up
// at once here): a lesson with a learner's input, or any other scenario,
// stops where its time ran out.
func TestALessonIsShownWholeOnASlowMachine(t *testing.T) {
	var lessons []bool
	lab.Bounds = func(lesson bool) *engine.Budget {
		lessons = append(lessons, lesson)
		if lesson {
			return &engine.Budget{Bytes: 40 << 20}
		}
		return &engine.Budget{Cancelled: func() bool { return true }}
	}
	t.Cleanup(func() { lab.Bounds = nil })
	long, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	full, err := scenariotest.Plan(t, long).Run()
	require.NoError(t, err)
	for _, q := range []url.Values{{"s": {"snapshot-long"}}, {"s": {"snapshot-long"}, "fifo": {"0"}}} {
		p, err := lab.PageFromQuery(q, false)
		require.NoError(t, err)
		assert.Empty(t, p.Notice(), "%v", q)
	}
	p, err := lab.PageFromQuery(url.Values{"s": {"snapshot-long"}}, false)
	require.NoError(t, err)
	assert.Equal(t, full.Len(), p.Views[0].Len())

	for _, q := range []url.Values{{"s": {"snapshot-long"}, "in": {"3c1"}}, lab.ScenarioQuery(long.WithSeed(2))} {
		p, err := lab.PageFromQuery(q, false)
		require.NoError(t, err)
		assert.Contains(t, p.Notice(), "stops at step", "%v", q)
	}
	assert.Equal(t, []bool{true, true, true, false, false}, lessons)
}

// Each view of a link gets the page's bounds, as each view the learner
// adds does, so that the page reopens what it wrote: three long lessons,
// the last stepped to its end with its last event selected, and inputs
// early in two of them (each replayed in one pass, not charged twice).
func TestEachViewHasThePagesBounds(t *testing.T) {
	lab.Bounds = func(bool) *engine.Budget { return &engine.Budget{Bytes: 40 << 20} }
	t.Cleanup(func() { lab.Bounds = nil })
	q := url.Values{"v": {"2"}, "s": {"snapshot-long"}, "s.2": {"snapshot-long"}, "s.3": {"snapshot-long"},
		"in": {"3c1"}, "in.2": {"5c2"}, "k": {"0"}, "k.2": {"0"}, "k.3": {"100000"}, "sel.3": {"99999"}, "steps": {"apart"}}
	p, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	require.Len(t, p.Views, 3)
	assert.Empty(t, p.Notice(), "every view fits its own bounds")
	assert.Equal(t, 99999, p.Views[2].Causality().Selected())
	assert.Equal(t, q, p.Query())
}

// A view whose run passes the page's bounds drops what lies past its cut
// (its step, a selected event, inputs there), and the notice says where
// it stops; an input that cannot happen where the run does reach is still
// refused.
func TestWhatLiesPastTheCutIsDropped(t *testing.T) {
	lab.Bounds = func(bool) *engine.Budget { return &engine.Budget{Bytes: 2 << 20} }
	t.Cleanup(func() { lab.Bounds = nil })
	p, err := lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"snapshot-long"}, "in": {"90000c1"}, "k": {"95000"}, "sel": {"94000"}, "sel2": {"94001"}}, false)
	require.NoError(t, err)
	v := p.Views[0]
	assert.Equal(t, v.Len(), v.Step())
	assert.Equal(t, -1, v.Causality().Selected())
	assert.Equal(t, -1, v.Causality().Other())
	assert.Empty(t, v.Run().Inputs())
	assert.Contains(t, p.Notice(), "stops at step")

	_, err = lab.PageFromQuery(url.Values{"v": {"2"}, "s": {"snapshot-long"}, "in": {"1d999999"}}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `link parameter "in": input at step 1: there is no message #999999`)
}

// A log opens as many executions as a page shows runs: the Load panel
// opens each beside the first.
func TestALogOpensAsManyExecutionsAsAPageShows(t *testing.T) {
	assert.Equal(t, lab.MaxViews, logimport.MaxLogExecutions)
}
