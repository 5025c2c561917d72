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

// ZoomedAt is the window zoomed by factor (below 1 zooms in) keeping the
// point under pixel column x of the scene where it is; it is pinned.
func ZoomedAt(scene *diagram.Scene, x, factor float64) View {
	t := scene.TimeAt(x)
	old := scene.T1 - scene.T0
	span := clampSpan(old * factor)
	return pinned(span, t-(t-scene.T0)*span/old)
}

// pinned is the window of that span pinned at start, both within what a
// link can say, so that the page never writes a link it cannot open.
func pinned(span, start float64) View {
	return View{Span: clampSpan(span), Pinned: true, Start: math.Min(math.Max(start, -MaxAt), MaxAt)}
}

// Zoomed is v zoomed by factor around the present (it keeps following it),
// or around the middle when pinned.
func Zoomed(v View, scene *diagram.Scene, factor float64) View {
	if v.Pinned {
		return ZoomedAt(scene, scene.Width/2, factor)
	}
	v.Span = clampSpan((scene.T1 - scene.T0) * factor)
	return v
}

// Panned is the window moved by dx pixels of the scene (positive moves the
// view to later times, as dragging the picture leftwards does); it is
// pinned.
func Panned(scene *diagram.Scene, dx float64) View {
	span := scene.T1 - scene.T0
	start := scene.T0 + dx*span/scene.PlotWidth()
	return pinned(span, math.Max(start, -span/2))
}

// Following is the window unpinned so that it follows the present again,
// keeping the zoom.
func (v View) Following() View { return View{Span: v.Span} }

func clampSpan(span float64) float64 { return math.Min(math.Max(span, MinSpan), MaxSpan) }
