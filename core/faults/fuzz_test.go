package faults

import (
	"reflect"
	"spacetime/internal/fuzzcheck"
	"testing"
)

// FuzzDecodeArgs checks Fault.DecodeArgs, which reads a fault's arguments
// from a link's input log (the text after the fault's letter in in=),
// for the fault of the given letter (any other byte picks a fault by its
// value), in a link of today (processes from 1) or of version 1 (from 0).
//
//   - Nothing panics, whatever the text.
//   - A refusal is in plain words (no Go type or package names, no strconv
//     texts) of at most maxArgsError bytes, however long the text.
//   - Decoded arguments name processes and messages within the decoder's
//     bounds, and Validate judges them for 1 to 64 processes without
//     panicking.
//   - Arguments that Validate accepts round-trip: EncodeArgs writes the
//     fault's letter and text that DecodeArgs (today's format) reads back
//     to the same arguments.
func FuzzDecodeArgs(f *testing.F) {
	for _, flt := range Registry {
		f.Add(flt.Letter, "", false)
	}
	f.Fuzz(func(t *testing.T, letter byte, text string, v1 bool) {
		flt, ok := ByLetter(letter)
		if !ok {
			flt = Registry[int(letter)%len(Registry)]
		}
		first := 1
		if v1 {
			first = 0
		}
		a, err := flt.DecodeArgs(text, first)
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), text, maxArgsError)
			return
		}
		for _, id := range append([]int{int(a.Node), int(a.Target)}, groupIDs(a)...) {
			if id < -1 || id > 1<<20 {
				t.Fatalf("a process %d out of the decoder's bounds from %q", id, text)
			}
		}
		if a.Msg < -1 || a.Msg > 1<<40 {
			t.Fatalf("a message #%d out of the decoder's bounds from %q", a.Msg, text)
		}
		valid := false
		for _, n := range []int{1, 2, 3, 4, 8, 64} {
			if ae := flt.Validate(a, n, flt.Given(a)); ae != nil {
				fuzzcheck.PlainError(t, ae.Error(), text, maxArgsError)
			} else {
				valid = true
			}
		}
		if !valid {
			return
		}
		enc := flt.EncodeArgs(a)
		if enc == "" || enc[0] != flt.Letter {
			t.Fatalf("EncodeArgs(%+v) = %q, not after the letter %c", a, enc, flt.Letter)
		}
		back, err := flt.DecodeArgs(enc[1:], 1)
		if err != nil {
			t.Fatalf("%s: %q, read from %q, is refused: %v", flt.Name, enc, text, err)
		}
		if !reflect.DeepEqual(back, a) {
			t.Fatalf("%s: %q reads back as %+v, not %+v (from %q)", flt.Name, enc, back, a, text)
		}
	})
}

func groupIDs(a Args) []int {
	var out []int
	for _, g := range a.Groups("groups") {
		for _, id := range g {
			out = append(out, int(id))
		}
	}
	return out
}

// maxArgsError bounds a refusal of a fault's arguments: it quotes at most
// 24 characters of the text.
const maxArgsError = 400
