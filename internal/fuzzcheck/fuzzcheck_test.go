package fuzzcheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that records a failure instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	if r.failed == "" {
		r.failed = format
	}
}

func TestPlainError(t *testing.T) {
	long := strings.Repeat("x", 900)
	tests := []struct {
		name, msg, input string
		fails            string
	}{
		{"plain", `field "n": want a whole number from 1 to 64, got 65`, `{"n": 65}`, ""},
		{"quotes what the input said", `no built-in scenario "sim.Node"`, `s=sim.Node`, ""},
		{"empty", "", "", "an empty error"},
		{"too long", strings.Repeat("a", 101), "", "the error has %d bytes"},
		{"invalid text", "bad \xff", "", "not valid text"},
		{"spaces around", " bad", "", "spaces around"},
		{"echo", "no scenario " + long, long, "echoes the input"},
		{"json prefix", "json: cannot unmarshal", "{}", "not in plain words"},
		{"Go type", "want sim.Time, got text", "{}", "not in plain words"},
		{"slice type", "cannot read []int", "{}", "not in plain words"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			most := 100
			if tc.name == "echo" {
				most = 2000
			}
			PlainError(r, tc.msg, tc.input, most)
			if tc.fails == "" {
				assert.Empty(t, r.failed)
			} else {
				assert.Contains(t, r.failed, tc.fails)
			}
		})
	}
}
