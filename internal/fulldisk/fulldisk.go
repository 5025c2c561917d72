// Package fulldisk is a writer that fills, for the tests of what writes
// output: a disk with Room bytes left, or a pipe closed after them.
package fulldisk

import "errors"

// ErrNoSpace is what a full Writer returns.
var ErrNoSpace = errors.New("no space left on device")

// Writer takes Room bytes, then fails with ErrNoSpace (writing what fits
// of the write that fills it).
type Writer struct{ Room int }

func (w *Writer) Write(p []byte) (int, error) {
	if len(p) > w.Room {
		n := w.Room
		w.Room = 0
		return n, ErrNoSpace
	}
	w.Room -= len(p)
	return len(p), nil
}
