package lab_test

import (
	"net/url"
	"spacetime/core/algo/python/ports"
	"spacetime/core/faults"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/python"
	"spacetime/core/exercise"
)

// An exercise opens as its lesson with the skeleton as the program; the
// check of an answer that fails links the failing run at its step.
func TestAnExerciseOpensAndItsFailureLinksItsRun(t *testing.T) {
	q, ok := lab.ExerciseQuery("snapshot-bank")
	require.True(t, ok)
	_, ok = lab.ExerciseQuery("snapshot-nonfifo")
	assert.False(t, ok, "not an exercise")

	p, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	lesson, ok := p.Views[0].Exercise()
	require.True(t, ok)
	assert.Equal(t, "snapshot-bank", lesson.ID)
	assert.Equal(t, "chandy-lamport", lesson.Algorithm)

	a, err := exercise.Check(lesson, python.ID, p.Views[0].Scenario().Code, 5, nil)
	require.NoError(t, err)
	require.NotNil(t, a.Failure, "the skeleton's hole finishes no snapshot")
	fq, err := lab.FailureQuery(a.Failure)
	require.NoError(t, err)
	failing, err := lab.PageFromQuery(fq, false)
	require.NoError(t, err)
	assert.Equal(t, a.Failure.Step, failing.Views[0].Step())
	assert.Equal(t, a.Failure.Seed, failing.Views[0].Scenario().Seed)
}

// The Write view opens the starter program when its link names no
// scenario, and the link's own scenario otherwise.
func TestTheWriteViewStartsFromAProgram(t *testing.T) {
	q := lab.WriteDefault(url.Values{"text": {"L"}})
	p, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	assert.Equal(t, "python", p.Views[0].Scenario().Algorithm)
	assert.Equal(t, "L", q.Get("text"), "the link's other parameters stay")
	named := url.Values{"s": {"snapshot-bank"}}
	assert.Equal(t, named, lab.WriteDefault(named))
}

// A learner's own program is searched with a fault, since its bugs often
// need one; a lesson, even run as code, keeps its own bounds.
func TestALearnersProgramIsSearchedWithAFault(t *testing.T) {
	own, err := lab.Open(lab.StarterScenario())
	require.NoError(t, err)
	_, opts := own.Search().Plan()
	assert.Equal(t, lab.ProgramSearchFaults, opts.Faults)

	q, ok := lab.ExerciseQuery("snapshot-bank")
	require.True(t, ok)
	p, err := lab.PageFromQuery(q, false)
	require.NoError(t, err)
	_, opts = p.Views[0].Search().Plan()
	assert.Zero(t, opts.Faults, "the lesson's bounds")
}

// Find the bug at the end of a run that is over starts from its first
// step: nothing is left to try at the end.
func TestASearchAtTheEndStartsAtTheBeginning(t *testing.T) {
	p, err := lab.PageFromQuery(lab.WriteDefault(url.Values{}), false)
	require.NoError(t, err)
	s := p.Views[0]
	s.Seek(s.Len())
	from, opts := s.Search().Plan()
	assert.Equal(t, 0, from)
	assert.Equal(t, lab.ProgramSearchFaults, opts.Faults)
	s.Seek(10)
	from, _ = s.Search().Plan()
	assert.Equal(t, 10, from, "elsewhere, from the step on screen")
}

// Running an edited program replays the learner's inputs on it: a crash
// they caused stays; a program that does not compile changes nothing.
func TestRewriteKeepsTheLearnersInputs(t *testing.T) {
	code, ok := ports.For("token-ring")
	require.True(t, ok)
	p, err := lab.PageFromQuery(lab.CodeQuery("token-ring-idle", code), false)
	require.NoError(t, err)
	s := p.Views[0]
	s.Seek(5)
	require.NoError(t, s.Fault("crash", faults.AtProcess(1)))
	require.Len(t, s.Run().Inputs(), 1)
	edited := strings.Replace(code, `p.say("gets the token and passes it on after a tick")`, `p.say("takes the token")`, 1)
	kept, err := s.Rewrite(edited)
	require.NoError(t, err)
	assert.NoError(t, kept)
	assert.Equal(t, edited, s.Scenario().Code)
	assert.Len(t, s.Run().Inputs(), 1, "the crash stays")
	_, err = s.Rewrite("def init(p)\n")
	assert.Error(t, err)
	assert.Equal(t, edited, s.Scenario().Code, "unchanged")
}
