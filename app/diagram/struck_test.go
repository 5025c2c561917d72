package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// No text covers a mark (an event's dot, a token, a glyph). Texts keep
// off the lines drawn (and boxes' edges) where they can, and no text is
// struck through where they cannot: over every lesson of up to 2,000 steps, at
// every 10th step, laid out as on a 1280×720 projector, a text that a
// line passes through (a hair inside its box) stands on a plate of paper
// that masks the line. The placer keeps texts off lines where it can: at
// most 30% need a plate (12,068 of 43,006, of which about 2,500 are in
// windows too dense to look for a free place), where more than a third
// were struck through before it looked for places free of lines (15,322
// of 42,666).
func TestLabelsKeepOffLines(t *testing.T) {
	texts, struck, platedTexts, onMarks, pics := 0, 0, 0, 0, 0
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
			var marks []diagram.TextBox
			for _, sh := range sc.Shapes {
				if sh.Op == diagram.OpLine && sh.Color != diagram.Grid {
					lines = append(lines, [4]float64{sh.X1, sh.Y1, sh.X2, sh.Y2})
				}
				switch sh.Op {
				case diagram.OpCircle, diagram.OpDiamond, diagram.OpTriangle, diagram.OpCross:
					r := sh.X2 - 1
					marks = append(marks, diagram.TextBox{X0: sh.X1 - r, Y0: sh.Y1 - r, X1: sh.X1 + r, Y1: sh.Y1 + r})
				}
			}
			boxes := sc.TextBoxes() // one per text, in the order drawn
			n := 0
			for i, sh := range sc.Shapes {
				if sh.Op != diagram.OpText {
					continue
				}
				b := boxes[n]
				n++
				texts++
				for _, m := range marks {
					if m.Overlaps(b) {
						onMarks++
						if onMarks <= 5 {
							t.Logf("%s k=%d: %q covers a mark", id, k, sh.Text)
						}
						break
					}
				}
				plate := i > 0 && sc.Shapes[i-1].Flags&diagram.FlagPlate != 0
				if plate {
					platedTexts++
					p := sc.Shapes[i-1]
					assert.True(t, p.Op == diagram.OpRect && p.Color == diagram.Paper && p.X1 <= b.X0 && p.Y1 <= b.Y0 && p.X1+p.X2 >= b.X1 && p.Y1+p.Y2 >= b.Y1,
						"%s k=%d: %q's plate covers it", id, k, sh.Text)
					continue
				}
				in := diagram.TextBox{X0: b.X0 + 1, Y0: b.Y0 + 1, X1: b.X1 - 1, Y1: b.Y1 - 1}
				for _, l := range lines {
					if in.Meets(l[0], l[1], l[2], l[3]) {
						struck++
						if struck <= 5 {
							t.Errorf("%s k=%d: %q is struck through by a line and has no plate", id, k, sh.Text)
						}
						break
					}
				}
			}
		}
	}
	t.Logf("%d pictures, %d texts, %d on a plate, %d struck through, %d over a mark", pics, texts, platedTexts, struck, onMarks)
	assert.Zero(t, struck, "texts struck through by a line")
	assert.Zero(t, onMarks, "texts over an event's dot, a token or a glyph")
	assert.Less(t, float64(platedTexts), 0.30*float64(texts), "texts on a plate: the placer keeps texts off lines where it can")
}
