package main

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// explore finds the lesson's bug, prints the schedule with the search's
// choices marked and a link that opens it, and exits 1.
func TestExploreFindsTheBug(t *testing.T) {
	var out strings.Builder
	err := run([]string{"explore", "--scenario", "snapshot-nonfifo"}, &out)
	assert.Equal(t, 1, exitCode(err))
	text := out.String()
	assert.Contains(t, text, `from step 38 for a schedule that breaks "snapshot total equals the money there is"`)
	assert.Contains(t, text, `found: "snapshot total equals the money there is" fails at step 43`)
	assert.Contains(t, text, "*  40  B gets its first marker of snapshot 1, on A→B")
	i := strings.Index(text, "open it at step 43: ")
	require.GreaterOrEqual(t, i, 0, text)
	link := strings.TrimSpace(text[i+len("open it at step 43: "):])
	u, err := url.Parse(link)
	require.NoError(t, err)
	page, err := lab.PageFromQuery(u.Query(), false)
	require.NoError(t, err, "the link opens")
	s := page.Views[0]
	assert.Equal(t, 43, s.Step())
	for _, f := range s.Run().FailuresAt(s.Step()) {
		if f.Name == "snapshot total equals the money there is" {
			assert.Equal(t, 42, f.Step, "the page on the link shows the failure")
		}
	}
}

// Where the algorithm is correct it tries every schedule within its bound,
// says so and exits 0; --json reports the same.
func TestExploreFindsNone(t *testing.T) {
	var out strings.Builder
	err := run([]string{"explore", "--scenario", "ricart-agrawala-defer", "--json"}, &out)
	require.NoError(t, err)
	var rep struct {
		Progress struct {
			Outcome string `json:"outcome"`
			States  int    `json:"states"`
		} `json:"progress"`
		Violation any `json:"violation"`
	}
	require.NoError(t, json.Unmarshal([]byte(out.String()), &rep))
	assert.Equal(t, "exhausted", rep.Progress.Outcome)
	assert.Greater(t, rep.Progress.States, 100)
	assert.Nil(t, rep.Violation)
}

// Bad requests exit 2 with words that name the flag.
func TestExploreBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", "snapshot-bank", "--depth", "0"}, "--depth: want a number from 1 to 200"},
		{[]string{"--scenario", "snapshot-bank", "--max-states", "1e9"}, "--max-states: want a number from 1 to 2000000"},
		{[]string{"--scenario", "snapshot-bank", "--faults", "9"}, "--faults: want a number from 0 to 3"},
		{[]string{"--scenario", "snapshot-bank", "--from", "100000"}, "--from: want a number from 0 to"},
		{[]string{"--scenario", "snapshot-bank", "--invariant", "no bugs"}, `has no invariant "no bugs"`},
		{[]string{"--scenario", "log-kvstore"}, "checks no invariant: there is nothing to break"},
	} {
		var out strings.Builder
		err := run(append([]string{"explore"}, tc.args...), &out)
		assert.Equal(t, 2, exitCode(err), tc.args)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}
