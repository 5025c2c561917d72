package conformance

import (
	"encoding/json"
	"fmt"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// Relay is the conformance suite's own algorithm, not one of the product's:
// a token passed around a ring, small enough to read and built to use every
// part of the contract, so that the engine, the diagram and the suite are
// tested on what the product's algorithms will need. The token carries an
// array (Data) that every holder changes in place; timers pass it on and
// beat; a command only odd-numbered processes take; another names a
// target; annotations of every style; a ring topology; an invariant and
// the fault known to break it.
var Relay = &sim.Spec{
	ID:           "relay",
	Title:        "Relay (the conformance suite's fixture)",
	Summary:      "A token goes around a ring; each holder counts its visit in the token's array.",
	MinN:         2,
	MaxN:         16,
	DefaultNames: sim.NumberNames,
	Kinds: []sim.KindSpec{
		{Name: "token", Role: sim.RoleToken},
		{Name: "ping", Role: sim.RoleControl, Tone: sim.Green},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: "poke", Help: "count a poke", Takes: func(v sim.View, id sim.NodeID) bool { return id.Number()%2 == 1 }, Who: "the odd-numbered processes"},
			{Name: "ping", Help: "send a ping", Target: true},
		},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: "holds", Style: sim.StyleBar, Tone: sim.Gold, Legend: "holds the token"},
			{Name: "waits", Style: sim.StyleOutline, Tone: sim.Orange, Legend: "waits for a ping's answer"},
			{Name: "poked", Style: sim.StyleGlyph, Glyph: sim.GlyphTriangle, Tone: sim.Red, Legend: "poked"},
			{Name: "pings", Style: sim.StyleArrow, Tone: sim.Green, Legend: "pings"},
			{Name: "lap", Style: sim.StyleBand, Tone: sim.Teal, Legend: "a lap of the ring"},
			{Name: "fired", Style: sim.StyleGlyph, Glyph: sim.GlyphRing, Tone: sim.Grey, Legend: "a timer fired"},
			{Name: "count", Style: sim.StyleHidden},
			// overlays: what the pictures draw at the step on screen
			{Name: "tally", Style: sim.StyleState},
			{Name: "awaits", Style: sim.StyleWait, Tone: sim.Red, Legend: "waits for the other"},
			{Name: "held", Style: sim.StyleHeld, Tone: sim.Orange, Legend: "a link held back"},
			{Name: "mark-line", Style: sim.StyleLine, Tone: sim.Teal, Legend: "a line through the processes' pasts"},
		},
		Topology: func(v sim.View) *sim.Topology { return sim.RingOf(ringOrder(v.N())) },
		Overlays: func(v sim.View) []sim.Overlay {
			var out []sim.Overlay
			for i := range v.N() {
				if pokes := v.Node(sim.NodeID(i)).(*relayNode).Pokes; pokes > 0 {
					out = append(out, sim.Overlay{Role: "tally", Node: sim.NodeID(i), Text: fmt.Sprintf("poked %d", pokes)})
				}
			}
			return out
		},
	},
	New: newRelay,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{{Name: "at most one token", Help: "holders plus tokens in flight", Check: oneToken}},
		KnownLimits: []sim.KnownLimit{
			{Invariant: "at most one token", Faults: []string{"duplicate"}, Why: "the network's copy of the token is a second token"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: func(v sim.View) []sim.Metric {
			laps := 0
			for i := range v.N() {
				laps = max(laps, v.Node(sim.NodeID(i)).(*relayNode).Laps)
			}
			return []sim.Metric{{Name: "laps", Value: laps}}
		},
		Formula: func(v sim.View) string { return fmt.Sprintf("Tokens: one around a ring of %d.", v.N()) },
	},
}

func ringOrder(n int) []sim.NodeID {
	order := make([]sim.NodeID, n)
	for i := range order {
		order[i] = sim.NodeID(i)
	}
	return order
}

// relayParams are Relay's params.
type relayParams struct {
	// Hold is how long a holder keeps the token.
	Hold sim.Time `json:"hold"`
}

func newRelay(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := relayParams{Hold: 3}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.Hold < 1 || p.Hold > 1000 {
		return nil, strictjson.FieldErrorf("params.hold", "want 1 to 1000 ticks, got %d", p.Hold)
	}
	nodes := make([]sim.Node, len(names))
	for i := range nodes {
		nodes[i] = &relayNode{Hold: p.Hold}
	}
	return nodes, nil
}

// relayNode is one process of the ring.
type relayNode struct {
	Hold  sim.Time
	Holds bool
	// Visits is the token's array while this process holds it.
	Visits []int64
	Laps   int
	Pokes  int
	Pings  int
}

func (r *relayNode) Clone() sim.Node {
	c := *r
	c.Visits = append([]int64(nil), r.Visits...)
	return &c
}

