package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/app/diagram"
	"spacetime/internal/scenariotest"
)

// A window with thousands of messages drops what cannot be read (labels,
// dashes, heads) so that it paints fast; a lesson-sized one keeps them.
func TestDenseWindowsDrawPlainly(t *testing.T) {
	_, r := scenariotest.Run(t, "snapshot-long")
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	count := func(sc *diagram.Scene, keep func(diagram.Shape) bool) int {
		n := 0
		for _, sh := range sc.Shapes {
			if keep(sh) {
				n++
			}
		}
		return n
	}
	isLabel := func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpText && sh.Color == diagram.MessageColor
	}
	fancy := func(sh diagram.Shape) bool {
		return sh.Op == diagram.OpLine && (sh.Color == diagram.MessageColor || sh.Color == diagram.MarkerColor) && sh.Flags != 0
	}

	dense := ix.Layout(60_000, r.Config().Spec, diagram.Options{Width: 1200, Height: 350, Span: 8000})
	assert.Zero(t, count(dense, isLabel), "no labels")
	assert.Zero(t, count(dense, fancy), "hairlines without heads or dashes")
	assert.Greater(t, count(dense, func(sh diagram.Shape) bool { return sh.Op == diagram.OpLine }), 2000)

	sparse := ix.Layout(60_000, r.Config().Spec, diagram.Options{Width: 1200, Height: 350, Span: 60})
	assert.Positive(t, count(sparse, isLabel), "labels when they can be read")
	assert.Positive(t, count(sparse, fancy), "arrow heads when they can be seen")
}
