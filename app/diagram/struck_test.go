package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// Texts keep off the lines drawn where they can: over every lesson of up
// to 2,000 steps, at every 10th step, laid out as on a 1280×720
// projector, at most a quarter of the texts have a line through them
// (a hair inside their box), where more than a third had before the
// placer kept them off lines (15,322 of 42,666). The rest had no near
// place free of lines.
func TestLabelsKeepOffLines(t *testing.T) {
	texts, struck, pics := 0, 0, 0
	for _, id := range scenario.BuiltinIDs() {
		_, r := scenariotest.Run(t, id)
		if r.Len() > 2000 {
			continue
		}
		spec := r.Config().Spec
		for k := 0; k <= r.Len(); k += 10 {
			sc := diagram.Layout(r.Trace(), k, spec, diagram.Options{Width: 898, Height: 420, Scale: 16.0 / 12})
			pics++
			var lines [][4]float64
			for _, sh := range sc.Shapes {
				if sh.Op == diagram.OpLine && sh.Color != diagram.Grid {
					lines = append(lines, [4]float64{sh.X1, sh.Y1, sh.X2, sh.Y2})
				}
			}
			for _, b := range sc.TextBoxes() {
				texts++
				in := diagram.TextBox{X0: b.X0 + 1, Y0: b.Y0 + 1, X1: b.X1 - 1, Y1: b.Y1 - 1}
				for _, l := range lines {
					if in.Meets(l[0], l[1], l[2], l[3]) {
						struck++
						break
					}
				}
			}
		}
	}
	t.Logf("%d pictures, %d texts, %d struck by a line", pics, texts, struck)
	assert.Less(t, float64(struck), 0.26*float64(texts), "texts struck through by a line")
}
