package logimport

import (
	"encoding/json"
	"spacetime/core/scenario"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quickClockAgrees checks that a clock the quick reader takes is one that
// encoding/json reads to the same counts (the last of a name written
// twice, as JSON has it), in at most scenario.MaxN entries; and that a text it
// refuses is not a clock (JSON of at most scenario.MaxN names and counts from 0 to
// MaxLogEvents) for encoding/json either, as the import reads no clock
// any other way.
func quickClockAgrees(t *testing.T, s string) bool {
	names := &clockNames{index: map[string]int32{}}
	entries, ok := quickClock(nil, names, s)
	if !ok {
		var decoded map[string]json.Number
		if json.Unmarshal([]byte(s), &decoded) != nil || decoded == nil || len(decoded) > scenario.MaxN || !utf8.ValidString(s) {
			return false
		}
		for _, v := range decoded {
			if n, err := strconv.ParseInt(v.String(), 10, 64); err != nil || n < 0 || n > MaxLogEvents {
				return false
			}
		}
		t.Fatalf("the quick reader refuses the clock %q", s)
	}
	var decoded map[string]json.Number // as the import read clocks before
	require.NoError(t, json.Unmarshal([]byte(s), &decoded), "the quick reader took %q", s)
	want := map[string]int64{}
	for name, v := range decoded {
		n, err := strconv.ParseInt(v.String(), 10, 64)
		require.NoError(t, err, "the quick reader took %q", s)
		want[name] = n
	}
	got := map[string]int64{}
	for _, e := range entries {
		got[names.names[e.name]] = int64(e.count)
	}
	assert.Equal(t, want, got, s)
	assert.LessOrEqual(t, len(entries), scenario.MaxN, "an entry a name")
	return true
}

// The quick reader takes every clock, with its names written in any way
// JSON allows, and refuses everything else.
func TestQuickClock(t *testing.T) {
	for _, s := range []string{`{}`, ` { } `, `{"A":1}`, `{"A":1, "B":22}`, "{\t\"A\" : 3 ,\n\"B\":0}", `{"A":1,"A":2}`, `{"":4}`, `{"a b":100000}`,
		`{"A\"":1}`, `{"\u0041":1, "A":2}`, `{"n\u0153ud":1}`, `{"nœud":1}`, `{"\ud83d\ude00":1}`, `{"\ud800":1, "\udc00x":2}`, `{"a\/b\\c\t":1}`, `{"A":-0}`, `{"A":"1"}`, `{"A":"\u0031\u0032"}`, `{"A":"-0"}`,
		"{" + strings.Repeat(`"A":1, "B":2, `, 100) + `"A":3}`} {
		assert.True(t, quickClockAgrees(t, s), s)
	}
	for _, s := range []string{``, `{`, `}`, `{"A":1,}`, `{"A":01}`, `{"A":-1}`, `{"A":-01}`, `{"A":+1}`, `{"A":1.5}`, `{"A"1}`, `{"A":}`, `{A:1}`, `{"A\'":1}`, `{"A\x":1}`, `{"\u00G1":1}`, `{"A":1 "B":2}`, `{"A":100001}`, `{"A":99999999999999999999}`, "{\u00a0\"A\":1}", `{"A":1}}`, `{"A":1} x}`, `{"A":"01"}`, `{"A":"1.0"}`, `{"A":" 1"}`, "{\"\xff\":1}", "{\"a\tb\":1}"} {
		assert.False(t, quickClockAgrees(t, s), s)
	}
}

func FuzzQuickClock(f *testing.F) {
	for _, s := range []string{`{"A":1, "B":22}`, `{"A":1,}`, "{\t\"A\" : 3 ,\n\"B\":0}", `{"A\"":1}`, `{"A":01}`, `{"\ud83d\ude00":1, "\ud800":-0}`, `{"A":1, "A":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { quickClockAgrees(t, s) })
}

// Clocks read one after another name each host by one number, whatever
// the order of their names.
func TestQuickClocksShareNames(t *testing.T) {
	names := &clockNames{index: map[string]int32{}}
	var entries []clockEntry
	read := func(s string) map[string]int64 {
		start := len(entries)
		var ok bool
		entries, ok = quickClock(entries, names, s)
		require.True(t, ok, s)
		got := map[string]int64{}
		for _, e := range entries[start:] {
			got[names.names[e.name]] = int64(e.count)
		}
		return got
	}
	assert.Equal(t, map[string]int64{"A": 1, "B": 2}, read(`{"A":1, "B":2}`))
	assert.Equal(t, map[string]int64{"A": 3, "B": 4}, read(`{"B":4, "A":3}`))
	assert.Equal(t, map[string]int64{"C": 1, "A": 5}, read(`{"C":1, "A":5}`))
	assert.Equal(t, map[string]int64{"A": 6, "B": 4, "C": 1}, read(`{"A":6, "B":4, "C":1}`))
	assert.Equal(t, []string{"A", "B", "C"}, names.names)
}

// A Spacetime export's event whose text is cut short keeps its cut mark,
// within the bound; a text without a mark, or short enough, is as it was.
func TestKeepCutKeepsTheMarkOfALongText(t *testing.T) {
	long := strings.Repeat("B records its balance and the channel; ", 12) + "[cut 2]"
	kept := keepCut(cleanText(long), long)
	assert.True(t, strings.HasSuffix(kept, "… [cut 2]"), kept)
	assert.LessOrEqual(t, utf8.RuneCountInString(kept), maxLogText)
	assert.Equal(t, cleanText(long[:400]), keepCut(cleanText(long[:400]), long[:400]), "no mark: as cleanText left it")
	assert.Equal(t, "short [cut 1]", keepCut(cleanText("short [cut 1]"), "short [cut 1]"))
}
