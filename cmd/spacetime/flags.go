package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Numeric flags are read as text and checked here, so that a bad value is
// refused in this command's words (the flag, what it wants, what it got)
// and a flag that was not given is told apart from one set to zero.

// intFlag reads a whole number from lo to hi; want says it in words.
func intFlag(name, text string, lo, hi int64, want string) (int64, error) {
	x, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if err != nil || x < lo || x > hi {
		return 0, errUsage{fmt.Errorf("--%s: want %s, got %q", name, want, text)}
	}
	return x, nil
}

// seedFlag reads a seed: any whole number from 0 to 2^64-1.
func seedFlag(name, text string) (uint64, error) {
	x, err := strconv.ParseUint(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return 0, errUsage{fmt.Errorf("--%s: want a seed, a whole number from 0 to %d, got %q", name, uint64(math.MaxUint64), text)}
	}
	return x, nil
}

// pixelsFlag reads a picture's size in pixels, from minPixels to maxPixels
// (NaN, infinities, 0 and negative sizes make an SVG nothing can draw).
func pixelsFlag(name, text string) (float64, error) {
	return numberFlag(name, text, minPixels, maxPixels, fmt.Sprintf("a number of pixels from %d to %d", minPixels, maxPixels))
}

// numberFlag reads a number from lo to hi; want says it in words.
func numberFlag(name, text string, lo, hi float64, want string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || math.IsNaN(x) || x < lo || x > hi {
		return 0, errUsage{fmt.Errorf("--%s: want %s, got %q", name, want, text)}
	}
	return x, nil
}
