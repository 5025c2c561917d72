package lab

import (
	"net/url"
	"strconv"

	"spacetime/core/scenario"
)

// ClaimQuery is the query of the link that opens a claim's lesson at the
// step that shows it ("k=59&s=snapshot-bank&v=2"), at the stop of the
// lesson's tour that narrates it, with the rest of the link the claim
// asks for; the page's links put it after their own path.
// A claim's own link that does not parse is left out (a test holds every
// claim's link to opening as it says).
func ClaimQuery(c scenario.Claim) string {
	q, err := url.ParseQuery(c.LinkParams)
	if err != nil {
		q = url.Values{}
	}
	q.Set("v", URLVersion)
	q.Set("s", c.Lesson)
	q.Set("k", strconv.Itoa(c.Step))
	if n := claimStop(c); n > 0 {
		q.Set("tour", strconv.Itoa(n))
	}
	return q.Encode()
}

// claimStop is the stop of its lesson's tour that narrates a claim: the
// lesson's own stop at the claim's step, or the claim's own stop in a tour
// made of the lesson's claims (0: none).
func claimStop(c scenario.Claim) int {
	tour, own := scenario.BuiltinTour(c.Lesson), true
	if len(tour) == 0 {
		tour, own = claimsTour(c.Lesson), false
	}
	for i, st := range tour {
		if st.Step == c.Step && (own || st.Say == c.Text) {
			return i + 1
		}
	}
	return 0
}

// IsCourseIndex reports whether a link asks for the course's index: the
// page's own address with nothing in its query. /compare is never the
// index.
func IsCourseIndex(q url.Values, compare bool) bool { return !compare && len(q) == 0 }
