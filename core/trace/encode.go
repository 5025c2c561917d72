package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"spacetime/core/clock"
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

// ShiViz returns the first k steps as a log ShiViz opens as it is: the
// parsing expression on the first line, a blank second line (one
// execution), then two lines an event, "host {clock}" and what happened.
// Every step of a process is its event, crashes, pauses and timers
// included; a message's loss, delay or copy is the network's and a
// change of the whole network no host's, so they are left out. The
// clocks are the log's own vector clocks, as ShiViz checks them: each
// host's own entry starts at 1 and rises by 1 an event, a receipt merges
// the clock of the message's sending, and zero entries are left out.
func (t *Trace) ShiViz(k int) []byte {
	k = min(max(k, 0), len(t.Records))
	n := len(t.Names)
	var b bytes.Buffer
	b.WriteString(ShiVizRegexp + "\n\n")
	at := make([][]int32, k) // the clock of each logged step, for what it sent
	now := make([][]int32, n)
	for i := range now {
		now[i] = make([]int32, n)
	}
	for s, r := range t.Records[:k] {
		if !t.hostEvent(&r) {
			continue
		}
		c := now[r.Node]
		if r.Kind == Deliver {
			if sent := t.sentClock(at, r.Msg); sent != nil {
				for i := range c {
					c[i] = max(c[i], sent[i])
				}
			}
		}
		c[r.Node]++
		at[s] = slices.Clone(c)
		fmt.Fprintf(&b, "%s %s\n%s: %s\n", t.Names[r.Node], clock.FormatLog(c, t.name), r.What(), oneLine(r.Caption))
	}
	return b.Bytes()
}

// name names process i, for clock.FormatLog.
func (t *Trace) name(i int) string { return t.Names[i] }

// hostEvent says a step is an event of a process, for a ShiViz log: not
// a change of the whole network, nor something the network did to a
// message.
func (t *Trace) hostEvent(r *Record) bool {
	if r.Node < 0 || int(r.Node) >= len(t.Names) {
		return false
	}
	return !(r.Kind == Fault && r.Extra != nil && r.Extra.Args != nil && r.Extra.Args.Msg >= 0)
}

// sentClock is the log's clock of the step that sent message id, or of
// its original's for the network's copy; nil if none was logged.
func (t *Trace) sentClock(at [][]int32, id int) []int32 {
	for range 2 {
		if id < 0 || id >= len(t.Msgs) {
			return nil
		}
		m := &t.Msgs[id]
		if m.SendStep >= 0 && m.SendStep < len(at) && at[m.SendStep] != nil {
			return at[m.SendStep]
		}
		if m.Original == m.ID {
			return nil
		}
		id = m.Original
	}
	return nil
}

// ShiVizRegexp is the log parsing expression a ShiViz log starts with.
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
