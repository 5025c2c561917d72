package lab

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/chandylamport"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

func bankAtEnd(t *testing.T) *Session {
	t.Helper()
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	return sess
}

// The learner's cut through the snapshot's recording points is consistent;
// one that takes a receipt but not its send is not, and names the message.
func TestCutTool(t *testing.T) {
	sess := bankAtEnd(t)
	ix := sess.index()
	tr := sess.Run().Trace()
	sess.Cut().Toggle()
	complete, _ := sess.Cut().Verdict()
	assert.False(t, complete)
	assert.Contains(t, sess.Cut().Text(), "0 of 3 placed")

	// the snapshot's own cut: each branch's recording step
	for s, r := range tr.Records {
		for _, m := range r.Annotations() {
			if m.Role == chandylamport.RoleRecorded {
				sess.Cut().Place(r.Node, ix.At(s))
			}
		}
	}
	complete, bad := sess.Cut().Verdict()
	require.True(t, complete)
	assert.Empty(t, bad)
	assert.Contains(t, sess.Cut().Text(), "The cut you drew is consistent")
	// it holds the $14 and the $13 sent but not received: seed 003's
	// proof, which says every event after one inside is inside, fails
	assert.Contains(t, sess.Cut().Text(), "It holds the sending, not the receipt, of transfer $14 B→A; transfer $13 C→B: in flight")
	assert.Contains(t, sess.Cut().Text(), "Seed 003's proof runs the wrong way")

	// a transfer's receipt inside the cut, its send outside
	var m = -1
	for _, msg := range tr.Msgs {
		if msg.Kind == "transfer" && msg.RecvStep > 0 && msg.RecvStep < 30 {
			m = msg.ID
			break
		}
	}
	require.GreaterOrEqual(t, m, 0)
	msg := tr.Msgs[m]
	for i := range sess.Cut().Points() {
		sess.Cut().Place(sim.NodeID(i), ix.At(msg.RecvStep)+0.01) // everything up to the receipt
	}
	sess.Cut().Place(msg.From, ix.At(msg.SendStep)-0.01) // but the sender stops just before the send
	complete, bad = sess.Cut().Verdict()
	require.True(t, complete)
	assert.Contains(t, bad, m)
	assert.Contains(t, sess.Cut().Text(), "inconsistent")
	assert.Contains(t, sess.Cut().Text(), sess.Diagram().Describe(m))

	// the bad message is highlighted on the diagram
	scene := sess.Diagram().Scene(1200, 350)
	halo := 0
	for _, sh := range scene.Shapes {
		if sh.Color == diagram.HighlightColor {
			halo++
		}
	}
	assert.Positive(t, halo)

	// the cut is part of the link
	again, err := FromQuery(sess.Query())
	require.NoError(t, err)
	assert.True(t, again.Cut().On())
	for i := range sess.Cut().Points() {
		assert.InDelta(t, sess.Cut().Points()[i], again.Cut().Points()[i], 1e-6)
	}
	_, againBad := again.Cut().Verdict()
	assert.Equal(t, bad, againBad)

	sess.Cut().Toggle()
	assert.False(t, sess.Cut().On())
	assert.Empty(t, sess.Cut().Text())
}

func TestCutLinks(t *testing.T) {
	sess, err := FromQuery(url.Values{"s": {"snapshot-bank"}, "cut": {"3,_,7.5"}})
	require.NoError(t, err)
	assert.Equal(t, 3.0, sess.Cut().Points()[0])
	assert.True(t, math.IsNaN(sess.Cut().Points()[1]))
	assert.Equal(t, "3,_,7.5", encodeCut(sess.Cut().Points()))
	for _, bad := range []string{"1,2", "1,x,3", "1,NaN,3", "1e308,_,_", "_,-2e9,_"} {
		_, err := FromQuery(url.Values{"s": {"snapshot-bank"}, "cut": {bad}})
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), `link parameter "cut"`)
	}
	// a point placed past what a link can say is kept within it, so that
	// the page's own link opens
	sess.Cut().Place(1, 5e9)
	back, err := FromQuery(sess.Query())
	require.NoError(t, err)
	assert.Equal(t, MaxAt, back.Cut().Points()[1])
}

