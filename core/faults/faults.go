// Package faults describes what can go wrong with a process or a message:
// crash and recover, a stop-the-world GC pause, a message lost by the
// network. The engine applies them; this package names them and holds each
// process's health.
package faults

import (
	"fmt"

	"spacetime/core/sim"
)

// Kind is a fault a script or the learner can inject.
type Kind string

// The faults.
const (
	// Crash stops a process: it takes no events, its timers are cancelled and
	// messages to it wait in their channels until it recovers.
	Crash Kind = "crash"
	// Recover restarts a crashed process; the algorithm decides what it forgot.
	Recover Kind = "recover"
	// Pause freezes a process for a while, as a long GC pause does: events for
	// it queue up, and it wakes believing no time has passed.
	Pause Kind = "pause"
	// Drop makes the network lose one message in flight.
	Drop Kind = "drop"
)

// Kinds lists every fault, for validation messages.
var Kinds = []Kind{Crash, Recover, Pause, Drop}

// Parse checks a fault name.
func Parse(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown fault %q (want one of crash, recover, pause, drop)", s)
}

// State is a process's health.
type State uint8

// The states a process can be in.
const (
	Up State = iota
	Crashed
	Paused
)

// String names the state.
func (s State) String() string {
	return [...]string{"up", "crashed", "paused"}[s]
}

// Health is a process's state and, when paused, when it wakes.
type Health struct {
	State State
	Until sim.Time
}

// Running reports whether the process takes events now.
func (h Health) Running() bool { return h.State == Up }
