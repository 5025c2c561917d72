package diagram

import (
	"math"
	"slices"

	"spacetime/core/sim"
)

// HitKind says what a click landed on.
type HitKind uint8

// The things a click can land on.
const (
	HitNothing HitKind = iota
	// HitMessage is a message arrow (Msg is its id).
	HitMessage
	// HitEvent is an event dot (Step is its step).
	HitEvent
	// HitProcess is a process line or its name (Node), or a process of
	// the topology view.
	HitProcess
	// HitLink is a link of the topology view, from Node to Peer.
	HitLink
)

// Hit is what lies under a point of the diagram.
type Hit struct {
	Kind     HitKind
	Msg      int
	Step     int
	Node     sim.NodeID
	Peer     sim.NodeID
	InFlight bool
}

// Hit finds what lies under (x, y): an in-flight message first (the thing a
// learner most often means to click), then an event, any message, a process.
func (s *Scene) Hit(x, y float64) Hit {
	// forgiving: a click within 9 px of an arrow or a dot finds it
	const reach = 9.0
	if s.nodes != nil {
		return s.hitTopology(x, y)
	}
	best, bestD := -1, reach
	for i, a := range s.arrows {
		if !a.inFlight {
			continue
		}
		if d := segmentDistance(x, y, a); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		a := s.arrows[best]
		return Hit{Kind: HitMessage, Msg: a.msg, InFlight: true}
	}
	for _, d := range s.dots {
		if math.Hypot(x-d.x, y-d.y) < reach {
			return Hit{Kind: HitEvent, Step: d.step}
		}
	}
	for i, a := range s.arrows {
		if d := segmentDistance(x, y, a); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		return Hit{Kind: HitMessage, Msg: s.arrows[best].msg}
	}
	for i, ly := range s.lanes {
		if math.Abs(y-ly) < min(s.laneGap/2, 18) {
			return Hit{Kind: HitProcess, Node: sim.NodeID(i)}
		}
	}
	return Hit{}
}

// NameShortenedAt says whether (x, y) is left of a lane whose name is
// drawn shortened or not at all, whose whole the page then shows in a tip.
func (s *Scene) NameShortenedAt(x, y float64) (sim.NodeID, bool) {
	if x >= s.leftMargin()*s.unit() {
		return 0, false
	}
	id, ok := s.LaneAt(y)
	return id, ok && slices.Contains(s.shortened, id)
}

// ProcessY is the y of a process's lane, for placing menus beside it.
func (s *Scene) ProcessY(id sim.NodeID) float64 {
	if int(id) < len(s.lanes) {
		return s.lanes[id]
	}
	return 0
}

func segmentDistance(px, py float64, a arrow) float64 {
	dx, dy := a.x2-a.x1, a.y2-a.y1
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = min(max(((px-a.x1)*dx+(py-a.y1)*dy)/l2, 0), 1)
	}
	return math.Hypot(px-(a.x1+t*dx), py-(a.y1+t*dy))
}

// MessageAt returns a point on message id's arrow at fraction f of its way
// (0 is the send end), and whether the message is drawn.
func (s *Scene) MessageAt(id int, f float64) (x, y float64, ok bool) {
	for _, a := range s.arrows {
		if a.msg == id {
			return a.x1 + (a.x2-a.x1)*f, a.y1 + (a.y2-a.y1)*f, true
		}
	}
	return 0, 0, false
}

// Visible counts the events and messages drawn.
func (s *Scene) Visible() (events, messages int) { return len(s.dots), len(s.arrows) }

// LaneAt finds the process line nearest to y, within half the gap between
// lines.
func (s *Scene) LaneAt(y float64) (sim.NodeID, bool) {
	for i, ly := range s.lanes {
		if math.Abs(y-ly) <= s.laneGap/2 {
			return sim.NodeID(i), true
		}
	}
	return 0, false
}

// hitTopology finds what lies under (x, y) in a topology view: a message
// on its way, a process, a link.
func (s *Scene) hitTopology(x, y float64) Hit {
	for _, a := range s.arrows {
		if math.Hypot(x-a.x1, y-a.y1) < 9 {
			return Hit{Kind: HitMessage, Msg: a.msg, InFlight: true}
		}
	}
	for i, p := range s.nodes {
		if math.Hypot(x-p[0], y-p[1]) <= (s.nodeR+3)*s.unit() {
			return Hit{Kind: HitProcess, Node: sim.NodeID(i)}
		}
	}
	best, bestD := -1, 7.0
	for i, e := range s.edges {
		if d := segmentDistance(x, y, arrow{x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2}); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		return Hit{Kind: HitLink, Node: s.edges[best].from, Peer: s.edges[best].to}
	}
	return Hit{}
}

// NodeAt is where process id is drawn in a topology view.
func (s *Scene) NodeAt(id sim.NodeID) (x, y float64, ok bool) {
	if int(id) >= len(s.nodes) || id < 0 {
		return 0, 0, false
	}
	return s.nodes[id][0], s.nodes[id][1], true
}

// LinkAt is the middle of the drawn link between a and b (either way), and
// whether it is drawn.
func (s *Scene) LinkAt(a, b sim.NodeID) (x, y float64, ok bool) {
	for _, e := range s.edges {
		if (e.from == a && e.to == b) || (e.from == b && e.to == a) {
			return (e.x1 + e.x2) / 2, (e.y1 + e.y2) / 2, true
		}
	}
	return 0, 0, false
}

// EventPoint is where the event of a step is drawn, when it is in view.
func (s *Scene) EventPoint(step int) (x, y float64, ok bool) {
	for _, d := range s.dots {
		if d.step == step {
			return d.x, d.y, true
		}
	}
	return 0, 0, false
}
