package ringelection

import (
	"fmt"
	"slices"

	"spacetime/core/check"
	"spacetime/core/sim"
)

const rulesName = "a process forwards, replaces, discards and announces by the ring's rules"

// rules holds the process that took the last step to the ring's rule for
// what it got, read off its state after the step and what the step sent
// (to its successor, and nowhere else). In Chang and Roberts's election
// an ELECTION with a larger id is forwarded, one with a smaller id is
// replaced by the process's own unless it takes part already (then it is
// discarded), and one with its own id makes it the leader, which sends
// ELECTED; an ELECTED is followed and passed on until it is back at the
// leader. In the election that collects every id, an ELECTION gains the
// process's id and goes on until it is back at its starter, which
// announces the largest id. A process told to start takes part; one that
// recovers has forgotten the election.
var rules = sim.Invariant{
	Name: rulesName,
	Help: "each step sends only to the successor, as the rules say: a larger id forwarded, a smaller one replaced by the process's own or, by a participant, discarded, its own made leader with ELECTED; an ELECTED followed and passed on until it is back; collecting ids, every id added until the ELECTION is back at its starter, which announces the largest",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		p := v.Node(id).(*Process)
		var sent []sim.Message
		for e := range check.SentThisStep(v, id) {
			if e.To != p.Next {
				return fmt.Sprintf("sent %s to %s, not to its successor %s", e.Kind, v.Name(e.To), v.Name(p.Next))
			}
			sent = append(sent, e.Message)
		}
		switch {
		case ev.Kind == sim.Recover:
			if p.Participant || p.Electing || p.Leading {
				return "recovered, and has not forgotten the election it took part in"
			}
			return ""
		case p.Collect:
			return collectRule(v, id, ev, p, sent)
		}
		return changRobertsRule(v, id, ev, p, sent)
	}),
}

// word is a message as a rule expects it: kind, value and data.
type word struct {
	kind  string
	value sim.NodeID
	data  []int64
}

// sends says whether sent is exactly the messages want, in order.
func sends(sent []sim.Message, want ...word) bool {
	return slices.EqualFunc(sent, want, func(m sim.Message, w word) bool {
		return m.Kind == w.kind && m.Value == int64(w.value) && (w.data == nil || slices.Equal(m.Data, w.data))
	})
}

// changRobertsRule is the rule of Chang and Roberts's election.
func changRobertsRule(v sim.View, self sim.NodeID, ev sim.Event, p *Process, sent []sim.Message) string {
	taking := p.Participant && p.Electing
	id := sim.NodeID(ev.Msg.Value)
	switch {
	case ev.Kind == sim.Command:
		if !taking || !sends(sent) && !sends(sent, word{KindElection, self, nil}) {
			return "was told to start an election, and does not take part with its own ELECTION"
		}
	case ev.Kind != sim.Deliver || id < 0 || int(id) >= v.N():
	case ev.Msg.Kind == KindElection && id > self:
		if !taking || !sends(sent, word{KindElection, id, nil}) {
			return fmt.Sprintf("got ELECTION(%s), a larger id, and did not take part and forward it", v.Name(id))
		}
	case ev.Msg.Kind == KindElection && id < self:
		if !taking || !sends(sent) && !sends(sent, word{KindElection, self, nil}) {
			return fmt.Sprintf("got ELECTION(%s), a smaller id, and neither replaced it by its own nor discarded it as a participant", v.Name(id))
		}
	case ev.Msg.Kind == KindElection:
		if !taking || !p.Leading || p.Leader != self || !sends(sent, word{KindElected, self, nil}) {
			return "got its own ELECTION back, and did not lead and send ELECTED"
		}
	case ev.Msg.Kind == KindElected && id == self:
		if p.Participant || p.Electing || len(sent) > 0 {
			return "got its own ELECTED back, and did not end its election"
		}
	case ev.Msg.Kind == KindElected:
		if p.Participant || p.Electing || p.Leading || p.Leader != id || !sends(sent, word{KindElected, id, nil}) {
			return fmt.Sprintf("got ELECTED(%s), and did not follow it and pass it on", v.Name(id))
		}
	}
	return ""
}

// collectRule is the rule of the election that collects every id.
func collectRule(v sim.View, self sim.NodeID, ev sim.Event, p *Process, sent []sim.Message) string {
	if ev.Kind == sim.Command {
		started := sends(sent, word{KindElection, self, []int64{int64(self)}})
		if !p.Participant || started && !p.Electing || !started && !sends(sent) {
			return "was told to start an election, and does not run one with its own ELECTION"
		}
		return ""
	}
	if ev.Kind != sim.Deliver || len(ev.Msg.Data) == 0 || slices.ContainsFunc(ev.Msg.Data, func(w int64) bool { return w < 0 || int(w) >= v.N() }) {
		return ""
	}
	starter := sim.NodeID(ev.Msg.Data[0])
	switch ev.Msg.Kind {
	case KindElection:
		if starter == self {
			leader := sim.NodeID(slices.Max(ev.Msg.Data))
			if !p.Electing || p.Leader != leader || p.Leading != (leader == self) || !sends(sent, word{KindElected, leader, []int64{int64(self)}}) {
				return fmt.Sprintf("got its ELECTION back, and did not announce the largest id in it, %s", v.Name(leader))
			}
			return ""
		}
		if !p.Electing || !sends(sent, word{KindElection, starter, append(slices.Clone(ev.Msg.Data), int64(self))}) {
			return fmt.Sprintf("got %s's ELECTION, and did not add its id and pass it on", v.Name(starter))
		}
	case KindElected:
		leader := sim.NodeID(ev.Msg.Value)
		if starter == self {
			if p.Participant || p.Electing || len(sent) > 0 {
				return "got its ELECTED back, and did not end its election"
			}
			return ""
		}
		if p.Leader != leader || p.Leading != (leader == self) || !sends(sent, word{KindElected, leader, ev.Msg.Data}) {
			return fmt.Sprintf("got ELECTED(%s), and did not follow it and pass it on", v.Name(leader))
		}
	}
	return ""
}
