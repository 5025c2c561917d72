package raft_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/raft"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The appends and timers checks hold on the election lesson, and name a
// leader that logs the command it is given wrongly, and a server whose
// timers are wrong.
func TestTheRulesChecksNameAServerThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, raft.Spec, v, name) }
	_, r := scenariotest.Run(t, "raft-election")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, raft.Spec, v, k, raft.AppendsName, raft.TimersName)
		s := v.Node(id).(*raft.Server)
		switch {
		case ev.Kind == sim.Command && ev.Tag == raft.CmdSubmit && !broke["appends"]:
			s.Term++
			assert.Contains(t, check(v, raft.AppendsName).Detail, "was given a command, and its log of 1 entries does not end with it")
			s.Term--
			broke["appends"] = true
		case s.Role == raft.Leader && !broke["timers"]:
			s.Role = raft.Follower
			assert.Contains(t, check(v, raft.TimersName).Detail, "with its heartbeat armed: true and its election timeout armed: false")
			s.Role = raft.Leader
			broke["timers"] = true
		}
	})
	assert.Len(t, broke, 2)
}

// The replies check holds on every Raft lesson, and names a follower
// that acknowledges entries its log does not hold, one that votes without
// remembering it, and one that refuses a candidate it could vote for.
func TestTheRepliesCheckNamesAServerThatBreaksTheReceiverRules(t *testing.T) {
	check := func(v sim.View) string { return algotest.Check(t, raft.Spec, v, raft.RepliesName).Detail }
	broke := map[string]bool{}
	for _, lesson := range []string{"raft-election", "raft-split-votes", "raft-partition"} {
		_, r := scenariotest.Run(t, lesson)
		algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
			algotest.Holds(t, raft.Spec, v, k, raft.RepliesName)
			if ev.Kind != sim.Deliver {
				return
			}
			s := v.Node(id).(*raft.Server)
			switch {
			case ev.Msg.Kind == raft.KindAppend && s.Log.Len() > 0 && s.Leader == ev.From && !broke["ack"]:
				kept := s.Log.Clone()
				s.Log.TruncateTo(0)
				assert.Contains(t, check(v), "acknowledged")
				s.Log = kept
				broke["ack"] = true
			case ev.Msg.Kind == raft.KindRequestVote && s.Voted == ev.From && !broke["vote"]:
				s.Voted = sim.None
				assert.Contains(t, check(v), "and has voted for nobody")
				s.Voted = ev.From
				broke["vote"] = true
			case ev.Msg.Kind == raft.KindRequestVote && s.Voted == ev.From && s.Log.Len() > 0 && !broke["behind"]:
				kept := s.Log.Clone()
				s.Log.Append(s.Term+1, raft.Command{})
				assert.Contains(t, check(v), "behind its own")
				s.Log = kept
				broke["behind"] = true
			}
		})
	}
	assert.Len(t, broke, 3)
}

// The counts check holds on the lessons, and names a leader that takes an
// ACK without learning from it.
func TestTheCountsCheckNamesALeaderThatLearnsNothingFromAnAck(t *testing.T) {
	broke := false
	for _, lesson := range []string{"raft-election", "raft-catch-up", "raft-figure8"} {
		_, r := scenariotest.Run(t, lesson)
		algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
			algotest.Holds(t, raft.Spec, v, k, raft.CountsName)
			s := v.Node(id).(*raft.Server)
			if broke || ev.Kind != sim.Deliver || ev.Msg.Kind != raft.KindAck || s.Role != raft.Leader || ev.Msg.Value != s.Term || ev.Msg.Data[0] == 0 {
				return
			}
			kept := *s
			s.Replica = s.CloneReplica()
			raft.ForgetMatches(&s.Replica)
			assert.Contains(t, algotest.Check(t, raft.Spec, v, raft.CountsName).Detail, "and knows it holds up to 0")
			*s = kept
			broke = true
		})
	}
	assert.True(t, broke)
}

// The terms check holds on the lessons, and names a server that hears of
// a later term and stays behind it.
func TestTheTermsCheckNamesAServerThatStaysBehind(t *testing.T) {
	broke := false
	for _, lesson := range []string{"raft-election", "raft-partition", "raft-figure8"} {
		_, r := scenariotest.Run(t, lesson)
		algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
			algotest.Holds(t, raft.Spec, v, k, raft.TermsName)
			s := v.Node(id).(*raft.Server)
			if broke || ev.Kind != sim.Deliver || ev.Msg.Value != s.Term || s.Term == 0 {
				return
			}
			s.Term--
			assert.Contains(t, algotest.Check(t, raft.Spec, v, raft.TermsName).Detail, "and is at term")
			s.Term++
			broke = true
		})
	}
	assert.True(t, broke)
}

// The elected check holds on the lessons, and names a candidate that has
// a majority's votes and does not lead.
func TestTheElectedCheckNamesACandidateThatDoesNotCountItsVotes(t *testing.T) {
	_, r := scenariotest.Run(t, "raft-election")
	broke := false
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, raft.Spec, v, k, raft.ElectedName)
		s := v.Node(id).(*raft.Server)
		if broke || ev.Kind != sim.Deliver || ev.Msg.Kind != raft.KindVote || s.Role != raft.Leader {
			return
		}
		s.Role = raft.Candidate
		assert.Contains(t, algotest.Check(t, raft.Spec, v, raft.ElectedName).Detail, "and leads: false")
		s.Role = raft.Leader
		broke = true
	})
	assert.True(t, broke)
}

// The sends check holds on every Raft lesson and names a server that
// stands without asking for votes as it did, a leader that counts on a
// follower's next entry wrongly after an APPEND, and a server whose
// register is not the last command it applied.
func TestTheSendsCheckNamesAServerThatBreaksIt(t *testing.T) {
	check := func(v sim.View) string { return algotest.Check(t, raft.Spec, v, raft.SendsName).Detail }
	broke := map[string]bool{}
	for _, lesson := range []string{"raft-election", "raft-split-votes", "raft-partition", "raft-catch-up"} {
		_, r := scenariotest.Run(t, lesson)
		algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
			algotest.Holds(t, raft.Spec, v, k, raft.SendsName)
			s := v.Node(id).(*raft.Server)
			switch {
			case s.Role == raft.Candidate && ev.Kind == sim.Timer && ev.Tag == raft.TimerElection && !broke["votes"]:
				s.Log.Append(s.Term, raft.Command{9})
				assert.Contains(t, check(v), "and asked")
				s.Log.TruncateTo(s.Log.Len() - 1)
				broke["votes"] = true
			case s.Role == raft.Leader && ev.Kind == sim.Timer && ev.Tag == raft.TimerHeartbeat && !broke["next"]:
				to := (int(id) + 1) % v.N()
				was := raft.Next(&s.Replica, to)
				raft.SetNext(&s.Replica, to, was+1)
				assert.Contains(t, check(v), "and counts on its next entry being")
				raft.SetNext(&s.Replica, to, was)
				broke["next"] = true
			case s.Applied > 0 && !broke["register"]:
				s.Register++
				assert.Contains(t, check(v), "and holds x =")
				s.Register--
				broke["register"] = true
			}
		})
	}
	assert.Equal(t, map[string]bool{"votes": true, "next": true, "register": true}, broke)
}
