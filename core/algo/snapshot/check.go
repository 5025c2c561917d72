package snapshot

import "spacetime/core/sim"

// Done is Complete restated for the algorithms' checks: the process has
// recorded its state and every channel into it (self) has brought its
// marker. It sits in check.go, which the mutation campaign leaves alone,
// so that a check reads the marker rule without calling the code it
// judges.
func Done(p *Part, self sim.NodeID) bool {
	if !p.Recorded {
		return false
	}
	for q, closed := range p.Closed {
		if !closed && sim.NodeID(q) != self {
			return false
		}
	}
	return true
}
