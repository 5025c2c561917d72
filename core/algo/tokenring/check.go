package tokenring

import (
	"fmt"

	"spacetime/core/algo/mutex"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// The checks of the token's own rules, read after each step off the
// process that took it. They restate the stamps' order rather than call
// Stamp.Before, which the campaign mutates.

// later is the stamps' order restated: a later generation, or the same
// one further round the ring.
func later(s, o Stamp) bool { return s.Gen > o.Gen || s.Gen == o.Gen && s.Hop > o.Hop }

// drawn is the token's picture held to the process's state.
var drawn = mutex.TokenDrawn(RoleToken, func(v sim.View, id sim.NodeID) bool { return process(v, id).Holds })

// StampsName names the check of the tokens' stamps.
const StampsName = "a process takes only a token later than any it has held, passes it on a hop further, and makes a new one of a later generation"

// stamps holds each process to the rules that keep one token: a holder's
// token is the latest it has seen; a TOKEN is taken only if no copy of
// it came before, and one that is not taken is no later than what the
// process has seen; a pass sends the token to the successor a hop
// further; a regenerated token starts a later generation than any the
// process passed on; the pass is armed only at an idle holder.
var stamps = sim.Invariant{
	Name: StampsName,
	Help: "a holder's token is the latest it has seen; a TOKEN is taken only if no copy of it came first, and one not taken is no later than what the process has seen; a pass goes to the successor a hop further; a regenerated token is of a later generation than any the process passed on, at hop 0; only an idle holder has its pass armed",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		return stampRule(v, id, ev, process(v, id))
	}),
}

// stampRule says how the step broke a rule, or "".
func stampRule(v sim.View, id sim.NodeID, ev sim.Event, p *Process) string {
	if _, passing := v.Timer(id, TimerPass); passing && (!p.Holds || p.State != mutex.Idle) {
		return fmt.Sprintf("has its pass armed, and it is %s, holding the token: %t", p.State, p.Holds)
	}
	if p.Holds && p.Token != p.Seen {
		return fmt.Sprintf("holds the token %s, and has seen %s", p.Token, p.Seen)
	}
	passed := Stamp{Gen: p.Seen.Gen, Hop: p.Seen.Hop + 1}
	for e := range check.SentThisStep(v, id) {
		if sent := (Stamp{Gen: e.Value, Hop: hop(e.Message)}); e.To != p.Next || p.Holds || sent != passed || p.Token != passed || len(e.Data) != 1 {
			return fmt.Sprintf("sent %s the token %s, having held %s, with %s next on the ring", v.Name(e.To), sent, p.Seen, v.Name(p.Next))
		}
	}
	took := p.Holds && !v.DrawnBefore(id, RoleToken, 0, v.Steps()-1)
	switch {
	case ev.Kind == sim.Deliver && ev.Msg.Kind == KindToken:
		t := Stamp{Gen: ev.Msg.Value, Hop: hop(ev.Msg)}
		if took {
			if first := check.CopyDelivered(v, id, ev.MsgID); first >= 0 {
				return fmt.Sprintf("took the token %s, a copy of which it got at step %d", t, first)
			}
		} else if later(t, p.Seen) {
			return fmt.Sprintf("did not take the token %s, later than the %s it has seen", t, p.Seen)
		}
	case ev.Kind == sim.Command && ev.Tag == CmdRegenerate && took:
		if gen := lastPassed(v, id); p.Token.Hop != 0 || p.Token.Gen < 2 || p.Token.Gen <= gen {
			return fmt.Sprintf("regenerated the token as %s, having passed on one of generation %d", p.Token, gen)
		}
	}
	return ""
}

// String writes a stamp: "(generation 1, hop 3)".
func (s Stamp) String() string { return fmt.Sprintf("(generation %d, hop %d)", s.Gen, s.Hop) }

// lastPassed is the generation of the last token process id passed on
// before the step just taken, or 1, the first token's.
func lastPassed(v sim.View, id sim.NodeID) int64 {
	for m := v.SentFrom(v.Steps()-1) - 1; m >= 0; m-- {
		if e := v.Envelope(m); e.From == id && e.Kind == KindToken && e.Original == e.ID {
			return e.Value
		}
	}
	return 1
}
