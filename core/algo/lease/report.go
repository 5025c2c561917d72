package lease

import (
	"fmt"
	"strings"

	"spacetime/core/algo/fencing"
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
