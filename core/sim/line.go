package sim

// Line is a line an algorithm draws through points of the processes'
// pasts, at the step on screen: a recovery line, or the candidate line a
// rollback is still moving back. Unlike a cut role's points, which are
// known when they happen, a line's points are chosen later, so the line
// names them by the annotations that marked them.
type Line struct {
	// Label is written at its top ("recovery line", "candidate line").
	Label string
	Tone  Tone
	// Dashed says the line is not settled yet.
	Dashed bool
	// Points are the processes' points on the line, one per process at
	// most; a process without one is left out.
	Points []LinePoint
	// Undone are, per process, the points that undid what it had done
	// since its point on the line (its rollback): the stretch between is
	// drawn as work lost.
	Undone []LinePoint
}

// LinePoint is the step at which process Node made its first annotation of
// Role and Group (a checkpoint it took), as a point of a Line.
type LinePoint struct {
	Node  NodeID
	Role  string
	Group int
}
