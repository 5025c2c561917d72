package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/internal/mutate"
)

// A mutant is reached when the block around it ran; one in no block (a
// switch's case condition, between the blocks a profile counts) when its
// function ran, and not when none of the function's blocks did.
func TestReaches(t *testing.T) {
	const file = "core/algo/x/x.go"
	c := coverage{file: {
		{startLine: 10, startCol: 2, endLine: 11, endCol: 9, reached: true},  // Ran's switch
		{startLine: 13, startCol: 3, endLine: 13, endCol: 20, reached: true}, // a case of it
		{startLine: 20, startCol: 2, endLine: 21, endCol: 9, reached: false}, // Idle's switch
		{startLine: 23, startCol: 3, endLine: 23, endCol: 20, reached: false},
	}}
	in := func(line, col, from, to int) mutate.Mutant {
		return mutate.Mutant{File: file, Line: line, Col: col, BodyFrom: from, BodyTo: to}
	}
	assert.True(t, c.reaches(in(13, 5, 9, 15)), "in a block that ran")
	assert.False(t, c.reaches(in(23, 5, 19, 25)), "in a block that never ran")
	assert.True(t, c.reaches(in(12, 7, 9, 15)), "a case condition of a function that ran")
	assert.False(t, c.reaches(in(22, 7, 19, 25)), "a case condition of a function that never ran")
	assert.True(t, c.reaches(in(30, 1, 29, 31)), "a function the profile counts nothing of")
	assert.True(t, c.reaches(mutate.Mutant{File: "core/algo/y/y.go", Line: 3, Col: 1, BodyFrom: 2, BodyTo: 4}), "a file the profile does not have")
}
