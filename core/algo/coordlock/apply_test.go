package coordlock

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/raft"
	"spacetime/core/sim"
)

// Every replica applies a committed CREATE to the lock's state alike, and
// says what it did; only the leader answers the client and times its new
// session, and a follower's step makes no effect at all.
func TestFollowerAppliesWithoutAnswering(t *testing.T) {
	names := replicatedNames(5)
	client := sim.NodeID(4)
	for _, role := range []raft.Role{raft.Follower, raft.Leader} {
		nodes, err := newReplicated(names, nil)
		require.NoError(t, err)
		p := nodes[0].(*Process)
		p.Raft.Role = role
		p.Raft.Log.Append(1, raft.Command{opCreate, int64(client), 1, 0, 7})
		var env sim.Env
		env.Reset(sim.Context{Self: 0, Now: 10, Names: names})

		said := p.Apply(&env, 1, 1)

		require.Len(t, p.Service.Entries, 1, "%v: the entry is in its state", role)
		assert.Equal(t, client, p.Service.Entries[0].Client)
		assert.Contains(t, said, "entry 1: lock1 opens session 1 for client1 and creates entry 1", "%v says what the entry did", role)
		effects := env.Effects()
		assert.Empty(t, effects.Caption, "%v: the words are Apply's to return, not the step's caption", role)
		if role == raft.Follower {
			assert.Empty(t, effects.Sends, "a follower answers nobody")
			assert.Empty(t, effects.Timers, "a follower times no session")
			continue
		}
		require.Len(t, effects.Sends, 1)
		assert.Equal(t, client, effects.Sends[0].To)
		assert.Equal(t, KindCreated, effects.Sends[0].Msg.Kind)
		assert.Equal(t, []sim.TimerRequest{{Tag: timerExpire + "1", After: p.Config.Session}}, effects.Timers)
	}
}
