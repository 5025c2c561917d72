package logimport

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A log's clocks are read here, each in one pass and without a JSON
// decoder, which would make garbage of every name and count: with one, a
// log of 100,000 events whose host names are not plain ASCII took 192 MB
// and 0.9 s to import, and takes 57 MB and 0.1 s without.

// quickClock reads a clock, JSON of host names and counts ({"A":1,
// "B":2}), in one pass and without a JSON decoder, into entries, which
// has room for MaxN more: a name written twice keeps its last count, as
// JSON has it, and a count may be quoted, as encoding/json reads a
// json.Number. ok is false for anything else (see clockProblem), and when
// the clocks name more than MaxN hosts.
func quickClock(entries []clockEntry, names *clockNames, s string) ([]clockEntry, bool) {
	s = strings.Trim(s, " \t\n\r")
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return entries, false
	}
	// s[end] is the closing brace, so s[i] may be read for any i <= end
	i, end, start := 1, len(s)-1, len(entries)
	var counted uint64 // the names this clock has counted, by number
	space := func() {
		for i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
	}
	space()
	if i == end {
		return entries, true // {}
	}
	for {
		if s[i] != '"' {
			return entries, false
		}
		j := i + 1
		escaped, wide := false, false
		for ; j < end && s[j] != '"'; j++ {
			switch c := s[j]; {
			case c < ' ':
				return entries, false
			case c == '\\':
				escaped = true
				j++ // what it escapes ends no name
			case c >= utf8.RuneSelf:
				wide = true
			}
		}
		if j >= end {
			return entries, false // no closing quote
		}
		name := s[i+1 : j]
		i = j + 1
		space()
		if s[i] != ':' || i == end {
			return entries, false
		}
		i++
		space()
		var n int32
		var ok bool
		if s[i] == '"' {
			if n, i, ok = quotedCount(s, i, end); !ok {
				return entries, false
			}
		} else {
			var size int
			if n, size, ok = leadingCount(s[i:end]); !ok {
				return entries, false
			}
			i += size
		}
		var id int32
		switch {
		case escaped:
			if names.unquoted, ok = unquoteJSON(names.unquoted[:0], name); !ok {
				return entries, false
			}
			id, ok = names.numberAtBytes(len(entries)-start, names.unquoted)
		case wide && !utf8.ValidString(name):
			return entries, false // encoding/json would make U+FFFD of it
		default:
			id, ok = names.numberAt(len(entries)-start, name)
		}
		if !ok {
			return entries, false // more than MaxN names
		}
		if counted&(1<<id) == 0 {
			counted |= 1 << id
			entries = append(entries, clockEntry{name: id, count: n})
		} else { // named before: the last count stands
			for k := start; ; k++ {
				if entries[k].name == id {
					entries[k].count = n
					break
				}
			}
		}
		space()
		if i == end {
			return entries, true
		}
		if s[i] != ',' {
			return entries, false
		}
		i++
		space()
	}
}

// leadingCount reads the count at the start of s, a JSON integer from 0
// to MaxLogEvents (-0 is 0), and its length.
func leadingCount(s string) (n int32, size int, ok bool) {
	i := 0
	negative := len(s) > 0 && s[0] == '-'
	if negative {
		i++
	}
	digits := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n = n*10 + int32(s[i]-'0'); n > MaxLogEvents {
			return 0, 0, false
		}
		i++
	}
	if i == digits || (s[digits] == '0' && i-digits > 1) || (negative && n != 0) {
		return 0, 0, false
	}
	return n, i, true
}

