package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/sim"
)

// A Mermaid sequence diagram has a participant for each process and a
// row for each message where it is received, lost or still on its way,
// and a note where a process crashes; texts that would break a row are
// written as entities.
func TestMermaid(t *testing.T) {
	tr := sample()
	tr.Names = append(tr.Names, "C; D")
	tr.Msgs[0].Kind, tr.Msgs[0].Label = "transfer", "$3 #1"
	tr.Msgs[1].Kind = "marker"
	tr.Msgs[2].Kind = "marker"
	tr.Msgs[1].Original, tr.Msgs[2].Original = 1, 2 // each its own, no copy
	tr.Records = append(tr.Records, Record{Step: 4, Node: 2, Kind: Fault, Msg: -1, Caption: "C crashes", Extra: &Extra{Tag: "crash"}})
	got := string(tr.Mermaid(5, "A test"))
	assert.Equal(t, `sequenceDiagram
    %% A test
    %% Drawn by Spacetime: the first 5 steps of 5.
    participant p1 as A
    participant p2 as B
    participant p3 as C#59; D
    p1->>p2: transfer $3 #35;1
    p1-xp2: marker (lost)
    Note over p3: crash
    p1--)p2: marker (on its way)
`, got)
}

// A long run stops at MermaidMaxRows rows, and says so.
func TestMermaidOfALongRun(t *testing.T) {
	tr := &Trace{Names: []string{"A", "B"}}
	for i := range MermaidMaxRows + 10 {
		tr.Msgs = append(tr.Msgs, Msg{ID: i, From: 0, To: 1, Message: sim.Message{Kind: "PING"}, SendStep: 2 * i, RecvStep: 2*i + 1, DropStep: -1, Original: i})
		tr.Records = append(tr.Records, Record{Step: 2 * i, Node: 0, Kind: Command, Msg: -1, NumSent: 1, FirstSent: i},
			Record{Step: 2*i + 1, Node: 1, Kind: Deliver, Msg: i, FirstSent: i + 1})
	}
	got := string(tr.Mermaid(tr.Len(), ""))
	assert.Equal(t, MermaidMaxRows, strings.Count(got, "p1->>p2: PING\n"))
	assert.Contains(t, got, "%% Stopped at 500 rows, the most a diagram has: export fewer steps.\n")
}
