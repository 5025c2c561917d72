package diagram

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A cut's label lists what its channels recorded as far as the drawing is
// wide, and counts the rest.
func TestListWithinCountsWhatDoesNotFit(t *testing.T) {
	items := []string{"A→B $5", "A→B $13", "A→C $1", "B→A $2"}
	assert.Equal(t, "cut 1 · recorded: A→B $5, A→B $13, A→C $1, B→A $2", listWithin("cut 1 · recorded: ", items, 1000))
	short := listWithin("cut 1 · recorded: ", items, 320)
	assert.Contains(t, short, "A→B $5, ")
	assert.Regexp(t, `… and \d more$`, short)
	assert.LessOrEqual(t, TextWidth(short, true), 320.0)
	assert.Equal(t, "cut 1 · recorded: 4 messages", listWithin("cut 1 · recorded: ", items, 10))
}
