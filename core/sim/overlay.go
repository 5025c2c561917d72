package sim

// Overlay is a mark an algorithm draws over its pictures at the step on
// screen, beside what its trace draws: a process's state, who waits for
// whom, a link held back, a line through the processes' pasts. Its Role
// names one of the Spec's Roles, whose Style (one of the overlay styles:
// StyleState, StyleWait, StyleHeld, StyleLine, StyleCells) says how app/diagram draws
// it, once for every algorithm, and whose Tone and Legend colour and
// explain it. What it is anchored to depends on its style.
type Overlay struct {
	Role string
	// Node and Peer anchor it to a process (StyleState, StyleCells: Node) or to the
	// link from Node to Peer (StyleWait: Node waits for Peer; StyleHeld:
	// Peer holds back what comes from Node).
	Node, Peer NodeID
	// Points anchor it to points of the processes' pasts (StyleLine), one
	// per process at most; a process without one is left out. Undone are,
	// per process, the points that undid what it had done since its point
	// on the line (its rollback): the stretch between is drawn as work lost.
	Points, Undone []LinePoint
	// Text is its words: a process's state ("count 7"), a line's label.
	Text string
	// Dashed says it is not settled yet (a candidate line).
	Dashed bool
	// Cells are the boxes of a StyleCells row, first to last; First is the
	// number of the first (a long row shows only its end).
	Cells []Cell
	First int
}

// Cell is one box of a StyleCells row: a short text, a group that picks
// its colour (entries of one term share one), and whether it is only
// tentative (an entry not yet committed, drawn hollow).
type Cell struct {
	Text      string
	Group     int
	Tentative bool
}

// LinePoint is the step at which process Node made its first annotation of
// Role and Group (a checkpoint it took), as a point of a line. Unlike a
// cut role's points, which are known when they happen, a line's points
// are chosen later, so the line names them by the annotations that marked
// them.
type LinePoint struct {
	Node  NodeID
	Role  string
	Group int
}
