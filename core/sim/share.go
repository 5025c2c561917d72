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
