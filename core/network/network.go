// Package network models the channels between processes: which messages are
// in flight on each directed channel, in send order, and which of them the
// network may deliver next (only the head on a FIFO channel, any of them
// otherwise).
package network

import (
	"sort"

	"spacetime/core/sim"
)

// Config is a network's behaviour, as the scenario gives it.
type Config struct {
	// FIFO channels deliver in send order.
	FIFO bool
	// DelayMin and DelayMax bound a message's transit time in ticks.
	DelayMin, DelayMax sim.Time
	// Loss is the probability that the network loses a message.
	Loss float64
}

// Net holds the messages in flight on every directed channel.
//
// Message ids rise in the order messages join the network, and a message
// only ever joins at a channel's tail, so every channel is sorted by id:
// finding a message is a binary search. Copies share their channels'
// storage: a copy costs what is busy, not what is in flight, so that the
// engine's rewind keyframes grow with the run and never with its square
// (a process that is down can have a million messages waiting for it).
type Net struct {
	n int
	// busy holds the non-empty channels, by index from*n+to ascending, so
	// that finding them costs what is in flight, not n².
	busy []channel
	// slot is where each channel is in busy, plus one (0: not busy), so
	// that finding one costs a lookup; nil until a message is sent.
	slot []int32
	// copies counts the copies made of this net; a channel copied at a
	// smaller count than its own is shared with another net.
	copies uint64
	// spare is the storage of channels that emptied while this net owned
	// it, for the next channels to get busy: a channel empties and fills
	// again at most sends of a quiet run, and made new storage each time.
	spare [][]int
}

// channel is one busy channel's messages, in send order.
type channel struct {
	index int
	ids   []int
	// owned is the copy count at which ids was last made this net's own:
	// until the net is copied again, nothing else sees that storage, and a
	// message may be taken out of its middle in place.
	owned uint64
}

// New returns an empty network of n processes.
func New(n int) *Net { return &Net{n: n, copies: 1} }

// Clone returns an independent copy. The copies share the messages'
// storage: each may append to its own channels, and takes its own copy
// before it changes what the other could see.
func (nt *Net) Clone() *Net {
	nt.copies++
	c := &Net{n: nt.n, busy: make([]channel, len(nt.busy)), slot: append([]int32(nil), nt.slot...), copies: 1}
	for i, ch := range nt.busy {
		// the copy's capacity ends at its length: its appends never write
		// where this net's may
		c.busy[i] = channel{index: ch.index, ids: ch.ids[:len(ch.ids):len(ch.ids)]}
	}
	return c
}

// CloneCost is how many words a Clone copies.
func (nt *Net) CloneCost() int { return 4*len(nt.busy) + len(nt.slot)/2 }

// find returns where channel index i is in busy, if it is busy.
func (nt *Net) find(i int) (int, bool) {
	if nt.slot != nil && nt.slot[i] > 0 {
		return int(nt.slot[i]) - 1, true
	}
	return 0, false
}

// renumber sets the slots of the busy channels from position j on.
func (nt *Net) renumber(j int) {
	for k := j; k < len(nt.busy); k++ {
		nt.slot[nt.busy[k].index] = int32(k + 1)
	}
}

// Add puts message id at the tail of channel from→to. Ids must rise: id is
// larger than every id in flight.
func (nt *Net) Add(from, to sim.NodeID, id int) {
	i := int(from)*nt.n + int(to)
	j, ok := nt.find(i)
	if !ok {
		j = sort.Search(len(nt.busy), func(k int) bool { return nt.busy[k].index >= i })
		if nt.slot == nil {
			nt.slot = make([]int32, nt.n*nt.n)
		}
		nt.busy = append(nt.busy, channel{})
		copy(nt.busy[j+1:], nt.busy[j:])
		nt.busy[j] = channel{index: i, ids: nt.storage(), owned: nt.copies}
		nt.renumber(j)
	}
	ch := &nt.busy[j]
	if len(ch.ids) == cap(ch.ids) {
		// append moves the channel to new storage of its own
		ch.owned = nt.copies
	}
	ch.ids = append(ch.ids, id)
}

// Remove takes message id off channel from→to; it reports whether it was there.
func (nt *Net) Remove(from, to sim.NodeID, id int) bool {
	j, ok := nt.find(int(from)*nt.n + int(to))
	if !ok {
		return false
	}
	ch := &nt.busy[j]
	k, found := position(ch.ids, id)
	if !found {
		return false
	}
	switch {
	case len(ch.ids) == 1:
		// kept if nothing else reads it and it is at least as roomy as new
		// storage (a channel whose head left moved its start forward)
		if ch.owned == nt.copies && cap(ch.ids) >= channelRoom && len(nt.spare) < maxSpare {
			nt.spare = append(nt.spare, ch.ids[:0])
		}
		nt.slot[ch.index] = 0
		nt.busy = append(nt.busy[:j], nt.busy[j+1:]...)
		nt.renumber(j)
	case k == 0: // the usual case: the head leaves, and nothing is written
		ch.ids = ch.ids[1:]
	case ch.owned == nt.copies: // nobody else sees this storage
		ch.ids = append(ch.ids[:k], ch.ids[k+1:]...)
	default: // shared with a copy: take a copy of our own first
		ids := make([]int, 0, len(ch.ids)-1+4)
		ids = append(append(ids, ch.ids[:k]...), ch.ids[k+1:]...)
		ch.ids, ch.owned = ids, nt.copies
	}
	return true
}

// maxSpare bounds the storage a net keeps for channels to come, and
// channelRoom is how many ids a channel's new storage has room for.
const maxSpare, channelRoom = 16, 4

// storage is empty storage for a channel getting busy: spare, or new.
func (nt *Net) storage() []int {
	if k := len(nt.spare); k > 0 {
		ids := nt.spare[k-1]
		nt.spare = nt.spare[:k-1]
		return ids
	}
	return make([]int, 0, channelRoom)
}

// position finds id in a channel's ids, which rise.
func position(ids []int, id int) (int, bool) {
	k := sort.SearchInts(ids, id)
	return k, k < len(ids) && ids[k] == id
}

// Channel returns the ids in flight on from→to, oldest first. Do not modify it.
func (nt *Net) Channel(from, to sim.NodeID) []int {
	if j, ok := nt.find(int(from)*nt.n + int(to)); ok {
		return nt.busy[j].ids
	}
	return nil
}

// Position returns where message id stands on channel from→to (0 is the
// head), or -1 if it is not in flight there.
func (nt *Net) Position(from, to sim.NodeID, id int) int {
	if k, ok := position(nt.Channel(from, to), id); ok {
		return k
	}
	return -1
}

// Busy calls f for every non-empty channel in a fixed order: by sender, then
// by receiver.
func (nt *Net) Busy(f func(from, to sim.NodeID, ids []int)) {
	for _, ch := range nt.busy {
		f(sim.NodeID(ch.index/nt.n), sim.NodeID(ch.index%nt.n), ch.ids)
	}
}

// Empty reports whether nothing is in flight.
func (nt *Net) Empty() bool { return len(nt.busy) == 0 }
