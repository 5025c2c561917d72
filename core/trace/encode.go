package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/clock"
	"spacetime/core/sim"
)

// JSON returns the first k steps of the trace as indented JSON: what
// WriteJSON writes.
func (t *Trace) JSON(k int) ([]byte, error) {
	var b bytes.Buffer
	if err := t.WriteJSON(&b, k); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON writes the first k steps of the trace to w as indented JSON,
// byte for byte what json.MarshalIndent(t.Prefix(k), "", "  ") makes, one
// record and one message at a time: a long run's trace is written in the
// memory of one record, not built whole first (a million steps are
// hundreds of megabytes of text). It returns the first error of w.
func (t *Trace) WriteJSON(w io.Writer, k int) error {
	k = min(max(k, 0), len(t.Records))
	e := &jsonWriter{w: w}
	e.raw("{\n  \"names\": ")
	e.value(append([]string(nil), t.Names...), "  ")
	if len(t.Down) > 0 {
		e.raw(",\n  \"down\": ")
		e.value(t.Down, "  ")
	}
	e.raw(",\n  \"records\": [")
	for i := range t.Records[:k] {
		e.element(i, &t.Records[i])
	}
	e.close(k)
	e.raw(",\n  \"messages\": [")
	msgs := t.MsgsBefore(k)
	for i := range msgs {
		m := msgs[i]
		m.asOf(k) // as Prefix shows it
		e.element(i, &m)
	}
	e.close(len(msgs))
	e.raw("\n}")
	e.flush()
	return e.err
}

// jsonWriter writes a trace's JSON in pieces, through a buffer flushed
// when it fills, keeping the first error.
type jsonWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *jsonWriter) raw(s string) { e.buf = append(e.buf, s...) }

// value writes v marshalled and indented as a value nested one level in
// the trace's object (prefix: the indentation of its line).
func (e *jsonWriter) value(v any, prefix string) {
	if e.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	e.indent(data, prefix)
}

// element writes the i-th element of one of the trace's lists.
func (e *jsonWriter) element(i int, v any) {
	if i > 0 {
		e.raw(",")
	}
	e.raw("\n    ")
	e.value(v, "    ")
	if len(e.buf) >= 64<<10 {
		e.flush()
	}
}

// close ends a list of n elements: an empty one is written [].
func (e *jsonWriter) close(n int) {
	if n > 0 {
		e.raw("\n  ")
	}
	e.raw("]")
}

// indent appends compact JSON indented as MarshalIndent indents it.
func (e *jsonWriter) indent(data []byte, prefix string) {
	b := bytes.NewBuffer(e.buf)
	if err := json.Indent(b, data, prefix, "  "); err != nil && e.err == nil {
		e.err = err
	}
	e.buf = b.Bytes()
}

func (e *jsonWriter) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
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
		p.Msgs[i].asOf(k)
	}
	return p
}

// asOf makes m the message as it was after the first k steps: what
// happened to it later has not happened.
func (m *Msg) asOf(k int) {
	if m.RecvStep >= k {
		m.RecvStep, m.RecvTime = -1, 0
	}
	if m.DropStep >= k {
		m.DropStep = -1
	}
}

// ShiViz returns the first k steps as a log ShiViz opens as it is: what
// WriteShiViz writes.
func (t *Trace) ShiViz(k int) []byte {
	var b bytes.Buffer
	_ = t.WriteShiViz(&b, k) // a bytes.Buffer does not fail
	return b.Bytes()
}

// WriteShiViz writes the first k steps to w as a log ShiViz opens as it
// is: the parsing expression on the first line, a blank second line (one
// execution), then two lines an event, "host {clock}" and what happened.
// Every step of a process is its event, crashes, pauses and timers
// included; a message's loss, delay or copy is the network's and a
// change of the whole network no host's, so they are left out. So that
// the log keeps every process and message of the run, a process down
// from the start has an event saying so first ("down"), and each message
// still on its way after the k steps an event of its receiver at the end
// ("in-flight"). A receipt's text names the message it receives, its
// kind, its label and the event that sent it: "deliver KIND «LABEL» from
// A:5: caption" (see ShiVizReceipt), which an import reads back. The clocks are the log's
// own vector clocks, as ShiViz checks them: each host's own entry starts
// at 1 and rises by 1 an event, a receipt merges the clock of the
// message's sending, and zero entries are left out. The log is written as
// it is made, keeping only the clocks of the steps that sent messages, so
// that a long run's log is not built whole first. It returns the first
// error of w.
func (t *Trace) WriteShiViz(w io.Writer, k int) error { return t.WriteShiVizCuts(w, k, nil) }

