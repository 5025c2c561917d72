package engine

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"spacetime/core/sim"
	"spacetime/core/trace"
)

// The sizes a budget reckons a run keeps are the sizes of what it keeps
// (on a 64-bit machine; a browser's 32-bit ones are smaller).
func TestReckonedSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are reckoned for 64-bit machines")
	}
	for _, c := range []struct {
		name     string
		reckoned int
		size     uintptr
	}{
		{"trace.Record", recordBytes, unsafe.Sizeof(trace.Record{})},
		{"trace.Extra", extraBytes, unsafe.Sizeof(trace.Extra{})},
		{"sim.Annotation", annotationBytes, unsafe.Sizeof(sim.Annotation{})},
		{"trace.TimerNote", timerNoteBytes, unsafe.Sizeof(trace.TimerNote{})},
		{"trace.Change", changeBytes, unsafe.Sizeof(trace.Change{})},
		{"trace.Msg", msgBytes, unsafe.Sizeof(trace.Msg{})},
	} {
		assert.Equal(t, int(c.size), c.reckoned, "%s is %d bytes, reckoned %d", c.name, c.size, c.reckoned)
	}
}
