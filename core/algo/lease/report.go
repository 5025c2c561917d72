package lease

import (
	"fmt"
	"strings"

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
		for i := int(Storage) + 1; i < v.N(); i++ {
			id := sim.NodeID(i)
			if c := process(v, id).Client; c.Holds && v.Health(id) != "crashed" {
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
var noStaleWrite = sim.Invariant{
	Name: noStaleWriteName,
	Help: "a write the storage accepts carries the token of a lease that has not run out",
	Check: func(v sim.View) sim.Verdict {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleAccepted {
				continue
			}
			s := process(v, Service).Service
			token := int64(a.Group)
			switch {
			case token != s.Token:
				return sim.Verdict{Detail: fmt.Sprintf("the storage accepted a write with token %d, but the service has since granted token %d", token, s.Token), Msgs: about(a)}
			case s.Holder == sim.None || v.Now() >= s.Expiry:
				return sim.Verdict{Detail: fmt.Sprintf("the storage accepted a write with token %d after its lease ran out", token), Msgs: about(a)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

func about(a sim.Annotation) []int {
	if a.Msg < 0 {
		return nil
	}
	return []int{a.Msg}
}

func metrics(v sim.View) []sim.Metric {
	st := process(v, Storage).Storage
	sv := process(v, Service).Service
	var final any
	if st.Accepted > 0 {
		final = st.Value
	}
	return []sim.Metric{
		{Name: "final_value", Value: final},
		{Name: "rejected_writes", Value: st.Rejected},
		{Name: "accepted_writes", Value: st.Accepted},
		{Name: "grants", Value: sv.Grants},
		{Name: "last_token", Value: sv.Token},
	}
}

func panels(v sim.View) []sim.Panel {
	sv := process(v, Service).Service
	holder := "nobody"
	if sv.Holder != sim.None {
		holder = fmt.Sprintf("%s, token %d, until %d", v.Name(sv.Holder), sv.Token, sv.Expiry)
	}
	st := process(v, Storage).Storage
	fencing := "off: every write is taken"
	if st.Fencing {
		fencing = "on: a token smaller than the largest seen is rejected"
	}
	service := sim.Panel{Title: "Lock service and storage", Columns: []string{"", ""}, Rows: []sim.Row{
		{Cells: []string{"the service's lease", holder}},
		{Cells: []string{"last token", fmt.Sprint(sv.Token)}},
		{Cells: []string{"storage holds", fmt.Sprintf("%q", st.Value)}},
		{Cells: []string{"largest token seen", fmt.Sprint(st.MaxToken)}},
		{Cells: []string{"fencing", fencing}},
		{Cells: []string{"writes rejected", fmt.Sprint(st.Rejected)}},
	}}
	clients := sim.Panel{Title: "Clients", Note: "what each client believes, by its own timer", Columns: []string{"client", "health", "believes it holds", "token"}}
	for i := int(Storage) + 1; i < v.N(); i++ {
		id := sim.NodeID(i)
		c := process(v, id).Client
		row := sim.Row{Cells: []string{v.Name(id), v.Health(id), "no", ""}}
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
	st := process(v, Storage).Storage
	return fmt.Sprintf("Leases granted: %d (tokens up to %d); writes accepted %d, rejected %d.", sv.Grants, sv.Token, st.Accepted, st.Rejected)
}

// star links the clients to the service and to the storage.
func star(v sim.View) *sim.Topology {
	t := &sim.Topology{Kind: sim.Graph}
	for i := int(Storage) + 1; i < v.N(); i++ {
		t.Edges = append(t.Edges, [2]sim.NodeID{Service, sim.NodeID(i)}, [2]sim.NodeID{sim.NodeID(i), Storage})
	}
	return t
}
