package lab

import (
	"net/url"
	"strconv"

	"spacetime/core/scenario"
)

// ClaimQuery is the query of the link that opens a claim's lesson at the
// step that shows it ("k=59&s=snapshot-bank&v=2"), with the rest of the
// link the claim asks for; the page's links put it after their own path.
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
	return q.Encode()
}

// IsCourseIndex reports whether a link asks for the course's index: the
// page's own address with nothing in its query. /compare is never the
// index.
func IsCourseIndex(q url.Values, compare bool) bool { return !compare && len(q) == 0 }
