package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// JSON returns the first k steps of the trace as indented JSON.
func (t *Trace) JSON(k int) ([]byte, error) {
	p := t.Prefix(k)
	return json.MarshalIndent(p, "", "  ")
}

// Prefix returns an independent copy of the first k steps, with message
// receipts and losses that happen later shown as still in flight.
func (t *Trace) Prefix(k int) *Trace {
	k = min(max(k, 0), len(t.Records))
	p := &Trace{Names: append([]string(nil), t.Names...), Down: append([]sim.NodeID(nil), t.Down...)}
	// empty lists are written [], not null: a trace of no steps is still a
	// trace
	p.Records = append([]Record{}, t.Records[:k]...)
	p.Msgs = append([]Msg{}, t.MsgsBefore(k)...)
	for i := range p.Msgs {
		m := &p.Msgs[i]
		if m.RecvStep >= k {
			m.RecvStep, m.RecvTime = -1, 0
		}
		if m.DropStep >= k {
			m.DropStep = -1
		}
	}
	return p
}

// ShiViz returns the first k steps as a ShiViz log. Paste it into ShiViz with
// the parser regular expression ShiVizRegexp.
func (t *Trace) ShiViz(k int) []byte {
	k = min(max(k, 0), len(t.Records))
	var b bytes.Buffer
	// ShiViz wants each host's own clock entry to rise by one per event:
	// steps that did not tick it (faults, skipped inputs) are left out
	own := make([]int32, len(t.Names))
	for _, r := range t.Records[:k] {
		if r.Node < 0 || int(r.Node) >= len(r.Vector) || r.Vector[r.Node] != own[r.Node]+1 {
			// a step of the whole network (FIFO switched) is no host's event
			continue
		}
		own[r.Node] = r.Vector[r.Node]
		host := t.Names[r.Node]
		var clock []string
		for i, c := range r.Vector {
			if c > 0 {
				clock = append(clock, fmt.Sprintf("%q:%d", t.Names[i], c))
			}
		}
		fmt.Fprintf(&b, "%s {%s}\n%s: %s\n", host, strings.Join(clock, ", "), r.What(), oneLine(r.Caption))
	}
	return b.Bytes()
}

// ShiVizRegexp is the log parsing expression to give ShiViz for ShiViz logs.
const ShiVizRegexp = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`

// oneLine keeps a caption on one line of a ShiViz log: line and paragraph
// separators become spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\u2028', '\u2029', '\v', '\f', '\u0085':
			return ' '
		}
		return r
	}, s)
}
