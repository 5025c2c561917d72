package maekawa

import (
	"fmt"
	"slices"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// VotesName names the votes invariant.
const VotesName = "each member's vote is in one place"

// votes is Maekawa's safety argument kept after every step: a member has
// one vote, and it is where the member says it is. The request it voted
// for holds it (its process still makes that request and counts the
// vote), or the REPLY is on its way there, or the vote is on its way back
// (a RELEASE or a YIELD for that request). And a process counts only
// votes its members gave to its request. Two processes in the section at
// once need a vote counted twice; a vote that is nowhere (a member that
// forgets it gave one, a requester that drops one) leaves the member
// voting for nobody for ever.
var votes = sim.Invariant{
	Name: VotesName,
	Help: "every member's vote is held by the request it voted for, or on its way there or back; and a process counts only the votes its members gave it",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			m := sim.NodeID(i)
			if v.Health(m) == sim.Crashed {
				continue
			}
			member := process(v, m)
			if a := member.Voted; a.From != sim.None && v.Health(a.From) != sim.Crashed && !voteFound(v, m, a) {
				return sim.Verdict{Detail: fmt.Sprintf("%s voted for %s's request #%d, but %s does not count that vote and it is on its way neither there nor back", v.Name(m), v.Name(a.From), a.N, v.Name(a.From))}
			}
			if member.State == mutex.Idle {
				continue
			}
			for _, s := range member.Set {
				if member.Votes[s] && v.Health(s) != sim.Crashed && !process(v, s).Voted.is(Ask{From: m, N: member.Asked}) {
					return sim.Verdict{Detail: fmt.Sprintf("%s counts %s's vote for its request #%d, but %s's vote is not for it", v.Name(m), v.Name(s), member.Asked, v.Name(s))}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// voteFound says member m's vote for request a is held by a's process
// or on its way there or back.
func voteFound(v sim.View, m sim.NodeID, a Ask) bool {
	r := process(v, a.From)
	if r.Asked == a.N && r.State != mutex.Idle && r.Votes[m] {
		return true
	}
	return a.From != m && (check.CarriesAbout(v, m, a.From, a.N, KindReply) || check.CarriesAbout(v, a.From, m, a.N, KindRelease, KindYield))
}

// earlier is the stamp order restated for the checks: the Lamport clock,
// then the process.
func earlier(a, b Ask) bool {
	return a.Clock < b.Clock || a.Clock == b.Clock && a.From < b.From
}

// QueueName names the check of a member's queue and a requester's
// questions.
const QueueName = "a member queues requests only behind its vote, by stamp, and has told all but the earliest FAILED"

// queued holds each process's own bookkeeping to the rules, read after
// its own steps: a free vote has no queue; with INQUIRE the queue is in
// stamp order, every request in it but the first has been told FAILED,
// and the first has not exactly when the member has asked its vote's
// holder back (it is then earlier than the holder); a requester keeps
// INQUIREs only for votes it holds, none once it has failed, and
// nothing of a request it no longer makes; it counts only its set's
// votes.
var queued = sim.Invariant{
	Name: QueueName,
	Help: "a member with its vote free has no queue; with INQUIRE, its queue is in stamp order, all but the first were told FAILED, and the first was not exactly when the member asked its vote back, being earlier than the vote's holder; a requester keeps an INQUIRE only for a vote it holds and not once it failed, and counts only its set's votes",
	Check: func(v sim.View) sim.Verdict {
		return check.Stepped(v, func(id sim.NodeID) string {
			if detail := bookkeeping(process(v, id), v); detail != "" {
				return v.Name(id) + " " + detail
			}
			return ""
		})
	},
}

// bookkeeping says what is wrong with a process's queue and questions.
func bookkeeping(p *Process, v sim.View) string {
	for m, on := range p.Votes {
		if on && !slices.Contains(p.Set, sim.NodeID(m)) {
			return fmt.Sprintf("counts the vote of %s, which is not in its set", v.Name(sim.NodeID(m)))
		}
	}
	if len(p.Queue) > 0 && p.Voted.From == sim.None {
		return fmt.Sprintf("keeps %s's request waiting with its vote free", v.Name(p.Queue[0].From))
	}
	for i, q := range p.Queue {
		if q.is(p.Voted) || slices.ContainsFunc(p.Queue[:i], q.is) {
			return fmt.Sprintf("queues %s's request #%d twice, or the one it voted for", v.Name(q.From), q.N)
		}
	}
	if !p.Inquire {
		if p.Failed || p.Inquired || len(p.Asking) > 0 || slices.ContainsFunc(p.Queue, func(q Ask) bool { return q.Failed }) {
			return "runs without INQUIRE, and keeps INQUIRE's state"
		}
		return ""
	}
	for i, q := range p.Queue {
		switch {
		case i > 0 && !earlier(p.Queue[i-1], q):
			return fmt.Sprintf("queues %s's request %s behind %s's %s, out of stamp order", v.Name(q.From), stamp(q), v.Name(p.Queue[i-1].From), stamp(p.Queue[i-1]))
		case i > 0 && !q.Failed:
			return fmt.Sprintf("queues %s's request behind an earlier one, and has not told it FAILED", v.Name(q.From))
		}
	}
	first := len(p.Queue) > 0 && !p.Queue[0].Failed
	switch {
	case p.Inquired != first:
		return fmt.Sprintf("has %sasked its vote back, with %s first in its queue", not(p.Inquired), firstName(v, p.Queue))
	case first && !earlier(p.Queue[0], p.Voted):
		return fmt.Sprintf("asked its vote back for %s's request %s, which is not earlier than %s's %s, which holds it", v.Name(p.Queue[0].From), stamp(p.Queue[0]), v.Name(p.Voted.From), stamp(p.Voted))
	case p.State == mutex.Idle && (p.Failed || len(p.Asking) > 0):
		return "makes no request, and still keeps its FAILED or an INQUIRE"
	case p.Failed && len(p.Asking) > 0:
		return fmt.Sprintf("has failed, and keeps %s's INQUIRE instead of giving the vote back", v.Name(p.Asking[0]))
	}
	for _, m := range p.Asking {
		if !p.Votes[m] {
			return fmt.Sprintf("keeps %s's INQUIRE about a vote it does not hold", v.Name(m))
		}
	}
	return ""
}

// not is "" for true and "not " for false.
func not(on bool) string {
	if on {
		return ""
	}
	return "not "
}

// firstName names the first request of a queue, or nobody.
func firstName(v sim.View, queue []Ask) string {
	if len(queue) == 0 {
		return "nobody"
	}
	return v.Name(queue[0].From) + "'s request"
}

// RulesName names the check of what a process sends and forgets.
const RulesName = "a process sends what its state says, answers FAILED and INQUIRE by the rules, and forgets it all in a crash"

// rules holds each message a process sends to its state after the step
// (a REPLY to the request it voted for, a REQUEST of its request with its
// stamp, an INQUIRE to its vote's holder, a FAILED to a request it queued
// as failed, a YIELD of a vote it no longer counts, a RELEASE once out of
// the section), a requester to the rules for FAILED and INQUIRE about its
// request, and a recovered process to having forgotten its votes, queue
// and questions.
var rules = sim.Invariant{
	Name: RulesName,
	Help: "a REPLY goes to the request the member voted for, a REQUEST carries the request's number and stamp, an INQUIRE goes to the vote's holder, a FAILED to a request queued as failed, a YIELD gives back a vote no longer counted, a RELEASE follows the section; FAILED makes a requester give back every vote it was asked for, and an INQUIRE is kept or answered; a recovered process has forgotten it all",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return stepRule(v, id, ev, process(v, id))
	}),
}

// stepRule says how the step broke a rule, or "".
func stepRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	if ev.Kind == sim.Recover {
		if p.Voted.From != sim.None || len(p.Queue) > 0 || p.Failed || len(p.Asking) > 0 || p.Inquired || !check.Cleared(p.Votes) || !check.Cleared(p.Seen) {
			return "recovered, and still knows whom it voted for, its queue, its votes or the requests it saw"
		}
		return ""
	}
	for e := range check.SentThisStep(v, id) {
		if detail := sentRule(v, id, ev, p, e); detail != "" {
			return fmt.Sprintf("sent %s %s #%d, and %s", v.Name(e.To), e.Kind, e.Value, detail)
		}
	}
	if ev.Kind != sim.Deliver || ev.Msg.Value != p.Asked || p.State != mutex.Wanting || !p.Inquire {
		return ""
	}
	switch ev.Msg.Kind {
	case KindFailed:
		if !p.Failed || len(p.Asking) > 0 {
			return fmt.Sprintf("got FAILED from %s for its request, and has not given back the votes it was asked for", v.Name(ev.From))
		}
	case KindInquire:
		if p.Failed && p.Votes[ev.From] || !p.Failed && p.Votes[ev.From] && !slices.Contains(p.Asking, ev.From) {
			return fmt.Sprintf("got %s's INQUIRE about the vote it holds, and neither gave it back nor kept the question", v.Name(ev.From))
		}
	}
	return ""
}

// sentRule says what about message e, sent in the step, its sender's
// state after the step does not bear out, or "".
func sentRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process, e sim.Envelope) string {
	about := Ask{From: e.To, N: e.Value}
	switch e.Kind {
	case KindReply:
		if !p.Voted.is(about) {
			return fmt.Sprintf("its vote is for %s", sim.NameOrNobody(v, p.Voted.From))
		}
	case KindRequest:
		stamped := !p.Inquire && len(e.Data) == 0 || p.Inquire && slices.Equal(e.Data, []int64{p.Clock}) && p.Clock == int64(v.Lamport(id))
		if ev.Kind != sim.Command && ev.Kind != sim.Workload || e.Value != p.Asked || !stamped {
			return fmt.Sprintf("its request is #%d, stamped %d at Lamport time %d, on %s", p.Asked, p.Clock, v.Lamport(id), ev.Kind)
		}
	case KindRelease:
		if ev.Kind != sim.Timer || e.Value != p.Asked || p.State != mutex.Idle {
			return fmt.Sprintf("it is %s, with request #%d", p.State, p.Asked)
		}
	case KindInquire:
		if !p.Voted.is(about) || !p.Inquired {
			return fmt.Sprintf("its vote is for %s, and it has %sasked it back", sim.NameOrNobody(v, p.Voted.From), not(p.Inquired))
		}
	case KindFailed:
		if i := slices.IndexFunc(p.Queue, about.is); i < 0 || !p.Queue[i].Failed {
			return "that request is not queued as failed"
		}
	case KindYield:
		if e.Value != p.Asked || p.Votes[e.To] || !p.Failed {
			return fmt.Sprintf("it still counts that vote, or has not failed, for request #%d", p.Asked)
		}
	}
	return ""
}
