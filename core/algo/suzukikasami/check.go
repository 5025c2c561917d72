package suzukikasami

import (
	"fmt"
	"slices"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The checks of the token's own rules, read after each step off the
// process that took it.

// drawn is the token's picture held to the process's state.
var drawn = mutex.TokenDrawn(RoleToken, func(v sim.View, id sim.NodeID) bool { return process(v, id).Token != nil })

// TokenName names the check of the token's rules.
const TokenName = "a process takes the token once, keeps it idle only while nobody's request is outstanding, and forgets RN in a crash"

// token holds each process to the rules that keep one token moving: a
// TOKEN is taken only if no copy of it came before, and one not taken is
// no later (by hop) than the last the process held; a holder's hop is its
// token's; an idle holder has an empty queue and no request outstanding
// (RN[j] = LN[j] + 1 for nobody), else it would have sent the token on;
// a recovered process holds no token and has forgotten RN.
var token = sim.Invariant{
	Name: TokenName,
	Help: "a TOKEN is taken only if no copy of it came first, and one not taken is no later than the last held; an idle holder has an empty queue and no outstanding request (RN[j] = LN[j] + 1 for nobody); a recovered process holds no token and has forgotten RN",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return tokenRule(v, id, ev, process(v, id))
	}),
}

// tokenRule says how the step broke a rule, or "".
func tokenRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	if ev.Kind == sim.Recover {
		if p.Token != nil || !check.Cleared(p.RN) {
			return "recovered, and still holds the token or remembers RN"
		}
		return ""
	}
	if t := p.Token; t != nil {
		if t.Hop != p.Hop {
			return fmt.Sprintf("holds the token at hop %d, and counts hop %d", t.Hop, p.Hop)
		}
		for j := range v.N() {
			if p.State == mutex.Idle && (len(t.Queue) > 0 || sim.NodeID(j) != id && p.RN[j] == t.LN[j]+1) {
				return fmt.Sprintf("holds the token idle, with %s's request outstanding or queued", v.Name(sim.NodeID(j)))
			}
		}
	}
	if ev.Kind != sim.Deliver || ev.Msg.Kind != KindToken {
		return ""
	}
	hop := Decode(ev.Msg.Data, v.N()).Hop
	took := slices.ContainsFunc(v.LastAnnotations(), func(a sim.Annotation) bool { return a.Role == RoleToken && a.Phase == sim.Begin })
	switch {
	case took:
		if first := check.CopyDelivered(v, id, ev.MsgID); first >= 0 {
			return fmt.Sprintf("took the token at hop %d, a copy of which it got at step %d", hop, first)
		}
	case hop > p.Hop && !v.DrawnBefore(id, RoleToken, 0, v.Steps()-1):
		return fmt.Sprintf("did not take the token at hop %d, later than hop %d, the last it held", hop, p.Hop)
	}
	return ""
}
