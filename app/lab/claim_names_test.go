package lab

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
)

// kindWord is a word a claim may name a message kind by: REQUEST, GRANT,
// REQUEST-VOTE, APPEND.
var kindWord = regexp.MustCompile(`\b[A-Z][A-Z_-]{2,}\b`)

// Every claim of the course's index that names a kind of message ("three
// messages an entry: REQUEST, GRANT and RELEASE") opens where a message of
// that kind is drawn: sent by the claim's step and in the window the page
// shows there, laid out as on a 1280×720 projector.
func TestEveryClaimShowsTheMessagesItNames(t *testing.T) {
	named := 0
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			page := claimPage(t, c)
			s := page.Views[0]
			kinds := map[string]bool{}
			for _, m := range s.Run().Trace().MsgsBefore(s.Run().Len()) {
				kinds[m.Kind] = true
			}
			drawn := map[string]bool{}
			for _, sh := range page.Scene(0, 898, 440).Shapes {
				if _, ok := sh.Tag.Message(); ok && sh.Tag.What == diagram.WhatMessage && sh.Op == diagram.OpLine {
					drawn[sh.Tag.Role] = true
				}
			}
			for _, w := range kindWord.FindAllString(c.Text, -1) {
				w = strings.Trim(w, "-_")
				if !kinds[w] {
					continue // not a kind of this run's messages
				}
				named++
				assert.True(t, drawn[w], "%s at step %d: the claim names %s, but no %s is drawn there: %q", c.Lesson, c.Step, w, w, c.Text)
			}
		}
	}
	t.Logf("%d kinds of message named by the claims", named)
	assert.Greater(t, named, 15)
}

// Every text the diagram draws on the way to a claim's step that the
// claim quotes ("lock2 is elected", "leader t2", "$27") is still drawn at
// the claim's step, in the window the page shows there, laid out as on
// a 1280×720 projector: what a claim names is on screen when the index
// opens it.
func TestEveryClaimShowsTheTextsItQuotes(t *testing.T) {
	quoted := 0
	for _, topic := range scenario.Course() {
		for _, c := range topic.Claims {
			if c.Step > 2000 {
				continue
			}
			page := claimPage(t, c)
			s := page.Views[0]
			lanes := map[string]bool{}
			for _, n := range s.Run().Trace().Names {
				lanes[n] = true
			}
			texts := func() map[string]bool {
				out := map[string]bool{}
				for _, sh := range page.Scene(0, 898, 440).Shapes {
					if sh.Op == diagram.OpText {
						out[sh.Text] = true
					}
				}
				return out
			}
			at := texts()
			said := map[string]bool{}
			for k := 1; k < c.Step; k += max(1, c.Step/40) {
				s.Seek(k)
				for text := range texts() {
					if said[text] || lanes[text] || len(text) < 3 || strings.Trim(text, "0123456789.") == "" {
						continue
					}
					if quotes(c.Text, text) {
						said[text] = true
						quoted++
						assert.True(t, at[text], "%s at step %d: the claim quotes %q, drawn at step %d, but not at its own step: %q", c.Lesson, c.Step, text, k, c.Text)
					}
				}
			}
		}
	}
	t.Logf("%d texts of the diagrams quoted by the claims", quoted)
}

// claimPage is the page the course's index opens for a claim, drawn at
// text size L, as on a 1280×720 projector.
func claimPage(t *testing.T, c scenario.Claim) *Page {
	t.Helper()
	q, err := url.ParseQuery(ClaimQuery(c))
	require.NoError(t, err)
	page, err := PageFromQuery(q, false)
	require.NoError(t, err, c.Text)
	page.Views[0].Scale = diagram.TextScale("L")
	return page
}

// quotes says the claim has the text as words of its own.
func quotes(claim, text string) bool {
	i := strings.Index(claim, text)
	for i >= 0 {
		before, after := i == 0 || !isWordByte(claim[i-1]), i+len(text) == len(claim) || !isWordByte(claim[i+len(text)])
		if before && after {
			return true
		}
		j := strings.Index(claim[i+1:], text)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
