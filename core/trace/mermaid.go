package trace

import (
	"fmt"
	"strings"
)

// MermaidMaxRows bounds a Mermaid sequence diagram's rows: Mermaid draws a
// short run (GitHub and GitLab render it in Markdown), and a long one is
// a picture no one reads.
const MermaidMaxRows = 500

// Mermaid writes the first k steps as a Mermaid sequence diagram: a
// participant for each process, a row for each message where it is
// received (->>, a network's copy marked so), lost (-x) or still on its
// way at the end (--)), and a note where a process crashes, recovers or
// pauses. A sequence diagram draws a message level, so what the
// space-time diagram shows by slope (a slow message, one overtaken) is
// the order of the rows alone. Past MermaidMaxRows rows the diagram
// stops, and a comment says so.
func (t *Trace) Mermaid(k int, title string) []byte {
	k = min(max(k, 0), len(t.Records))
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if title != "" {
		fmt.Fprintf(&b, "    %%%% %s\n", mermaidText(title))
	}
	fmt.Fprintf(&b, "    %%%% Drawn by Spacetime: the first %d steps of %d.\n", k, len(t.Records))
	for i, name := range t.Names {
		fmt.Fprintf(&b, "    participant p%d as %s\n", i+1, mermaidText(name))
	}
	rows := 0
	row := func(format string, args ...any) bool {
		if rows == MermaidMaxRows {
			return false
		}
		rows++
		b.WriteString("    ")
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
		return true
	}
	message := func(m *Msg, arrow, note string) bool {
		text := mermaidText(m.Describe())
		if m.Duplicate() {
			note += " (a copy)"
		}
		return row("p%d%sp%d: %s%s", m.From+1, arrow, m.To+1, text, note)
	}
	full := false
	for s := range t.Records[:k] {
		r := &t.Records[s]
		ok := true
		switch {
		case r.Kind == Deliver && r.Msg >= 0 && r.Msg < len(t.Msgs):
			ok = message(&t.Msgs[r.Msg], "->>", "")
		case r.Kind == Fault && r.Msg >= 0 && r.Msg < len(t.Msgs) && t.Msgs[r.Msg].DropStep == s:
			ok = message(&t.Msgs[r.Msg], "-x", " (lost)")
		case r.Kind == Fault && r.Node >= 0 && int(r.Node) < len(t.Names) && !(r.Extra != nil && r.Extra.Args != nil && r.Extra.Args.Msg >= 0):
			ok = row("Note over p%d: %s", r.Node+1, mermaidText(r.What()))
		}
		if !ok {
			full = true
			break
		}
	}
	if !full {
		for i := range t.MsgsBefore(k) {
			if m := &t.Msgs[i]; m.InFlightAt(k) && !message(m, "--)", " (on its way)") {
				full = true
				break
			}
		}
	}
	if full {
		fmt.Fprintf(&b, "    %%%% Stopped at %d rows, the most a diagram has: export fewer steps.\n", MermaidMaxRows)
	}
	return []byte(b.String())
}

// mermaidText keeps a text on its line of a Mermaid diagram and read as it
// is: ";" would end the statement and "#" start an entity, so both are
// written as entities, and line breaks as spaces.
func mermaidText(s string) string { return mermaidEscapes.Replace(s) }

var mermaidEscapes = strings.NewReplacer("#", "#35;", ";", "#59;", "\n", " ", "\r", " ", "\u2028", " ", "\u2029", " ")
