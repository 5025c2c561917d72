package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/core/trace"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

func TestAFaultWithANewKindOfArgument(t *testing.T) {
	algotest.WithJam(t)
	doc := `{"algorithm": "chandy-lamport", "names": ["A", "B", "C"], "seed": 1, "until": {"steps": 30},
		"script": [{"at": 2, "fault": "jam", "node": "B", "share": 40, "late": true}]}`
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)

	// the scenario file writes it back as it read it, and reads it again
	data, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Contains(t, string(data), `{"at":2,"node":"B","fault":"jam","share":40,"late":true}`)
	again, err := scenario.Parse(data)
	require.NoError(t, err)

	for _, sc := range []*scenario.Scenario{s, again} {
		r, err := scenariotest.Plan(t, sc).Run()
		require.NoError(t, err)
		var rec *trace.Record
		for i := range r.Trace().Records {
			if x := &r.Trace().Records[i]; x.Kind == trace.Fault && x.Tag() == "jam" {
				rec = x
			}
		}
		require.NotNil(t, rec, "the jam happened")
		assert.Equal(t, "B is jammed at 40% (loud false, late true)", rec.Caption, "each flag in its own field")
		a, _, ok := rec.Args()
		require.True(t, ok)

		// a link writes it with its kind's text, and reads it back
		text := algotest.Jam.EncodeArgs(a)
		assert.Equal(t, "w2.40%.0.1", text)
		back, err := algotest.Jam.DecodeArgs(text[1:], 1)
		require.NoError(t, err)
		assert.Equal(t, a, back)
		assert.Equal(t, "40%", algotest.Jam.Mark(back))
	}
}

func TestANewKindsErrorsNameItsField(t *testing.T) {
	algotest.WithJam(t)
	for _, tt := range []struct{ entry, want string }{
		{`{"at": 1, "fault": "jam", "node": "A"}`, `field "script[0].share": jam needs a share from 0 to 100 ("share")`},
		{`{"at": 1, "fault": "jam", "node": "A", "share": 140}`, `field "script[0].share": want a share from 0 to 100, got 140`},
		{`{"at": 1, "fault": "jam", "node": "A", "share": "half"}`, `field "script[0].share": want a share from 0 to 100, got "half"`},
		{`{"at": 1, "fault": "jam", "node": "A", "share": 5, "loud": 1}`, `field "script[0].loud": want true or false, got the number 1`},
		{`{"at": 1, "fault": "crash", "node": "A", "share": 5}`, `field "script[0].share": the fault crash takes no "share" (it takes node)`},
		{`{"at": 1, "fault": "jam", "node": "A", "sahre": 5}`, `field "script[0].sahre": unknown field (known here: `},
	} {
		doc := `{"algorithm": "chandy-lamport", "names": ["A", "B", "C"], "seed": 1, "script": [` + tt.entry + `]}`
		_, err := scenario.Parse([]byte(doc))
		require.Error(t, err, tt.entry)
		assert.Contains(t, err.Error(), tt.want, tt.entry)
	}
	_, err := algotest.Jam.DecodeArgs("1.40", 1)
	assert.EqualError(t, err, `"40" is not a share such as 40%`)
}

// An entry writes its texts as encoding/json would, whatever they hold.
func TestEntryWritesTextsAsJSONDoes(t *testing.T) {
	for _, text := range []string{"snapshot", "a<b&c>", "é", "tab\there", `quote"back\slash`, ""} {
		data, err := json.Marshal(scenario.Entry{At: 3, Command: text, Fault: text})
		require.NoError(t, err)
		want, err := json.Marshal(struct {
			At      int    `json:"at"`
			Command string `json:"command,omitempty"`
			Fault   string `json:"fault,omitempty"`
		}{3, text, text})
		require.NoError(t, err)
		assert.Equal(t, string(want), string(data), "%q", text)
	}
}
