package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The domino lesson beside itself, coordinated checkpoints switched on in
// the second pane: the first rolls back to the start, the second to its
// global checkpoint, and the side-by-side table sets the markers of one
// beside the work the other lost.
func TestDominoBesideCoordinatedCheckpoints(t *testing.T) {
	p := open(t, "/?s=checkpoint-domino&s.2=checkpoint-domino")
	p.enlarge(2)
	p.click("#switch-coordinated-2", false)
	p.waitFor(`location.search.includes("sc.2=")`, "the switched run travels in the link")
	p.key(kb.End)
	line := eval[[][]string](p, `[...document.querySelectorAll('#panels-2 [data-panel="Recovery 1"] tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`)
	require.Len(t, line, 2, p.text("#panels-2"))
	assert.Equal(t, "c1.1", line[0][1], "the global checkpoint")
	p.enlarge(1)
	line = eval[[][]string](p, `[...document.querySelectorAll('#panels [data-panel="Recovery 1"] tbody tr')].map(tr => [...tr.children].map(td => (td.textContent + " " + td.className).trim()))`)
	require.Len(t, line, 2, p.text("#panels"))
	assert.Equal(t, "c1.0 bad", line[0][1], "the domino reached process 1's start, marked so")
	assert.Equal(t, "c2.0 bad", line[1][1])

	head := eval[[]string](p, `[...document.querySelectorAll('#side-by-side thead th')].map(th => th.textContent)`)
	rows := eval[[][]string](p, `[...document.querySelectorAll('#side-by-side tbody tr:not(.run-verdict)')].map(tr => [...tr.children].map(td => td.textContent))`)
	require.Len(t, rows, 2)
	cell := func(row int, name string) string {
		for i, h := range head {
			if h == name {
				return rows[row][i]
			}
		}
		t.Fatalf("no column %q in %s", name, strings.Join(head, ", "))
		return ""
	}
	assert.Equal(t, "8", cell(0, "lost work"), "uncoordinated: every unit of work")
	assert.Equal(t, "4", cell(1, "lost work"))
	assert.Equal(t, "0", cell(0, "markers"))
	assert.Equal(t, "2", cell(1, "markers"), "one global checkpoint, N(N−1) markers")
	assert.True(t, strings.HasSuffix(rows[1][0], "(coordinated checkpoints on)"), rows[1][0])
	p.screenshot("checkpoint-compare")
	p.noConsoleErrors()
}
