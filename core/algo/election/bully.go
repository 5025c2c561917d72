package election

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// Bully is Garcia-Molina's bully election as a part a node embeds: the
// bully algorithm's processes, and the central coordinator's when they
// elect a new one. A process that notices the coordinator is gone sends
// ELECTION to every higher id and waits for an OK; with none before its
// timeout it declares itself coordinator and sends COORDINATOR to
// everyone; a process that got an OK waits for the COORDINATOR and starts
// over if that times out. A process that receives ELECTION answers OK and
// takes the election over, so the highest live id wins.
type Bully struct {
	Belief
	// Asking says the process waits for an OK; an electing process that
	// is not asking waits for the COORDINATOR.
	Asking bool
	// Timeout and Wait are the process's timeouts.
	Timeout, Wait sim.Time
	// Sent and Received count the ELECTION messages this process sent
	// and received.
	Sent, Received int
}

// The bully election's message kinds and timers.
const (
	KindElection    = "ELECTION"
	KindOK          = "OK"
	KindCoordinator = "COORDINATOR"
	// TimerOK fires when a process has waited Timeout ticks for an OK.
	TimerOK = "ok"
	// TimerCoordinator fires when a process that got an OK has waited
	// Wait ticks for the COORDINATOR.
	TimerCoordinator = "coordinator"
)

// BullyKinds are the bully election's message kinds, for a Spec.
var BullyKinds = []sim.KindSpec{
	{Name: KindElection, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle},
	{Name: KindOK, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing},
	{Name: KindCoordinator, Role: sim.RoleControl, Tone: sim.Purple, Glyph: sim.GlyphDiamond},
}

// Buller is a node that runs the bully election, for WaitsOnATimeout.
type Buller interface {
	Bullying() *Bully
}

// WaitsName names the WaitsOnATimeout invariant.
const WaitsName = "an electing process waits on its timeout"

