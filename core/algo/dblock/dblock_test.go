package dblock_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The lesson: the paused client's transaction is rolled back, the next
// commits, and the late update is refused: the counter counts the one
// commit. With the update taken as it comes, it overwrites the newer one.
func TestAPausedClientsUpdateIsRefused(t *testing.T) {
	_, r := scenariotest.Run(t, "database-lock-pause")
	m := algotest.Metrics(r)
	assert.Equal(t, int64(1), m["counter"])
	assert.Equal(t, int64(1), m["commits"])
	assert.Equal(t, 1, m["refused_updates"])
	assert.Contains(t, algotest.Captions(r), "db refuses the UPDATE of client1's transaction 1 (counter := 1): that transaction no longer holds the lock, it was rolled back; the counter stays 1")
	assert.NotContains(t, algotest.Failed(r), "no committed update is lost")

	r = algotest.Run(t, `{"algorithm": "database-lock", "n": 3, "params": {"in_database": false},
		"script": [{"at": 1, "node": 2, "command": "transaction"}, {"at": 4, "fault": "pause", "node": 2, "for": 14}, {"at": 13, "node": 3, "command": "transaction"}],
		"until": {"quiescent": true}}`)
	m = algotest.Metrics(r)
	assert.Equal(t, int64(1), m["counter"], "two commits, each of 0 + 1")
	assert.Equal(t, int64(2), m["commits"])
	failed := algotest.Failed(r)
	assert.Contains(t, failed, "no committed update is lost: 2 transactions committed, each adding 1, but the counter is 1: an update that read an older counter overwrote a newer one")
}

// A copy of a SELECT that arrives after its transaction was rolled back
// cannot lock the row again: the transaction's late UPDATE would then be
// taken (found by spacetime check, run 670 of seed 5).
func TestALateCopyCannotRelockAnEndedTransaction(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "database-lock", "n": 3,
		"script": [
			{"at": 1, "node": 2, "command": "transaction"},
			{"at": 1, "fault": "duplicate", "msg": 0},
			{"at": 1, "fault": "delay", "msg": 1, "for": 12},
			{"at": 4, "fault": "pause", "node": 2, "for": 14},
			{"at": 13, "node": 3, "command": "transaction"}],
		"until": {"quiescent": true}}`)
	all := algotest.Captions(r)
	assert.Contains(t, all, "db: client1's transaction 1 has ended; a late SELECT of it cannot lock the row again")
	for _, f := range algotest.Failed(r) {
		assert.NotContains(t, f, "no committed update is lost")
	}
	m := algotest.Metrics(r)
	assert.Equal(t, m["commits"], m["counter"])
}
