package mutex

import (
	"fmt"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// ObeysName and DrawnName name the checks that hold a process to the
// learner's request and the picture to the processes.
const (
	ObeysName = "a process asked to want the section wants it"
	DrawnName = "a process is drawn waiting and in the section exactly while it is"
)

// Obeys is the invariant that a process that takes the request command
// (the learner's, or its work's) wants the section after it, or holds it
// already: a process that ignored the request would pass every other
// check, since nobody would want anything.
func Obeys(request sim.CommandSpec) sim.Invariant {
	return sim.Invariant{
		Name: ObeysName,
		Help: "after a request, of the learner's or of its work, a process that takes requests wants the critical section or is in it",
		Check: func(v sim.View) sim.Verdict {
			id, ev, ok := v.LastStep()
			if !ok || ev.Kind == sim.Command && ev.Tag != request.Name || ev.Kind != sim.Command && ev.Kind != sim.Workload || !request.TakenBy(v, id) {
				return sim.Verdict{OK: true}
			}
			if wish(v, id).State == Idle {
				return sim.Verdict{Detail: fmt.Sprintf("%s was asked to want the critical section, but neither wants it nor is in it", v.Name(id))}
			}
			return sim.Verdict{OK: true}
		},
	}
}

// Drawn is the invariant that the diagram draws a process waiting, and in
// the section, exactly while it is: a process's state and its picture
// cannot part without a learner being shown something that did not happen.
var Drawn = sim.Invariant{
	Name: DrawnName,
	Help: "the diagram draws a process that is up waiting for the critical section exactly while it wants it, and in it exactly while it holds it",
	Check: func(v sim.View) sim.Verdict {
		for _, r := range drawnRoles {
			id, drawn := check.Misdrawn(v, r.role, 0, func(id sim.NodeID) bool { return wish(v, id).State == r.state })
			if id == sim.None {
				continue
			}
			is := "is not"
			if drawn {
				is = "is"
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s is %s, but %s drawn %s", v.Name(id), wish(v, id).State, is, r.where)}
		}
		return sim.Verdict{OK: true}
	},
}

// drawnRoles are the intervals Drawn holds to a process's state.
var drawnRoles = [...]struct {
	role  string
	state State
	where string
}{{RoleWaiting, Wanting, "waiting for the critical section"}, {RoleCS, InCS, "in the critical section"}}

// TokenDrawnName names the TokenDrawn invariant.
const TokenDrawnName = "a process is drawn holding the token exactly while it holds it"

// TokenDrawn is the invariant that the diagram draws a process holding
// the token (the interval of role) exactly while holds says it does: for
// the algorithms that pass one.
func TokenDrawn(role string, holds func(v sim.View, id sim.NodeID) bool) sim.Invariant {
	return sim.Invariant{
		Name: TokenDrawnName,
		Help: "the token's interval is open on a process exactly while it holds the token",
		Check: func(v sim.View) sim.Verdict {
			if id, on := check.Misdrawn(v, role, 0, func(id sim.NodeID) bool { return holds(v, id) }); id != sim.None {
				return sim.Verdict{Detail: fmt.Sprintf("%s holds the token: %t, but is drawn holding it: %t", v.Name(id), holds(v, id), on)}
			}
			return sim.Verdict{OK: true}
		},
	}
}
