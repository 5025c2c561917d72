// Package fuzzcheck holds what the fuzz tests of every decoder check in
// the same way: that a refusal is in plain words, and that no input hangs.
package fuzzcheck

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Echoed bounds a piece of the input an error may quote: errors quote what
// they refuse clipped to 40 characters (160 bytes at most); the check finds
// any echo of 1.5 times Echoed bytes.
const Echoed = 200

var (
	// quotedText is a Go-quoted string in an error: what the input said.
	quotedText = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	// goWords are what an error shows when it leaks Go rather than plain
	// words: encoding/json's prefix and phrases, package-qualified names,
	// slice and map types, fmt's complaints, strconv's texts.
	goWords = regexp.MustCompile(`\bjson: |\bGo (struct|value|type)\b|\bof type\b|\bunmarshal|` +
		`\b(json|sim|scenario|engine|faults|strconv|reflect|trace|network|report|clock|check|lab|diagram|chandylamport|base64|flate|url)\.[A-Za-z]|` +
		`\[\][*A-Za-z]|\bmap\[|\bstruct ?\{|\binterface ?\{|%!|<nil>|\binvalid syntax\b|\bvalue out of range\b`)
)

// PlainError fails t unless msg, an error refusing input, is plain words:
// non-empty valid text of at most most bytes without spaces around it,
// quoting no more than Echoed bytes of the input in one piece, and without
// Go type or package names (outside what it quotes, and unless the input
// itself says them).
func PlainError(t testing.TB, msg, input string, most int) {
	t.Helper()
	switch {
	case msg == "":
		t.Fatalf("an empty error")
	case len(msg) > most:
		t.Fatalf("the error has %d bytes (at most %d): %.300s…", len(msg), most, msg)
	case !utf8.ValidString(msg):
		t.Fatalf("the error is not valid text: %q", msg)
	case strings.TrimSpace(msg) != msg:
		t.Fatalf("the error has spaces around it: %q", msg)
	}
	for i := 0; i+Echoed <= len(msg); i += Echoed / 2 {
		if strings.Contains(input, msg[i:i+Echoed]) {
			t.Fatalf("the error echoes the input back (%q…): %.300s", msg[i:i+Echoed], msg)
		}
	}
	bare := quotedText.ReplaceAllString(msg, `""`)
	for _, m := range goWords.FindAllString(bare, -1) {
		if !strings.Contains(input, m) {
			t.Fatalf("the error is not in plain words (%q): %s", m, msg)
		}
	}
}

// HangAfter is how long one input may take before Watchdog calls it a hang.
const HangAfter = 10 * time.Second

// Watchdog crashes the test, with every goroutine's stack, when the input
// takes longer than HangAfter: Go's fuzzing has no time limit of its own,
// and a crash makes it record and minimize the input. Call the function it
// returns when the input is done.
func Watchdog(input string) (stop func()) {
	timer := time.AfterFunc(HangAfter, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("hang: one input took more than %v: %.2000q", HangAfter, input))
	})
	return func() { timer.Stop() }
}