// ShiVizCuts is ShiViz with the points of the roles cut says draw a cut
// (sim.Spec.IsCut) marked on their events: "[cut N]" after the text, for
// the cut of group N, which an import reads back.
func (t *Trace) ShiVizCuts(k int, cut func(role string) bool) []byte {
	var b bytes.Buffer
	_ = t.WriteShiVizCuts(&b, k, cut) // a bytes.Buffer does not fail
	return b.Bytes()
}

// WriteShiVizCuts is WriteShiViz with the cuts' points marked (see
// ShiVizCuts); cut nil marks none.
func (t *Trace) WriteShiVizCuts(w io.Writer, k int, cut func(role string) bool) error {
	k = min(max(k, 0), len(t.Records))
	n := len(t.Names)
	buf := []byte(ShiVizRegexp + "\n\n")
	// the log's clock of each step that sent messages, for their receipts:
	// at[s] is its offset in sent, or -1
	at := make([]int32, k)
	var sent []int32
	now := make([][]int32, n)
	for i := range now {
		now[i] = make([]int32, n)
	}
	// flush writes what is made once it is long
	flush := func() error {
		if len(buf) < 64<<10 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	// event ticks host's clock, merging a message's sending, and writes
	// the event
	event := func(host sim.NodeID, from []int32, text ...string) []int32 {
		c := now[host]
		for i := range from {
			c[i] = max(c[i], from[i])
		}
		c[host]++
		buf = append(buf, t.Names[host]...)
		buf = append(buf, ' ')
		buf = append(buf, clock.FormatLog(c, t.name)...)
		buf = append(buf, '\n')
		for _, s := range text {
			buf = append(buf, s...)
		}
		buf = append(buf, '\n')
		return c
	}
	// a process down from the start says so where its start would be,
	// before any later process's first event, so that a log's hosts come
	// in the processes' order
	down := slices.Sorted(slices.Values(t.Down))
	downTo := func(node sim.NodeID) {
		for len(down) > 0 && down[0] <= node {
			if d := down[0]; int(d) >= 0 && int(d) < n {
				event(d, nil, "down: ", t.Names[d], " is down from the start")
			}
			down = down[1:]
		}
	}
	for s := range t.Records[:k] {
		r := &t.Records[s]
		at[s] = -1
		if !t.hostEvent(r) {
			continue
		}
		downTo(r.Node)
		var c []int32
		marks := ""
		if cut != nil {
			for _, a := range r.Annotations() {
				if a.Phase == sim.Point && cut(a.Role) {
					marks += " [cut " + strconv.Itoa(a.Group) + "]"
				}
			}
		}
		if r.Kind == Deliver && r.Msg >= 0 && r.Msg < len(t.Msgs) {
			m := &t.Msgs[r.Msg]
			from := t.sentClock(at, sent, r.Msg)
			text := "deliver"
			if from != nil {
				text = shiVizReceipt(text, m.Message, t.Names[m.From], from[m.From])
			}
			c = event(r.Node, from, text, ": ", oneLine(r.Caption), marks)
		} else {
			c = event(r.Node, nil, r.What(), ": ", oneLine(r.Caption), marks)
		}
		if r.NumSent > 0 {
			at[s] = int32(len(sent) / max(n, 1))
			sent = append(sent, c...)
		}
		if err := flush(); err != nil {
			return err
		}
	}
	downTo(sim.NodeID(n))
	for _, m := range t.MsgsBefore(k) {
		if !m.InFlightAt(k) || int(m.To) < 0 || int(m.To) >= n {
			continue
		}
		from := t.sentClock(at, sent, m.ID)
		if from == nil {
			continue // sent by no step of the log's
		}
		event(m.To, from, shiVizReceipt("in-flight", m.Message, t.Names[m.From], from[m.From]), ": ", t.Names[m.From], "'s message, still on its way at the end")
		if err := flush(); err != nil {
			return err
		}
	}
	_, err := w.Write(buf)
	return err
}

// shiVizReceipt is how a ShiViz log's receipt starts: what happened
// (deliver, in-flight), the message's kind and, unless it says no more
// than the kind, its label between « and », then the event that sent it
// ("from A:5", its host and that host's own clock entry). A receipt whose
// clock learns nothing new (a message another one overtook) draws no
// edge in ShiViz, but an import still finds its message so.
func shiVizReceipt(what string, m sim.Message, from string, own int32) string {
	s := what
	if m.Kind != "" {
		s += " " + m.Kind
	}
	if m.Label != "" && m.Label != m.Kind {
		s += " «" + labelText.Replace(m.Label) + "»"
	}
	return s + " from " + from + ":" + strconv.Itoa(int(own))
}

// labelText keeps a label whole between « and » on one line.
var labelText = strings.NewReplacer("«", "‹", "»", "›", "\n", " ")

// Receipt is what a receipt of a ShiViz log written by WriteShiViz says
// of its message (see ShiVizReceipt).
type Receipt struct {
	// Kind and Label are the message's.
	Kind, Label string
	// From is the host whose event sent it, and Own that host's own clock
	// entry at it.
	From string
	Own  int
}

// ShiVizReceipt reads how a receipt of a ShiViz log written by
// WriteShiViz starts: "deliver KIND «LABEL» from A:5: ..." (or
// "in-flight"); ok is false when text does not start so.
func ShiVizReceipt(text string) (r Receipt, ok bool) {
	rest, found := strings.CutPrefix(text, "deliver ")
	if !found {
		if rest, found = strings.CutPrefix(text, "in-flight "); !found {
			return Receipt{}, false
		}
	}
	if !strings.HasPrefix(rest, "from ") {
		end := strings.IndexByte(rest, ' ')
		if end <= 0 {
			return Receipt{}, false
		}
		r.Kind, rest = rest[:end], rest[end+1:]
	}
	if l, ok := strings.CutPrefix(rest, "«"); ok {
		close := strings.Index(l, "» ")
		if close < 0 {
			return Receipt{}, false
		}
		r.Label, rest = l[:close], l[close+len("» "):]
	}
	rest, ok = strings.CutPrefix(rest, "from ")
	colon := strings.IndexByte(rest, ':')
	if !ok || colon <= 0 {
		return Receipt{}, false
	}
	r.From, rest = rest[:colon], rest[colon+1:]
	end := strings.IndexByte(rest, ':')
	if end <= 0 {
		return Receipt{}, false
	}
	own, err := strconv.Atoi(rest[:end])
	if err != nil || own < 1 {
		return Receipt{}, false
	}
	r.Own = own
	return r, true
}

// ShiVizCut reads the cut a ShiViz log's event text marks its event a
// point of ("… [cut 2]", see ShiVizCuts): its group, or 0.
func ShiVizCut(text string) int {
	rest, ok := strings.CutSuffix(text, "]")
	i := strings.LastIndex(rest, " [cut ")
	if !ok || i < 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[i+len(" [cut "):])
	if err != nil || n < 1 {
		return 0
	}
	return n
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
// its original's for the network's copy; nil if none was logged. at and
// sent are WriteShiViz's clocks of the steps that sent messages.
func (t *Trace) sentClock(at, sent []int32, id int) []int32 {
	n := len(t.Names)
	for range 2 {
		if id < 0 || id >= len(t.Msgs) {
			return nil
		}
		m := &t.Msgs[id]
		if m.SendStep >= 0 && m.SendStep < len(at) && at[m.SendStep] >= 0 {
			i := int(at[m.SendStep]) * n
			return sent[i : i+n]
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
