package lab

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/report"
	"spacetime/core/scenario"
)

// A lesson about one invariant names it first, holding or failing: the
// lease without fencing leads with the stale write once it lands (and says
// what else fails) and with its point holding before, the lease with
// fencing leads with its point holding while two clients believe they
// hold the lease, as the lesson expects; the verdict's room holds the
// longest the run gives. An unexpected failure is never led by a tick.
func TestVerdictLeadsWithTheLessonsPoint(t *testing.T) {
	open := func(id string) *Session { return builtinSession(t, id) }
	const stale = "the storage accepts no write whose lease had run out"
	const believe = "at most one client believes it holds the lease"

	noFencing := open("lease-no-fencing")
	noFencing.Seek(15)
	j := noFencing.Verdicts().Now()
	assert.False(t, j.OK)
	assert.True(t, j.PointHolds, "before the stale write, the point holds while the two clients' belief fails as expected")
	assert.Equal(t, stale+" holds (this lesson's point)", j.Rule)
	assert.Equal(t, "As the lesson expects, "+believe+" fails at step 13: client1 (token 33) and client2 (token 34) each believe they hold the lease", j.Rest)
	assert.Equal(t, "✓ "+j.Rule+". "+j.Rest, j.Text())
	noFencing.Seek(20)
	j = noFencing.Verdicts().Now()
	assert.False(t, j.Good(), "the stale write lands: the verdict fails")
	assert.Equal(t, stale+": fails at step 20 (this lesson's point)", j.Rule)
	assert.Contains(t, j.Why, "token 33")
	assert.Equal(t, "Also fails: "+believe+" (step 13)", j.Rest)
	assert.Equal(t, "✗ "+j.Why+" — "+j.Rule+". "+j.Rest, j.Text())
	longest := noFencing.Verdicts().Longest().Text()
	for _, k := range []int{0, 13, 15, 20, noFencing.Len()} {
		noFencing.Seek(k)
		assert.GreaterOrEqual(t, len(longest), len(noFencing.Verdicts().Now().Text()), "the room holds the verdict at step %d", k)
	}

	fencing := open("lease-fencing")
	fencing.Seek(fencing.Len())
	j = fencing.Verdicts().Now()
	assert.True(t, j.Good(), "fencing saves the data: the verdict is a tick")
	assert.Equal(t, "✓ ", j.Mark())
	assert.Equal(t, stale+" holds (this lesson's point)", j.Rule)
	assert.Contains(t, j.Rest, "As the lesson expects, "+believe+" fails at step 13")
	fencing.Seek(0)
	j = fencing.Verdicts().Now()
	assert.True(t, j.Good())
	assert.True(t, strings.HasPrefix(j.Rule, "holds: "+stale+" · "+believe+" · "), "the point first, then the others: %s", j.Rule)
}

// builtinSession opens a built-in lesson at its start.
func builtinSession(t *testing.T, id string) *Session {
	t.Helper()
	scn, err := scenario.Builtin(id)
	require.NoError(t, err)
	s, err := Open(scn)
	require.NoError(t, err)
	return s
}

// The point leads only while every failure is one the lesson expects: an
// unexpected one leads the verdict, with a cross, however the point stands.
func TestAnUnexpectedFailureIsNeverLedByATick(t *testing.T) {
	step := func(k int) *int { return &k }
	invs := []report.Invariant{
		{Name: "the point", OK: true},
		{Name: "expected", FirstFailingStep: step(3), Detail: "as planned", Expected: true},
	}
	j := judge(invs, "the point")
	assert.True(t, j.Good())
	assert.Equal(t, "✓ the point holds (this lesson's point). As the lesson expects, expected fails at step 3: as planned", j.Text())

	invs = append(invs, report.Invariant{Name: "surprise", FirstFailingStep: step(5), Detail: "a bug"})
	j = judge(invs, "the point")
	assert.False(t, j.Good())
	assert.Equal(t, "✗ ", j.Mark())
	assert.Equal(t, "expected: fails at step 3 (as the lesson expects)", j.Rule, "the first failure leads (the one the lesson expects before any other)")
	assert.Contains(t, j.Rest, "surprise (step 5)")
	assert.Contains(t, j.Rest, "✓ the point holds (this lesson's point)")
}

// A verdict that holds names as many of its invariants as read whole
// beside the diagram, and counts the rest, which its text (the tooltip, a
// screen reader's) names.
func TestAVerdictThatHoldsCountsWhatDoesNotFit(t *testing.T) {
	short := []string{"at most one process in the critical section", "no deadlock"}
	assert.Equal(t, Judgement{OK: true, Rule: "holds: at most one process in the critical section · no deadlock"}, holds(short))

	long := []string{"the recovery line is consistent", "a global checkpoint loses no message",
		"a global checkpoint holds what was in transit at its cut", "a global checkpoint under way completes",
		"a recovery runs to its end", "the next checkpoint is always due", "a message is dropped only for a reason"}
	j := holds(long)
	assert.LessOrEqual(t, utf8.RuneCountInString(j.Rule), maxHoldsText)
	assert.Equal(t, "holds: the recovery line is consistent · a global checkpoint loses no message · a global checkpoint holds what was in transit at its cut · a global checkpoint under way completes · and 3 more", j.Rule)
	assert.Equal(t, long[4:], j.Counted)
	assert.Equal(t, "✓ holds: "+strings.Join(long, " · "), j.Text(), "the text names every one")
}
