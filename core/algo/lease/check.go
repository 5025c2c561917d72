package lease

import (
	"fmt"

	"spacetime/core/algo/fencing"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// GrantsName names the rules check of what a GRANT says.
const GrantsName = "a GRANT gives its holder what is left of the lease, and the holder believes it for that long"

// grants holds both ends of a GRANT to the lease's time, restated rather
// than by calling the code it judges (the mutation campaign leaves this
// file alone): the service sends a GRANT only to the client it grants
// the lease, with the token it granted and the time left as it judges it
// (all of it, for a lease granted or renewed at this step), which is more
// than none; a RELEASE ends only its sender's lease, with its token; and
// a client that takes a GRANT believes it holds the lease with its token
// for the time the GRANT gives, by its timer (and its wall clock), and no
// longer waits for an answer.
var grants = sim.Invariant{
	Name:  GrantsName,
	Help:  "the service sends a GRANT only to the holder, with its token and the time left (all of it, when it grants or renews at this step); a RELEASE ends only its sender's lease; a client that takes a GRANT believes it holds the lease with that token for that long",
	Check: check.ProcessRule(checkGrants),
}

func checkGrants(v sim.View, id sim.NodeID, ev sim.Event) string {
	p := process(v, id)
	switch p.Part {
	case fencing.PartService:
		return checkServiceGrants(v, p, ev)
	case fencing.PartClient:
		if ev.Kind != sim.Deliver || ev.Msg.Kind != KindGrant || len(ev.Msg.Data) == 0 {
			return ""
		}
		c, d := p.Client, sim.Time(ev.Msg.Data[0])
		due, armed := v.Timer(id, TimerExpire)
		if !c.Holds || c.Token != ev.Msg.Value || c.Asked || c.Ends != v.Now()+d || c.Until != v.LocalTime(id)+d || !armed || due != v.Now()+d {
			return fmt.Sprintf("took a GRANT of token %d for %s and believes it holds token %d until %d (its timer due %d, armed: %t), still waiting: %t", ev.Msg.Value, sim.Ticks(d), c.Token, c.Ends, due, armed, c.Asked)
		}
	}
	return ""
}

func checkServiceGrants(v sim.View, p *Process, ev sim.Event) string {
	s := p.Service
	fresh := false // a lease granted or renewed at this step runs its whole length
	for _, a := range v.LastAnnotations() {
		fresh = fresh || a.Role == RoleLease && a.Phase == sim.Begin && ev.Kind != sim.Recover
	}
	fresh = fresh || ev.Kind == sim.Deliver && ev.Msg.Kind == KindRenew && s.Holder == ev.From
	left := s.Expiry - v.Now()
	if p.WallClock {
		left = s.Until - v.LocalTime(Service)
	}
	for e := range check.SentThisStep(v, Service) {
		if e.Kind != KindGrant {
			continue
		}
		switch {
		case e.To != s.Holder || e.Value != s.Token || len(e.Data) != 1:
			return fmt.Sprintf("sent %s a GRANT of token %d, with the lease %s's (token %d)", v.Name(e.To), e.Value, nameOr(v, s.Holder), s.Token)
		case sim.Time(e.Data[0]) != left || left <= 0 || fresh && (left != p.Lease || s.Expiry != v.Now()+p.Lease):
			return fmt.Sprintf("sent %s a GRANT for %s, with %s of the lease left (granted or renewed now: %t)", v.Name(e.To), sim.Ticks(sim.Time(e.Data[0])), sim.Ticks(left), fresh)
		}
	}
	if ev.Kind == sim.Deliver && ev.Msg.Kind == KindRelease {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleLease || a.Phase != sim.End {
				continue
			}
			if e := s.Ended; sim.NodeID(a.Group) != ev.From || e.Holder != ev.From || e.Token != ev.Msg.Value || !e.Released {
				return fmt.Sprintf("ended %s's lease on %s's RELEASE of token %d", v.Name(sim.NodeID(a.Group)), v.Name(ev.From), ev.Msg.Value)
			}
		}
	}
	return ""
}

// nameOr names a process, or says nobody.
func nameOr(v sim.View, id sim.NodeID) string {
	if id == sim.None {
		return "nobody"
	}
	return v.Name(id)
}
