package election

import (
	"fmt"
	"slices"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// BullyRulesName names the BullyRules invariant.
const BullyRulesName = "a process answers, takes over and declares by the bully's rules"

// BullyRules holds the process that took the last step to the bully
// election's rules for what it got: an ELECTION is answered with OK by a
// process that then runs an election of its own, or that leads as the
// highest id and tells the asker with a COORDINATOR; an OK stops
// it asking; a COORDINATOR from a higher process is followed, one from a
// lower process bullied; a process whose wait for an OK runs out
// declares itself, and one whose wait for the COORDINATOR runs out
// starts over. Whatever it sends goes where the rules say: ELECTION to
// every higher id, COORDINATOR to everyone else (or, from the highest
// id, which leads, to a late asker alone). Each rule is read off the
// process's state after the step and the messages the step sent; it
// does not call the code it judges.
var BullyRules = sim.Invariant{
	Name:  BullyRulesName,
	Help:  "an ELECTION is answered with OK and taken over (the highest id, which leads, answers with COORDINATOR too); an OK stops the asking; a higher COORDINATOR is followed and a lower one bullied; a timeout declares or starts over; ELECTION goes to every higher id and COORDINATOR to every other process",
	Check: check.StepRule(bullyStep),
}

// bullyStep says how the step broke a rule, or "".
func bullyStep(v sim.View, id sim.NodeID, ev sim.Event) string {
	b := v.Node(id).(Buller).Bullying()
	me, who := v.Name(id), v.Name(ev.From)
	elections, coordinators := sentNow(v, id, KindElection), sentNow(v, id, KindCoordinator)
	if len(elections) > 0 && !slices.Equal(elections, above(id, v.N())) {
		return fmt.Sprintf("%s sent ELECTION to %s, not to every higher id", me, names(v, elections))
	}
	declared := len(coordinators) > 0 && slices.Equal(coordinators, others(id, v.N()))
	if len(coordinators) > 0 && !declared &&
		!(ev.Kind == sim.Deliver && ev.Msg.Kind == KindElection && int(id) == v.N()-1 && b.Leading && slices.Equal(coordinators, []sim.NodeID{ev.From})) {
		return fmt.Sprintf("%s sent COORDINATOR to %s, not to every other process", me, names(v, coordinators))
	}
	if len(elections) > 0 && !(b.Asking && b.Electing) {
		return fmt.Sprintf("%s sent ELECTION, and does not wait for an OK", me)
	}
	if declared && (!b.Leading || b.Electing || b.Asking) {
		return fmt.Sprintf("%s sent COORDINATOR to everyone, and does not simply lead", me)
	}
	took := b.Electing || b.Leading // ran an election of its own, or leads
	switch {
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindElection:
		if !check.SentNow(v, id, ev.From, KindOK) {
			return fmt.Sprintf("%s got an ELECTION from %s and did not answer OK", me, who)
		}
		// the highest id, which leads, tells the late asker so; any
		// other runs an election of its own
		if !b.Electing && !(int(id) == v.N()-1 && b.Leading && slices.Contains(coordinators, ev.From)) {
			return fmt.Sprintf("%s got an ELECTION from %s, and neither runs an election nor, as the highest id that leads, tells it so", me, who)
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindOK && b.Asking:
		return fmt.Sprintf("%s got OK from %s, and still asks", me, who)
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindCoordinator && ev.From > id:
		if b.Leader != ev.From || b.Electing || b.Leading || b.Asking {
			return fmt.Sprintf("%s got COORDINATOR from %s, a higher process, and does not simply follow it", me, who)
		}
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindCoordinator && !took:
		return fmt.Sprintf("%s got COORDINATOR from %s, a lower process, and neither bullies it nor leads", me, who)
	case ev.Kind == sim.Timer && ev.Tag == TimerOK && !(b.Leading && !b.Electing && declared):
		return fmt.Sprintf("%s got no OK in time, and did not declare itself to everyone", me)
	case ev.Kind == sim.Timer && ev.Tag == TimerCoordinator && !b.Asking && !(b.Leading && declared):
		return fmt.Sprintf("%s got no COORDINATOR in time, and did not start over", me)
	case ev.Kind == sim.Command && ev.Tag == CmdStart && !took:
		return fmt.Sprintf("%s was told the leader is gone, and neither runs an election nor leads", me)
	}
	return ""
}

// sentNow lists whom the last step's process sent a message of kind to,
// in order, the network's copies left out.
func sentNow(v sim.View, from sim.NodeID, kind string) []sim.NodeID {
	var to []sim.NodeID
	for e := range check.SentThisStep(v, from) {
		if e.Kind == kind {
			to = append(to, e.To)
		}
	}
	return to
}

// above lists the ids above id, others every id but id.
func above(id sim.NodeID, n int) []sim.NodeID {
	var ids []sim.NodeID
	for q := id + 1; int(q) < n; q++ {
		ids = append(ids, q)
	}
	return ids
}

func others(id sim.NodeID, n int) []sim.NodeID {
	var ids []sim.NodeID
	for q := range n {
		if sim.NodeID(q) != id {
			ids = append(ids, sim.NodeID(q))
		}
	}
	return ids
}

func names(v sim.View, ids []sim.NodeID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = v.Name(id)
	}
	return List(s)
}

// BullyStarted says the last step started a bully election at process
// id: it asks every higher id with ELECTION, or, as the highest id, leads
// and sends COORDINATOR to everyone else.
func BullyStarted(v sim.View, id sim.NodeID) bool {
	b := v.Node(id).(Buller).Bullying()
	if int(id) == v.N()-1 {
		return b.Leading && !b.Electing && slices.Equal(sentNow(v, id, KindCoordinator), others(id, v.N()))
	}
	return b.Asking && b.Electing && slices.Equal(sentNow(v, id, KindElection), above(id, v.N()))
}
