package sim

// Handoff is how a node's Clone copies a slice that grows with the run (a
// queue of tasks, a buffer of records) without copying it: the copy shares
// the elements and takes over the spare capacity, and *s keeps none. Both
// may then append, and take from the front, without either seeing the
// other's changes, so that a copy costs nothing however long the slice
// grows; neither may change an element in place (copy it first). The
// engine steps the copy and keeps the original in its checkpoint, so the
// copy that goes on appending is the one that keeps the capacity.
func Handoff[T any](s *[]T) []T {
	c := *s
	*s = c[:len(c):len(c)]
	return c
}

// FixedTag is the struct tag (`state:"fixed"`) of a field of a node's
// state that holds what the node was made with and never changes, shared
// by its clones (a log's events, a table built from the params). A budget
// of memory (see the engine) reckons what a run keeps by walking its
// processes' states, and leaves such a field out: it is the scenario's,
// bounded with it, and a walk of it at every measure would cost more
// than the steps between.
const FixedTag = `state:"fixed"`
