package snapshot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/snapshot"
)

// The marker rule at process 0 of three: the first marker records before
// it closes its channel; a message is recorded only between the recording
// and its channel's marker; the part is complete with the last marker.
func TestMarkerRule(t *testing.T) {
	p := snapshot.NewPart(3)
	assert.False(t, p.Records(1), "nothing is recorded before the process records its state")
	assert.False(t, p.Complete(0))

	recorded := 0
	first, complete := p.Marker(0, 1, func() {
		recorded++
		assert.False(t, p.Closed[1], "the state is recorded before the marker's channel closes")
	})
	assert.True(t, first)
	assert.False(t, complete, "the channel from 2 is still open")
	assert.Equal(t, 1, recorded)
	assert.False(t, p.Records(1), "after its marker, a channel's messages are not in the snapshot")
	assert.True(t, p.Records(2), "a message on a channel whose marker has not come is in flight at the cut")

	first, complete = p.Marker(0, 2, func() { recorded++ })
	assert.False(t, first)
	assert.True(t, complete)
	assert.Equal(t, 1, recorded, "a process records once a round")
	assert.False(t, p.Records(2))
}

// An initiator records without a marker; with one other process, the
// other's marker completes its part.
func TestInitiatorCompletesWithEveryMarker(t *testing.T) {
	p := snapshot.NewPart(2)
	p.Recorded = true
	assert.False(t, p.Complete(1))
	first, complete := p.Marker(1, 0, func() { t.Fatal("an initiator has recorded already") })
	assert.False(t, first)
	assert.True(t, complete)
}

func TestPartCloneIsDeep(t *testing.T) {
	p := snapshot.NewPart(2)
	c := p.Clone()
	c.Closed[0] = true
	assert.Equal(t, []bool{false, false}, p.Closed)
}

func TestRoundFindsAndGrows(t *testing.T) {
	type round struct {
		snapshot.Part
		n int
	}
	var rounds []round
	fresh := func() round { return round{Part: snapshot.NewPart(2)} }
	snapshot.Round(&rounds, 3, fresh).n = 3
	assert.Len(t, rounds, 3, "rounds 1 and 2 are added, not recorded")
	assert.False(t, rounds[0].Recorded)
	assert.Equal(t, 3, snapshot.Round(&rounds, 3, fresh).n)
	snapshot.Round(&rounds, 1, fresh).n = 1
	assert.Len(t, rounds, 3)
	assert.Equal(t, []int{1, 0, 3}, []int{rounds[0].n, rounds[1].n, rounds[2].n})
}
