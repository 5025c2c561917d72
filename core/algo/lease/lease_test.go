package lease_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/lease"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
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
		m := algotest.Metrics(r)
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
			assert.Contains(t, algotest.Captions(r), "storage: write by client1 REJECTED (token 33 < 34)")
		}
	}
}

// Tokens grow with every grant, and a renewed lease keeps its token.
func TestTokensGrow(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "lease", "n": 5, "params": {"lease": 6, "first_token": 1},
		"script": [{"at": 1, "node": 3, "command": "acquire"}, {"at": 2, "node": 4, "command": "acquire"}, {"at": 3, "node": 5, "command": "acquire"},
		           {"at": 5, "node": 3, "command": "renew"}, {"at": 9, "node": 3, "command": "release"}],
		"until": {"quiescent": true}}`)
	m := algotest.Metrics(r)
	assert.Equal(t, 3, m["grants"], "one grant each; the renewal keeps token 1")
	assert.Equal(t, int64(3), m["last_token"])
	assert.Contains(t, algotest.Captions(r), "lock renews the lease of client1 (token 1)")
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
			_, err = scenariotest.Plan(t, s).Run()
		}
		require.Error(t, err, params)
		assert.Contains(t, err.Error(), want, params)
	}
	r := algotest.Run(t, `{"algorithm": "lease", "n": 4, "script": [{"at": 1, "node": 1, "command": "write"}], "until": {"time": 9}}`)
	assert.Contains(t, algotest.Captions(r), `lock does not take the command "write": only the clients take it`)
}

// A wall clock stepped back keeps a lease alive in its holder's mind; a
// timer is not fooled, and on the same schedule the client never writes.
func TestWallClockSteppedBack(t *testing.T) {
	s, r := scenariotest.Run(t, "lease-wall-clock")
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["rejected_writes"])
	assert.Equal(t, "paid by client 2", m["final_value"])
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "client1 reads its wall clock, 5, before 13: it still believes it holds the lease (token 33)")
	assert.Contains(t, captions, "storage: write by client1 REJECTED (token 33 < 34)")

	byTimer(t, s)
}

// byTimer runs a wall-clock lesson again with the switch off: by its timer
// client1's belief ends before client2's begins, and it never writes.
func byTimer(t *testing.T, s *scenario.Scenario) {
	t.Helper()
	timer, err := s.WithSwitch(lease.WallClock, false)
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, timer).Run()
	require.NoError(t, err)
	assert.Empty(t, algotest.Failed(r), "by its timer client1's belief ends before client2's begins")
	assert.Contains(t, algotest.Captions(r), "client1 believes it holds no lease, so it does not write")
	assert.Equal(t, 0, algotest.Metrics(r)["rejected_writes"])
}

// A wall clock that runs slow keeps a lease alive in its holder's mind as
// a step back does, without ever jumping: at half speed it reads 6 when
// the service's lease has run out, and reaches the lease's end ten ticks
// late. A timer counts the ticks that pass and is not fooled.
func TestWallClockThatDrifts(t *testing.T) {
	s, r := scenariotest.Run(t, "lease-drift")
	require.Len(t, algotest.Failed(r), 1)
	assert.Contains(t, algotest.Failed(r)[0], "at most one client believes it holds the lease")
	m := algotest.Metrics(r)
	assert.Equal(t, 1, m["rejected_writes"])
	assert.Equal(t, "paid by client 2", m["final_value"])
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "client1 gets the lease with token 33: its wall clock reads 1, so it believes it holds it until 11")
	assert.Contains(t, captions, "client1 reads its wall clock, 6, before 11: it still believes it holds the lease (token 33)")
	assert.Contains(t, captions, "client1's wall clock reads 11: its lease (token 33) has run out")
	for _, rec := range r.Trace().Records {
		if strings.Contains(rec.Caption, "client1's wall clock reads 11") {
			assert.Equal(t, sim.Time(22), rec.Time, "ten ticks after the service's lease ran out")
		}
	}

	byTimer(t, s)
}

// A renewal keeps the token; a late one is refused and queued; a crashed
// holder's lease runs out and the next client gets it.
func TestRenewAndCrashLessons(t *testing.T) {
	_, r := scenariotest.Run(t, "lease-renew")
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, "paid by client 1", m["final_value"], "the write within the renewed lease is taken")
	assert.Equal(t, int64(35), m["last_token"])
	captions := algotest.Captions(r)
	assert.Contains(t, captions, "lock renews the lease of client1 (token 33) until 18")
	assert.Contains(t, captions, "lock refuses to renew token 33 for client1: the lease is client2's now (token 34); it queues client1 for a new lease")

	_, r = scenariotest.Run(t, "lease-crash")
	assert.Empty(t, algotest.Failed(r))
	m = algotest.Metrics(r)
	assert.Equal(t, "paid by client 2", m["final_value"])
	assert.Contains(t, algotest.Captions(r), "lock: the lease of client1 (token 33) runs out; it grants client2 the lease with token 34, until 22")
}

// A service whose clock runs fast ends a lease early by it: client2 gets
// the lease at tick 8, six ticks into client1's ten, while client1 still
// believes in it; judged by a timer, client2 waits for the ten ticks.
func TestAFastServiceClockEndsALeaseEarly(t *testing.T) {
	s, r := scenariotest.Run(t, "lease-fast-clock")
	all := algotest.Captions(r)
	assert.Contains(t, all, "lock's wall clock reads 16, past 14: the lease of client1 (token 33) has run out by it, and it grants client2 the lease with token 34")
	assert.Equal(t, 1, algotest.Metrics(r)["rejected_writes"])
	for _, f := range r.Failures() {
		if f.Step >= 0 {
			assert.True(t, s.Expected(f.Name), f.Name)
		}
	}

	timer := s.Clone()
	timer.Params = []byte(`{"wall_clock": false}`)
	timer.Expect = nil
	p, err := timer.Compile()
	require.NoError(t, err)
	r, err = p.Run()
	require.NoError(t, err)
	for _, f := range r.Failures() {
		assert.False(t, f.Step >= 0 && f.Name == "at most one client believes it holds the lease", "by a timer the lease lasts its ten ticks: %s", f.Detail)
	}
	assert.Contains(t, algotest.Captions(r), "the lease of client1 (token 33) runs out; it grants client2 the lease with token 34, until 22")
}

// The service judges a renewal by the clock it judges expiry by: with its
// clock running fast, a RENEW that comes in time by the ticks that passed
// is refused, the lease having run out by its clock.
func TestAFastServiceClockRefusesALateRenewal(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "lease", "n": 4, "params": {"wall_clock": true},
		"script": [{"at": 0, "fault": "drift", "node": 1, "rate": 2}, {"at": 1, "node": 3, "command": "acquire"}, {"at": 7, "node": 3, "command": "renew"}],
		"until": {"quiescent": true}}`)
	assert.Contains(t, algotest.Captions(r), "lock: client1's lease (token 33) had run out")
}

