package diagram_test

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// linearRGB is a CSS colour (#rrggbb) as linear red, green and blue.
func linearRGB(t *testing.T, hex string) [3]float64 {
	t.Helper()
	require.Len(t, hex, 7, hex)
	var c [3]float64
	for i := range 3 {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		require.NoError(t, err, hex)
		x := float64(v) / 255
		if x <= 0.04045 {
			c[i] = x / 12.92
		} else {
			c[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return c
}

// luminance is a CSS colour's relative luminance (WCAG 2).
func luminance(t *testing.T, hex string) float64 {
	c := linearRGB(t, hex)
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

// colourVision simulates a kind of colour vision on linear RGB: Machado,
// Oliveira and Fernandes (2009), at full severity.
var colourVision = map[string][3][3]float64{
	"typical":      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	"protanopia":   {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	"deuteranopia": {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	"tritanopia":   {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
}

// labAs is a CSS colour as a reader with that vision sees it, in CIELAB.
func labAs(t *testing.T, hex string, m [3][3]float64) [3]float64 {
	t.Helper()
	c := linearRGB(t, hex)
	var s [3]float64
	for i := range 3 {
		s[i] = min(max(m[i][0]*c[0]+m[i][1]*c[1]+m[i][2]*c[2], 0), 1)
	}
	x := (0.4124*s[0] + 0.3576*s[1] + 0.1805*s[2]) / 0.95047
	y := 0.2126*s[0] + 0.7152*s[1] + 0.0722*s[2]
	z := (0.0193*s[0] + 0.1192*s[1] + 0.9505*s[2]) / 1.08883
	f := func(v float64) float64 {
		if v > 0.008856 {
			return math.Cbrt(v)
		}
		return 7.787*v + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// tonesApart is the smallest CIE ΔE between two of a palette's tones (and
// ink) as a reader with each kind of colour vision sees them, and which.
func tonesApart(t *testing.T, pal []string) (float64, string) {
	colors := []diagram.Color{diagram.Ink}
	for _, tone := range sim.Tones {
		if c := diagram.ToneColor(tone); !slices.Contains(colors, c) {
			colors = append(colors, c)
		}
	}
	worst, which := math.Inf(1), ""
	for vision, m := range colourVision {
		for i, a := range colors {
			for _, b := range colors[i+1:] {
				la, lb := labAs(t, pal[a], m), labAs(t, pal[b], m)
				if d := math.Hypot(la[0]-lb[0], math.Hypot(la[1]-lb[1], la[2]-lb[2])); d < worst {
					worst, which = d, fmt.Sprintf("%s: colours %d and %d (%s, %s)", vision, a, b, pal[a], pal[b])
				}
			}
		}
	}
	return worst, which
}

// The colour-blind theme keeps every two tones an algorithm may pick (and
// ink) at least 14 apart (CIE ΔE) for readers with protanopia,
// deuteranopia or tritanopia and for typical vision (the light theme's
// closest come within a few units: the test logs them).
func TestColourBlindThemeKeepsTonesApart(t *testing.T) {
	got, which := tonesApart(t, diagram.ColourBlindPalette)
	assert.GreaterOrEqual(t, got, 14.0, which)
	light, which := tonesApart(t, diagram.Palette)
	t.Logf("the light theme's closest tones: %.1f apart, %s", light, which)
}
