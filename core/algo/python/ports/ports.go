// Package ports holds built-in algorithms of the course written as
// learners' programs (core/algo/python): "Open as code" gives a lesson's
// algorithm as its port, which runs the lesson's scenario to the same
// messages, in the same order, with the same invariant verdicts as the
// Go version (a test holds every lesson of every port to its twin).
//
// A port is a file named for the algorithm it ports (token-ring.py). It
// reads the algorithm's params as p.params, takes its commands by the
// same names, sends its message kinds, and names its invariants
// invariant_NAME where NAME is the Go invariant's name with spaces as
// underscores. The package holds no interpreter: the programs are text.
package ports

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/scenario"
)

//go:embed *.py
var files embed.FS

// exercises are the holes of exercises, named by their lesson: a first
// line "# port: ALGORITHM" naming the port, a few lines of comment for
// the learner, and the function the learner writes, its body a comment
// and pass. The skeleton is the port with that function in place of its
// own, so that it never drifts from the port a test holds to its twin.
//
//go:embed exercises/*.py
var exercises embed.FS

// starter is the program the Write view opens with when its link names
// none: README's example, a token passed round a ring.
//
//go:embed starter/ring.py
var starter string

// Starter is the program a learner starts from in the Write view.
func Starter() string { return starter }

// Exercises lists the lessons that are exercises, by id.
func Exercises() []string { return names(exercises, "exercises") }

// Skeleton is the program a learner starts an exercise from (its lesson's
// port with a hole), and whether the lesson is an exercise.
func Skeleton(lesson string) (string, bool) {
	data, err := exercises.ReadFile("exercises/" + lesson + ".py")
	if err != nil {
		return "", false
	}
	skeleton, err := fill(string(data))
	return skeleton, err == nil
}

// fill makes an exercise's skeleton: its port with the exercise's
// function in place of the port's own, the exercise's comment first.
func fill(exercise string) (string, error) {
	first, rest, _ := strings.Cut(exercise, "\n")
	algorithm, ok := strings.CutPrefix(first, "# port: ")
	if !ok {
		return "", fmt.Errorf("an exercise begins with # port: ALGORITHM")
	}
	port, ok := For(strings.TrimSpace(algorithm))
	if !ok {
		return "", fmt.Errorf("no port of %q", algorithm)
	}
	def := strings.Index(rest, "\ndef ")
	if def < 0 {
		return "", fmt.Errorf("an exercise holds the function to write")
	}
	comment, hole := strings.TrimRight(rest[:def+1], "\n")+"\n", rest[def+1:]
	name, _, _ := strings.Cut(hole, "(")
	at := strings.Index(port, "\n"+name+"(")
	if at < 0 {
		return "", fmt.Errorf("the port has no %s", name)
	}
	end := strings.Index(port[at+1:], "\ndef ")
	if end < 0 {
		end = len(port) - at - 1
	}
	// the port's function, up to the next one (its blank lines kept)
	body := port[at+1 : at+1+end]
	trailing := body[len(strings.TrimRight(body, "\n")):]
	return comment + "#\n" + port[:at+1] + strings.TrimRight(hole, "\n") + trailing + port[at+1+end:], nil
}

// Algorithms lists the algorithms that have a port, by id.
func Algorithms() []string { return names(files, ".") }

// names lists the programs of a directory of fsys, by name without .py.
func names(fsys embed.FS, dir string) []string {
	entries, _ := fsys.ReadDir(dir)
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".py"); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// For is the port of an algorithm, and whether it has one.
func For(algorithm string) (string, bool) {
	data, err := files.ReadFile(algorithm + ".py")
	if err != nil {
		return "", false
	}
	return string(data), true
}

// AsCode is a lesson with its algorithm given as its port: the same
// processes, params, script, network and stop, run by the program. The
// lesson's expectations and search name the same invariants. It fails
// for an algorithm without a port.
func AsCode(s *scenario.Scenario, python string) (*scenario.Scenario, error) {
	code, ok := For(s.Algorithm)
	if !ok {
		return nil, fmt.Errorf("%s has no port to Python yet (those that do: %s)", s.Algorithm, strings.Join(Algorithms(), ", "))
	}
	return s.WithProgram(python, code), nil
}

// Texts are the programs Spacetime ships: the starter, each port and
// each exercise's skeleton.
func Texts() []string {
	texts := []string{starter}
	for _, id := range Algorithms() {
		if code, ok := For(id); ok {
			texts = append(texts, code)
		}
	}
	for _, lesson := range Exercises() {
		if code, ok := Skeleton(lesson); ok {
			texts = append(texts, code)
		}
	}
	return texts
}
