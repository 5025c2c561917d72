//go:build !js

package diagram_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
)

// rgb parses a palette colour.
func rgb(t *testing.T, hex string) color.RGBA {
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	require.NoError(t, err)
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// distance is how far apart two colours are, channel by channel.
func distance(a color.Color, b color.RGBA) float64 {
	r, g, bb, _ := a.RGBA()
	return math.Abs(float64(r>>8)-float64(b.R)) + math.Abs(float64(g>>8)-float64(b.G)) + math.Abs(float64(bb>>8)-float64(b.B))
}

// TestPNGDrawsTheScene reads the command line's PNG by meaning: its size
// is the scene's times the scale, a message's arrow is in its colour where
// the scene puts it, a lane's dot in ink, and the background is paper.
func TestPNGDrawsTheScene(t *testing.T) {
	r := builtinRun(t, "snapshot-bank")
	sc := layout(r, 30, diagram.Options{})
	for _, scale := range []float64{1, 2, 3} {
		data, err := sc.PNG(diagram.Palette, scale)
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err)
		w, h := sc.PNGSize(scale)
		require.Equal(t, image.Rect(0, 0, w, h), img.Bounds())
		assert.Equal(t, int(math.Ceil(width*scale)), w)
		// the nearest colour to c within a pixel of a place: a thin line is
		// smoothed over the pixels it crosses
		near := func(x, y float64, c color.RGBA) float64 {
			best := math.Inf(1)
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					best = min(best, distance(img.At(int(x*scale)+dx, int(y*scale)+dy), c))
				}
			}
			return best
		}
		assert.Less(t, distance(img.At(2, 2), rgb(t, diagram.Palette[diagram.Paper])), 3.0, "scale %g: paper in the corner", scale)
		// message 0 (A←C $13) runs alone across the gap between lanes
		x, y, ok := sc.MessageAt(0, 0.3)
		require.True(t, ok)
		assert.Less(t, near(x, y, rgb(t, diagram.Palette[diagram.MessageColor])), 30.0, "scale %g: the message's colour on its arrow", scale)
		assert.Greater(t, near(x-10, y, rgb(t, diagram.Palette[diagram.MessageColor])), 200.0, "scale %g: and not beside it", scale)
		dots := filter(sc, func(sh diagram.Shape) bool {
			return sh.Op == diagram.OpCircle && sh.Tag.What == diagram.WhatEvent && sh.Flags&(diagram.FlagHollow|diagram.FlagOutline) == 0
		})
		require.NotEmpty(t, dots)
		assert.Less(t, near(dots[0].X1, dots[0].Y1, rgb(t, diagram.Palette[dots[0].Color])), 30.0, "scale %g: an event's dot", scale)
	}
	// the names are written: ink near the name of A, left of its lane
	data, err := sc.PNG(diagram.Palette, 2)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	names := filter(sc, func(sh diagram.Shape) bool { return sh.Op == diagram.OpText && sh.Text == "A" })
	require.Len(t, names, 1)
	ink := 0
	for dx := -12.0; dx <= 12; dx += 0.5 {
		for dy := -12.0; dy <= 2; dy += 0.5 {
			if distance(img.At(int((names[0].X1+dx)*2), int((names[0].Y1+dy)*2)), rgb(t, diagram.Palette[names[0].Color])) < 60 {
				ink++
			}
		}
	}
	assert.Greater(t, ink, 20, "the name A is written")
}

// TestPNGDarkTheme: the palette given is the one drawn.
func TestPNGDarkTheme(t *testing.T) {
	sc := layout(builtinRun(t, "snapshot-bank"), 10, diagram.Options{})
	data, err := sc.PNG(diagram.DarkPalette, 1)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Less(t, distance(img.At(1, 1), rgb(t, diagram.DarkPalette[diagram.Paper])), 3.0)
}

// TestPNGIsBounded: a scale that would make more pixels than the bound,
// or no picture at all, is refused before any memory is taken.
func TestPNGIsBounded(t *testing.T) {
	sc := layout(builtinRun(t, "snapshot-bank"), 10, diagram.Options{})
	for _, scale := range []float64{0, -1, math.NaN(), math.Inf(1), 1000} {
		_, err := sc.PNG(diagram.Palette, scale)
		assert.Error(t, err, "scale %v", scale)
	}
	_, err := sc.PNG(diagram.Palette, 1000)
	assert.ErrorContains(t, err, "too large")
}
