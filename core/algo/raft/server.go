package raft

import (
	"fmt"

	"spacetime/core/sim"
)

// Server is a Raft server whose state machine is a register, x, that
// every command sets.
type Server struct {
	Replica
	// Register is the state machine: volatile, rebuilt from the log.
	Register int64
}

// Step reacts to one event.
func (s *Server) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		s.Start(env)
		env.Explain("%s starts as a follower of term %d, with %s", me, s.Term, s.logText())
	case sim.Recover:
		s.Restart(env)
		s.Register = 0
		env.Explain("%s recovers as a follower: it kept term %d, its vote and %s, and lost its commit index and state machine", me, s.Term, s.logText())
	case sim.Timer:
		if what, ok := s.Timer(env, ev.Tag); ok {
			env.Explain("%s", what)
		}
	case sim.Command:
		switch ev.Tag {
		case CmdSubmit:
			s.submit(env, ev.Arg, "a client's command")
		case CmdTimeout:
			env.Explain("%s", s.TimeOut(env))
		}
	case sim.Workload:
		if s.Role == Leader {
			s.submit(env, 1+int64(env.Rand().IntN(99)), "a client's command")
		} else {
			env.Explain("a client's command reaches %s, which does not lead: the client tries again later", me)
		}
	case sim.Deliver:
		env.Explain("%s", s.Receive(env, ev, s))
	}
}

// submit appends a client's command, if the server leads.
func (s *Server) submit(env *sim.Env, cmd int64, what string) {
	me := env.Name(env.Self())
	if s.Role != Leader {
		env.Explain("%s does not lead: it takes no command", me)
		return
	}
	i, sent := s.Propose(env, Command{cmd})
	env.Explain("%s appends %s, x ← %d, as entry %d of term %d, and sends it to the %d followers that are up to date", me, what, cmd, i, s.Term, sent)
}

// Apply applies committed entries to the register, and says so.
func (s *Server) Apply(env *sim.Env, from, to int) string {
	for i := from; i <= to; i++ {
		if c := s.Log.At(i).Cmd[0]; c != 0 {
			s.Register = c
		}
	}
	if from == to {
		return fmt.Sprintf(" and applies entry %d (x = %d)", from, s.Register)
	}
	return fmt.Sprintf(" and applies entries %d to %d (x = %d)", from, to, s.Register)
}

// Inspect shows the server's role, term, vote, log and state machine.
func (s *Server) Inspect() []sim.Field {
	return append(s.Fields(), sim.Field{Name: "x", Value: fmt.Sprint(s.Register)})
}

// Clone copies the server.
func (s *Server) Clone() sim.Node {
	return &Server{Replica: s.CloneReplica(), Register: s.Register}
}

// Fingerprint writes the replica's fingerprint and the register.
func (s *Server) Fingerprint(h *sim.Hash) {
	s.Replica.Fingerprint(h)
	h.Int(s.Register)
}
