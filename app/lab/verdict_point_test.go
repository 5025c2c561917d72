package lab

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// A lesson about one invariant names it first, holding or failing: the
// lease without fencing leads with the stale write once it lands (and says
// what else fails), the lease with fencing says its point holds while two
// clients believe they hold the lease; the verdict's room holds the
// longest the run gives.
func TestVerdictLeadsWithTheLessonsPoint(t *testing.T) {
	open := func(id string) *Session { return builtinSession(t, id) }
	const stale = "the storage accepts no write whose lease had run out"
	const believe = "at most one client believes it holds the lease"

	noFencing := open("lease-no-fencing")
	noFencing.Seek(15)
	j := noFencing.Judge()
	assert.False(t, j.OK)
	assert.Equal(t, believe+": fails at step 13 (as the lesson expects)", j.Rule)
	assert.Equal(t, "✓ "+stale+" holds (this lesson's point)", j.Rest)
	noFencing.Seek(20)
	j = noFencing.Judge()
	assert.Equal(t, stale+": fails at step 20 (this lesson's point)", j.Rule)
	assert.Contains(t, j.Why, "token 33")
	assert.Equal(t, "Also fails: "+believe+" (step 13)", j.Rest)
	assert.Equal(t, "✗ "+j.Why+" — "+j.Rule+". "+j.Rest, j.Text())
	longest := noFencing.LongestJudgement().Text()
	for _, k := range []int{0, 13, 15, 20, noFencing.Len()} {
		noFencing.Seek(k)
		assert.GreaterOrEqual(t, len(longest), len(noFencing.Judge().Text()), "the room holds the verdict at step %d", k)
	}

	fencing := open("lease-fencing")
	fencing.Seek(fencing.Len())
	j = fencing.Judge()
	assert.Equal(t, believe+": fails at step 13 (as the lesson expects)", j.Rule)
	assert.Equal(t, "✓ "+stale+" holds (this lesson's point)", j.Rest)
	fencing.Seek(0)
	assert.Equal(t, Judgement{OK: true, Rule: "holds: " + stale + " · " + believe}, fencing.Judge(), "the point first")
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
