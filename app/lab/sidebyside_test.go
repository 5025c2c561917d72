package lab_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// A comparison opens as a page of its runs stepped together, and the
// side-by-side table gives each run's figures at the step it shows.
func TestComparisonSideBySide(t *testing.T) {
	p, err := lab.OpenComparison("mutex-contention-low")
	require.NoError(t, err)
	require.Len(t, p.Views, 6)
	assert.True(t, p.Together)
	for _, v := range p.Views {
		v.Seek(v.Len())
	}
	table := lab.SideBySide(p)
	assert.Equal(t, []string{"run", "time", "messages", "cs entries", "messages per entry", "in cs", "max in cs", "deadlock", "waiting time", "sync delay", "busiest"}, table.Columns)
	require.Len(t, table.Rows, 6)
	perEntry, busiest := map[string]string{}, map[string]string{}
	for _, r := range table.Rows {
		perEntry[r.Cells[0]] = r.Cells[4]
		busiest[r.Cells[0]] = r.Cells[10]
	}
	// the coordinator sends or receives every message: the bottleneck
	assert.Equal(t, "process 1, share 1", busiest["Central coordinator"])
	for name, cell := range busiest {
		if name != "Central coordinator" {
			assert.NotContains(t, cell, "share 1", name)
		}
	}
	assert.Equal(t, map[string]string{
		"Central coordinator": "2.25", "Lamport's mutual exclusion": "18", "Ricart–Agrawala": "12",
		"Token ring": "3", "Suzuki–Kasami": "7", "Maekawa": "6",
	}, perEntry)
	// at the start nothing has happened
	for _, v := range p.Views {
		v.Seek(0)
	}
	for _, r := range lab.SideBySide(p).Rows {
		assert.Equal(t, "0", r.Cells[2], r.Cells[0])
	}
	// the shared description shows once, in the first pane
	assert.Equal(t, p.Views[0].Caption(), p.Caption(0))
	assert.Contains(t, p.Caption(0), "The six algorithms on seven processes")
	assert.Equal(t, "Maekawa: A process asks only its request set for votes; any two sets share a process, which votes for one request at a time. About 3√N messages per entry, and deadlock-prone.", p.Caption(5))
	p.Views[5].Seek(3)
	assert.Equal(t, p.Views[5].Caption(), p.Caption(5), "past the start, every pane says its step")

	_, err = lab.OpenComparison("nope")
	assert.ErrorContains(t, err, `no built-in comparison "nope"`)
}