func (r *relayNode) Inspect() []sim.Field {
	return []sim.Field{
		{Name: "holds", Value: fmt.Sprint(r.Holds)},
		{Name: "visits", Value: fmt.Sprint(r.Visits)},
		{Name: "laps", Value: fmt.Sprint(r.Laps)},
		{Name: "pokes", Value: fmt.Sprint(r.Pokes)},
	}
}

func (r *relayNode) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	next := sim.NodeID((int(env.Self()) + 1) % env.N())
	switch ev.Kind {
	case sim.Init:
		env.SetTimer("beat", 7)
		if env.Self() == 0 {
			// armed in this order, due in the other: after a pause the one
			// due first fires first
			env.SetTimer("long", 40)
			env.SetTimer("short", 10)
			r.take(env, make([]int64, env.N()))
			env.Explain("%s starts with the token (local clock %d, Lamport %d)", me, env.LocalTime(), env.Lamport())
			return
		}
		env.Explain("%s joins the ring; it passes to %s", me, env.Name(next))
	case sim.Timer:
		switch ev.Tag {
		case "pass":
			if !r.Holds {
				env.Explain("%s has no token to pass", me)
				return
			}
			env.Send(next, sim.Message{Kind: "token", Value: r.Visits[env.Self()], Label: "T", Data: r.Visits})
			env.Annotate(sim.Closes("holds", 0))
			// the array it sent is its own: changing it now must not change
			// the message
			r.Visits[env.Self()] += 1000
			r.Holds, r.Visits = false, nil
			env.Explain("%s passes the token to %s", me, env.Name(next))
		case "beat":
			env.SetTimer("beat", 7)
			env.Explain("%s beats (local clock %d)", me, env.LocalTime())
		default:
			env.Annotate(sim.At("fired", 0, ev.Tag))
			env.Explain("%s: the %s timer fired at %d", me, ev.Tag, env.Now())
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case "token":
			if len(ev.Msg.Data) != env.N() {
				env.Explain("%s gets a token with no array", me)
				return
			}
			r.take(env, ev.Msg.Data)
			env.Explain("%s takes the token from %s (its visits: %d)", me, env.Name(ev.From), r.Visits[env.Self()])
		case "ping":
			r.Pings++
			env.Annotate(sim.Closes("waits", int(ev.From)))
			env.Explain("%s is pinged by %s", me, env.Name(ev.From))
		}
	case sim.Command:
		switch ev.Tag {
		case "poke":
			r.Pokes++
			env.Annotate(sim.At("poked", 0, fmt.Sprintf("%d", r.Pokes)), sim.At("count", 0, ""))
			env.Explain("%s is poked (%d so far)", me, r.Pokes)
		case "ping":
			env.Send(ev.Target, sim.Message{Kind: "ping"})
			env.Annotate(sim.At("pings", 0, "ping").To(ev.Target), sim.Opens("waits", int(env.Self()), ""))
			env.Explain("%s pings %s", me, env.Name(ev.Target))
		}
	case sim.Workload:
		to := sim.NodeID(env.Rand().IntN(env.N()))
		if to == env.Self() {
			env.Explain("%s has nothing to do", me)
			return
		}
		env.Send(to, sim.Message{Kind: "ping"})
		env.Explain("%s pings %s", me, env.Name(to))
	case sim.Recover:
		lost := r.Holds
		r.Holds, r.Visits = false, nil
		env.SetTimer("beat", 7)
		if lost {
			env.Annotate(sim.Closes("holds", 0))
			env.Explain("%s recovers: the token it held is lost", me)
			return
		}
		env.Explain("%s recovers", me)
	}
}

// take holds the token with its array, counts the visit and arms the pass.
func (r *relayNode) take(env *sim.Env, visits []int64) {
	r.Holds, r.Visits = true, visits
	r.Visits[env.Self()]++
	if env.Self() == 0 && r.Visits[0] > 1 {
		r.Laps++
		env.Annotate(sim.Opens("lap", r.Laps, fmt.Sprintf("lap %d", r.Laps)))
	}
	if env.Self() == 0 && r.Laps > 0 {
		env.Annotate(sim.Closes("lap", r.Laps-1))
	}
	env.Annotate(sim.Opens("holds", 0, "token"))
	env.SetTimer("pass", r.Hold)
}

func oneToken(v sim.View) sim.Verdict {
	holders := v.InFlightTotal("token").Count
	for i := range v.N() {
		if v.Node(sim.NodeID(i)).(*relayNode).Holds {
			holders++
		}
	}
	if holders <= 1 {
		return sim.Verdict{OK: true}
	}
	return sim.Verdict{Detail: fmt.Sprintf("%d tokens", holders)}
}
