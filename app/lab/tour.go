package lab

import (
	"cmp"
	"fmt"
	"slices"

	"spacetime/core/scenario"
)

// Tour is the lesson's guided tour: its own stops, or for a built-in
// lesson opened as it is, one stop at each claim of the course's index it
// shows, narrated by the claim (nil: no tour).
func (s *Session) Tour() []scenario.TourStop {
	if l := s.scn.Lesson; l != nil && len(l.Tour) > 0 {
		return l.Tour
	}
	if s.link != linkBuiltin {
		return nil // a changed lesson's claims may no longer hold where they did
	}
	if s.tourOfClaims == nil {
		s.tourOfClaims = claimsTour(s.scn.ID)
	}
	return s.tourOfClaims
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

// TourStop is the stop of the tour the page is at, from 1 (0: no tour).
func (s *Session) TourStop() int { return s.tourStop }

// GoToStop goes to stop n of the tour (from 1): its step, its event
// selected, its messages pointed at. Stop 0 ends the tour.
func (s *Session) GoToStop(n int) error {
	tour := s.Tour()
	if n < 0 || n > len(tour) {
		return fmt.Errorf("the tour has stops 1 to %d, not %d", len(tour), n)
	}
	s.tourStop = n
	if n == 0 {
		return nil
	}
	st := tour[n-1]
	s.Seek(st.Step)
	s.Selected, s.Other = -1, -1
	if st.Event > 0 && st.Event <= s.step && s.run.Trace().Records[st.Event-1].Node >= 0 {
		s.Selected = st.Event - 1
	}
	return nil
}

// NextStop goes to the tour's next stop, and reports whether there was one.
func (s *Session) NextStop() bool {
	if s.tourStop >= len(s.Tour()) {
		return false
	}
	return s.GoToStop(s.tourStop+1) == nil
}

// PrevStop goes to the tour's previous stop, and reports whether there
// was one.
func (s *Session) PrevStop() bool {
	if s.tourStop <= 1 {
		return false
	}
	return s.GoToStop(s.tourStop-1) == nil
}

// tourMessages are the messages the stop on screen points at, while the
// page is at its step.
func (s *Session) tourMessages() []int {
	if s.tourStop < 1 {
		return nil // no tour: not even made, on every frame
	}
	tour := s.Tour()
	if s.tourStop > len(tour) {
		return nil
	}
	st := tour[s.tourStop-1]
	if st.Step != s.step {
		return nil
	}
	return st.Messages
}
