package raft

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

// A log behaves as a plain slice of entries through appends, truncations
// and copies across chunk boundaries, and a copy never sees what the
// original does after it (their full chunks are shared).
func TestLogIsASliceWhoseCopiesAreIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type copyOf struct {
		log  Log
		want []Entry
	}
	var log Log
	var want []Entry
	var copies []copyOf
	var mirror Log
	var mirrored []Entry
	for step := range 5000 {
		switch r := rng.IntN(10); {
		case r < 6:
			term := int64(1 + len(want)/50)
			log.Append(term, Command{int64(step)})
			want = append(want, Entry{Term: term, Cmd: Command{int64(step)}})
		case r < 8 && len(want) > 0:
			n := rng.IntN(len(want) + 1)
			if rng.IntN(4) > 0 {
				n = max(0, len(want)-rng.IntN(3*chunkLen))
			}
			log.TruncateTo(n)
			want = want[:n]
		case r < 9:
			copies = append(copies, copyOf{log: log.Clone(), want: append([]Entry(nil), want...)})
		default:
			// a copy kept up to date in its own storage, as the checks keep
			mirror.CopyFrom(&log)
			mirrored = append(mirrored[:0], want...)
		}
		require.Equal(t, len(want), log.Len())
	}
	check := func(l *Log, want []Entry) {
		require.Equal(t, len(want), l.Len())
		for i, e := range want {
			got := l.At(i + 1)
			require.Equal(t, e.Term, got.Term, "entry %d", i+1)
			require.Equal(t, e.Cmd, got.Cmd, "entry %d", i+1)
		}
	}
	check(&log, want)
	for _, c := range copies {
		check(&c.log, c.want)
	}
	check(&mirror, mirrored)
	// a copy that appends after the original does not change the original
	c := log.Clone()
	c.TruncateTo(c.Len() / 2)
	for range 3 * chunkLen {
		c.Append(99, Command{99})
	}
	check(&log, want)
}

// Diverges finds the first index where two logs differ, by their prefix
// hashes.
func TestLogDiverges(t *testing.T) {
	var a, b Log
	for i := range 200 {
		a.Append(int64(1+i/70), Command{int64(i)})
		b.Append(int64(1+i/70), Command{int64(i)})
	}
	assert.Equal(t, 0, a.Diverges(&b))
	b.Append(3, Command{7})
	assert.Equal(t, 201, a.Diverges(&b))
	b.TruncateTo(130)
	b.Append(4, Command{1})
	assert.Equal(t, 131, a.Diverges(&b))
	b.TruncateTo(10)
	b.Append(5, Command{5})
	assert.Equal(t, 11, b.Diverges(&a))
}

// server is a server with the given term, role and log, for the checks.
func server(n int, term int64, role Role, terms ...int64) *Server {
	s := &Server{Replica: NewReplica(&Config{}, nil, n)}
	s.Term, s.Role = term, role
	for _, t := range terms {
		s.Log.Append(t, Command{t})
	}
	return s
}

func broken(tl *Tally) []int {
	var out []int
	for g, b := range tl.broken {
		if b != nil {
			out = append(out, g)
		}
	}
	return out
}

// Each guarantee's check fails on the history that breaks it, and on no
// other.
func TestChecksCatchEachBreach(t *testing.T) {
	t.Run("two leaders of one term", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		tl.Stepped(0, server(3, 2, Leader, 1))
		tl.Stepped(1, server(3, 2, Leader, 1))
		assert.Equal(t, []int{guaranteeElection}, broken(tl))
	})
	t.Run("a leader that drops an entry", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		tl.Stepped(0, server(3, 2, Leader, 1, 2))
		tl.Stepped(0, server(3, 2, Leader, 1, 3))
		assert.Contains(t, broken(tl), guaranteeAppendOnly)
	})
	t.Run("logs that share an entry but not what is before it", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		tl.Stepped(0, server(3, 3, Follower, 1, 2, 3))
		tl.Stepped(1, server(3, 3, Follower, 1, 1, 3))
		assert.Equal(t, []int{guaranteeMatching}, broken(tl))
	})
	t.Run("a leader without a committed entry", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		s := server(3, 4, Leader, 1, 2)
		s.Commit = 2
		tl.Stepped(0, s)
		tl.Stepped(2, server(3, 5, Leader, 1, 3))
		assert.Equal(t, []int{guaranteeCompleteness}, broken(tl))
	})
	t.Run("a leader without an entry committed in an earlier term, past a later term's commit", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		a := server(3, 2, Leader, 1, 2, 2)
		a.Commit = 3
		tl.Stepped(0, a)
		b := server(3, 3, Follower, 1, 2)
		b.Commit = 2 // a follower of term 3 that learned only part of it
		tl.Stepped(1, b)
		tl.Stepped(2, server(3, 4, Leader, 1, 2))
		assert.Equal(t, []int{guaranteeCompleteness}, broken(tl))
	})
	t.Run("two commands applied at one index", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		a, b := server(3, 4, Follower, 1, 2), server(3, 5, Follower, 1, 3)
		a.Commit, a.Applied, b.Commit, b.Applied = 2, 2, 2, 2
		tl.Stepped(0, a)
		tl.Stepped(1, b)
		assert.Contains(t, broken(tl), guaranteeStateMachine)
	})
	t.Run("a history that keeps every guarantee", func(t *testing.T) {
		tl := newTally(3).(*Tally)
		l := server(3, 2, Leader, 1, 2)
		l.Commit, l.Applied = 2, 2
		tl.Stepped(0, l)
		f := server(3, 2, Follower, 1, 2)
		f.Commit, f.Applied = 1, 1
		tl.Stepped(1, f)
		tl.Stepped(2, server(3, 3, Leader, 1, 2, 3))
		assert.Empty(t, broken(tl))
	})
}

// Bad params are refused with the field, what was wanted and what came.
func TestParamsAreChecked(t *testing.T) {
	names := sim.NumberNames(3)
	for _, c := range []struct{ params, want string }{
		{`{"election": [5]}`, `params.election`},
		{`{"election": [30, 10]}`, `want the least first, got [30, 10]`},
		{`{"election": [0, 10]}`, `want ticks from 1 to 1000000, got [0, 10]`},
		{`{"heartbeat": 0}`, `params.heartbeat`},
		{`{"batch": 1000}`, `params.batch`},
		{`{"logs": [[1], [1]]}`, `want a log for each of the 3 servers, got 2`},
		{`{"logs": [[2, 1], [], []]}`, `params.logs[0][1]`},
		{`{"logs": [[1, 2], [], []], "terms": [1, 0, 0]}`, `params.terms[0]`},
		{`{"leader": 1}`, `leader`},
	} {
		_, err := newServers(names, json.RawMessage(c.params))
		require.Error(t, err, c.params)
		assert.Contains(t, err.Error(), c.want, c.params)
	}
	nodes, err := newServers(names, json.RawMessage(`{"logs": [[1, 2], [1], []], "terms": [3, 1, 0]}`))
	require.NoError(t, err)
	s := nodes[0].(*Server)
	assert.Equal(t, int64(3), s.Term)
	assert.Equal(t, 2, s.Log.Len())
	assert.Equal(t, int64(2), s.Log.LastTerm())
}
