package diagram

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
)

// SVG renders the scene as a standalone SVG document, for slides: the same
// shapes the page paints on its canvas, in the light theme.
func (s *Scene) SVG() []byte { return s.SVGIn(Palette) }

// SVGIn renders the scene in a theme's palette (see Themes).
func (s *Scene) SVGIn(palette []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="system-ui, sans-serif" font-size="%g">`+"\n",
		s.Width, s.Height, s.Width, s.Height, s.fontSize())
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="%s"/>`+"\n", palette[Paper])
	for _, sh := range s.Shapes {
		c := palette[sh.Color]
		t := tagAttrs(sh.Tag)
		switch sh.Op {
		case OpLine:
			dash := ""
			if sh.Flags&FlagDashed != 0 {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%g" stroke-linecap="round"%s%s/>`+"\n",
				sh.X1, sh.Y1, sh.X2, sh.Y2, c, sh.Width, dash, t)
			if sh.Flags&FlagArrow != 0 {
				p := arrowHead(sh)
				fmt.Fprintf(&b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"%s/>`+"\n", p[0], p[1], p[2], p[3], p[4], p[5], c, t)
			}
		case OpCircle:
			if sh.Flags&FlagOutline != 0 {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="none" stroke="%s" stroke-width="%g"%s%s/>`+"\n", sh.X1, sh.Y1, sh.X2, c, sh.Width, dashOf(sh, "3 2"), t)
			} else if sh.Flags&FlagHollow != 0 {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s" stroke="%s" stroke-width="%g"%s/>`+"\n", sh.X1, sh.Y1, sh.X2, palette[Paper], c, sh.Width, t)
			} else {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s"%s/>`+"\n", sh.X1, sh.Y1, sh.X2, c, t)
			}
		case OpRect:
			if sh.Flags&FlagHollow != 0 {
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="%s" stroke-width="%g"%s%s/>`+"\n", sh.X1, sh.Y1, sh.X2, sh.Y2, c, sh.Width, dashOf(sh, "4 3"), t)
				break
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="%g"%s/>`+"\n", sh.X1, sh.Y1, sh.X2, sh.Y2, c, rectOpacity(sh.Flags), t)
		case OpTriangle:
			r := sh.X2
			fmt.Fprintf(&b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"%s/>`+"\n",
				sh.X1, sh.Y1-r, sh.X1+r, sh.Y1+r*0.8, sh.X1-r, sh.Y1+r*0.8, c, t)
		case OpCross:
			r := sh.X2
			fmt.Fprintf(&b, `<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s" stroke-width="%g"%s/>`+"\n",
				sh.X1-r, sh.Y1-r, sh.X1+r, sh.Y1+r, sh.X1-r, sh.Y1+r, sh.X1+r, sh.Y1-r, c, sh.Width, t)
		case OpDiamond:
			r := sh.X2
			fmt.Fprintf(&b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"%s/>`+"\n",
				sh.X1, sh.Y1-r, sh.X1+r, sh.Y1, sh.X1, sh.Y1+r, sh.X1-r, sh.Y1, c, t)
		case OpText:
			anchor := [...]string{"start", "middle", "end"}[sh.Align]
			weight := ""
			if sh.Flags&FlagBold != 0 {
				weight = ` font-weight="bold"`
			}
			// a halo of paper, as on the canvas, keeps text readable over lines
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s" text-anchor="%s"%s stroke="%s" stroke-width="%g" stroke-linejoin="round" paint-order="stroke"%s>%s</text>`+"\n",
				sh.X1, sh.Y1, c, anchor, weight, palette[Paper], s.fontSize()/4, t, html.EscapeString(sh.Text))
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// tagAttrs writes what a shape stands for as data attributes, so that an
// exported picture can be read (and styled) by meaning:
// data-what="message" data-msg="12" data-node="2" data-role="TRANSFER".
func tagAttrs(t Tag) string {
	if t.What == WhatNone {
		return ""
	}
	out := ` data-what="` + t.What.String() + `"`
	if n, ok := t.Process(); ok {
		out += ` data-node="` + strconv.Itoa(int(n)) + `"`
	}
	if m, ok := t.Message(); ok {
		out += ` data-msg="` + strconv.Itoa(m) + `"`
	}
	if k, ok := t.Step(); ok {
		out += ` data-step="` + strconv.Itoa(k) + `"`
	}
	if t.Role != "" {
		out += ` data-role="` + html.EscapeString(t.Role) + `"`
	}
	return out
}

// fontSize is the size the scene's text is drawn at, in CSS pixels.
func (s *Scene) fontSize() float64 {
	if s.FontSize <= 0 {
		return fontSize
	}
	return s.FontSize
}

// rectOpacity is how strongly a rectangle is filled: bands are translucent,
// solid marks opaque, bands across lanes faint. The canvas painter uses the
// same values.
func rectOpacity(flags uint8) float64 {
	switch {
	case flags&FlagSolid != 0:
		return 1
	case flags&FlagFaint != 0:
		return 0.12
	}
	return 0.55
}

// dashOf is the stroke-dasharray attribute of a dashed shape.
func dashOf(sh Shape, pattern string) string {
	if sh.Flags&FlagDashed == 0 {
		return ""
	}
	return ` stroke-dasharray="` + pattern + `"`
}

// arrowHead is the triangle at the end of a line: x1,y1, x2,y2, x3,y3.
func arrowHead(sh Shape) [6]float64 {
	ang := math.Atan2(sh.Y2-sh.Y1, sh.X2-sh.X1)
	size := 7 + sh.Width
	a1, a2 := ang+math.Pi*0.85, ang-math.Pi*0.85
	return [6]float64{sh.X2, sh.Y2, sh.X2 + size*math.Cos(a1), sh.Y2 + size*math.Sin(a1), sh.X2 + size*math.Cos(a2), sh.Y2 + size*math.Sin(a2)}
}
