package lab

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// The quiz's answers come from the trace: for lessons under many seeds,
// every question asked before a step is answered, after the step, by the
// run itself (the field's reading, the invariant's failure), and the page
// cannot show a step past a question before it is answered.
func TestQuizAnswersComeFromTheTrace(t *testing.T) {
	field := regexp.MustCompile(`^After it, what does (.+)'s (.+) read\?$`)
	invariant := regexp.MustCompile(`^After it, does “(.+)” still hold\?$`)
	kinds := map[string]int{}
	for _, id := range []string{"snapshot-bank", "lamport-mutex-nonfifo", "bully-worst", "lease-no-fencing", "maekawa-deadlock", "ring-election-concurrent"} {
		for seed := uint64(1); seed <= 6; seed++ {
			base, err := scenario.Builtin(id)
			require.NoError(t, err)
			s, err := Open(base.WithSeed(seed * 7919))
			require.NoError(t, err)
			require.NoError(t, s.Quiz().Start(nil), id)
			steps := s.Quiz().Steps()
			require.NotEmpty(t, steps)
			for n, k := range steps {
				s.Seek(s.Len())
				require.Equal(t, k-1, s.Step(), "%s: the page stops before the question's step", id)
				assert.False(t, s.Forward(), "no step past an unanswered question")
				q, ok := s.Quiz().Asking()
				require.True(t, ok, "%s seed %d: no question before step %d", id, seed, k)
				assert.Equal(t, k, q.Step)
				assert.GreaterOrEqual(t, len(q.Choices), 2)
				assert.Equal(t, "", s.Quiz().RightChoice(k), "the answer is not told before it is given")
				_, _, err := s.Quiz().Answer(n % len(q.Choices))
				require.NoError(t, err)
				assert.Equal(t, k, s.Step(), "the answer shows the step")
				right := s.Quiz().RightChoice(k)
				require.Contains(t, q.Choices, right)
				switch {
				case field.MatchString(q.Ask):
					kinds["field"]++
					m := field.FindStringSubmatch(q.Ask)
					who := sim.NodeID(-1)
					for i, name := range s.Scenario().Names {
						if name == m[1] {
							who = sim.NodeID(i)
						}
					}
					require.GreaterOrEqual(t, int(who), 0, q.Ask)
					got, _ := fieldValue(s.Run().At(k).Fields(who), m[2])
					assert.Equal(t, got, right, "%s seed %d step %d: %s", id, seed, k, q.Ask)
					was, _ := fieldValue(s.Run().At(k-1).Fields(who), m[2])
					assert.NotEqual(t, was, right, "the step changes what is asked about")
				case invariant.MatchString(q.Ask):
					kinds["invariant"]++
					name := invariant.FindStringSubmatch(q.Ask)[1]
					fails := false
					for _, f := range s.Run().FailuresAt(k) {
						fails = fails || (f.Name == name && f.Step == k-1)
					}
					assert.True(t, fails, "%s: %q fails at step %d", id, name, k)
					assert.Equal(t, "No, it fails", right)
				default:
					assert.Equal(t, "No, they all still hold", right, q.Ask)
				}
			}
			answered, _ := s.Quiz().Score()
			assert.Equal(t, len(steps), answered)
			s.Seek(s.Len())
			assert.Equal(t, s.Len(), s.Step(), "every question answered, the run is free")
		}
	}
	assert.Greater(t, kinds["field"], 100, "questions on what a process will hold")
	assert.Greater(t, kinds["invariant"], 10, "questions on an invariant's failure")
}

// The score counts right answers; a question's choices come in the same
// order for every learner of a link, and the link holds the quiz's steps
// but no answer.
func TestQuizScoreAndLinks(t *testing.T) {
	open := func(raw string) *Session {
		s, err := FromQuery(url.Values{"v": {"2"}, "s": {"lamport-mutex-nonfifo"}, "quiz": {raw}})
		require.NoError(t, err)
		return s
	}
	s := open("7,9")
	assert.Equal(t, []int{7, 9}, s.Quiz().Steps())
	s.Seek(40)
	q, ok := s.Quiz().Asking()
	require.True(t, ok)
	assert.Equal(t, "REPLY from 1 arrives at 2. After it, does “granted in timestamp order” still hold?", q.Event+" "+q.Ask)
	right, why, err := s.Quiz().Answer(1)
	require.NoError(t, err)
	assert.True(t, right)
	assert.Contains(t, why, "2 entered with (2, 2) while 1 still waits")
	s.Seek(40)
	q2, _ := s.Quiz().Asking()
	wrong, _, _ := s.Quiz().Answer(0)
	assert.False(t, wrong)
	answered, rights := s.Quiz().Score()
	assert.Equal(t, 2, answered)
	assert.Equal(t, 1, rights)
	assert.Equal(t, 9, q2.Step)

	link := s.Query()
	assert.Equal(t, "7,9", link.Get("quiz"))
	again := open("7,9")
	again.Seek(40)
	q3, _ := again.Quiz().Asking()
	assert.Equal(t, q, q3, "the same question, in the same order")
	assert.False(t, strings.Contains(EncodeQuery(link), "answer"))

	for raw, want := range map[string]string{
		"0":                            `link parameter "quiz": want 1, or steps from 1 separated by commas, got "0"`,
		"x":                            `want 1, or steps from 1`,
		"5,999":                        `a quiz step is from 1 to 13, the run's steps, got 999`,
		strings.Repeat("2,", 30) + "2": "at most 20 steps",
	} {
		_, err := FromQuery(url.Values{"v": {"2"}, "s": {"lamport-mutex-nonfifo"}, "quiz": {raw}})
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), want)
	}
	s.Quiz().End()
	s.Seek(13)
	assert.Equal(t, 13, s.Step())
	assert.Empty(t, s.Query().Get("quiz"))
}
