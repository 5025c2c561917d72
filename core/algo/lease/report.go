package lease

import (
	"fmt"
	"slices"
	"strings"

	"spacetime/core/algo/fencing"
	"spacetime/core/check"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const oneBelieverName = "at most one client believes it holds the lease"

// oneBeliever is the invariant a lease is meant to give and cannot on its
// own: no two clients believe they hold the lease at once.
var oneBeliever = sim.Invariant{
	Name: oneBelieverName,
	Help: "two clients that each believe they hold the lease both act as its holder",
	Check: func(v sim.View) sim.Verdict {
		var holders []string
		for _, id := range fencing.Clients(v) {
			if c := process(v, id).Client; c.Holds && v.Health(id) != sim.Crashed {
				holders = append(holders, fmt.Sprintf("%s (token %d)", v.Name(id), c.Token))
			}
		}
		if len(holders) <= 1 {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: strings.Join(holders, " and ") + " each believe they hold the lease"}
	},
}

const noStaleWriteName = "the storage accepts no write whose lease had run out"

// noStaleWrite is the invariant fencing is for: when the storage accepts
// a write, its token is the service's current lease, still running.
var noStaleWrite = fencing.NoStaleWrite(noStaleWriteName, "a write the storage accepts carries the token of a lease that has not run out",
	func(v sim.View, token int64) string {
		s := process(v, Service).Service
		switch {
		case token != s.Token:
			return fmt.Sprintf("the storage accepted a write with token %d, but the service has since granted token %d", token, s.Token)
		case s.Holder == sim.None || v.Now() >= s.Expiry:
			return fmt.Sprintf("the storage accepted a write with token %d after its lease ran out", token)
		}
		return ""
	})

const tokensName = "every grant takes the next token"

// tokens is what fencing rests on: the service gives each new lease the
// token after the last, so that tokens only grow; its newest GRANT
// carries its last token (a renewal keeps it); and a client believes in a
// token the service has granted. A network's copy of an old GRANT is not
// the service's.
var tokens = sim.Invariant{
	Name: tokensName,
	Help: "the service's last token is its first plus its grants less one, its newest GRANT carries it, and a client believes in a token already granted",
	Check: func(v sim.View) sim.Verdict {
		p := process(v, Service)
		s := p.Service
		if want := p.FirstToken - 1 + int64(s.Grants); s.Token != want {
			return sim.Verdict{Detail: fmt.Sprintf("the service's last token is %d after %d grants from token %d, not %d", s.Token, s.Grants, p.FirstToken, want)}
		}
		// the newest GRANT of the latest steps (two, whichever way the
		// view counts its last) is the newest of all
		for id := v.NumSent() - 1; id >= v.SentFrom(max(v.Steps()-2, 0)); id-- {
			e := v.Envelope(id)
			if e.Kind != KindGrant || e.Original != id {
				continue
			}
			if e.Value != s.Token {
				return sim.Verdict{Detail: fmt.Sprintf("the service's newest GRANT carries token %d, but its last token is %d", e.Value, s.Token), Msgs: []int{id}}
			}
			break
		}
		for _, id := range fencing.Clients(v) {
			c := process(v, id).Client
			switch {
			case !c.Holds:
			case c.Token < p.FirstToken || c.Token > s.Token:
				return sim.Verdict{Detail: fmt.Sprintf("%s believes it holds the lease with token %d, which the service never granted (it granted %d to %d)", v.Name(id), c.Token, p.FirstToken, s.Token)}
			case c.Token == s.Token && s.Holder != sim.None && s.Holder != id:
				return sim.Verdict{Detail: fmt.Sprintf("%s believes it holds the lease with token %d, which the service grants to %s", v.Name(id), c.Token, v.Name(s.Holder))}
			}
		}
		return sim.Verdict{OK: true}
	},
}

const drawnName = "a lease is drawn exactly while it is held"

// drawn holds the picture to the state: the service's bar is drawn on its
// holder's row exactly while the service grants it the lease, and a
// client's outline exactly while it believes it holds it. A crash ends
// both; a crashed process's state is not read.
var drawn = sim.Invariant{
	Name: drawnName,
	Help: "the service's bar \"lease\" is drawn on the holder's row while the service grants it the lease, and a client's outline while it believes it holds it",
	Check: func(v sim.View) sim.Verdict {
		s := process(v, Service).Service
		for _, id := range fencing.Clients(v) {
			if v.Health(Service) != sim.Crashed {
				if d := v.Drawn(Service, RoleLease, int(id)); d != (s.Holder == id) {
					return sim.Verdict{Detail: misdrawn(d, fmt.Sprintf("the service's lease of %s", v.Name(id)), "the service grants it")}
				}
			}
			if v.Health(id) != sim.Crashed {
				if d := v.Drawn(id, RoleBelieved, 0); d != process(v, id).Client.Holds {
					return sim.Verdict{Detail: misdrawn(d, fmt.Sprintf("%s's belief that it holds the lease", v.Name(id)), "it believes so")}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// misdrawn says how a bar and the state differ.
func misdrawn(drawn bool, what, while string) string {
	if drawn {
		return what + " is drawn, but no longer held: it is drawn only while " + while
	}
	return what + " is held, but not drawn: it is drawn while " + while
}

const timedName = "a lease runs out on its timer and a queued client is served"

// timed is what keeps the service going: a lease the service grants runs
// out on its timer (due when the lease ends, on the service's clock or
// its wall clock), a client that believes it holds one has its own timer
// to end the belief (due when its GRANT said the lease ends; one that
// reads its wall clock sets it again until its clock gets there), and no
// client waits while the lease is free. (A write in preparation has its
// timer: fencing.WritesAnswered says so.)
var timed = sim.Invariant{
	Name: timedName,
	Help: "a lease granted has the service's expiry timer armed, a client that believes it holds one has its own, due when its GRANT said, and nobody waits for a free lease",
	Check: func(v sim.View) sim.Verdict {
		s := process(v, Service).Service
		if v.Health(Service) != sim.Crashed {
			due, armed := v.Timer(Service, TimerExpire)
			switch {
			case s.Holder != sim.None && (!armed || due != s.Expiry):
				return sim.Verdict{Detail: fmt.Sprintf("the service grants %s the lease until %d, but has no timer due then to end it", v.Name(s.Holder), s.Expiry)}
			case s.Holder == sim.None && len(s.Queue) > 0:
				return sim.Verdict{Detail: fmt.Sprintf("the lease is free, but %s waits for it", v.Name(s.Queue[0]))}
			}
			for i, id := range s.Queue {
				if id == s.Holder || slices.Contains(s.Queue[:i], id) {
					return sim.Verdict{Detail: fmt.Sprintf("%s waits in the queue for the lease, though it holds it or waits there already", v.Name(id))}
				}
			}
		}
		for _, id := range fencing.Clients(v) {
			if v.Health(id) == sim.Crashed {
				continue
			}
			c := process(v, id).Client
			due, armed := v.Timer(id, TimerExpire)
			switch {
			case c.Holds && !armed:
				return sim.Verdict{Detail: fmt.Sprintf("%s believes it holds the lease (token %d) with no timer to end its belief", v.Name(id), c.Token)}
			case c.Holds && !process(v, id).WallClock && due != c.Ends:
				return sim.Verdict{Detail: fmt.Sprintf("%s's GRANT gave it the lease (token %d) until %d, but its timer ends its belief at %d", v.Name(id), c.Token, c.Ends, due)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

const endsName = "a lease ends only when it runs out or is given back"

// ends is the service's half of the bargain: it takes a lease from its
// holder only once the lease has run out by its clock (its wall clock,
// with params.wall_clock), or when the holder gives it back.
var ends = sim.Invariant{
	Name: endsName,
	Help: "the service's bar ends when the lease has run out by the service's clock, or on its holder's RELEASE",
	Check: func(v sim.View) sim.Verdict {
		if v.Health(Service) == sim.Crashed { // a crash ends the bar too
			return sim.Verdict{OK: true}
		}
		p := process(v, Service)
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleLease || a.Phase != sim.End {
				continue
			}
			e := p.Service.Ended
			switch {
			case e.Released:
			case p.WallClock && v.LocalTime(Service) < e.Until:
				return sim.Verdict{Detail: fmt.Sprintf("the service took the lease (token %d) from %s at %d on its wall clock, before %d, when it runs out", e.Token, v.Name(e.Holder), v.LocalTime(Service), e.Until)}
			case !p.WallClock && v.Now() < e.Expiry:
				return sim.Verdict{Detail: fmt.Sprintf("the service took the lease (token %d) from %s at %d, before %d, when it runs out", e.Token, v.Name(e.Holder), v.Now(), e.Expiry)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

const answeredName = "a client that asks for the lease gets it or waits for it"

// answered is the service's progress: a client that asked for the lease
// (ACQUIRE, or RENEW) and has no GRANT yet is queued at the service, or
// its request or its GRANT is on its way. With timed, a queued client is
// served when the lease before it ends. A lost message leaves a client
// waiting (the known limit): the clients do not ask again.
var answered = sim.Invariant{
	Name: answeredName,
	Help: "a client that asked for the lease and has no GRANT yet waits in the service's queue, or its request or the GRANT is on its way",
	Check: func(v sim.View) sim.Verdict {
		s := process(v, Service).Service
		for _, id := range fencing.Clients(v) {
			c := process(v, id).Client
			if !c.Asked || v.Health(id) == sim.Crashed || slices.Contains(s.Queue, id) ||
				check.Carries(v, id, Service, KindAcquire, KindRenew) || check.Carries(v, Service, id, KindGrant) {
				continue
			}
			return sim.Verdict{Detail: fmt.Sprintf("%s asked for the lease, but the service has not queued it and no GRANT is on its way to it", v.Name(id))}
		}
		return sim.Verdict{OK: true}
	},
}

const takenBackName = "a lease its holder gives back is taken back"

// takenBack is the other half of the service's progress: a lease whose
// holder gave it back (RELEASE) is no longer the service's grant to it
// once the RELEASE has arrived, so that the next client need not wait for
// it to run out.
var takenBack = sim.Invariant{
	Name: takenBackName,
	Help: "the service no longer grants the lease to a client that gave it back, once the client's RELEASE has arrived",
	Check: func(v sim.View) sim.Verdict {
		s := process(v, Service).Service
		h := s.Holder
		if h == sim.None || v.Health(Service) == sim.Crashed || v.Health(h) == sim.Crashed {
			return sim.Verdict{OK: true}
		}
		if c := process(v, h).Client; c.Released == s.Token && !check.Carries(v, h, Service, KindRelease) {
			return sim.Verdict{Detail: fmt.Sprintf("%s gave back its lease (token %d), but the service still grants it to %s", v.Name(h), s.Token, v.Name(h))}
		}
		return sim.Verdict{OK: true}
	},
}

func metrics(v sim.View) []sim.Metric {
	sv := process(v, Service).Service
	return append(fencing.StoreOf(v).Metrics(),
		sim.Metric{Name: "grants", Value: sv.Grants},
		sim.Metric{Name: "last_token", Value: sv.Token})
}

func panels(v sim.View) []sim.Panel {
	sv := process(v, Service).Service
	holder := "nobody"
	if sv.Holder != sim.None {
		holder = fmt.Sprintf("%s, token %d, until %d", v.Name(sv.Holder), sv.Token, sv.Expiry)
	}
	service := sim.Panel{Title: "Lock service and storage", Columns: []string{"", ""}, Rows: append([]sim.Row{
		{Cells: []string{"the service's lease", holder}},
		{Cells: []string{"last token", fmt.Sprint(sv.Token)}},
	}, fencing.StoreOf(v).Rows()...)}
	clients := sim.Panel{Title: "Clients", Note: "what each client believes, by its own timer", Columns: []string{"client", "health", "believes it holds", "token"}}
	for _, id := range fencing.Clients(v) {
		c := process(v, id).Client
		row := sim.Row{Cells: []string{v.Name(id), v.Health(id).String(), "no", ""}}
		if c.Holds {
			row.Cells[2], row.Cells[3] = "yes", fmt.Sprint(c.Token)
			row.CellEmphasis = []string{"", "", "good"}
			if sv.Holder != id || sv.Token != c.Token {
				row.CellEmphasis[2] = "bad" // the service has moved on
			}
		}
		clients.Rows = append(clients.Rows, row)
	}
	return []sim.Panel{service, clients}
}

func formula(v sim.View) string {
	sv := process(v, Service).Service
	st := fencing.StoreOf(v)
	return fmt.Sprintf("Leases granted: %d (tokens up to %d); writes accepted %d, rejected %d.", sv.Grants, sv.Token, st.Accepted, st.Rejected)
}

const obeysName = "a client does what it is told"

// obeys holds a client to its command, or to its work (which acquires
// the lease while it holds none and writes while it does): acquire sends
// an ACQUIRE; renew and release, from a client that held the lease, send
// a RENEW and a RELEASE, and release ends its belief; write, from a client
// that still believes it holds the lease, leaves a write under way, and
// ends its belief instead only when its wall clock (params.wall_clock)
// says the lease has run out. Whether
// it held the lease before the step is read off the picture, which drawn
// holds to its belief at every step.
var obeys = sim.Invariant{
	Name: obeysName,
	Help: "after acquire a client has sent an ACQUIRE; after renew or release, one that held the lease has sent its RENEW or RELEASE (and no longer believes it holds it, after release); after write, one that still believes it holds the lease has a write under way",
	Check: func(v sim.View) sim.Verdict {
		id, ev, ok := v.LastStep()
		if !ok || ev.Kind != sim.Command && ev.Kind != sim.Workload || process(v, id).Part != fencing.PartClient {
			return sim.Verdict{OK: true}
		}
		c := process(v, id).Client
		held := v.DrawnBefore(id, RoleBelieved, 0, v.Steps()-1)
		tag := ev.Tag
		if ev.Kind == sim.Workload {
			tag = CmdAcquire
			if held {
				tag = CmdWrite
			}
		}
		var wrong string
		switch tag {
		case CmdAcquire:
			if !check.SentNow(v, id, Service, KindAcquire) {
				wrong = "sent no ACQUIRE"
			}
		case CmdRenew:
			if held && !check.SentNow(v, id, Service, KindRenew) {
				wrong = "sent no RENEW"
			}
		case CmdRelease:
			if held && (c.Holds || !check.SentNow(v, id, Service, KindRelease)) {
				wrong = "did not give the lease back"
			}
		case CmdWrite:
			// by its wall clock, a lease it held has run out at Until; by
			// ticks only its timer ends it
			expired := held && process(v, id).WallClock && v.LocalTime(id) >= c.Until
			switch {
			case held && c.Holds == expired:
				wrong = fmt.Sprintf("believes it holds the lease: %t, with its wall clock past the lease's end: %t", c.Holds, expired)
			case c.Holds && !c.Write.Writing:
				wrong = "has no write under way though it believes it holds the lease"
			}
		}
		if wrong == "" {
			return sim.Verdict{OK: true}
		}
		return sim.Verdict{Detail: fmt.Sprintf("%s was told to %s, but %s", v.Name(id), tag, wrong)}
	},
}
