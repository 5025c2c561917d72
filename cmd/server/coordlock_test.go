package main

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The central coordinator and the coordination service on one schedule,
// a holder crashed and then a holder paused: the side-by-side table says
// who deadlocks and who lets two clients believe they hold the lock.
func TestCoordinationLockBesideCentral(t *testing.T) {
	column := func(p *page, name string) []string {
		head := eval[[]string](p, `[...document.querySelectorAll('#side-by-side thead th')].map(th => th.textContent)`)
		col := -1
		for i, h := range head {
			if h == name {
				col = i
			}
		}
		require.Positive(t, col, "%s in %v", name, head)
		rows := eval[[][]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => [...tr.children].map(td => td.textContent))`)
		require.Len(t, rows, 2)
		return []string{rows[0][col], rows[1][col]}
	}
	p := open(t, "/?s=lock-client-crash-central&s.2=lock-client-crash-coordination-lock")
	p.key(kb.End)
	assert.Equal(t, []string{"true", "false"}, column(p, "deadlock"), "the coordinator's clients wait for good")
	assert.Equal(t, []string{"1", "3"}, column(p, "cs entries"))
	assert.Contains(t, p.text("#caption-2"), "client3")

	p = open(t, "/?s=lock-client-pause-central&s.2=lock-client-pause-coordination-lock")
	p.key(kb.End)
	assert.Equal(t, []string{"1", "2"}, column(p, "max in cs"), "the service hands the lock on during the pause")
	p.enlarge(2)
	rejected := eval[string](p, `[...document.querySelectorAll('#panels-2 tr')].map(tr => [...tr.children].map(td => td.textContent)).find(r => r[0] === "writes rejected")[1]`)
	assert.Equal(t, "1", rejected, "the storage refused the paused client's write")
	p.screenshot("coordination-lock-compare")
	p.noConsoleErrors()
}

// One coordination service or a replicated one, and the service crashes
// while client1 holds the lock: the single service stops the lock for
// good, the replicated one elects a new leader and every client takes it.
func TestReplicatedLockOutlivesItsLeader(t *testing.T) {
	p := open(t, "/?s=lock-service-crash-coordination-lock&s.2=lock-service-crash-replicated-lock")
	p.key(kb.End)
	column := func(name string) []string {
		head := eval[[]string](p, `[...document.querySelectorAll('#side-by-side thead th')].map(th => th.textContent)`)
		rows := eval[[][]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => [...tr.children].map(td => td.textContent))`)
		for i, h := range head {
			if h == name {
				return []string{rows[0][i], rows[1][i]}
			}
		}
		t.Fatalf("no column %s in %v", name, head)
		return nil
	}
	assert.Equal(t, []string{"true", "false"}, column("deadlock"), "the single service's clients wait for good")
	assert.Equal(t, []string{"1", "3"}, column("cs entries"))
	p.enlarge(2)
	assert.Contains(t, p.text("#panels-2"), "Servers and their logs", "the replicas' logs")
	p.screenshot("replicated-lock-compare")
	p.noConsoleErrors()
}
