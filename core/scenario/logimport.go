package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"spacetime/core/algo/logreplay"
	"spacetime/core/clock"
	"spacetime/core/engine"
	"spacetime/core/sim"
)

// The bounds of an imported log: a file is read whole and every event
// becomes a step, so both its size and its events are bounded.
const (
	// MaxLogBytes bounds a log file.
	MaxLogBytes = 16 << 20
	// MaxLogEvents bounds the events of one execution (a script entry each).
	MaxLogEvents = MaxScript
	// maxLogText bounds the text kept of one event.
	maxLogText = 300
)

// GoVectorRegexp reads a log as GoVector writes it, "host {clock}" on one
// line and the event on the next; it is used when a log's first line is
// not a parsing expression.
const GoVectorRegexp = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`

// LogError says why a log was not imported, and where.
type LogError struct {
	// Line is the line of the file, counted from 1; 0 for the whole file.
	Line    int
	Problem string
}

func (e *LogError) Error() string {
	if e.Line == 0 {
		return "the log " + e.Problem
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Problem)
}

// IsLog says whether data looks like a log rather than a scenario file,
// which is a JSON object: text that starts with something else.
func IsLog[T ~string | ~[]byte](data T) bool {
	i := 0
	if len(data) >= 3 && string(data[:3]) == "\uFEFF" {
		i = 3
	}
	for i < len(data) {
		r, size := utf8.DecodeRuneInString(string(data[i:min(i+utf8.UTFMax, len(data))]))
		if !unicode.IsSpace(r) {
			return r != '{' && unicode.IsGraphic(r)
		}
		i += size
	}
	return false
}

// FromLog reads a ShiViz or GoVector log into one scenario per execution
// that replays it (see package logreplay). The first line is the parsing
// expression, with the named groups host, clock and (optionally) event,
// and the second the execution delimiter, blank for one execution, as
// ShiViz reads them; a log that does not start with an expression is read
// as GoVector writes it. Each host's own clock entry must start at 1 and
// rise by 1 an event, and each clock must be the merge of its host's
// previous one and the one message it receives; a log that breaks a rule
// is refused with the line and the rule. name titles the scenarios.
func FromLog[T ~string | ~[]byte](data T, name string) ([]*Scenario, error) {
	if len(data) > MaxLogBytes {
		return nil, &LogError{Problem: fmt.Sprintf("is too large: at most %d bytes (16 MiB), got %d", MaxLogBytes, len(data))}
	}
	text := string(data) // no copy when data is a string: the page reads the file as one
	if !utf8.ValidString(text) {
		return nil, &LogError{Problem: "is not UTF-8 text"}
	}
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\uFEFF"), "\r\n", "\n")
	lines := newLineIndex(text)
	expr, delim, body, bodyAt := GoVectorRegexp, "", text, 0
	if first, rest, _ := strings.Cut(text, "\n"); strings.Contains(first, "(?<") || strings.Contains(first, "(?P<") {
		expr = first
		second, after, _ := strings.Cut(rest, "\n")
		delim = strings.TrimSpace(second)
		body, bodyAt = after, len(text)-len(after)
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, &LogError{Line: 1, Problem: "the parsing expression does not compile: " + err.Error()}
	}
	for _, group := range []string{"host", "clock"} {
		if re.SubexpIndex(group) < 0 {
			return nil, &LogError{Line: 1, Problem: fmt.Sprintf("the parsing expression has no group named %q: write (?<host>…) and (?<clock>…), and (?<event>…) for the text", group)}
		}
	}
	type part struct {
		title string
		at    int // offset in text
		text  string
	}
	parts := []part{{at: bodyAt, text: body}}
	if delim != "" {
		dre, err := regexp.Compile("(?m)" + delim)
		if err != nil {
			return nil, &LogError{Line: 2, Problem: "the execution delimiter does not compile: " + err.Error()}
		}
		parts = parts[:0]
		title, from := "", 0
		add := func(end int) { // the execution from the last delimiter to end
			if chunk := body[from:end]; strings.TrimSpace(chunk) != "" {
				parts = append(parts, part{title: title, at: bodyAt + from, text: chunk})
			}
		}
		for _, m := range dre.FindAllStringSubmatchIndex(body, -1) {
			add(m[0])
			title = ""
			if i := dre.SubexpIndex("trace"); i >= 0 && m[2*i] >= 0 {
				title = strings.TrimSpace(body[m[2*i]:m[2*i+1]])
			}
			from = m[1]
		}
		add(len(body))
	}
	var out []*Scenario
	for i, p := range parts {
		title := p.title
		if title == "" && len(parts) > 1 {
			title = "execution " + strconv.Itoa(i+1)
		}
		s, err := importExecution(re, p.text, p.at, lines, name, title, expr == GoVectorRegexp)
		if err != nil {
			if len(parts) > 1 {
				return nil, fmt.Errorf("%s: %w", title, err)
			}
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, &LogError{Problem: "has no events"}
	}
	return out, nil
}

// lineIndex finds the line of an offset.
type lineIndex []int

func newLineIndex(text string) lineIndex {
	starts := make(lineIndex, 1, len(text)/32+1) // a log's lines are longer, mostly
	for at := 0; ; {
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			return starts
		}
		at += i + 1
		starts = append(starts, at)
	}
}

// lines is the number of lines of text at offset at.
func (l lineIndex) lines(at int, text string) int { return l.line(at+len(text)) - l.line(at) + 1 }

// line is the line, from 1, that holds offset at.
func (l lineIndex) line(at int) int { return sort.SearchInts(l, at+1) }

// logged is one event of the log.
type logged struct {
	host  int
	index int // the host's own count, from 1
	line  int
	text  string
	clock []int64
	// parent is the event whose message this one receives, or nil, and
	// receivers the events that receive this one's messages.
	parent    *logged
	receivers []*logged
	time      sim.Time
	// msg numbers the message the event receives, as the run sends it.
	msg int
}

// rawEvent is an event as a log line gives it, before it is checked.
type rawEvent struct {
	host, event string
	clock       []clockEntry
	line        int
}

// clockEntry is one entry of a clock as a log line gives it: the host
// as its number among the names the log's clocks use (no pointer in it,
// so that the collector has nothing to scan in 100,000 clocks).
type clockEntry struct {
	name  int32
	count int64
}

// growEntries makes room for the clocks of the events left (of all, with
// done read), at as many entries an event as so far: a log's clocks hold
// millions of entries, and doubling would copy them and leave half unused.
func growEntries(entries []clockEntry, done, all int) []clockEntry {
	perEvent := 4
	if done > 0 {
		perEvent = len(entries)/done + 1
	}
	size := max(len(entries)+perEvent*(all-done)+MaxN, cap(entries)+cap(entries)/4) // and never many times
	more := make([]clockEntry, len(entries), size)
	copy(more, entries)
	return more
}

// clockNames numbers the names a log's clocks use, as they come.
type clockNames struct {
	index map[string]int32
	names []string
	// at is the name last found at each place in a clock: clocks list
	// their names in much the same order, and comparing a name costs less
	// than hashing it (most in wasm)
	at []int32
}

// numberAt is number, for the name at place i of a clock.
func (c *clockNames) numberAt(i int, name string) (int32, bool) {
	if i < len(c.at) && c.names[c.at[i]] == name {
		return c.at[i], true
	}
	id, ok := c.number(name)
	if ok && i < MaxN {
		for len(c.at) <= i {
			c.at = append(c.at, id)
		}
		c.at[i] = id
	}
	return id, ok
}

// number is the name's number; false when the clocks name more hosts
// than a log may have.
func (c *clockNames) number(name string) (int32, bool) {
	if i, ok := c.index[name]; ok {
		return i, true
	}
	if len(c.names) == MaxN {
		return 0, false
	}
	i := int32(len(c.names))
	c.index[name] = i
	c.names = append(c.names, name)
	return i, true
}

// execution is one execution of a log, its events checked and linked.
type execution struct {
	hosts  []string
	all    []*logged   // in the log's order
	byHost [][]*logged // each host's, in its own order
	last   sim.Time    // the time of the last event
}

// importExecution reads one execution of a log: its events, who receives
// from whom, when each happens, and the scenario that replays it.
func importExecution(re *regexp.Regexp, text string, at int, lines lineIndex, name, title string, goVector bool) (*Scenario, error) {
	events, hosts, names, err := readEvents(re, text, at, lines, goVector)
	if err != nil {
		return nil, err
	}
	x, err := newExecution(events, hosts, names)
	if err != nil {
		return nil, err
	}
	if err := x.link(); err != nil {
		return nil, err
	}
	if err := x.schedule(); err != nil {
		return nil, err
	}
	return x.scenario(name, title)
}

// readEvents finds the events of an execution's text (at its offset in
// the file) and the hosts, in order of their first event.
func readEvents(re *regexp.Regexp, text string, at int, lines lineIndex, goVector bool) ([]rawEvent, []string, *clockNames, error) {
	hostGroup, clockGroup, eventGroup := re.SubexpIndex("host"), re.SubexpIndex("clock"), re.SubexpIndex("event")
	seen := map[string]bool{}
	var hosts []string
	from := 0
	found := pairMatches(text, lines.lines(at, text), goVector)
	if found == nil {
		found = re.FindAllStringSubmatchIndex(text, -1)
	}
	events := make([]rawEvent, 0, min(len(found), MaxLogEvents))
	// the clocks' entries, in one array that the events' clocks slice
	var entries []clockEntry
	names := &clockNames{index: map[string]int32{}}
	tooMany := func(line int) error {
		return &LogError{Line: line, Problem: fmt.Sprintf("the clocks name more than %d hosts: a log has at most %d", MaxN, MaxN)}
	}
	for _, m := range found {
		if m[1] == m[0] {
			continue // an empty match reads nothing
		}
		if gap := text[from:m[0]]; strings.TrimSpace(gap) != "" {
			off := from + strings.Index(gap, strings.TrimSpace(gap)[:1])
			return nil, nil, nil, noMatch(lines.line(at+off), text[off:], goVector && len(events) == 0)
		}
		from = m[1]
		line := lines.line(at + m[0])
		if len(events) == MaxLogEvents {
			return nil, nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("too many events: an execution has at most %d", MaxLogEvents)}
		}
		group := func(i int) string {
			if i < 0 || m[2*i] < 0 {
				return ""
			}
			return text[m[2*i]:m[2*i+1]]
		}
		host := strings.TrimSpace(group(hostGroup))
		if !seen[host] {
			if err := checkName(host); err != nil {
				return nil, nil, nil, &LogError{Line: line, Problem: "the host cannot name a process: " + err.Error()}
			}
			if len(hosts) == MaxN {
				return nil, nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("too many hosts: a log has at most %d", MaxN)}
			}
			seen[host] = true
			hosts = append(hosts, host)
		}
		if cap(entries)-len(entries) < MaxN {
			entries = growEntries(entries, len(events), len(found))
		}
		start := len(entries)
		var ok bool
		if entries, ok = quickClock(entries, names, group(clockGroup)); ok {
			events = append(events, rawEvent{host: host, event: group(eventGroup), clock: entries[start:len(entries):len(entries)], line: line})
			continue
		}
		entries = entries[:start]
		dec := json.NewDecoder(strings.NewReader(group(clockGroup)))
		dec.UseNumber()
		var obj map[string]json.Number
		if err := dec.Decode(&obj); err != nil || obj == nil {
			why := "null"
			if err != nil {
				why = err.Error()
			}
			return nil, nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("the clock %q is not JSON of host names and counts ({\"A\":1, \"B\":2}): %s", clipLine(group(clockGroup)), why)}
		}
		clock := make([]clockEntry, 0, len(obj))
		for _, h := range slices.Sorted(maps.Keys(obj)) {
			v := obj[h]
			n, err := strconv.ParseInt(v.String(), 10, 64)
			if err != nil || n < 0 || n > MaxLogEvents {
				return nil, nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("the clock's entry for %s is %s: want a count from 0 to %d", h, v, MaxLogEvents)}
			}
			i, ok := names.number(h)
			if !ok {
				return nil, nil, nil, tooMany(line)
			}
			clock = append(clock, clockEntry{name: i, count: n})
		}
		events = append(events, rawEvent{host: host, event: group(eventGroup), clock: clock, line: line})
	}
	if rest := strings.TrimSpace(text[from:]); rest != "" {
		off := from + strings.Index(text[from:], rest[:1])
		return nil, nil, nil, noMatch(lines.line(at+off), text[off:], goVector && len(events) == 0)
	}
	if len(events) == 0 {
		return nil, nil, nil, &LogError{Line: lines.line(at), Problem: "no event matches the parsing expression"}
	}
	return events, hosts, names, nil
}

// newExecution checks that each event's clock names hosts of the log
// and counts its own host's events.
func newExecution(events []rawEvent, hosts []string, names *clockNames) (*execution, error) {
	n := len(hosts)
	hostIndex := make(map[string]int, n)
	for i, h := range hosts {
		hostIndex[h] = i
	}
	named := make([]int, len(names.names)) // the host each clock name names, or -1
	for i, name := range names.names {
		named[i] = -1
		if h, ok := hostIndex[name]; ok {
			named[i] = h
		}
	}
	x := &execution{hosts: hosts, byHost: make([][]*logged, n), all: make([]*logged, len(events))}
	// one array of events and one of clocks, not one allocation each
	slab := make([]logged, len(events))
	clocks := make([]int64, n*len(events))
	for i, e := range events {
		h := hostIndex[e.host]
		ev := &slab[i] // filled field by field, as execution.scenario does
		ev.host, ev.index, ev.line = h, len(x.byHost[h])+1, e.line
		ev.text, ev.clock = cleanText(e.event), clocks[i*n:(i+1)*n:(i+1)*n]
		for _, c := range e.clock {
			j := named[c.name]
			if j < 0 {
				return nil, &LogError{Line: e.line, Problem: fmt.Sprintf("the clock names the host %q, which logs no event", clipLine(names.names[c.name]))}
			}
			ev.clock[j] = c.count // a host named twice: the last count, as JSON has it
		}
		if own := ev.clock[h]; own != int64(ev.index) {
			return nil, &LogError{Line: e.line, Problem: fmt.Sprintf("%s's own clock entry is %d, but this is its event %d: a host's own entry starts at 1 and rises by 1 an event", e.host, own, ev.index)}
		}
		x.byHost[h] = append(x.byHost[h], ev)
		x.all[i] = ev
	}
	return x, nil
}

// link finds the message each event receives, from the event of another
// host its clock learns of directly (the edge ShiViz draws), and checks
// that each clock is exactly the merge of its host's previous clock and
// that message's.
func (x *execution) link() error {
	hosts, byHost := x.hosts, x.byHost
	zero := make([]int64, len(hosts))
	// one buffer each for every event's work: an allocation an event is
	// what the collector charges for in a long log
	want := make([]int64, len(hosts))
	var learnt, parents []*logged
	for _, ev := range x.all {
		prev := zero
		if ev.index > 1 {
			prev = byHost[ev.host][ev.index-2].clock
		}
		// what the event learns from other hosts, less what it learns
		// through another of those: the sends it receives directly
		learnt = learnt[:0]
		for j, v := range ev.clock {
			if j == ev.host || v <= prev[j] {
				continue
			}
			if v > int64(len(byHost[j])) {
				return &LogError{Line: ev.line, Problem: fmt.Sprintf("the clock says %s:%d, but %s logs %d events", hosts[j], v, hosts[j], len(byHost[j]))}
			}
			learnt = append(learnt, byHost[j][v-1])
		}
		parents = parents[:0]
		for _, x := range learnt {
			direct := true
			for _, y := range learnt {
				if y != x && y.clock[x.host] >= int64(x.index) {
					direct = false
				}
			}
			if direct {
				parents = append(parents, x)
			}
		}
		if len(parents) > 1 {
			return &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's event receives from %s (line %d) and %s (line %d) at once: log each receipt as an event of its own", hosts[ev.host], eventName(hosts, parents[0]), parents[0].line, eventName(hosts, parents[1]), parents[1].line)}
		}
		copy(want, prev)
		if len(parents) == 1 {
			p := parents[0]
			if p.clock[ev.host] >= int64(ev.index) {
				return &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's event receives from %s (line %d), which already knows this event: the clocks make a cycle", hosts[ev.host], eventName(hosts, p), p.line)}
			}
			for j := range want {
				want[j] = max(want[j], p.clock[j])
			}
			ev.parent = p
			p.receivers = append(p.receivers, ev)
		}
		want[ev.host]++
		if !slices.Equal(want, ev.clock) {
			return &LogError{Line: ev.line, Problem: fmt.Sprintf("the clock %s is not the merge of %s's previous clock and the message it receives: want %s", clock.FormatLog(ev.clock, named(hosts)), hosts[ev.host], clock.FormatLog(want, named(hosts)))}
		}
	}
	return nil
}

// schedule gives each event the first time after its host's previous
// event and the event it receives from: concurrent events share a time,
// as ShiViz draws them. A host's first event is its start, at time 0,
// unless it is a receipt.
func (x *execution) schedule() error {
	n, hosts, byHost := len(x.hosts), x.hosts, x.byHost
	for _, ev := range x.all {
		ev.time = unset
	}
	timed := 0
	done := make([]int, n) // events timed per host
	for timed < len(x.all) {
		progress := false
		for h := range n {
			for done[h] < len(byHost[h]) {
				ev := byHost[h][done[h]]
				if ev.parent != nil && ev.parent.time == unset {
					break
				}
				t := sim.Time(1)
				switch {
				case done[h] > 0:
					t = byHost[h][done[h]-1].time + 1
				case ev.parent == nil:
					t = 0 // the host's start
				}
				if ev.parent != nil {
					t = max(t, ev.parent.time+1)
				}
				ev.time = t
				x.last = max(x.last, t)
				done[h]++
				timed++
				progress = true
			}
		}
		if !progress {
			for h := range n {
				if done[h] < len(byHost[h]) {
					ev := byHost[h][done[h]]
					return &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's event waits on %s (line %d), which waits on it: the clocks make a cycle", hosts[h], eventName(hosts, ev.parent), ev.parent.line)}
				}
			}
		}
	}
	return nil
}

// scenario is the scenario that replays the execution: every event at
// its time, in the log's order at equal times, after the starts (in the
// hosts' order); a message is numbered as the run sends it.
func (x *execution) scenario(name, title string) (*Scenario, error) {
	n, hosts, byHost := len(x.hosts), x.hosts, x.byHost
	var order []*logged
	starts := 0
	for _, evs := range byHost {
		if evs[0].time == 0 {
			order = append(order, evs[0])
			starts++
		}
	}
	order = append(order, x.byTime()...)
	params := logreplay.Params{Events: make([][]logreplay.Event, n)}
	for h, evs := range byHost {
		params.Events[h] = make([]logreplay.Event, len(evs))
	}
	// the run's script, in the engine's form: the file's is written from
	// it only if the learner saves or links the log
	script := make([]engine.Timed, 0, len(order))
	fields := 0 // of the file's entries, other than "at"
	next := 0
	// events and entries are written in place, field by field: copying
	// whole values that hold pointers is what the collector charges most
	// for while it marks
	for _, ev := range order {
		slices.SortFunc(ev.receivers, func(a, b *logged) int { return a.host - b.host })
		le := &params.Events[ev.host][ev.index-1]
		le.Text = ev.text
		if len(ev.receivers) > 0 {
			le.To = make([]string, len(ev.receivers))
		}
		for i, r := range ev.receivers {
			le.To[i] = hosts[r.host]
			r.msg = next
			next++
		}
		p := ev.parent
		if p != nil {
			le.From = hosts[p.host]
		}
		if ev.time == 0 {
			continue // a start is no entry of the script
		}
		script = script[:len(script)+1]
		t := &script[len(script)-1]
		t.At, t.Node, t.Target, t.Msg = ev.time, sim.None, sim.None, sim.None
		if p != nil {
			t.Msg = ev.msg
			fields++ // "msg"
		} else {
			t.Node, t.Command = sim.NodeID(ev.host), logreplay.CmdNext
			fields += 2 // "node" and "command"
		}
	}
	fifo := false
	delay := x.last + 1 // no message arrives unless the script delivers it
	s := &Scenario{
		Title:       logTitle(name, title),
		Description: fmt.Sprintf("Imported from a log: %d events of %d hosts, replayed in an order that keeps every event after those it knows of. Each host is a process and each logged event a step.", len(x.all), n),
		Algorithm:   logreplay.ID,
		N:           n,
		Names:       hosts,
		Network:     Network{FIFO: &fifo, Delay: []sim.Time{delay, delay}},
		Until:       Until{Steps: n - starts + len(x.all)},
		Lesson:      &Lesson{Opens: n - starts + len(x.all)},
	}
	nodes, err := logreplay.New(hosts, params)
	if err != nil {
		return nil, &LogError{Problem: "does not make a run: " + err.Error()}
	}
	s.initial = &initialNodes{algorithm: s.Algorithm, names: s.Names, nodes: nodes}
	s.made = &runForm{script: script, paramsLen: params.JSONLen(), fields: fields, file: func() ([]Entry, json.RawMessage) {
		return logFileScript(hosts, script), params.AppendJSON(nil)
	}}
	if err := s.Validate(); err != nil {
		return nil, &LogError{Problem: "does not make a run: " + err.Error()}
	}
	return s, nil
}

// logFileScript is a log's script as its file writes it: each host's
// next event that receives nothing, and each delivery, at its time.
func logFileScript(hosts []string, script []engine.Timed) []Entry {
	quoted := make([]json.RawMessage, len(hosts)) // each host, as a script names it
	for h, name := range hosts {
		quoted[h] = json.RawMessage(strconv.Quote(name))
	}
	entries := make([]Entry, len(script))
	ids := make([]int, len(script)) // the delivered messages' numbers
	for i := range script {
		t, e := &script[i], &entries[i]
		e.At = t.At
		if t.Command == "" {
			ids[i] = t.Msg
			e.Msg = &ids[i]
		} else {
			e.Node, e.Command = quoted[t.Node], t.Command
		}
	}
	return entries
}

// byTime lists the events after time 0 by time, in the log's order at
// equal times: a counting sort, since times are at most the number of
// events (and a comparison sort moves pointers n log n times).
func (x *execution) byTime() []*logged {
	at := make([]int, x.last+2) // at[t+1] counts the events at t, then where those at t go
	for _, ev := range x.all {
		at[ev.time+1]++
	}
	at[1] = 0 // time 0 is left out
	for t := 2; t < len(at); t++ {
		at[t] += at[t-1]
	}
	out := make([]*logged, at[len(at)-1])
	for _, ev := range x.all {
		if ev.time > 0 {
			out[at[ev.time]] = ev
			at[ev.time]++
		}
	}
	return out
}

// pairMatches finds the events of a log in GoVector's form (see
// GoVectorRegexp) as the expression would, line by line and much faster;
// nil when the text is not plainly in that form (the expression then
// reads it, and says where it fails). goVector says the log's expression
// is that form.
func pairMatches(text string, lines int, goVector bool) [][]int {
	if !goVector {
		return nil
	}
	events := lines/2 + 1 // two lines an event, but for blank ones
	out := make([][]int, 0, events)
	flat := make([]int, 0, 8*events) // the matches' indexes, in one array rather than one each
	for at := 0; at < len(text); {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			if strings.TrimSpace(text[at:]) != "" {
				return nil // a clock line with no event line after it
			}
			break
		}
		line := text[at : at+end]
		if strings.TrimSpace(line) == "" {
			at += end + 1
			continue
		}
		start := at + len(line) - len(strings.TrimLeft(line, " \t"))
		sp := strings.IndexByte(text[start:at+end], ' ')
		if sp <= 0 || strings.ContainsAny(text[start:start+sp], "\t\v\f") || !strings.HasPrefix(text[start+sp+1:at+end], "{") || !strings.HasSuffix(line, "}") {
			return nil
		}
		ev := at + end + 1
		evEnd := strings.IndexByte(text[ev:], '\n')
		if evEnd < 0 {
			evEnd = len(text) - ev
		}
		flat = append(flat, start, ev+evEnd, start, start+sp, start+sp+1, at+end, ev, ev+evEnd)
		out = append(out, flat[len(flat)-8:len(flat):len(flat)])
		at = ev + evEnd
	}
	return out
}

// quickClock reads a plain clock ({"A":1, "B":2}: names quoted in
// printable ASCII without escapes, counts of digits, JSON's white space)
// in one pass, without a JSON decoder; ok is false for anything else,
// which the decoder then reads or refuses.
func quickClock(entries []clockEntry, names *clockNames, s string) ([]clockEntry, bool) {
	s = strings.Trim(s, " \t\n\r")
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return entries, false
	}
	// s[end] is the closing brace, so s[i] may be read for any i <= end
	i, end, start := 1, len(s)-1, len(entries)
	space := func() {
		for i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
	}
	space()
	if i == end {
		return entries, true // {}
	}
	for {
		if s[i] != '"' {
			return entries, false
		}
		j := i + 1
		for j < end && s[j] >= ' ' && s[j] <= '~' && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if s[j] != '"' || j == end {
			return entries, false // an escape, a byte past ASCII, or no closing quote
		}
		name := s[i+1 : j]
		i = j + 1
		space()
		if s[i] != ':' || i == end {
			return entries, false
		}
		i++
		space()
		digits := i
		var n int64
		for i < end && s[i] >= '0' && s[i] <= '9' {
			if n = n*10 + int64(s[i]-'0'); n > MaxLogEvents {
				return entries, false
			}
			i++
		}
		if i == digits || (s[digits] == '0' && i-digits > 1) {
			return entries, false
		}
		id, ok := names.numberAt(len(entries)-start, name)
		if !ok {
			return entries, false // the decoder finds the same, and says so
		}
		entries = append(entries, clockEntry{name: id, count: n})
		space()
		if i == end {
			return entries, true
		}
		if s[i] != ',' {
			return entries, false
		}
		i++
		space()
	}
}

// noMatch says a line matches no event; when nothing before it did and
// the log has no expression of its own, the file may be neither a log nor
// a scenario, and it says what each looks like.
func noMatch(line int, text string, first bool) error {
	if first {
		return &LogError{Line: line, Problem: fmt.Sprintf("this is neither a scenario file (a JSON object, starting with {) nor a log (its parsing expression on the first line, or \"host {clock}\" and then the event, as GoVector writes it): got %q", clipLine(text))}
	}
	return &LogError{Line: line, Problem: fmt.Sprintf("no match for the parsing expression: %q", clipLine(text))}
}

// unset is the time of an event not yet timed.
const unset sim.Time = -1

// logTitle titles an imported execution after its file.
func logTitle(name, title string) string {
	t := "Log"
	if name != "" {
		t += " " + name
	}
	if title != "" {
		t += ", " + title
	}
	r := []rune(cleanText(t))
	return string(r[:min(len(r), 200)]) // a title's bound
}

// eventName names an event of the log: "B's event 2".
func eventName(hosts []string, ev *logged) string {
	return fmt.Sprintf("%s's event %d", hosts[ev.host], ev.index)
}

// named names process i by its host, for clock.FormatLog.
func named(hosts []string) func(int) string { return func(i int) string { return hosts[i] } }

// cleanText keeps an event's text on one line, visible and bounded.
func cleanText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxLogText && printableASCII(s) {
		return s // most logs' texts: nothing to change
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxLogText {
		s = string(r[:maxLogText-1]) + "…"
	}
	return s
}

// printableASCII says whether s is only printable ASCII characters.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// clipLine is the start of a line, for an error.
func clipLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return clipText(s)
}
