package raft

// ForgetMatches clears what a leader knows its followers hold, for a
// test that breaks the counts check.
func ForgetMatches(s *Replica) { clear(s.match) }

// SetNext sets the index of the next entry a leader would send a
// follower, for a test that breaks the sends check.
func SetNext(s *Replica, to, next int) { s.next[to] = next }

// Next is the index of the next entry a leader would send a follower.
func Next(s *Replica, to int) int { return s.next[to] }
