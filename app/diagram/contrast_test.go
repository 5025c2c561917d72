package diagram_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
)

// luminance is a CSS colour's relative luminance (WCAG 2).
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	require.Len(t, hex, 7, hex)
	var c [3]float64
	for i := range 3 {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		require.NoError(t, err, hex)
		x := float64(v) / 255
		if x <= 0.03928 {
			c[i] = x / 12.92
		} else {
			c[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// exempt colours are drawn under what they mark (the highlight's glow, the
// axis's background rules), never as text or a line that must be read.
var exempt = map[diagram.Color]bool{diagram.Grid: true, diagram.HighlightColor: true, diagram.Paper: true}

// Against each theme's paper, every colour a text may be written in stands
// at 4.5:1 or more, and every line at 3:1 or more: readable from the back
// row of a lecture hall on a projector.
func TestThemesContrast(t *testing.T) {
	for name, pal := range diagram.Themes {
		require.Len(t, pal, int(diagram.Paper)+1, "%s: a colour for every Color", name)
		for c := diagram.Color(0); c < diagram.Paper; c++ {
			if exempt[c] {
				continue
			}
			ratio := contrast(t, pal[c], pal[diagram.Paper])
			want := 4.5
			if c == diagram.LaneColor {
				want = 3 // lines only
			}
			assert.GreaterOrEqual(t, ratio, want, "%s theme: colour %d (%s) on %s", name, c, pal[c], pal[diagram.Paper])
		}
	}
}

// Texts are written only in colours held to 4.5:1, in every lesson.
func TestTextsUseReadableColours(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		r := builtinRun(t, id)
		sc := layout(r, r.Len(), diagram.Options{})
		for _, sh := range sc.Shapes {
			if sh.Op == diagram.OpText {
				assert.False(t, exempt[sh.Color] || sh.Color == diagram.LaneColor, fmt.Sprintf("%s: %q is written in colour %d", id, sh.Text, sh.Color))
			}
		}
	}
}