// A cut placed on a run with a step of the whole network (FIFO switched, a
// partition, every link healed: a step at no process) used to panic with
// index -1 when judged; a long bad point is quoted clipped (both found by
// FuzzPageFromQuery and FuzzCut).
func TestCutOverANetworkStep(t *testing.T) {
	sess, err := FromQuery(url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "in": {"10f0"}, "k": {"20"}, "cut": {"1,2,3"}})
	require.NoError(t, err)
	require.Less(t, sess.Run().Trace().Records[10].Node, sim.NodeID(0), "the input is a step of no process")
	complete, _ := sess.Cut().Verdict()
	assert.True(t, complete)
	assert.NotEmpty(t, sess.Cut().Text())
	assert.NotEmpty(t, sess.Diagram().Scene(960, 350).Shapes)

	_, err = FromQuery(url.Values{"s": {"snapshot-bank"}, "cut": {"1," + strings.Repeat("9", 5000) + "x,3"}})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200)
}

// At a cut straight down the lanes the bank's money adds up; moving the
// sender's point before a transfer it sent, with the receipt still inside,
// counts that money twice, and the panel and the text say so.
func TestCutStateAddsUp(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	tr := sess.Run().Trace()
	var m trace.Msg
	for _, msg := range tr.Msgs {
		if msg.Kind == "transfer" && msg.RecvStep >= 0 && msg.RecvTime > msg.SendTime+1 && msg.RecvTime < 50 {
			m = msg
			break
		}
	}
	require.NotZero(t, m.Value)
	ix := sess.Diagram().Index()
	sess.Cut().Toggle()
	for id := range s.Names {
		sess.Cut().Place(sim.NodeID(id), float64(m.RecvTime)+0.5)
	}
	panel, ok := sess.Cut().Panel()
	require.True(t, ok)
	total := panel.Rows[len(panel.Rows)-1]
	assert.Equal(t, []string{"total", "the system holds $300", "$300"}, total.Cells, "a cut at one time is consistent")
	assert.Contains(t, sess.Cut().Text(), "Its money adds up to $300, all there is.")

	sess.Cut().Place(m.From, ix.At(m.SendStep)) // the send is now outside
	panel, _ = sess.Cut().Panel()
	total = panel.Rows[len(panel.Rows)-1]
	assert.Equal(t, fmt.Sprintf("$%d", 300+m.Value), total.Cells[2], "the transfer is counted at both ends")
	assert.Equal(t, "bad", total.CellEmphasis[2])
	assert.Contains(t, sess.Cut().Text(), fmt.Sprintf("Its money adds up to $%d, but the system holds $300", 300+m.Value))
	assert.Equal(t, "State at your cut", panel.Title)
	assert.Equal(t, []string{"process or channel", "state", "money"}, panel.Columns)
}

// A cut across a long run can cross thousands of messages: the text names
// the first few and counts the rest.
func TestLongCutNamesAFew(t *testing.T) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(sess.Len())
	sess.Cut().Toggle()
	end := float64(sess.Now())
	for id := range sess.Cut().Points() {
		sess.Cut().Place(sim.NodeID(id), end*float64(id+1)/float64(len(sess.Cut().Points())+1))
	}
	_, bad := sess.Cut().Verdict()
	require.Greater(t, len(bad), mostListed)
	text := sess.Cut().Text()
	assert.Contains(t, text, fmt.Sprintf("%d message(s) received inside it", len(bad)))
	assert.Contains(t, text, fmt.Sprintf("and %d more.", len(bad)-mostListed))
	assert.Equal(t, mostListed, strings.Count(text, "→"), "six messages named")
}
