//go:build !js

package diagram

// The command line's PNG: the scene's shapes rasterized in Go, with the Go
// fonts. The page does not link this (its PNG is its canvas's), so the
// rasterizer and the fonts stay out of the client.

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// MaxPNGPixels bounds a PNG's size (160 MB of memory while it is drawn).
const MaxPNGPixels = 40_000_000

// PNGSize is the size in pixels of the scene drawn at a scale.
func (s *Scene) PNGSize(scale float64) (w, h int) { return PNGSize(s.Width, s.Height, scale) }

// PNGSize is the size in pixels of the PNG of a scene of width × height
// CSS pixels at scale, known before the scene is laid out.
func PNGSize(width, height, scale float64) (w, h int) {
	return int(math.Ceil(width * scale)), int(math.Ceil(height * scale))
}

// PNG draws the scene at scale times its size (2: twice as sharp as on
// screen) in a theme's palette, as a PNG file.
func (s *Scene) PNG(palette []string, scale float64) ([]byte, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("a PNG's scale must be a positive number, got %v", scale)
	}
	w, h := s.PNGSize(scale)
	if w < 1 || h < 1 || float64(w)*float64(h) > MaxPNGPixels {
		return nil, fmt.Errorf("a PNG of %d×%d pixels is too large: at most %d pixels", w, h, MaxPNGPixels)
	}
	p := &painter{img: image.NewRGBA(image.Rect(0, 0, w, h)), scale: scale, palette: palette}
	draw.Draw(p.img, p.img.Bounds(), image.NewUniform(p.color(Paper)), image.Point{}, draw.Src)
	for _, sh := range s.Shapes {
		p.shape(s, sh)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, p.img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// painter draws shapes on an image, the scene's units times scale.
type painter struct {
	img     *image.RGBA
	scale   float64
	palette []string
	z       vector.Rasterizer
}

// color is a palette colour, parsed from its CSS #rrggbb.
func (p *painter) color(c Color) color.RGBA {
	hex := "#000000"
	if int(c) < len(p.palette) {
		hex = p.palette[c]
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if len(hex) != 7 || err != nil {
		return color.RGBA{A: 255}
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// fill fills a polygon (points in scene units), or several: each closed,
// the ones wound the other way cut out of the others.
func (p *painter) fill(c color.RGBA, alpha float64, polys ...[]float64) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pts := range polys {
		for i := 0; i+1 < len(pts); i += 2 {
			minX, maxX = min(minX, pts[i]), max(maxX, pts[i])
			minY, maxY = min(minY, pts[i+1]), max(maxY, pts[i+1])
		}
	}
	b := image.Rect(int(math.Floor(minX*p.scale))-1, int(math.Floor(minY*p.scale))-1, int(math.Ceil(maxX*p.scale))+1, int(math.Ceil(maxY*p.scale))+1)
	r := b.Intersect(p.img.Bounds())
	if r.Empty() {
		return
	}
	p.z.Reset(b.Dx(), b.Dy())
	for _, pts := range polys {
		for i := 0; i+1 < len(pts); i += 2 {
			x, y := float32(pts[i]*p.scale-float64(b.Min.X)), float32(pts[i+1]*p.scale-float64(b.Min.Y))
			if i == 0 {
				p.z.MoveTo(x, y)
			} else {
				p.z.LineTo(x, y)
			}
		}
		p.z.ClosePath()
	}
	c.A = uint8(255 * alpha)
	src := image.NewUniform(color.NRGBA(c))
	// the rasterizer is the box's size: draw only its part on the image
	mask := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
	p.z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	draw.DrawMask(p.img, r, src, image.Point{}, mask, r.Min.Sub(b.Min), draw.Over)
}

// circle is a circle's outline as a polygon, wound clockwise (or not).
func circle(x, y, r float64, clockwise bool) []float64 {
	const n = 24
	pts := make([]float64, 0, 2*n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		if !clockwise {
			a = -a
		}
		pts = append(pts, x+r*math.Cos(a), y+r*math.Sin(a))
	}
	return pts
}

// stroke draws a line width wide with round ends, dashed on, off if on > 0.
func (p *painter) stroke(c color.RGBA, x1, y1, x2, y2, width, on, off float64) {
	length := math.Hypot(x2-x1, y2-y1)
	if length == 0 {
		p.fill(c, 1, circle(x1, y1, width/2, true))
		return
	}
	if on <= 0 {
		on, off = length, 0
	}
	ux, uy := (x2-x1)/length, (y2-y1)/length
	nx, ny := -uy*width/2, ux*width/2
	for d := 0.0; d < length; d += on + off {
		e := min(d+on, length)
		ax, ay, bx, by := x1+ux*d, y1+uy*d, x1+ux*e, y1+uy*e
		p.fill(c, 1, []float64{ax + nx, ay + ny, bx + nx, by + ny, bx - nx, by - ny, ax - nx, ay - ny},
			circle(ax, ay, width/2, true), circle(bx, by, width/2, true))
	}
}

func (p *painter) shape(s *Scene, sh Shape) {
	c := p.color(sh.Color)
	switch sh.Op {
	case OpLine:
		on, off := 0.0, 0.0
		if sh.Flags&FlagDashed != 0 {
			on, off = 6, 4
		}
		p.stroke(c, sh.X1, sh.Y1, sh.X2, sh.Y2, max(sh.Width, 0.5), on, off)
		if sh.Flags&FlagArrow != 0 {
			a := arrowHead(sh)
			p.fill(c, 1, a[:])
		}
	case OpCircle:
		r := sh.X2
		switch {
		case sh.Flags&FlagOutline != 0:
			p.fill(c, 1, circle(sh.X1, sh.Y1, r+sh.Width/2, true), circle(sh.X1, sh.Y1, max(r-sh.Width/2, 0), false))
		case sh.Flags&FlagHollow != 0:
			p.fill(p.color(Paper), 1, circle(sh.X1, sh.Y1, r, true))
			p.fill(c, 1, circle(sh.X1, sh.Y1, r+sh.Width/2, true), circle(sh.X1, sh.Y1, max(r-sh.Width/2, 0), false))
		default:
			p.fill(c, 1, circle(sh.X1, sh.Y1, r, true))
		}
	case OpRect:
		x, y, w, h := sh.X1, sh.Y1, sh.X2, sh.Y2
		if sh.Flags&FlagHollow != 0 {
			on, off := 0.0, 0.0
			if sh.Flags&FlagDashed != 0 {
				on, off = 4, 3
			}
			for _, e := range [][4]float64{{x, y, x + w, y}, {x + w, y, x + w, y + h}, {x + w, y + h, x, y + h}, {x, y + h, x, y}} {
				p.stroke(c, e[0], e[1], e[2], e[3], sh.Width, on, off)
			}
			return
		}
		p.fill(c, rectOpacity(sh.Flags), []float64{x, y, x + w, y, x + w, y + h, x, y + h})
	case OpTriangle:
		r := sh.X2
		p.fill(c, 1, []float64{sh.X1, sh.Y1 - r, sh.X1 + r, sh.Y1 + r*0.8, sh.X1 - r, sh.Y1 + r*0.8})
	case OpCross:
		r := sh.X2
		p.stroke(c, sh.X1-r, sh.Y1-r, sh.X1+r, sh.Y1+r, sh.Width, 0, 0)
		p.stroke(c, sh.X1-r, sh.Y1+r, sh.X1+r, sh.Y1-r, sh.Width, 0, 0)
	case OpDiamond:
		r := sh.X2
		p.fill(c, 1, []float64{sh.X1, sh.Y1 - r, sh.X1 + r, sh.Y1, sh.X1, sh.Y1 + r, sh.X1 - r, sh.Y1})
	case OpText:
		p.text(s, sh, c)
	}
}

// text writes a text at its baseline, aligned as it says, over a halo of
// paper as on the canvas.
func (p *painter) text(s *Scene, sh Shape, c color.RGBA) {
	face := faceOf(s.fontSize()*p.scale, sh.Flags&FlagBold != 0)
	if face == nil {
		return
	}
	x := sh.X1 * p.scale
	width := float64(font.MeasureString(face, sh.Text)) / 64
	switch sh.Align {
	case AlignCenter:
		x -= width / 2
	case AlignRight:
		x -= width
	}
	y := sh.Y1 * p.scale
	halo := s.fontSize() * p.scale / 8
	d := font.Drawer{Dst: p.img, Src: image.NewUniform(p.color(Paper)), Face: face}
	for i := range 8 {
		a := float64(i) * math.Pi / 4
		d.Dot = fixed.Point26_6{X: fixed.Int26_6((x + halo*math.Cos(a)) * 64), Y: fixed.Int26_6((y + halo*math.Sin(a)) * 64)}
		d.DrawString(sh.Text)
	}
	d.Src = image.NewUniform(c)
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}
	d.DrawString(sh.Text)
}

// faces are the Go fonts at the sizes drawn, made once each.
var faces = struct {
	sync.Mutex
	fonts [2]*opentype.Font
	bySz  map[[2]float64]font.Face
}{bySz: map[[2]float64]font.Face{}}

// faceOf is the Go font (bold or regular) at a size in pixels.
func faceOf(size float64, bold bool) font.Face {
	faces.Lock()
	defer faces.Unlock()
	i := 0
	if bold {
		i = 1
	}
	key := [2]float64{size, float64(i)}
	if f, ok := faces.bySz[key]; ok {
		return f
	}
	if faces.fonts[i] == nil {
		ttf := goregular.TTF
		if bold {
			ttf = gobold.TTF
		}
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil
		}
		faces.fonts[i] = f
	}
	f, err := opentype.NewFace(faces.fonts[i], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	faces.bySz[key] = f
	return f
}