// quotedCount reads the count quoted at s[i], before end, and the offset
// past it: a JSON string whose text is a count, as encoding/json reads a
// json.Number.
func quotedCount(s string, i, end int) (n int32, next int, ok bool) {
	j, escaped := i+1, false
	for ; j < end && s[j] != '"'; j++ {
		if s[j] == '\\' {
			escaped = true
			j++
		}
	}
	if j >= end || j-i > 64 { // a count is 7 characters at most, each 6 escaped
		return 0, 0, false
	}
	text := s[i+1 : j]
	if escaped {
		var buf [64]byte
		b, ok := unquoteJSON(buf[:0], text)
		if !ok {
			return 0, 0, false
		}
		text = string(b)
	}
	n, size, ok := leadingCount(text)
	return n, j + 1, ok && size == len(text)
}

// unquoteJSON appends to b the text of a JSON string's content (without
// its quotes) as encoding/json decodes it; false when it is not JSON.
func unquoteJSON(b []byte, quoted string) ([]byte, bool) {
	hex4 := func(i int) rune { // the \uXXXX at i, or -1
		if i+6 > len(quoted) || quoted[i] != '\\' || quoted[i+1] != 'u' {
			return -1
		}
		r, err := strconv.ParseUint(quoted[i+2:i+6], 16, 32)
		if err != nil || quoted[i+2] == '+' {
			return -1
		}
		return rune(r)
	}
	for i := 0; i < len(quoted); {
		switch c := quoted[i]; {
		case c == '\\':
			if i+1 == len(quoted) {
				return b, false
			}
			switch e := quoted[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(i)
				if r < 0 {
					return b, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// a pair makes one character; anything else, U+FFFD
					if pair := utf16.DecodeRune(r, hex4(i)); pair != unicode.ReplacementChar {
						r = pair
						i += 6
					} else {
						r = unicode.ReplacementChar
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return b, false
			}
			i += 2
		case c < ' ':
			return b, false
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(quoted[i:])
			if r == utf8.RuneError && size == 1 {
				return b, false // encoding/json would make U+FFFD of it
			}
			b = append(b, quoted[i:i+size]...)
			i += size
		}
	}
	return b, true
}

// clockProblem says why a clock quickClock refused is not one, in words:
// it is not JSON (and then encoding/json says where), not an object, or
// an entry is not a count; "" when it is a clock (and so it names too
// many hosts). It reads only as far as the problem, and keeps nothing.
func clockProblem(clock string) string {
	notJSON := func(why string) string {
		return fmt.Sprintf("the clock %q is not JSON of host names and counts ({\"A\":1, \"B\":2}): %s", clipLine(clock), why)
	}
	if b := []byte(clock); !json.Valid(b) {
		return notJSON(json.Unmarshal(b, new(json.RawMessage)).Error()) // where it is not
	}
	s := strings.Trim(clock, " \t\n\r")
	if s[0] != '{' {
		return notJSON(fmt.Sprintf("it is %s, not an object", clipLine(s)))
	}
	// valid JSON: entries of a quoted name, a colon and a value, which
	// are counts up to the one that is not
	var name []byte
	for i := 1; ; {
		i += len(s[i:]) - len(strings.TrimLeft(s[i:], " \t\n\r,"))
		if s[i] == '}' {
			return ""
		}
		end := quotedEnd(s, i)
		name, _ = unquoteJSON(name[:0], s[i+1:end-1])
		i = end + len(s[end:]) - len(strings.TrimLeft(s[end:], " \t\n\r:"))
		var value string
		var count bool
		switch s[i] {
		case '"':
			value = s[i:quotedEnd(s, i)]
			_, _, count = quotedCount(s, i, len(s))
		case '[':
			value = "an array"
		case '{':
			value = "an object"
		default: // a number, true, false or null
			value = strings.TrimRight(s[i:i+strings.IndexAny(s[i:], ",}")], " \t\n\r")
			_, size, ok := leadingCount(value)
			count = ok && size == len(value)
		}
		if !count {
			return fmt.Sprintf("the clock's entry for %s is %s: want a count from 0 to %d", clipLine(string(name)), clipLine(value), MaxLogEvents)
		}
		i += len(value)
	}
}

// quotedEnd is the offset just past the JSON string that starts at s[i].
func quotedEnd(s string, i int) int {
	for i++; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1
}
