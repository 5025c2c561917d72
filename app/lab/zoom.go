package lab

import (
	"math"

	"spacetime/app/diagram"
)

// View is the diagram's window: how much of the axis is visible and where.
// By default it follows the present; zooming at a point or panning pins it.
type View struct {
	// Span is the visible width of the axis (ticks or Lamport time); 0 is
	// the default.
	Span float64
	// Pinned fixes the window's left edge at Start.
	Pinned bool
	Start  float64
}

// Zoom limits, in units of the axis.
const (
	MinSpan = 4
	MaxSpan = 1_000_000
)

func (v View) span() float64 {
	if v.Span <= 0 {
		return diagram.DefaultSpan
	}
	return v.Span
}

// ZoomAt zooms by factor (below 1 zooms in) keeping the point under pixel
// column x of the scene where it is; the window is then pinned.
func (s *Session) ZoomAt(scene *diagram.Scene, x, factor float64) {
	t := scene.TimeAt(x)
	old := scene.T1 - scene.T0
	span := clampSpan(old * factor)
	s.View = View{Span: span, Pinned: true, Start: t - (t-scene.T0)*span/old}
}

// Zoom zooms by factor around the present, and keeps following it.
func (s *Session) Zoom(scene *diagram.Scene, factor float64) {
	if s.View.Pinned {
		s.ZoomAt(scene, scene.Width/2, factor)
		return
	}
	s.View.Span = clampSpan((scene.T1 - scene.T0) * factor)
}

// Pan moves the window by dx pixels of the scene (positive moves the view
// to later times, as dragging the picture leftwards does); the window is
// then pinned.
func (s *Session) Pan(scene *diagram.Scene, dx float64) {
	span := scene.T1 - scene.T0
	start := scene.T0 + dx*span/scene.PlotWidth()
	s.View = View{Span: span, Pinned: true, Start: math.Max(start, -span/2)}
}

// Follow unpins the window so that it follows the present again, keeping
// the zoom.
func (s *Session) Follow() { s.View.Pinned, s.View.Start = false, 0 }

// ResetView goes back to the default zoom, following the present.
func (s *Session) ResetView() { s.View = View{} }

func clampSpan(span float64) float64 { return math.Min(math.Max(span, MinSpan), MaxSpan) }
