package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
)

// A log's plan is made in its run's own form: its document's script and
// params are written when first asked for, into a document of their own,
// and the head the page reads meanwhile never changes.
func TestALogsDocumentIsWrittenWhenAskedFor(t *testing.T) {
	plans, err := FromLog("A {\"A\":1}\nstart: sends\nB {\"A\":1, \"B\":1}\ngets it\nA {\"A\":2}\nends\n", "two.log")
	require.NoError(t, err)
	p := plans[0]
	head := p.Head()
	assert.Nil(t, head.Params, "nothing has asked for them yet")
	assert.Nil(t, head.Script)
	assert.Equal(t, []string{"A", "B"}, head.Names)
	script := []engine.Timed{{At: 1, Action: engine.Deliver(0)}, {At: 1, Action: engine.Command("next", 0, -1, 0)}}
	assert.Equal(t, script, p.Config().Script)
	assert.Less(t, p.LeastFileSize(1<<20), len(p.Scenario().JSON()), "a least size, found before writing")

	doc := p.Scenario()
	var file struct {
		Params json.RawMessage
		Script []map[string]any
	}
	require.NoError(t, json.Unmarshal(doc.JSON(), &file))
	assert.JSONEq(t, `{"events": [[{"text": "start: sends", "to": ["B"]}, {"text": "ends"}], [{"text": "gets it", "from": "A"}]]}`, string(file.Params))
	assert.Equal(t, []map[string]any{{"at": 1.0, "msg": 0.0}, {"at": 1.0, "node": "A", "command": "next"}}, file.Script)
	assert.Same(t, doc, p.Scenario(), "written once")
	assert.Nil(t, head.Script, "the head stays as it was")
	assert.Equal(t, head.Title, doc.Title)

	again, err := doc.Clone().Compile()
	require.NoError(t, err)
	assert.Equal(t, script, again.Config().Script, "the document compiles to the same run")
}

// A plan's runs each start from processes of their own.
func TestAPlansRunsDoNotShareProcesses(t *testing.T) {
	s, err := Builtin(Default)
	require.NoError(t, err)
	p, err := s.Compile()
	require.NoError(t, err)
	first, second := p.Config(), p.Config()
	require.NotEmpty(t, first.Nodes)
	assert.NotSame(t, first.Nodes[0], second.Nodes[0])
	r1, err := p.Run()
	require.NoError(t, err)
	r2, err := p.Run()
	require.NoError(t, err)
	assert.Equal(t, r1.Len(), r2.Len())
}