// A service that crashes keeps its lease on disk: back up while the lease
// has time left, it times and draws it again; back up after it ran out,
// it is free for the next client (client2, whose ACQUIRE waited in its
// channel). Before, the crash lost the lease's timer and nobody was
// served again.
func TestTheServiceRecoversItsLease(t *testing.T) {
	for recoverAt, want := range map[int]string{
		5:  "lock recovers; it still knows the last token, 33 (a real service keeps it on disk), and that client1 holds the lease until 12",
		14: "lock recovers; it still knows the last token, 33 (a real service keeps it on disk): the lease of client1 ran out while it was down; nobody waits\nlock grants client2 the lease with token 34",
	} {
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "lease", "n": 4,
			"script": [{"at": 1, "node": 3, "command": "acquire"}, {"at": 3, "fault": "crash", "node": 1}, {"at": 3, "node": 4, "command": "acquire"},
			           {"at": %d, "fault": "recover", "node": 1}],
			"until": {"quiescent": true}}`, recoverAt))
		assert.Contains(t, algotest.Captions(r), want)
		for _, f := range r.Failures() {
			assert.Negative(t, f.Step, "recovering at %d: %s", recoverAt, f.Name)
		}
		assert.Equal(t, 2, algotest.Metrics(r)["grants"], "recovering at %d: client2 is served", recoverAt)
	}
}

// A client that asks again while the service still counts it the holder
// (its GRANT was slow, or its own clock ended its belief first) is sent
// the GRANT again for what is left of its lease; before, it was not
// answered, and never served once that lease ran out.
func TestAHolderThatAsksAgainIsAnswered(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "lease", "n": 4,
		"script": [{"at": 1, "node": 3, "command": "acquire"}, {"at": 5, "node": 3, "command": "acquire"}],
		"until": {"quiescent": true}}`)
	assert.Contains(t, algotest.Captions(r), "lock: client1 already holds the lease (token 33): it sends the GRANT again, for the 6 ticks left")
	for _, f := range r.Failures() {
		assert.Negative(t, f.Step, f.Name)
	}
}
