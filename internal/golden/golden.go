// Package golden compares a test's output with a golden file in testdata/
// and rewrites the file when the tests run with -update:
//
//	go test ./core/scenario -update
//
// -update is this package's flag, which only the test binaries that link
// it accept; `make golden` passes it to every such package at once.
//
// It is shared by the tests of every package (core's included: a test may
// read files, the core's own code may not), so that a golden file is read,
// compared and rewritten the same way everywhere.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Updating reports whether the tests were asked to rewrite golden files.
func Updating() bool { return *update }

// Check compares got with the golden file at path (under the test's
// package directory, usually testdata/…), line by line, and with -update
// writes got there instead.
func Check(t testing.TB, path string, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	SameLines(t, string(want), got, path+" differs; if the change is intended, run the test with -update")
}

// SameLines fails the test at the first line where got differs from want,
// showing both: a golden file's diff, readably.
func SameLines(t testing.TB, want, got, msg string) {
	t.Helper()
	if want != got {
		t.Fatalf("%s\n%s", msg, FirstDiff(want, got))
	}
}

// FirstDiff shows the first line where got differs from want, numbered
// from 1, or "" when they are the same.
func FirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, w, g)
		}
	}
	return ""
}
