package raft

// ForgetMatches clears what a leader knows its followers hold, for a
// test that breaks the counts check.
func ForgetMatches(s *Replica) { clear(s.match) }
