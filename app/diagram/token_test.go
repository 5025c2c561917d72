package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/mutex"
	"spacetime/core/algo/tokenring"
	"spacetime/core/sim"
	"spacetime/internal/scenariotest"
)

// coins are the token glyphs of a scene: a gold disc of radius 7.
func coins(sc *diagram.Scene) [][2]float64 {
	var out [][2]float64
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpCircle && sh.Color == diagram.TokenColor && sh.X2 == 7 && sh.Flags == 0 {
			out = append(out, [2]float64{sh.X1, sh.Y1})
		}
	}
	return out
}

// The token is held visibly on its holder's line (a gold strip and a coin
// where it was taken and at the present), and it travels visibly (a coin
// at the head of its arrow while in flight).
func TestTheTokenIsHeldAndTravelsVisibly(t *testing.T) {
	_, r := scenariotest.Run(t, "token-ring-idle")
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	opt := diagram.Options{Width: 900, Height: 420}
	// find a step at which 3 holds the token in the critical section, and
	// one at which the token is in flight from 1 to 2
	held, flying := -1, -1
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		p := v.Node(2).(*tokenring.Process)
		if held < 0 && p.Holds && p.State == mutex.InCS {
			held = k
		}
		if flying < 0 && k > 4 && len(v.InFlight(0, 1)) == 1 {
			flying = k
		}
	}
	require.Positive(t, held)
	require.Positive(t, flying)

	sc := ix.Layout(held, r.Config().Spec, opt)
	y3 := sc.ProcessY(2)
	strip := false
	for _, sh := range sc.Shapes {
		if sh.Op == diagram.OpRect && sh.Color == diagram.TokenColor && sh.Flags&diagram.FlagSolid != 0 && sh.Y1 < y3 && sh.Y1+sh.Y2 > y3 {
			strip = true
		}
	}
	assert.True(t, strip, "a gold strip on 3's line")
	onLane := 0
	for _, c := range coins(sc) {
		if c[1] == y3 {
			onLane++
		}
	}
	assert.Equal(t, 2, onLane, "a coin where 3 took the token, and one at the present")
	// the strip lies over the critical-section bar, drawn after it
	bar, token := -1, -1
	for i, sh := range sc.Shapes {
		if sh.Op == diagram.OpRect && sh.Y1 < y3 && sh.Y1+sh.Y2 > y3 {
			switch sh.Color {
			case diagram.CrashColor:
				bar = i
			case diagram.TokenColor:
				token = i
			}
		}
	}
	assert.Less(t, bar, token)

	sc = ix.Layout(flying, r.Config().Spec, opt)
	id := r.At(flying).View().InFlight(0, 1)[0]
	x, y, ok := sc.MessageAt(id, 1)
	require.True(t, ok)
	found := false
	for _, c := range coins(sc) {
		found = found || (abs(c[0]-x) < 0.5 && abs(c[1]-y) < 0.5)
	}
	assert.True(t, found, "a coin at the head of the TOKEN in flight")
	assert.NotEqual(t, sc.ProcessY(0), y)
}

// Each mutual-exclusion kind carries its glyph in the legend.
func TestKindsHaveGlyphs(t *testing.T) {
	_, r := scenariotest.Run(t, "token-ring-idle")
	ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
	var token, holds string
	for _, e := range ix.Legend(r.Config().Spec, r.Len(), diagram.LegendOptions{}) {
		switch e.Label {
		case tokenring.KindToken:
			token = e.Symbol
		case "holds the token":
			holds = e.Symbol
		}
	}
	assert.Equal(t, sim.GlyphToken.Symbol(), token)
	assert.Equal(t, sim.GlyphToken.Symbol(), holds)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
