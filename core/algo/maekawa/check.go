package maekawa

import (
	"fmt"

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
