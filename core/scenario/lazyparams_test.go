package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A log's params are encoded when first needed, and the processes the
// import made stay the scenario's: saving a log does not make its next
// run decode them.
func TestALogsParamsAreEncodedWhenNeeded(t *testing.T) {
	runs, err := FromLog("A {\"A\":1}\nstart: sends\nB {\"A\":1, \"B\":1}\ngets it\n", "two.log")
	require.NoError(t, err)
	s := runs[0]
	assert.Nil(t, s.Params, "nothing has needed them yet")
	made := s.initial
	var file struct{ Params json.RawMessage }
	require.NoError(t, json.Unmarshal(s.JSON(), &file))
	assert.JSONEq(t, `{"events": [[{"text": "start: sends", "to": ["B"]}], [{"text": "gets it", "from": "A"}]]}`, string(file.Params))
	assert.JSONEq(t, string(file.Params), string(s.Params))
	assert.True(t, s.initial.of(s), "the processes are still the params'")
	assert.Same(t, made.nodes[0], s.initial.nodes[0])
	assert.JSONEq(t, string(s.Params), string(s.Clone().Params))
}
