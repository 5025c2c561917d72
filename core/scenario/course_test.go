package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// The course's index holds: every claim names a built-in lesson of its
// topic, at a step within the run, and a claim about a failure names an
// invariant the lesson expects to fail and that has failed by that step.
func TestCourseClaimsAreShownByTheirLessons(t *testing.T) {
	require.NotContains(t, scenario.Broken(), "course.json")
	require.NotEmpty(t, scenario.Course())
	claims := 0
	for _, topic := range scenario.Course() {
		require.NotEmpty(t, topic.Claims, "topic %q has no claim", topic.Name)
		for _, c := range topic.Claims {
			claims++
			s, err := scenario.Builtin(c.Lesson)
			require.NoError(t, err, c.Text)
			assert.Equal(t, topic.Name, s.TopicOf(), "%s: the lesson's topic", c.Text)
			assert.Empty(t, scenario.ComparisonOf(c.Lesson), "%s: a claim opens a lesson of its own, not a comparison's run", c.Text)
			assert.True(t, strings.HasSuffix(c.Text, "."), "%q: one sentence, ending with a full stop", c.Text)
			assert.NotContains(t, strings.TrimSuffix(c.Text, "."), ". ", "%q: one sentence", c.Text)
			r, err := scenariotest.Plan(t, s).Run()
			require.NoError(t, err, c.Lesson)
			assert.LessOrEqual(t, c.Step, r.Len(), "%s: step %d of a run of %d", c.Text, c.Step, r.Len())
			if c.Metric != "" {
				assert.Equal(t, c.Value, metricAt(t, r, c.Step, c.Metric), "%s: %s at step %d", c.Text, c.Metric, c.Step)
			}
			if c.Breaks == "" {
				continue
			}
			assert.True(t, s.Expected(c.Breaks), "%s: %s does not expect %q to fail", c.Text, c.Lesson, c.Breaks)
			step := c.Step
			failed := false
			for _, f := range r.Failures() {
				if f.Name == c.Breaks {
					failed = f.Step >= 0 && f.Step < step // record f.Step is drawn once step f.Step+1 is
				}
			}
			assert.True(t, failed, "%s: %q has not failed by step %d of %s", c.Text, c.Breaks, step, c.Lesson)
		}
	}
	t.Logf("%d claims in %d topics", claims, len(scenario.Course()))
}

// Every lesson of the picker is one click away from the index: at least
// one claim opens it.
func TestEveryLessonHasAClaim(t *testing.T) {
	claimed := map[string]bool{}
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			claimed[c.Lesson] = true
		}
	}
	for _, b := range scenario.BuiltinList() {
		assert.True(t, claimed[b.ID], "no claim of the course opens %s (%s)", b.ID, b.Title)
	}
}

// The topics a lesson may name are the course's, in its order.
func TestTopicsAreTheCourses(t *testing.T) {
	var names []string
	for _, topic := range scenario.Course() {
		names = append(names, topic.Name)
	}
	require.NotEmpty(t, names)
	assert.Equal(t, names, scenario.Topics())
}

// metricAt reads a run's figure at step k, as JSON reads it (numbers are
// float64): "name", or "name.part" for a part of a figure.
func metricAt(t *testing.T, r *engine.Run, k int, path string) any {
	t.Helper()
	name, part, _ := strings.Cut(path, ".")
	for _, m := range r.Config().Spec.Figures.Metrics(r.At(k).View()) {
		if m.Name != name {
			continue
		}
		data, err := json.Marshal(m.Value)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(data, &v))
		if part == "" {
			return v
		}
		parts, ok := v.(map[string]any)
		require.True(t, ok, "%s has no parts", name)
		return parts[part]
	}
	t.Fatalf("no metric %q", name)
	return nil
}
