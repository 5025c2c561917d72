package lab

import (
	"cmp"
	"fmt"
	"slices"

	"spacetime/core/scenario"
)

// Tour is the lesson's guided tour and the stop the page is at.
type Tour struct {
	s *Session
	// stop is the stop the page is at, from 1 (0: none).
	stop int
	// ofClaims is the tour made of a built-in lesson's claims, once made.
	ofClaims []scenario.TourStop
}

// Tour is the session's guided tour.
func (s *Session) Tour() *Tour { return &s.tour }

// Stops are the tour's stops: the lesson's own, or for a built-in lesson
// opened as it is, one stop at each claim of the course's index it
// shows, narrated by the claim (nil: no tour).
func (t *Tour) Stops() []scenario.TourStop {
	s := t.s
	if l := s.scn.Lesson; l != nil && len(l.Tour) > 0 {
		return l.Tour
	}
	if s.link != linkBuiltin {
		return nil // a changed lesson's claims may no longer hold where they did
	}
	if t.ofClaims == nil {
		t.ofClaims = claimsTour(s.scn.ID)
	}
	return t.ofClaims
}

// claimsTour is a stop at each claim that lesson id shows, by step.
func claimsTour(id string) []scenario.TourStop {
	stops := []scenario.TourStop{}
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			if c.Lesson == id && len(stops) < scenario.MaxTourStops {
				stops = append(stops, scenario.TourStop{Step: c.Step, Say: c.Text})
			}
		}
	}
	slices.SortStableFunc(stops, func(a, b scenario.TourStop) int { return cmp.Compare(a.Step, b.Step) })
	return stops
}

// Stop is the stop of the tour the page is at, from 1 (0: no tour).
func (t *Tour) Stop() int { return t.stop }

// GoTo goes to stop n of the tour (from 1): its step, its event
// selected, its messages pointed at. Stop 0 ends the tour.
func (t *Tour) GoTo(n int) error {
	s, tour := t.s, t.Stops()
	if n < 0 || n > len(tour) {
		return fmt.Errorf("the tour has stops 1 to %d, not %d", len(tour), n)
	}
	t.stop = n
	if n == 0 {
		return nil
	}
	st := tour[n-1]
	s.Seek(st.Step)
	s.causality.selected, s.causality.other = -1, -1
	if st.Event > 0 && st.Event <= s.step && s.run.Trace().Records[st.Event-1].Node >= 0 {
		s.causality.selected = st.Event - 1
	}
	return nil
}

// Next goes to the tour's next stop, and reports whether there was one.
func (t *Tour) Next() bool {
	if t.stop >= len(t.Stops()) {
		return false
	}
	return t.GoTo(t.stop+1) == nil
}

// Prev goes to the tour's previous stop, and reports whether there was
// one.
func (t *Tour) Prev() bool {
	if t.stop <= 1 {
		return false
	}
	return t.GoTo(t.stop-1) == nil
}

// messages are the messages the stop on screen points at, while the page
// is at its step.
func (t *Tour) messages() []int {
	if t.stop < 1 {
		return nil // no tour: not even made, on every frame
	}
	tour := t.Stops()
	if t.stop > len(tour) {
		return nil
	}
	st := tour[t.stop-1]
	if st.Step != t.s.step {
		return nil
	}
	return st.Messages
}
