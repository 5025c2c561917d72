package ports_test

import "testing"

// Every token-ring lesson runs the same as code.
func TestTokenRingPortIsTheGoTwin(t *testing.T) {
	for _, lesson := range lessonsOf(t, "token-ring") {
		t.Run(lesson.ID, func(t *testing.T) { sameRun(t, lesson) })
	}
}
