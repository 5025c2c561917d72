package network

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

func TestChannelsKeepSendOrder(t *testing.T) {
	nt := New(3)
	require.True(t, nt.Empty())
	for _, id := range []int{4, 7, 9} {
		nt.Add(0, 1, id)
	}
	nt.Add(2, 1, 5)
	nt.Add(1, 0, 6)
	assert.False(t, nt.Empty())
	assert.Equal(t, []int{4, 7, 9}, nt.Channel(0, 1))
	assert.Empty(t, nt.Channel(1, 2))

	tests := []struct {
		from, to sim.NodeID
		id, want int
	}{
		{0, 1, 4, 0}, {0, 1, 7, 1}, {0, 1, 9, 2}, {2, 1, 5, 0}, {1, 0, 6, 0},
		{0, 1, 5, -1}, {1, 0, 4, -1}, {2, 2, 1, -1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, nt.Position(tt.from, tt.to, tt.id), "#%d on %d→%d", tt.id, tt.from, tt.to)
	}
}

func TestRemoveFromTheMiddle(t *testing.T) {
	nt := New(2)
	for id := range 4 {
		nt.Add(0, 1, id)
	}
	assert.False(t, nt.Remove(1, 0, 2), "not on that channel")
	assert.True(t, nt.Remove(0, 1, 2))
	assert.False(t, nt.Remove(0, 1, 2), "already gone")
	assert.Equal(t, []int{0, 1, 3}, nt.Channel(0, 1))
	assert.True(t, nt.Remove(0, 1, 0))
	assert.Equal(t, []int{1, 3}, nt.Channel(0, 1), "the next one is the head")
	assert.True(t, nt.Remove(0, 1, 3))
	assert.True(t, nt.Remove(0, 1, 1))
	assert.True(t, nt.Empty())
}

func TestBusyVisitsChannelsInAFixedOrder(t *testing.T) {
	nt := New(3)
	nt.Add(2, 0, 1)
	nt.Add(0, 2, 2)
	nt.Add(1, 0, 3)
	nt.Add(0, 1, 4)
	nt.Add(0, 1, 5)
	var got [][3]int
	nt.Busy(func(from, to sim.NodeID, ids []int) {
		got = append(got, [3]int{int(from), int(to), len(ids)})
	})
	assert.Equal(t, [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 1}, {2, 0, 1}}, got)
}

func TestCloneIsIndependent(t *testing.T) {
	nt := New(2)
	nt.Add(0, 1, 1)
	nt.Add(0, 1, 2)
	c := nt.Clone()
	c.Add(0, 1, 3)
	require.True(t, c.Remove(0, 1, 1))
	nt.Add(1, 0, 9)
	assert.Equal(t, []int{1, 2}, nt.Channel(0, 1))
	assert.Equal(t, []int{2, 3}, c.Channel(0, 1))
	assert.Empty(t, c.Channel(1, 0))
}

// Nets copied at random points of random sends and deliveries each keep
// what a plain model of their channels keeps: storage one net reuses for
// a channel that gets busy again is never what another net reads.
func TestCopiesAndReusedStorageKeepTheirMessages(t *testing.T) {
	const n = 3
	type model map[[2]int][]int
	r := rand.New(rand.NewPCG(1, 2))
	for run := range 200 {
		nets, models := []*Net{New(n)}, []model{{}}
		next := 1
		for range 300 {
			k := r.IntN(len(nets))
			nt, m := nets[k], models[k]
			switch op := r.IntN(10); {
			case op < 4:
				from, to := r.IntN(n), r.IntN(n)
				nt.Add(sim.NodeID(from), sim.NodeID(to), next)
				m[[2]int{from, to}] = append(m[[2]int{from, to}], next)
				next++
			case op < 9:
				for ch, ids := range m {
					if len(ids) == 0 {
						continue
					}
					i := 0
					if r.IntN(3) == 0 {
						i = r.IntN(len(ids))
					}
					require.True(t, nt.Remove(sim.NodeID(ch[0]), sim.NodeID(ch[1]), ids[i]))
					m[ch] = append(append([]int(nil), ids[:i]...), ids[i+1:]...)
					break
				}
			default:
				c := model{}
				for ch, ids := range m {
					c[ch] = slices.Clone(ids)
				}
				nets, models = append(nets, nt.Clone()), append(models, c)
			}
		}
		for k, nt := range nets {
			for from := range n {
				for to := range n {
					want := models[k][[2]int{from, to}]
					got := nt.Channel(sim.NodeID(from), sim.NodeID(to))
					if len(want) == 0 {
						assert.Empty(t, got, "run %d, net %d, %d→%d", run, k, from, to)
					} else {
						assert.Equal(t, want, got, "run %d, net %d, %d→%d", run, k, from, to)
					}
				}
			}
		}
	}
}
