package ports_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/python"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// The course's own bank program (testdata/seed-bank.py, the seed's script
// with the edits its header lists) runs as a program on the worked
// example's scenario and shows what the seed prints: the snapshot records
// A $126, B $127, C $20, $14 on B→A and $13 on C→B, which is $300, while
// the live balances are A $68, B $131, C $3. It is the lesson's run, draw
// for draw: the same messages between the same branches at the same steps.
func TestSeedBankProgramRunsAsTheSeedPrints(t *testing.T) {
	code, err := os.ReadFile("testdata/seed-bank.py")
	require.NoError(t, err)
	lesson, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s := lesson.Clone()
	s.ID, s.Title, s.Lesson = "seed-bank", "", nil
	s.Algorithm, s.Code, s.CodeFile, s.Params = python.ID, string(code), "", nil

	r := run(t, s)
	require.Nil(t, r.Err(), "the program raises no error")
	assert.Equal(t, "done", r.Stopped(), "the seed's loop ends when the snapshot is complete")
	var names []string
	for _, f := range r.Failures() {
		assert.Equal(t, -1, f.Step, "%s holds: %s", f.Name, f.Detail)
		names = append(names, f.Name)
	}
	assert.Subset(t, names, []string{"snapshot total is 300", "money is conserved"})

	end := r.At(r.Len())
	want := map[string][3]string{ // bal, recorded, chan_state
		"A": {"68", "126", "{2: [14], 3: []}"},
		"B": {"131", "127", "{1: [], 3: [13]}"},
		"C": {"3", "20", "{1: [], 2: []}"},
	}
	for id, name := range []string{"A", "B", "C"} {
		got := map[string]string{}
		for _, f := range end.Fields(sim.NodeID(id)) {
			got[f.Name] = f.Value
		}
		w := want[name]
		assert.Equal(t, w, [3]string{got["bal"], got["recorded"], got["chan_state"]}, "%s: %v", name, got)
	}

	goRun := run(t, lesson)
	gm, pm := goRun.Trace().Msgs, r.Trace().Msgs
	require.Equal(t, len(gm), len(pm), "as many messages as the lesson")
	for i := range gm {
		g, p := gm[i], pm[i]
		assert.Equal(t, [5]any{g.From, g.To, g.SendStep, g.RecvStep, g.DropStep}, [5]any{p.From, p.To, p.SendStep, p.RecvStep, p.DropStep}, "message %d", i)
	}
}