// WaitsOnATimeout is the invariant that a bully election cannot stall: a
// live process that runs one waits for an OK with its Timeout armed, or
// for the COORDINATOR with its Wait armed. The timeouts are the election's
// failure detector: without the one it waits on, an answer lost, or one
// that never comes from a crashed process, leaves it electing for ever.
var WaitsOnATimeout = sim.Invariant{
	Name: WaitsName,
	Help: "a live process running a bully election has its timeout armed: for an OK while it asks, for the COORDINATOR once a higher process answered",
	Check: func(v sim.View) sim.Verdict {
		for i := range v.N() {
			id := sim.NodeID(i)
			b := v.Node(id).(Buller).Bullying()
			if v.Health(id) == sim.Crashed || !b.Electing {
				continue
			}
			tag, what := TimerCoordinator, "the COORDINATOR"
			if b.Asking {
				tag, what = TimerOK, "an OK"
			}
			if _, armed := v.Timer(id, tag); !armed {
				return sim.Verdict{Detail: fmt.Sprintf("%s runs an election and waits for %s, but its timer %q is not armed: it would wait for ever", v.Name(id), what, tag)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// Timer handles the election's timers; it reports whether tag was one.
func (b *Bully) Timer(env *sim.Env, tag string) bool {
	me := env.Name(env.Self())
	switch {
	case tag == TimerOK && b.Asking:
		env.Explain("%s got no OK within %s: %s", me, sim.Ticks(b.Timeout), b.Declare(env))
	case tag == TimerCoordinator && b.Electing && !b.Asking:
		env.Explain("%s got no COORDINATOR within %s: it starts over, %s", me, sim.Ticks(b.Wait), b.Start(env))
	case tag == TimerOK, tag == TimerCoordinator:
	default:
		return false
	}
	return true
}

// Deliver handles the election's messages; it reports whether ev was one.
func (b *Bully) Deliver(env *sim.Env, ev sim.Event) bool {
	me, who := env.Name(env.Self()), env.Name(ev.From)
	switch ev.Msg.Kind {
	case KindElection:
		b.Received++
		b.send(env, ev.From, KindOK)
		switch {
		case b.Electing:
			env.Explain("%s replies OK to %s; it is already running an election", me, who)
		case b.Leading && int(env.Self()) == env.N()-1:
			// the highest id has won already, and nobody can outrank it:
			// it tells the late one so
			b.send(env, ev.From, KindCoordinator)
			env.Explain("%s replies OK to %s and, as it leads, sends it COORDINATOR", me, who)
		case b.Leading:
			// a leader with higher ids holds an election, as every
			// receiver does: a COORDINATOR sent to the late one alone
			// could be stale (a higher process may have just recovered
			// and won), and the higher one would never hear it to
			// answer it
			env.Explain("%s replies OK to %s and, though it leads, holds an election, as any process that gets an ELECTION does: %s", me, who, b.Start(env))
		default:
			env.Explain("%s replies OK to %s and takes the election over: %s", me, who, b.Start(env))
		}
	case KindOK:
		if !b.Asking {
			env.Explain("%s gets OK from %s as well", me, who)
			return true
		}
		b.Asking = false
		env.CancelTimer(TimerOK)
		env.SetTimer(TimerCoordinator, b.Wait)
		env.Explain("%s gets OK from %s: a higher process is alive and takes over; %s waits up to %s for its COORDINATOR", me, who, me, sim.Ticks(b.Wait))
	case KindCoordinator:
		if ev.From < env.Self() {
			switch {
			case b.Electing:
				env.Explain("%s hears %s claim to lead, but %s is higher and already running an election", me, who, me)
				return true
			case b.Leading:
				// others may have followed the claim: tell everyone again
				env.Explain("%s hears %s claim to lead, but %s leads and is higher: %s", me, who, me, b.Declare(env))
				return true
			}
			env.Explain("%s hears %s claim to lead, but %s is higher and bullies: %s", me, who, me, b.Start(env))
			return true
		}
		b.Asking = false
		env.CancelTimer(TimerOK)
		env.CancelTimer(TimerCoordinator)
		b.Follow(env, ev.From)
		env.Explain("%s follows %s, the new coordinator", me, who)
	default:
		return false
	}
	return true
}

// Start begins an election: ELECTION to every higher id, or, with none,
// the win. It says what it did, for the caption.
func (b *Bully) Start(env *sim.Env) string {
	b.Begin(env)
	self := env.Self()
	var higher []string
	for q := self + 1; int(q) < env.N(); q++ {
		b.send(env, q, KindElection)
		b.Sent++
		higher = append(higher, env.Name(q))
	}
	if len(higher) == 0 {
		return env.Name(self) + " sends ELECTION to nobody: " + b.Declare(env)
	}
	b.Asking = true
	env.CancelTimer(TimerCoordinator)
	env.SetTimer(TimerOK, b.Timeout)
	return fmt.Sprintf("%s sends ELECTION to %s (every higher id: it cannot know which are alive) and waits up to %s for an OK", env.Name(self), List(higher), sim.Ticks(b.Timeout))
}

// Declare wins the election: COORDINATOR to every other process.
func (b *Bully) Declare(env *sim.Env) string {
	again := b.Leading
	b.Asking = false
	env.CancelTimer(TimerOK)
	env.CancelTimer(TimerCoordinator)
	b.Lead(env)
	for q := range env.N() {
		if sim.NodeID(q) != env.Self() {
			b.send(env, sim.NodeID(q), KindCoordinator)
		}
	}
	if again {
		return "it sends COORDINATOR to all again"
	}
	return env.Name(env.Self()) + " wins and sends COORDINATOR to all"
}

func (b *Bully) send(env *sim.Env, to sim.NodeID, kind string) {
	env.Send(to, sim.Message{Kind: kind, Label: kind})
}

// State says where the process's election stands.
func (b *Bully) State() string {
	switch {
	case b.Asking:
		return "waits for an OK"
	case b.Electing:
		return "waits for the COORDINATOR"
	case b.Leading:
		return "leads"
	}
	return "follows"
}

// List writes names as people do: "3", "3 and 4", "3, 4 and 6".
func List(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
