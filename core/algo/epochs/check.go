package epochs

import (
	"fmt"
	"slices"

	"spacetime/core/algo/election"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The checks of a process's own rules, read after each step off the
// process that took it (only its own step changes it) and the messages
// the step sent. They restate the rules rather than call the code they
// judge.

// node is process id of the view.
func node(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const waitsName = "a leader sends heartbeats and every other process waits for one"

// waits is the failure detector's rule: a leader has its next HEARTBEAT
// armed and no election timeout, every other live process its election
// timeout and no HEARTBEAT to send. A follower without its timeout never
// notices a dead leader; a leader without its heartbeat is taken for dead.
var waits = sim.Invariant{
	Name: waitsName,
	Help: "a live leader has its heartbeat timer armed and no election timeout; every other live process has its election timeout armed and sends no heartbeat",
	Check: func(v sim.View) sim.Verdict {
		return check.Stepped(v, func(id sim.NodeID) string {
			_, beats := v.Timer(id, TimerHeartbeat)
			_, times := v.Timer(id, TimerElection)
			if leads := node(v, id).Leading; beats != leads || times == leads {
				return fmt.Sprintf("%s %s, with its heartbeat %s and its election timeout %s", v.Name(id), map[bool]string{true: "leads", false: "does not lead"}[leads], armed(beats), armed(times))
			}
			return ""
		})
	},
}

func armed(on bool) string {
	if on {
		return "armed"
	}
	return "not armed"
}

const rulesName = "a process keeps to its epoch: it refuses what is older, votes once, leads only with a majority"

// rules holds a process, with epochs on, to what makes them work: every
// message carries the sender's epoch; a message of an older epoch is
// refused with STALE, and a STALE makes a leader step down; a HEARTBEAT
// of the process's epoch is followed; a process votes for one candidate
// an epoch; a candidate that stands asks everyone, leads once a majority
// (itself included) voted for it, and not before. Without epochs, a
// process that takes over leads at once and tells everyone.
var rules = sim.Invariant{
	Name: rulesName,
	Help: "every message carries its sender's epoch; an older one is refused with STALE, and STALE makes a leader step down; a HEARTBEAT of the process's epoch is followed; one vote an epoch; a candidate asks everyone and leads with a majority, not before",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return epochRule(v, id, ev, node(v, id))
	}),
}

// epochRule says how the step broke a rule, or "".
func epochRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	majority := v.N()/2 + 1
	campaigned := ev.Kind == sim.Command || ev.Kind == sim.Timer && ev.Tag == TimerElection
	// a leader beats to everyone when it begins to lead and at each beat
	began := slices.ContainsFunc(v.LastAnnotations(), func(a sim.Annotation) bool {
		return a.Role == election.RoleLeader && a.Phase == sim.Begin
	})
	if p.Leading && (began || ev.Kind == sim.Timer && ev.Tag == TimerHeartbeat) && !check.ToEveryOther(check.SentKind(v, id, KindHeartbeat), id, v.N()) {
		return "leads, and did not send HEARTBEAT to everyone"
	}
	if !p.Epochs {
		switch {
		case campaigned && !p.Leading:
			return "took over without epochs, and does not lead"
		case ev.Kind == sim.Deliver && ev.Msg.Kind == KindHeartbeat && !p.Leading && p.Leader != ev.From:
			return fmt.Sprintf("got %s's HEARTBEAT, and does not follow it", v.Name(ev.From))
		}
		return ""
	}
	for e := range check.SentThisStep(v, id) {
		if e.Value != p.Epoch {
			return fmt.Sprintf("is at epoch %d, and sent %s a %s of epoch %d", p.Epoch, v.Name(e.To), e.Kind, e.Value)
		}
	}
	switch {
	case p.Leading && p.Epoch > 1 && p.Votes < majority:
		return fmt.Sprintf("leads epoch %d with %d votes, fewer than a majority, %d", p.Epoch, p.Votes, majority)
	case p.Electing && (p.Voted != id || p.Votes >= majority):
		return fmt.Sprintf("stands in epoch %d with %d votes, voting for %s", p.Epoch, p.Votes, sim.NameOrNobody(v, p.Voted))
	case campaigned && p.Electing && !check.ToEveryOther(check.SentKind(v, id, KindRequestVote), id, v.N()):
		return fmt.Sprintf("stands in epoch %d, and did not ask everyone for a vote", p.Epoch)
	case campaigned && !p.Electing && !p.Leading:
		return "was told to take over, or timed out, and does not stand"
	case ev.Kind != sim.Deliver:
	case ev.Msg.Value > p.Epoch:
		return fmt.Sprintf("heard of epoch %d from %s, and stays at epoch %d", ev.Msg.Value, v.Name(ev.From), p.Epoch)
	case ev.Msg.Kind != KindStale && ev.Msg.Value < p.Epoch:
		if !check.SentNow(v, id, ev.From, KindStale) {
			return fmt.Sprintf("got %s's %s of epoch %d, older than its %d, and did not refuse it with STALE", v.Name(ev.From), ev.Msg.Kind, ev.Msg.Value, p.Epoch)
		}
	case ev.Msg.Kind == KindStale && p.Leading:
		return fmt.Sprintf("got STALE from %s, and still leads", v.Name(ev.From))
	case ev.Msg.Kind == KindHeartbeat && (p.Leader != ev.From || p.Leading):
		return fmt.Sprintf("got %s's HEARTBEAT of its epoch %d, and does not follow it", v.Name(ev.From), p.Epoch)
	case ev.Msg.Kind == KindVote && (p.Electing || began) && p.Votes < 1+voters(v, id, p.Epoch):
		return fmt.Sprintf("counts %d votes in epoch %d, itself and %d others having voted for it", p.Votes, p.Epoch, voters(v, id, p.Epoch))
	case ev.Msg.Kind == KindRequestVote:
		voted := check.SentNow(v, id, ev.From, KindVote)
		if voted != (p.Voted == ev.From) || !voted && p.Voted == sim.None {
			return fmt.Sprintf("got %s's request for a vote in epoch %d, and %s, voting for %s", v.Name(ev.From), p.Epoch, map[bool]string{true: "voted", false: "did not vote"}[voted], sim.NameOrNobody(v, p.Voted))
		}
		if voted {
			// one vote an epoch: the process's VOTEs before, of this epoch, went to this candidate
			for m := range v.SentFrom(v.Steps() - 1) {
				if e := v.Envelope(m); e.From == id && e.Kind == KindVote && e.Value == p.Epoch && e.To != ev.From {
					return fmt.Sprintf("voted for %s in epoch %d, and for %s before it", v.Name(ev.From), p.Epoch, v.Name(e.To))
				}
			}
		}
	}
	return ""
}

// voters counts the processes whose VOTE of an epoch has reached
// candidate id, each once (a network's copy counts for nothing). A VOTE
// answers the candidate's REQUEST-VOTE, so the walk goes back from the
// newest message to the candidate's first request of the epoch.
func voters(v sim.View, id sim.NodeID, epoch int64) int {
	var from []sim.NodeID
	for m := v.NumSent() - 1; m >= 0; m-- {
		e := v.Envelope(m)
		if e.From == id && e.Kind == KindRequestVote && e.Value < epoch {
			break
		}
		if e.To == id && e.Kind == KindVote && e.Value == epoch && e.RecvStep >= 0 && !slices.Contains(from, e.From) {
			from = append(from, e.From)
		}
	}
	return len(from)
}
