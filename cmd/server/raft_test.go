package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// roles are the role column of the Raft servers' panel.
func (p *page) roles() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#panels tbody tr')].map(tr => tr.children[1].textContent).slice(0, 5)`)
}

// Raft's Figure 8 taught from the page: chosen in the picker, played to
// its end under the wrong commit rule it breaks leader completeness and
// state machine safety, the panel shows the logs and who leads, and the
// rule switched off keeps every guarantee on the same schedule.
func TestRaftFigure8FromThePicker(t *testing.T) {
	p := open(t, "/?s=raft-election")
	p.do(chromedp.SetValue(chromedp.CSS("#scenario"), "raft-figure8"))
	p.waitFor(`location.search.includes("s=raft-figure8")`, "the picker opens the lesson")
	p.waitStill()
	p.key(kb.End)
	assert.Contains(t, p.text("#verdict"), "leader completeness")
	assert.Contains(t, p.text("#invariants"), "state machine safety: fails")
	assert.Contains(t, p.text("#panels"), "1 3 5", "S5's log, its entry 2 of term 3 where S1 had one of term 2")
	assert.Equal(t, []string{"crashed", "follower", "follower", "follower", "leader"}, p.roles())
	// the logs as strips coloured by term: S1's two entries hollow, for a
	// crashed server knows nothing committed; the others' three filled
	assert.Equal(t, 14, eval[int](p, `document.querySelectorAll('#panels .cell').length`))
	assert.Equal(t, 2, eval[int](p, `document.querySelectorAll('#panels .cell.tentative').length`))
	assert.Equal(t, 4, eval[int](p, `document.querySelectorAll('#panels .cell.tone-purple').length`), "entry 2 of term 3 at S2 to S5")
	p.screenshot("raft-figure8")
	p.click("#switch-count_replicas", false) // the run stays at its end
	p.waitFor(`document.getElementById("invariants").textContent.includes("leader completeness: holds")`, "the right rule keeps leader completeness")
	assert.Contains(t, p.text("#invariants"), "state machine safety: holds")
	p.noConsoleErrors()
}

// Split votes: with equal timeouts nobody leads; switched back to random
// timeouts, one server runs out first and leads.
func TestRaftSplitVotesEndWithRandomTimeouts(t *testing.T) {
	p := open(t, "/?s=raft-split-votes")
	p.key(kb.End)
	assert.NotContains(t, p.roles(), "leader", "no leader in any term")
	assert.Contains(t, p.roles(), "candidate")
	p.click("#switch-randomized", false) // the run stays at its end
	p.waitFor(`[...document.querySelectorAll('#panels tbody tr')].some(tr => tr.children[1].textContent === "leader")`, "a leader with random timeouts")
	p.screenshot("raft-split-votes-randomized")
	p.noConsoleErrors()
}
