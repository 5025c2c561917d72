package engine

import "spacetime/core/sim"

// What a queue entry stands for.
const (
	queueWake uint8 = iota + 1
	queueTimer
	queueDeliver
)

// Ranks order events due at the same time: the script first, then wake-ups,
// timers, deliveries and the workload.
const (
	rankScript = iota
	rankWake
	rankTimer
	rankDeliver
	rankWorkload
)

// entry is a timed event waiting in the queue: a process waking from a
// pause, a timer, or (for the Earliest scheduler) a message arriving. The
// queue is checked lazily: an entry whose event can no longer happen (a
// cancelled timer, a lost message) is dropped when it reaches the top, and
// one whose process is paused is put back for when it wakes.
type entry struct {
	// at is when the event can happen; due is when it was first due, so that
	// events held back by a pause happen in the order they were due.
	at, due sim.Time
	// seq is a timer's arming sequence or a message's id.
	seq  uint64
	what uint8
	node int32
}

func (e entry) rank() int {
	switch e.what {
	case queueWake:
		return rankWake
	case queueTimer:
		return rankTimer
	}
	return rankDeliver
}

// less orders entries by (time, rank, due time, sequence).
func (e entry) less(f entry) bool {
	if e.at != f.at {
		return e.at < f.at
	}
	if e.rank() != f.rank() {
		return e.rank() < f.rank()
	}
	if e.due != f.due {
		return e.due < f.due
	}
	return e.seq < f.seq
}

// queue is a binary min-heap of entries held by value, so that copying the
// world copies it.
type queue []entry

func (q *queue) push(e entry) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() entry {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l].less(h[m]) {
			m = l
		}
		if r < len(h) && h[r].less(h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

func (q queue) empty() bool { return len(q) == 0 }
