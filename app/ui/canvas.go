package ui

import (
	"unsafe"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
)

// painter hands a laid-out scene to the page's canvas painter
// (web/spacetime.js) as one Float32Array and a list of texts.
type painter struct {
	buf     []float32
	texts   []string
	palette app.Value
	// colors is the palette handed over, kept to know when a theme changed.
	colors []string
	// last is what was last handed over, and to which canvas at what
	// height: a picture that has not changed is not sent again (a step
	// that moves no message leaves the process graph as it was).
	last       []float32
	lastTexts  []string
	lastCanvas app.Value
	lastHeight float64
	lastFont   float64
}

// unchanged reports whether the encoded picture is the one last painted on
// the same canvas.
func (p *painter) unchanged(cv app.Value, height, font float64) bool {
	if p.lastCanvas == nil || !p.lastCanvas.Equal(cv) || p.lastHeight != height || p.lastFont != font ||
		len(p.last) != len(p.buf) || len(p.lastTexts) != len(p.texts) {
		return false
	}
	for i, x := range p.buf {
		if p.last[i] != x {
			return false
		}
	}
	for i, t := range p.texts {
		if p.lastTexts[i] != t {
			return false
		}
	}
	return true
}

// paint draws scene on the canvas element cv at the next animation frame.
func (p *painter) paint(cv app.Value, scene *diagram.Scene, colors []string) {
	js := app.Window().Get("spacetime")
	if !js.Truthy() || !cv.Truthy() {
		return
	}
	if p.palette == nil || len(colors) == 0 || len(p.colors) == 0 || &p.colors[0] != &colors[0] {
		list := make([]any, len(colors))
		for i, c := range colors {
			list[i] = c
		}
		p.palette, p.colors = app.ValueOf(list), colors
		p.lastCanvas = nil // repaint in the new colours
	}
	p.buf, p.texts = scene.Encode(p.buf, p.texts)
	font := scene.FontSize
	if p.unchanged(cv, scene.Height, font) {
		return
	}
	p.last, p.lastTexts = append(p.last[:0], p.buf...), append(p.lastTexts[:0], p.texts...)
	p.lastCanvas, p.lastHeight, p.lastFont = cv, scene.Height, font
	f32, texts := shapesToJS(p.buf, p.texts)
	js.Call("draw", cv, f32, texts, p.palette, scene.Height, font)
}

// shapesToJS hands encoded shapes to the page: a Float32Array over a copy
// of buf, and the texts as an array.
func shapesToJS(buf []float32, texts []string) (f32, list app.Value) {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*4)
	u8 := app.Window().Get("Uint8Array").New(len(raw))
	app.CopyBytesToJS(u8, raw)
	all := make([]any, len(texts))
	for i, t := range texts {
		all[i] = t
	}
	return app.Window().Get("Float32Array").New(u8.Get("buffer")), app.ValueOf(all)
}

// savePNG saves a scene as a PNG file at scale times its size, painted as
// the canvas paints it, in the colours given.
func savePNG(name string, scene *diagram.Scene, colors []string, scale float64) {
	js := app.Window().Get("spacetime")
	if !js.Truthy() {
		return
	}
	buf, texts := scene.Encode(nil, nil)
	f32, list := shapesToJS(buf, texts)
	palette := make([]any, len(colors))
	for i, c := range colors {
		palette[i] = c
	}
	js.Call("png", f32, list, app.ValueOf(palette), scene.Width, scene.Height, scene.FontSize, scale, name)
}

// download offers text to the user as a file.
func download(name, mime string, data []byte) {
	if js := app.Window().Get("spacetime"); js.Truthy() {
		js.Call("download", name, mime, string(data))
	}
}
