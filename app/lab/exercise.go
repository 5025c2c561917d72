package lab

import (
	"net/url"
	"slices"

	"spacetime/core/algo/python/ports"
	"spacetime/core/exercise"
	"spacetime/core/scenario"
)

// Exercise is the lesson a session's program answers, when the session
// runs a program on a lesson that is an exercise (its port ships with a
// hole, ports.Exercises): what Check my answer checks the program on.
func (s *Session) Exercise() (*scenario.Scenario, bool) {
	scn := s.Scenario()
	if scn.Code == "" || !slices.Contains(ports.Exercises(), scn.ID) {
		return nil, false
	}
	lesson, err := scenario.Builtin(scn.ID)
	return lesson, err == nil
}

// ExerciseQuery is the link that opens an exercise's lesson in the Write
// view with its skeleton as the program: s= and code=.
func ExerciseQuery(lesson string) (url.Values, bool) {
	skeleton, ok := ports.Skeleton(lesson)
	if !ok {
		return nil, false
	}
	return CodeQuery(lesson, skeleton), true
}

// FailureQuery is the link that opens the run in which an answer failed,
// at the step it failed.
func FailureQuery(f *exercise.Failure) (url.Values, error) {
	sess, err := OpenWithin(f.Scenario, nil)
	if err != nil {
		return nil, err
	}
	sess.Seek(f.Step)
	return OpenPage(sess).Query(), nil
}
