package dblock_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/dblock"
	"spacetime/core/sim"
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

// The rules' checks hold on the lesson, and each names a process that
// breaks its rule at the step it breaks it.
func TestTheRulesChecksNameAProcessThatBreaksThem(t *testing.T) {
	check := func(v sim.View, name string) sim.Verdict { return algotest.Check(t, dblock.Spec, v, name) }
	_, r := scenariotest.Run(t, "database-lock-pause")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, dblock.Spec, v, k, dblock.DrawnName, dblock.DatabaseName, dblock.ClientName)
		p := v.Node(id).(*dblock.Process)
		switch {
		case p.IsDatabase && p.DB.Holder.Client != sim.None && !broke["holder"]:
			holder := p.DB.Holder
			p.DB.Holder.Client = sim.None
			assert.Contains(t, check(v, dblock.DatabaseName).Detail, "db holds the lock for nobody, with its idle timeout armed")
			assert.Contains(t, check(v, dblock.DrawnName).Detail, "but is drawn locked")
			p.DB.Holder = holder
			broke["holder"] = true
		case !p.IsDatabase && ev.Kind == sim.Deliver && ev.Msg.Kind == dblock.KindRow && !broke["read"]:
			p.Client.Read++
			assert.Contains(t, check(v, dblock.ClientName).Detail, "got the ROW of its transaction 1 (counter 0), and does not hold the lock, read it and work")
			p.Client.Read--
			broke["read"] = true
		case !p.IsDatabase && ev.Kind == sim.Command && !broke["told"]:
			p.Client.Busy = false
			assert.Contains(t, check(v, dblock.ClientName).Detail, "was told to run a transaction, and has none under way")
			p.Client.Busy = true
			broke["told"] = true
		case p.IsDatabase && ev.Kind == sim.Deliver && ev.Msg.Kind == dblock.KindCommit && p.DB.Refused > 0 && !broke["refuse"]:
			p.InDatabase = false
			assert.Contains(t, check(v, dblock.DatabaseName).Detail, "took the UPDATE of client1's transaction 1 (counter := 1), and holds 1 without answering COMMITTED")
			p.InDatabase = true
			broke["refuse"] = true
		}
	})
	assert.Len(t, broke, 4)
}

// A database that recovers has rolled back every transaction it had
// taken a SELECT of: a late copy of one cannot lock the row again.
func TestARecoveredDatabaseHasRolledBackWhatItKnew(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "database-lock", "n": 3,
		"script": [
			{"at": 1, "node": 2, "command": "transaction"},
			{"at": 2, "node": 3, "command": "transaction"},
			{"at": 5, "fault": "crash", "node": 1},
			{"at": 7, "fault": "recover", "node": 1}],
		"until": {"quiescent": true}}`)
	assert.Empty(t, algotest.Failed(r))
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		if id, ev, ok := v.LastStep(); ok && ev.Kind == sim.Recover && id == dblock.Database {
			db := &v.Node(id).(*dblock.Process).DB
			ended := db.Ended[2]
			db.Ended[2] = 0
			assert.Equal(t, "db recovered, and did not roll back client2's transaction 1, which it had heard of", algotest.Check(t, dblock.Spec, v, dblock.DatabaseName).Detail)
			db.Ended[2] = ended
			return
		}
	}
	t.Fatal("the database did not recover")
}

// A client told its transaction was rolled back while it works sends no
// update when its work is done. The ABORTED comes from a late copy of its
// SELECT, after the database crashed and recovered: a schedule the
// campaign's faults rarely draw, so the client's check is held to it here.
func TestAClientToldItsTransactionEndedSendsNoUpdate(t *testing.T) {
	r := algotest.Run(t, `{"algorithm": "database-lock", "n": 3, "params": {"work": 6},
		"script": [
			{"at": 1, "node": 2, "command": "transaction"},
			{"at": 1, "fault": "duplicate", "msg": 0},
			{"at": 1, "fault": "delay", "msg": 1, "for": 5},
			{"at": 3, "fault": "crash", "node": 1},
			{"at": 4, "fault": "recover", "node": 1}],
		"until": {"quiescent": true}}`)
	assert.Contains(t, algotest.Captions(r), "client1 learns that its transaction 1 was rolled back: its update never happened, and it may try again")
	assert.Contains(t, algotest.Captions(r), `client1's timer "work" fires`, "the work timer fires after the ABORTED")
	assert.Empty(t, algotest.Failed(r))
	m := algotest.Metrics(r)
	assert.Equal(t, int64(0), m["commits"].(int64)+int64(m["refused_updates"].(int)), "no update was sent")
}
