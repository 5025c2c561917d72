package diagram

import (
	"math"
	"sort"

	"spacetime/core/trace"
)

// Index is what laying out any step of a run needs to know about the whole
// run, computed once per run (and axis) so that a frame only visits what is
// visible: every step's x, and lists of the few steps that carry faults or
// marks.
type Index struct {
	tr   *trace.Trace
	axis Axis
	// xs is every step's position on the axis; upTo[k] is the largest of
	// the first k (the "now" of step k).
	xs, upTo []float64
	// monotone says xs never decreases (simulated time), so windows can be
	// found by binary search.
	monotone bool
	// reach[i] is the latest step any of messages 0..i is drawn to (its
	// receipt or loss; MaxInt while it is never received).
	reach []int
	// faults and marked list the steps with faults and with marks.
	faults, marked []int
	end            float64
}

// NewIndex indexes a run's trace for one axis. Build a new one whenever the
// trace changes.
func NewIndex(tr *trace.Trace, axis Axis) *Index {
	if axis == "" {
		axis = AxisTime
	}
	recs := tr.Records
	ix := &Index{tr: tr, axis: axis, xs: make([]float64, len(recs)), upTo: make([]float64, len(recs)+1)}
	if axis == AxisLamport {
		for i, r := range recs {
			ix.xs[i] = float64(r.Lamport)
		}
	} else {
		ix.monotone = true
		for i := 0; i < len(recs); {
			j := i
			for j < len(recs) && recs[j].Time == recs[i].Time {
				j++
			}
			for s := i; s < j; s++ {
				ix.xs[s] = float64(recs[s].Time) + float64(s-i)/float64(j-i)
			}
			i = j
		}
	}
	ix.end = 1
	for i, x := range ix.xs {
		ix.upTo[i+1] = max(ix.upTo[i], x)
		ix.end = max(ix.end, x)
	}
	ix.end++
	ix.reach = make([]int, len(tr.Msgs))
	latest := -1
	for i := range tr.Msgs {
		m := &tr.Msgs[i]
		end := math.MaxInt
		switch {
		case m.RecvStep >= 0:
			end = m.RecvStep
		case m.DropStep >= 0:
			end = m.DropStep
		}
		latest = max(latest, end)
		ix.reach[i] = latest
	}
	for s, r := range recs {
		switch r.Kind {
		case trace.Crash, trace.Pause, trace.Recover, trace.Wake:
			ix.faults = append(ix.faults, s)
		}
		if len(r.Marks) > 0 {
			ix.marked = append(ix.marked, s)
		}
	}
	return ix
}

// Trace is the indexed trace.
func (ix *Index) Trace() *trace.Trace { return ix.tr }

// Axis is the indexed axis.
func (ix *Index) Axis() Axis { return ix.axis }

// firstStepAt is the first step whose axis value is t or more: no earlier
// step is visible in a window that starts at t. On the Lamport axis, where
// values do not grow with the step, the running maximum (which does) finds it.
func (ix *Index) firstStepAt(t float64) int {
	if ix.monotone {
		return sort.SearchFloat64s(ix.xs, t)
	}
	return sort.Search(len(ix.xs), func(i int) bool { return ix.upTo[i+1] >= t })
}

// stepsBefore returns the indexed steps (faults or marked) below k.
func stepsBefore(steps []int, k int) []int {
	return steps[:sort.SearchInts(steps, k)]
}

// At is step k's position on the axis.
func (ix *Index) At(k int) float64 { return ix.xs[k] }
