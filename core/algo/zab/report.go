package zab

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/election"
	"spacetime/core/check"
	"spacetime/core/sim"
)

func server(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const finishesName = "a server looking for a leader can still find one"

// finishes is the invariant that an election can go on: a live server
// that looks for a leader waits out its finalize timer, or some
// NOTIFICATION is on its way to a live server (which may answer it, or
// pass a vote on). With neither, nothing will happen to it again: a
// server here sends its vote when it changes and answers what it hears,
// but does not send it again on a timeout, as ZooKeeper's do.
var finishes = sim.Invariant{
	Name: finishesName,
	Help: "while a live server looks for a leader, its finalize wait is armed or a NOTIFICATION is on its way to a live server",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) == sim.Crashed || server(v, id).State != Looking {
				continue
			}
			if _, armed := v.Timer(id, TimerFinalize); armed {
				continue
			}
			// a message on its way can move every server: asked once,
			// and only of a server that waits on nothing of its own
			if check.InFlightToLive(v) {
				return sim.Verdict{OK: true}
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s looks for a leader, but has no finalize wait armed and no NOTIFICATION is on its way: it will look for ever", v.Name(id))}
		}
		return sim.Verdict{OK: true}
	},
}

const latestHistoryName = "a leader has the latest history of the quorum that elected it"

// latestHistory is ZAB's reason to elect by history: a leader must hold
// every transaction the quorum that elected it has, so that nothing a
// quorum accepted is lost when it leads.
var latestHistory = sim.Invariant{
	Name: latestHistoryName,
	Help: "no server that elected the leader has a later history (zxid) than the leader",
	Check: func(v sim.View) sim.Verdict {
		return eachElector(v, func(leader, q sim.NodeID, l, e *Process) string {
			if e.Zxid <= l.Zxid {
				return ""
			}
			return fmt.Sprintf("%s leads with history up to zxid %d, but %s, which elected it, has zxid %d: the transactions after %d would be lost", v.Name(leader), l.Zxid, v.Name(q), e.Zxid, l.Zxid)
		})
	},
}

const highestIDName = "among servers with the same history the highest id leads"

// highestID is the vote's tie-break: of two servers with the same
// history, the higher id wins, so a server that elected the leader never
// has its history and a higher id (it would have voted for itself).
// Every server's order of votes rests on it: a server that broke ties
// the other way would keep its own vote against one that beats it.
var highestID = sim.Invariant{
	Name: highestIDName,
	Help: "no server that elected the leader has the leader's history (zxid) and a higher id",
	Check: func(v sim.View) sim.Verdict {
		return eachElector(v, func(leader, q sim.NodeID, l, e *Process) string {
			if e.Zxid != l.Zxid || q <= leader {
				return ""
			}
			return fmt.Sprintf("%s leads with history up to zxid %d, but %s, which elected it, has the same history and a higher id", v.Name(leader), l.Zxid, v.Name(q))
		})
	},
}

// eachElector judges every live leader against each server that elected
// it (judge says what is wrong, "" if nothing), and fails at the first
// pair judged wrong.
func eachElector(v sim.View, judge func(leader, elector sim.NodeID, l, e *Process) string) sim.Verdict {
	for i := range v.N() {
		id := sim.NodeID(i)
		l := server(v, id)
		if l.State != Leading || v.Health(id) == sim.Crashed {
			continue
		}
		for _, q := range l.ElectedBy {
			if detail := judge(id, q, l, server(v, q)); detail != "" {
				return sim.Verdict{Detail: detail}
			}
		}
	}
	return sim.Verdict{OK: true}
}

const oneLeaderName = "the servers settled in a round agree on its leader"

// oneLeaderPerRound is the invariant that the live servers that have
// settled in the same round lead or follow the same server.
var oneLeaderPerRound = sim.Invariant{
	Name: oneLeaderName,
	Help: "two live servers that settled in one round never name two leaders",
	Check: func(v sim.View) sim.Verdict {
		first := map[int64]sim.NodeID{}
		for i := range v.N() {
			id := sim.NodeID(i)
			p := server(v, id)
			if p.State == Looking || v.Health(id) == sim.Crashed {
				continue
			}
			q, ok := first[p.Round]
			if !ok {
				first[p.Round] = id
				continue
			}
			if l := server(v, q).Leader; l != p.Leader {
				return sim.Verdict{Detail: fmt.Sprintf("in round %d, %s %s and %s %s: two leaders", p.Round, v.Name(q), settled(v, q), v.Name(id), settled(v, id))}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// settled says whom a settled server follows: "leads" or "follows 3".
func settled(v sim.View, id sim.NodeID) string {
	if p := server(v, id); p.State != Leading {
		return "follows " + v.Name(p.Leader)
	}
	return "leads"
}

func metrics(v sim.View) []sim.Metric {
	sent, round := 0, int64(0)
	for i := range v.N() {
		p := server(v, sim.NodeID(i))
		sent += p.Sent
		round = max(round, p.Round)
	}
	return append(election.Metrics(v), sim.Metric{Name: "notifications", Value: sent}, sim.Metric{Name: "round", Value: round})
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Votes", Note: "a server votes for the latest history (zxid), then the highest id, and settles once a quorum votes alike", Columns: []string{"server", "health", "follows", "state", "round", "zxid", "vote", "backed by"}}
	for i := range v.N() {
		id := sim.NodeID(i)
		p := server(v, id)
		vote, backed := "", ""
		if p.Vote.Leader != sim.None {
			vote = v.Name(p.Vote.Leader) + " (zxid " + strconv.FormatInt(p.Vote.Zxid, 10) + ")"
			var who []string
			for _, q := range p.backing(p.Vote) {
				who = append(who, v.Name(q))
			}
			backed = strings.Join(who, ", ")
		}
		panel.Rows = append(panel.Rows, election.Row(v, id, p.State, strconv.FormatInt(p.Round, 10), strconv.FormatInt(p.Zxid, 10), vote, backed))
	}
	return []sim.Panel{panel}
}

// formula says what the NOTIFICATIONs count.
func formula(v sim.View) string {
	sent := 0
	for i := range v.N() {
		sent += server(v, sim.NodeID(i)).Sent
	}
	n := v.N()
	return fmt.Sprintf("NOTIFICATIONs: %d. A looking server sends its vote to the N−1 = %d others when it starts a round and each time it takes a better vote, and answers a server behind it; it settles when a quorum, %d of %d, votes alike.", sent, n-1, quorum(n), n)
}
