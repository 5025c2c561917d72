package lab

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
)

// Every claim's link opens its lesson, alone, at the step that shows it,
// with nothing to say about the link.
func TestClaimLinksOpenTheirStep(t *testing.T) {
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			link := ClaimQuery(c)
			q, err := url.ParseQuery(link)
			require.NoError(t, err, link)
			p, err := PageFromQuery(q, false)
			require.NoError(t, err, link)
			require.Len(t, p.Views, 1, link)
			s := p.Views[0]
			assert.Equal(t, c.Lesson, s.Scenario().ID, link)
			assert.Equal(t, c.Step, s.Step(), link)
			assert.Empty(t, p.Notice(), link)
			assert.Empty(t, s.LinkNote, link)
		}
	}
}
