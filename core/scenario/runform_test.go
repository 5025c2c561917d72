package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
)

// A log is made in its run's form: its file's script and params are
// written when first needed, and the script and processes the import
// made stay the run's until the script is replaced.
func TestALogsFileIsWrittenWhenNeeded(t *testing.T) {
	runs, err := FromLog("A {\"A\":1}\nstart: sends\nB {\"A\":1, \"B\":1}\ngets it\nA {\"A\":2}\nends\n", "two.log")
	require.NoError(t, err)
	s := runs[0]
	assert.Nil(t, s.Params, "nothing has needed them yet")
	assert.Nil(t, s.Script)
	assert.Equal(t, 2, s.scriptLen(), "the delivery and A's second event")
	made := s.initial
	script, ok := s.runScript()
	require.True(t, ok)
	assert.Equal(t, []engine.Timed{{At: 1, Action: engine.Deliver(0)}, {At: 1, Action: engine.Command("next", 0, -1, 0)}}, script)

	var file struct {
		Params json.RawMessage
		Script []map[string]any
	}
	require.NoError(t, json.Unmarshal(s.JSON(), &file))
	assert.JSONEq(t, `{"events": [[{"text": "start: sends", "to": ["B"]}, {"text": "ends"}], [{"text": "gets it", "from": "A"}]]}`, string(file.Params))
	assert.Equal(t, []map[string]any{{"at": 1.0, "msg": 0.0}, {"at": 1.0, "node": "A", "command": "next"}}, file.Script)
	assert.JSONEq(t, string(file.Params), string(s.Params))
	assert.Len(t, s.Script, 2)
	assert.True(t, s.initial.of(s), "the processes are still the params'")
	assert.Same(t, made.nodes[0], s.initial.nodes[0])
	_, ok = s.runScript()
	assert.True(t, ok, "the run's script still stands for the file's")

	s.Script = append([]Entry(nil), s.Script...)
	_, ok = s.runScript()
	assert.False(t, ok, "a replaced script is read anew")
	cfg, err := s.Config()
	require.NoError(t, err)
	assert.Equal(t, script, cfg.Script, "and reads the same")
	assert.JSONEq(t, string(s.Params), string(s.Clone().Params))
}
