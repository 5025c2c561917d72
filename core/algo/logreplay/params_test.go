package logreplay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The params' own encoder writes what encoding/json writes, byte for
// byte: a log's scenario file and link are the same either way.
func TestParamsEncodeAsEncodingJSONDoes(t *testing.T) {
	cases := []Params{
		{},
		{Events: [][]Event{}},
		{Events: [][]Event{nil, {}}},
		{Events: [][]Event{{{Text: "Initialization Complete"}, {Text: "put x=1", To: []string{"server"}}}, {{From: "client1"}, {Text: "ok", From: "a", To: []string{"b", "c"}}}}},
		{Events: [][]Event{{{Text: `quote " back \ slash`}, {Text: "<tag> & more"}, {Text: "tab\there\nnewline"}, {Text: "naïve → ✓"}, {Text: "bad \xff utf-8"}, {Text: "sep \u2028 line"}}}},
	}
	for _, p := range cases {
		want, err := json.Marshal(p)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(p.AppendJSON(nil)))
	}
}

func FuzzParamsEncode(f *testing.F) {
	f.Add("Initialization Complete", "client1", "server,client2")
	f.Add(`a "quoted" <b>`, "", "")
	f.Add("\x00\xff\u2029", "é", "x,,y")
	f.Fuzz(func(t *testing.T, text, from, to string) {
		ev := Event{Text: text, From: from}
		if to != "" {
			ev.To = strings.Split(to, ",")
		}
		p := Params{Events: [][]Event{{ev, {Text: to}}, nil}}
		want, err := json.Marshal(p)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(p.AppendJSON([]byte("prefix"))[len("prefix"):]))
		assert.Equal(t, len(want), p.JSONLen(), "the length, without writing")
		assert.Equal(t, len(`{"events":null}`), Params{}.JSONLen())
		one := Params{Events: [][]Event{{ev}}}
		assert.Equal(t, len(one.AppendJSON(nil)), one.JSONLen())
	})
}
