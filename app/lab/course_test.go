package lab

import (
	"net/url"
	"strings"
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

// A claim's own link parses, and a cut it names is complete, and
// inconsistent when the claim says so (else consistent).
func TestClaimsOwnLinks(t *testing.T) {
	cuts := 0
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			if c.LinkParams == "" {
				continue
			}
			_, err := url.ParseQuery(c.LinkParams)
			require.NoError(t, err, c.LinkParams)
			q, err := url.ParseQuery(ClaimQuery(c))
			require.NoError(t, err)
			p, err := PageFromQuery(q, false)
			require.NoError(t, err, c.LinkParams)
			if q.Has("cut") {
				cuts++
				complete, bad := p.Views[0].Cut().Verdict()
				assert.True(t, complete, "%s: every process has its point", c.Text)
				if strings.Contains(c.Text, "inconsistent") {
					assert.NotEmpty(t, bad, "%s: the cut is inconsistent, as the claim says", c.Text)
				} else {
					assert.Empty(t, bad, "%s: the cut is consistent", c.Text)
				}
			}
		}
	}
	assert.Positive(t, cuts)
}
