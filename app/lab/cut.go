package lab

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// CutTool is the learner's own cut: a point on each process line (in units
// of the diagram's axis). The events of a process before its point are
// inside the cut. The page says whether the cut is consistent and points at
// every message received inside it but sent outside it.
type CutTool struct {
	On bool
	// Points holds one point per process; NaN while not placed.
	Points []float64
}

// ToggleCut turns the cut tool on (with no points placed) or off.
func (s *Session) ToggleCut() {
	if s.Cut.On {
		s.Cut = CutTool{}
		return
	}
	s.Cut = CutTool{On: true, Points: make([]float64, len(s.scn.Names))}
	for i := range s.Cut.Points {
		s.Cut.Points[i] = math.NaN()
	}
}

// PlaceCut puts process id's point of the cut at t on the axis.
func (s *Session) PlaceCut(id sim.NodeID, t float64) {
	if !s.Cut.On || int(id) >= len(s.Cut.Points) {
		return
	}
	s.Cut.Points[id] = t
}

// CutVerdict says whether every process has its point, and, if so, which
// messages make the cut inconsistent (none: it is consistent), judged on
// the events on screen.
func (s *Session) CutVerdict() (complete bool, bad []int) {
	if !s.Cut.On {
		return false, nil
	}
	for _, p := range s.Cut.Points {
		if math.IsNaN(p) {
			return false, nil
		}
	}
	return true, check.Inconsistent(s.State().View(), s.cutSteps())
}

// cutSteps turns the points into the first step of each process that lies
// at or after its point (-1 when all its events so far are before it).
func (s *Session) cutSteps() []int {
	s.fresh()
	ix := s.index()
	steps := make([]int, len(s.Cut.Points))
	for i := range steps {
		steps[i] = -1
	}
	for k, r := range s.run.Trace().Records[:s.step] {
		if r.Node < 0 {
			continue // a step of the whole network (FIFO switched, a partition) is on no process line
		}
		if steps[r.Node] < 0 && ix.At(k) >= s.Cut.Points[r.Node] {
			steps[r.Node] = k
		}
	}
	return steps
}

// CutText says what the cut tool shows, for the page.
func (s *Session) CutText() string {
	if !s.Cut.On {
		return ""
	}
	placed := 0
	for _, p := range s.Cut.Points {
		if !math.IsNaN(p) {
			placed++
		}
	}
	complete, bad := s.CutVerdict()
	switch {
	case !complete:
		return fmt.Sprintf("Cut tool: click each process line where the cut should cross it (%d of %d placed). Events left of a line's mark are inside the cut.", placed, len(s.Cut.Points))
	case len(bad) == 0:
		return "This cut is consistent: every message received inside it was also sent inside it. It is a state the system could have been in."
	}
	var names []string
	for _, id := range bad {
		names = append(names, s.Describe(id))
	}
	return fmt.Sprintf("This cut is inconsistent: %d message(s) received inside it were sent outside it (highlighted): %s. It records an effect without its cause.",
		len(bad), strings.Join(names, "; "))
}

// encodeCut writes the cut's points for a link: "12.5,_,30".
func encodeCut(points []float64) string {
	parts := make([]string, len(points))
	for i, p := range points {
		if math.IsNaN(p) {
			parts[i] = "_"
		} else {
			parts[i] = strconv.FormatFloat(p, 'g', 8, 64)
		}
	}
	return strings.Join(parts, ",")
}

// decodeCut reads what encodeCut wrote, for n processes.
func decodeCut(text string, n int) ([]float64, error) {
	parts := strings.Split(text, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %d points, one per process, got %d", n, len(parts))
	}
	points := make([]float64, n)
	for i, p := range parts {
		if p == "_" {
			points[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a point of the axis", clip(p))
		}
		points[i] = v
	}
	return points, nil
}
