package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quickClockAgrees checks that a clock the quick reader takes is one that
// encoding/json reads to the same counts (the last of a name written
// twice, as JSON has it).
func quickClockAgrees(t *testing.T, s string) bool {
	names := &clockNames{index: map[string]int32{}}
	entries, ok := quickClock(nil, names, s)
	if !ok {
		return false
	}
	var want map[string]int64
	require.NoError(t, json.Unmarshal([]byte(s), &want), "the quick reader took %q", s)
	got := map[string]int64{}
	for _, e := range entries {
		got[names.names[e.name]] = e.count
	}
	assert.Equal(t, want, got, s)
	return true
}

// The quick reader takes plain clocks and leaves everything else to the
// decoder, which reads or refuses it.
func TestQuickClock(t *testing.T) {
	for _, s := range []string{`{}`, ` { } `, `{"A":1}`, `{"A":1, "B":22}`, "{\t\"A\" : 3 ,\n\"B\":0}", `{"A":1,"A":2}`, `{"":4}`, `{"a b":100000}`} {
		assert.True(t, quickClockAgrees(t, s), s)
	}
	for _, s := range []string{``, `{`, `}`, `{"A":1,}`, `{"A":01}`, `{"A":-1}`, `{"A":+1}`, `{"A":1.5}`, `{"A"1}`, `{"A":}`, `{A:1}`, `{"A\"":1}`, `{"A":1 "B":2}`, `{"A":100001}`, `{"A":99999999999999999999}`, "{\u00a0\"A\":1}", `{"A":1}}`, `{"A":"1"}`} {
		assert.False(t, quickClockAgrees(t, s), s)
	}
}

func FuzzQuickClock(f *testing.F) {
	for _, s := range []string{`{"A":1, "B":22}`, `{"A":1,}`, "{\t\"A\" : 3 ,\n\"B\":0}", `{"A\"":1}`, `{"A":01}`} {
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
			got[names.names[e.name]] = e.count
		}
		return got
	}
	assert.Equal(t, map[string]int64{"A": 1, "B": 2}, read(`{"A":1, "B":2}`))
	assert.Equal(t, map[string]int64{"A": 3, "B": 4}, read(`{"B":4, "A":3}`))
	assert.Equal(t, map[string]int64{"C": 1, "A": 5}, read(`{"C":1, "A":5}`))
	assert.Equal(t, map[string]int64{"A": 6, "B": 4, "C": 1}, read(`{"A":6, "B":4, "C":1}`))
	assert.Equal(t, []string{"A", "B", "C"}, names.names)
}
