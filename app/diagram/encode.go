package diagram

import "math"

// Stride is the number of float32 values per shape in Encode's buffer:
// op, x1, y1, x2, y2, color, width, flags, align, text index.
const Stride = 10

// Encode flattens the scene for the page's canvas painter: buf receives
// Stride little float32s per shape (appended to buf[:0]) and texts the
// strings that text shapes index into.
func (s *Scene) Encode(buf []float32, texts []string) ([]float32, []string) {
	buf, texts = buf[:0], texts[:0]
	for _, sh := range s.Shapes {
		ti := float32(-1)
		if sh.Op == OpText {
			ti = float32(len(texts))
			texts = append(texts, sh.Text)
		}
		buf = append(buf, float32(sh.Op), f32(sh.X1), f32(sh.Y1), f32(sh.X2), f32(sh.Y2),
			float32(sh.Color), f32(sh.Width), float32(sh.Flags), float32(sh.Align), ti)
	}
	return buf, texts
}

func f32(x float64) float32 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return float32(x)
}
