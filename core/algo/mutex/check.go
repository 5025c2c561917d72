package mutex

import (
	"fmt"
	"strings"

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
// check, since nobody would want anything. Asked again while it waits or
// holds the section (as the diagram drew it before the step), it does
// nothing: no message, nothing drawn.
func Obeys(request sim.CommandSpec) sim.Invariant {
	return sim.Invariant{
		Name: ObeysName,
		Help: "after a request, of the learner's or of its work, a process that takes requests wants the critical section or is in it; one that already did sends nothing and draws nothing new",
		Check: func(v sim.View) sim.Verdict {
			id, ev, ok := v.LastStep()
			if !ok || ev.Kind == sim.Command && ev.Tag != request.Name || ev.Kind != sim.Command && ev.Kind != sim.Workload || !request.TakenBy(v, id) {
				return sim.Verdict{OK: true}
			}
			if wish(v, id).State == Idle {
				return sim.Verdict{Detail: fmt.Sprintf("%s was asked to want the critical section, but neither wants it nor is in it", v.Name(id))}
			}
			// asked again while it waits or holds the section, it has
			// nothing to do: it sends nothing and draws nothing new
			step := v.Steps() - 1
			if v.DrawnBefore(id, RoleWaiting, 0, step) || v.DrawnBefore(id, RoleCS, 0, step) {
				for e := range check.SentThisStep(v, id) {
					return sim.Verdict{Detail: fmt.Sprintf("%s was asked to want the critical section while it already did, and sent %s", v.Name(id), e.Kind)}
				}
				if len(v.LastAnnotations()) > 0 {
					return sim.Verdict{Detail: fmt.Sprintf("%s was asked to want the critical section while it already did, and is drawn anew", v.Name(id))}
				}
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

func wish(v sim.View, id sim.NodeID) *Want { return v.Node(id).(Wanter).Wish() }

// Safety is the invariant that at most one process is in the critical
// section.
var Safety = SafetyPointing(nil)

// SafetyPointing is Safety that, when it fails, points at the messages
// that explain why (a REPLY that overtook a REQUEST); culprits may be nil.
func SafetyPointing(culprits func(v sim.View) []int) sim.Invariant {
	return sim.Invariant{
		Name: SafetyName,
		Help: "mutual exclusion: no two processes are in the critical section at once",
		Check: func(v sim.View) sim.Verdict {
			var in []string
			for i := range v.N() {
				// a crashed process is not in the section: a crash ends
				// what it was doing (and its interval on the diagram)
				if wish(v, sim.NodeID(i)).State == InCS && v.Health(sim.NodeID(i)) != sim.Crashed {
					in = append(in, v.Name(sim.NodeID(i)))
				}
			}
			if len(in) <= 1 {
				return sim.Verdict{OK: true}
			}
			verdict := sim.Verdict{Detail: strings.Join(in, " and ") + " are in the critical section at once"}
			if culprits != nil {
				verdict.Msgs = culprits(v)
			}
			return verdict
		},
	}
}

// SafetyName names the Safety invariant.
const SafetyName = "at most one process in the critical section"

// ReleaseName names the Release invariant.
const ReleaseName = "every process in the critical section has its release armed"

// Release is the invariant that a process in the critical section will
// leave it: its release timer (cs_time ticks from its entry) is armed. A
// process whose release was never armed, or fired and was ignored, holds
// the section for good and shuts every other process out, which neither
// Safety nor Deadlock notices (someone is in the section). A pause or a
// slow clock only delays the release, which stays armed.
var Release = sim.Invariant{
	Name: ReleaseName,
	Help: "a process in the critical section has the timer armed that takes it out after cs_time ticks",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			if v.Health(id) == sim.Crashed || wish(v, id).State != InCS {
				continue
			}
			if _, armed := v.Timer(id, TimerRelease); !armed {
				return sim.Verdict{Detail: fmt.Sprintf("%s is in the critical section with no release armed: it will hold it for good", v.Name(id))}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// DeadlockName names the invariant Deadlock makes.
const DeadlockName = "no deadlock"

// Deadlock is the invariant that a process that wants the section can
// still get it: it fails when some process waits, none is in the section,
// and nothing that could let one in can happen, because no message is in
// flight to a process that is up. blocked names what the waiting
// processes wait for, in the algorithm's words ("2 waits for the GRANT of
// 1, which has crashed"), or says "" when the algorithm can still move
// without a message (a process that is up holds the token).
func Deadlock(blocked func(v sim.View) string) sim.Invariant {
	return DeadlockPointing(blocked, nil)
}

// DeadlockPointing is Deadlock that, when it fails, points at the messages
// that close the wait (the votes and queued requests of a wait-for
// cycle); culprits may be nil.
func DeadlockPointing(blocked func(v sim.View) string, culprits func(v sim.View) []int) sim.Invariant {
	return Stuck(DeadlockName, "a process that wants the critical section is never stuck with nothing on its way that could let it in", blocked, culprits)
}

// Stuck is an invariant of a stuck section, under its own name: it fails
// when some process waits, none is in the section, no message is in
// flight to a process that is up, and blocked says why ("" holds). An
// algorithm whose deadlocks are a known limit (Maekawa's) can so hold its
// deadlocks to their known shape.
func Stuck(name, help string, blocked func(v sim.View) string, culprits func(v sim.View) []int) sim.Invariant {
	return sim.Invariant{
		Name: name,
		Help: help,
		Check: func(v sim.View) sim.Verdict {
			waiting := false
			for i := range v.N() {
				if v.Health(sim.NodeID(i)) == sim.Crashed {
					continue // it neither holds the section nor waits
				}
				switch wish(v, sim.NodeID(i)).State {
				case InCS:
					return sim.Verdict{OK: true}
				case Wanting:
					waiting = true
				}
			}
			if !waiting {
				return sim.Verdict{OK: true}
			}
			if check.InFlightToLive(v) {
				return sim.Verdict{OK: true}
			}
			why := blocked(v)
			if why == "" {
				return sim.Verdict{OK: true}
			}
			verdict := sim.Verdict{Detail: why}
			if culprits != nil {
				verdict.Msgs = culprits(v)
			}
			return verdict
		},
	}
}
