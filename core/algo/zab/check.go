package zab

import (
	"fmt"
	"slices"

	"spacetime/core/algo/election"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The checks of a server's own rules. Each restates what it needs of the
// rules (which vote is better, what a quorum is) rather than call the
// code it judges. Only a server's own step changes its state, so after a
// step only the server that took it is read again (stepped).

// stepped judges the server that took the last step (check.Stepped).
func stepped(v sim.View, judge func(id sim.NodeID, p *Process) string) sim.Verdict {
	return check.Stepped(v, func(id sim.NodeID) string { return judge(id, server(v, id)) })
}

// better is the order of votes: the later history, then the higher id.
func better(v, w Vote) bool {
	return v.Zxid > w.Zxid || v.Zxid == w.Zxid && v.Leader > w.Leader
}

// majority is the size of a quorum of n servers.
func majority(n int) int { return n/2 + 1 }

// backers counts the servers whose last vote heard in the server's round
// is its own vote.
func backers(p *Process) int {
	count := 0
	for q, known := range p.Known {
		if known && p.Heard[q].Round == p.Round && p.Heard[q].Vote == p.Vote {
			count++
		}
	}
	return count
}

// String is a vote as the checks name it: "3 (zxid 8)".
func (v Vote) String() string { return fmt.Sprintf("%d (zxid %d)", v.Leader.Number(), v.Zxid) }

// VotesName names the votes invariant.
const VotesName = "a looking server votes for the best vote it heard in its round"

// votes is the election's rule for a vote: a looking server votes for
// itself, or for a better vote it heard, and takes every better one it
// hears in its round; it joins any later round it hears of. Its own vote
// counts in its round's tally. A server that kept a worse vote, or
// took one that is not better, settles on a leader the others do not.
var votes = sim.Invariant{
	Name: VotesName,
	Help: "a looking server's vote is at least its own history, no vote it heard from a looking server in its round beats it, it has heard of no later round, and its own vote and every vote of its round it hears count in its round",
	Check: func(v sim.View) sim.Verdict {
		return stepped(v, func(id sim.NodeID, p *Process) string {
			if p.State != Looking {
				return ""
			}
			me := v.Name(id)
			if own := (Vote{Leader: id, Zxid: p.Zxid}); better(own, p.Vote) {
				return fmt.Sprintf("%s votes for %s, worse than its own history, %s", me, p.Vote, own)
			}
			if !p.Known[id] || p.Heard[id] != (heard{Round: p.Round, Vote: p.Vote, State: Looking}) {
				return fmt.Sprintf("%s votes for %s in round %d, but does not count its own vote so in its round", me, p.Vote, p.Round)
			}
			if _, ev, _ := v.LastStep(); ev.Kind == sim.Deliver && ev.Msg.Kind == KindNotification && len(ev.Msg.Data) == 3 && ev.Msg.Data[2] == 0 && ev.Msg.Value == p.Round {
				if h := p.Heard[ev.From]; !p.Known[ev.From] || h.Round != ev.Msg.Value || h.Vote != (Vote{Leader: sim.NodeID(ev.Msg.Data[0]), Zxid: ev.Msg.Data[1]}) {
					return fmt.Sprintf("%s heard %s's vote of its round %d, and did not count it", me, v.Name(ev.From), p.Round)
				}
			}
			for q, known := range p.Known {
				h := p.Heard[q]
				if !known || h.State != Looking {
					continue
				}
				if h.Round > p.Round {
					return fmt.Sprintf("%s heard %s's vote in round %d, but stays in round %d", me, v.Name(sim.NodeID(q)), h.Round, p.Round)
				}
				if h.Round == p.Round && better(h.Vote, p.Vote) {
					return fmt.Sprintf("%s heard %s's vote for %s in round %d, better than its own vote for %s, and did not take it", me, v.Name(sim.NodeID(q)), h.Vote, p.Round, p.Vote)
				}
			}
			return ""
		})
	},
}

// WaitsName names the waits invariant.
const WaitsName = "a server waits to settle exactly while it looks and a quorum backs its vote"

// waits is the finalize wait's rule: a looking server whose vote a
// quorum backs waits for a better one, and one that no longer looks, or
// whose quorum is gone, does not; the server knows whether it waits. A
// server that waits with no quorum settles on a minority; one that has a
// quorum and does not wait never settles.
var waits = sim.Invariant{
	Name: WaitsName,
	Help: "a live server's finalize wait is armed exactly while it looks and a quorum votes as it does in its round, and it knows whether it is armed",
	Check: func(v sim.View) sim.Verdict {
		return stepped(v, func(id sim.NodeID, p *Process) string {
			me := v.Name(id)
			_, armed := v.Timer(id, TimerFinalize)
			if armed != p.Finalizing {
				if armed {
					return fmt.Sprintf("%s's finalize wait is armed, but it believes it does not wait", me)
				}
				return fmt.Sprintf("%s believes it waits to settle, but its finalize wait is not armed", me)
			}
			quorum := p.State == Looking && backers(p) >= majority(v.N())
			switch {
			case armed && p.State != Looking:
				return fmt.Sprintf("%s is %s, but still waits to settle", me, p.State)
			case armed && !quorum:
				return fmt.Sprintf("%s waits to settle on %s, but only %d of the %d a quorum needs vote for it in round %d", me, p.Vote, backers(p), majority(v.N()), p.Round)
			case !armed && quorum:
				return fmt.Sprintf("a quorum votes as %s does, for %s in round %d, but it does not wait to settle", me, p.Vote, p.Round)
			}
			return ""
		})
	},
}

// SettledName names the settled invariant.
const SettledName = "a server leads or follows the leader its quorum named, and is drawn as it is"

// settledRule is what settling means: a settled server follows (or, if
// it is the one, leads) the leader that it and a quorum of others named,
// none of them in a later round than its own; a looking server runs an
// election and follows nobody. The election's picture reads the belief,
// so a belief that is not the state is drawn wrong.
var settledRule = sim.Invariant{
	Name: SettledName,
	Help: "a settled server leads or follows the leader named by a quorum it counts itself in, of servers no later than its round; a looking server is drawn electing and follows nobody; only a leading server is drawn leading",
	Check: func(v sim.View) sim.Verdict {
		return stepped(v, func(id sim.NodeID, p *Process) string {
			me := v.Name(id)
			if p.Electing != (p.State == Looking) || p.Leading != (p.State == Leading) {
				return fmt.Sprintf("%s is %s, but its belief says electing %t, leading %t", me, p.State, p.Electing, p.Leading)
			}
			if p.State == Looking {
				if p.Leader != sim.None {
					return fmt.Sprintf("%s looks for a leader, but still follows %s", me, v.Name(p.Leader))
				}
				return ""
			}
			leads := p.Leader == id
			if p.Leader == sim.None || leads != (p.State == Leading) || p.Vote.Leader != p.Leader {
				return fmt.Sprintf("%s is %s, but believes in %s and votes for %s", me, p.State, sim.NameOrNobody(v, p.Leader), p.Vote)
			}
			if !slices.Contains(p.ElectedBy, id) || len(p.ElectedBy) < majority(v.N()) {
				return fmt.Sprintf("%s is %s, named by %d servers with itself among them %t: a quorum is %d", me, p.State, len(p.ElectedBy), slices.Contains(p.ElectedBy, id), majority(v.N()))
			}
			for i, q := range p.ElectedBy {
				if slices.Contains(p.ElectedBy[:i], q) {
					return fmt.Sprintf("%s counts %s twice in the quorum that named its leader", me, v.Name(q))
				}
				if q == id {
					continue
				}
				if h := p.Heard[q]; !p.Known[q] || h.Vote.Leader != p.Leader || h.Round > p.Round {
					return fmt.Sprintf("%s %s, counting %s in its quorum, which it did not hear name %s in round %d or before", me, settledAs(v, p), v.Name(q), v.Name(p.Leader), p.Round)
				}
			}
			return ""
		})
	},
}

// settledAs says "leads" or "follows 3".
func settledAs(v sim.View, p *Process) string {
	if p.State == Leading {
		return "leads"
	}
	return "follows " + v.Name(p.Leader)
}

// SendsName names the sends invariant.
const SendsName = "a server sends its vote as it stands, and to everyone when it changes; answers a server behind it; looks anew when told"

// sends holds a server to what it sends and to what it is told: a
// NOTIFICATION carries its sender's round, vote and state as the step
// left them, and goes to everyone only when the vote is new (else the
// servers send each other the same vote for ever); a server answers a looking server that is behind it (one
// in an earlier round, or any, once it has settled), the way a server
// that rejoins learns the leader; and a server that recovers or is told
// its leader is gone looks for a leader in a round later than any it
// voted in.
var sends = sim.Invariant{
	Name: SendsName,
	Help: "every NOTIFICATION carries its sender's round, vote and state, and a vote goes to everyone only when it is new; a server answers a looking server in an earlier round, or any once settled; a server that recovers or loses its leader looks in a new, later round",
	Check: check.StepRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		p, me := server(v, id), v.Name(id)
		word := int64(slices.Index(states[:], p.State))
		sent := 0
		for e := range check.SentThisStep(v, id) {
			if e.Kind != KindNotification {
				continue
			}
			if e.Value != p.Round || !slices.Equal(e.Data, []int64{int64(p.Vote.Leader), p.Vote.Zxid, word}) {
				return fmt.Sprintf("%s, %s in round %d with a vote for %s, sent %s a NOTIFICATION of round %d carrying %v", me, p.State, p.Round, p.Vote, v.Name(e.To), e.Value, e.Data)
			}
			sent++
		}
		now := v.SentFrom(v.Steps() - 1)
		// a vote goes to everyone when it is new: a server's last
		// NOTIFICATION before (to anyone) carried its vote then
		if sent >= v.N()-1 && ev.Kind == sim.Deliver {
			for m := now - 1; m >= 0; m-- {
				if e := v.Envelope(m); e.From == id && e.Kind == KindNotification && e.Original == e.ID {
					if e.Value == p.Round && slices.Equal(e.Data, []int64{int64(p.Vote.Leader), p.Vote.Zxid, word}) {
						return fmt.Sprintf("%s sent its vote for %s in round %d to everyone again, unchanged", me, p.Vote, p.Round)
					}
					break
				}
			}
		}
		switch {
		case ev.Kind == sim.Deliver && ev.Msg.Kind == KindNotification && len(ev.Msg.Data) == 3 && ev.Msg.Data[2] == 0:
			if (p.State != Looking || ev.Msg.Value < p.Round) && !check.SentNow(v, id, ev.From, KindNotification) {
				return fmt.Sprintf("%s, %s in round %d, heard %s look in round %d, and did not answer", me, p.State, p.Round, v.Name(ev.From), ev.Msg.Value)
			}
		case ev.Kind == sim.Command && ev.Tag == election.CmdStart && p.State != Looking:
			return fmt.Sprintf("%s was told its leader is gone, but is %s", me, p.State)
		case ev.Kind == sim.Recover:
			if p.State != Looking {
				return fmt.Sprintf("%s recovered, but is %s", me, p.State)
			}
			for m := range v.SentFrom(v.Steps() - 1) {
				if e := v.Envelope(m); e.From == id && e.Kind == KindNotification && e.Value >= p.Round {
					return fmt.Sprintf("%s looks for a leader in round %d, but already voted in round %d", me, p.Round, e.Value)
				}
			}
		}
		return ""
	}),
}
