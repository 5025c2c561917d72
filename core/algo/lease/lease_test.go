package lease_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/mutex/mutextest"
	"spacetime/core/scenario"
	"spacetime/core/scenario/scenariotest"
)

// Seed 000's two runs: without fencing the stale write wins, with fencing
// the storage rejects it; two clients believe they hold the lease in both.
func TestSeedStory(t *testing.T) {
	for id, want := range map[string]struct {
		final    string
		rejected int
		stale    bool
	}{
		"lease-no-fencing": {"stale write by client 1", 0, true},
		"lease-fencing":    {"paid by client 2", 1, false},
	} {
		s, r := scenariotest.Run(t, id)
		m := mutextest.Metrics(r)
		assert.Equal(t, want.final, m["final_value"], id)
		assert.Equal(t, want.rejected, m["rejected_writes"], id)
		assert.Equal(t, int64(34), m["last_token"], id)
		failed := map[string]bool{}
		for _, f := range r.Failures() {
			if f.Step >= 0 {
				failed[f.Name] = true
				assert.True(t, s.Expected(f.Name), "%s: %s is declared", id, f.Name)
			}
		}
		assert.True(t, failed["at most one client believes it holds the lease"], id)
		assert.Equal(t, want.stale, failed["the storage accepts no write whose lease had run out"], id)
		if want.rejected > 0 {
			assert.Contains(t, mutextest.Captions(r), "storage: write by client1 REJECTED (token 33 < 34)")
		}
	}
}

// Tokens grow with every grant, and a renewed lease keeps its token.
func TestTokensGrow(t *testing.T) {
	r := mutextest.Run(t, `{"algorithm": "lease", "n": 5, "params": {"lease": 6, "first_token": 1},
		"script": [{"at": 1, "node": 3, "command": "acquire"}, {"at": 2, "node": 4, "command": "acquire"}, {"at": 3, "node": 5, "command": "acquire"},
		           {"at": 5, "node": 3, "command": "renew"}, {"at": 9, "node": 3, "command": "release"}],
		"until": {"quiescent": true}}`)
	m := mutextest.Metrics(r)
	assert.Equal(t, 3, m["grants"], "one grant each; the renewal keeps token 1")
	assert.Equal(t, int64(3), m["last_token"])
	assert.Contains(t, mutextest.Captions(r), "lock renews the lease of client1 (token 1)")
}

// Bad parameters are refused, naming the field; only clients take the
// clients' commands.
func TestParamsAndCommands(t *testing.T) {
	for params, want := range map[string]string{
		`{"lease": 0}`:       `field "params.lease": want ticks from 1 to 1000000, got 0`,
		`{"work": 0}`:        `field "params.work": want ticks from 1 to 1000000, got 0`,
		`{"first_token": 0}`: `field "params.first_token": want a token from 1 to 1000000000, got 0`,
		`{"fencing": 3}`:     `params.fencing`,
	} {
		s, err := scenario.Parse([]byte(fmt.Sprintf(`{"algorithm": "lease", "n": 4, "params": %s, "until": {"time": 9}}`, params)))
		if err == nil {
			_, err = s.Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
	r := mutextest.Run(t, `{"algorithm": "lease", "n": 4, "script": [{"at": 1, "node": 1, "command": "write"}], "until": {"time": 9}}`)
	assert.Contains(t, mutextest.Captions(r), `lock does not take the command "write": only the clients take it`)
}
