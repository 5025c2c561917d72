// Package logimport reads ShiViz and GoVector logs into runs that replay
// them (see package logreplay): a compiled scenario.Plan for each of a
// log's first executions, whose document is written only when saving or
// linking asks for it. Its bounds keep what any file costs to read within
// a known size.
package logimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"spacetime/core/algo/logreplay"
	"spacetime/core/clock"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// The bounds of an imported log: a file is read whole and every event
// becomes a step, so its size, its executions and its events are bounded,
// and so are its expressions, whose matching costs time in proportion to
// their size. Together they bound what an import allocates for any file
// (see TestHostileLogsStayBounded): every array it makes is sized by a
// count found, and checked, before the array is made.
const (
	// MaxLogBytes bounds a log file.
	MaxLogBytes = 16 << 20
	// MaxLogEvents bounds the events a log opens: of one execution (a
	// script entry each), and of all its executions together.
	MaxLogEvents = scenario.MaxScript
	// MaxLogExecutions bounds the executions a log opens, the first ones:
	// as many runs as a page shows side by side (lab.MaxViews); a log
	// rarely has more (ShiViz's examples have two to five), and the
	// command line runs the first.
	MaxLogExecutions = 6
	// MaxLogExpressionBytes bounds the parsing expression and the
	// execution delimiter as written; ShiViz's own examples are under 200.
	MaxLogExpressionBytes = 1000
	// MaxLogExpressionSize bounds the instructions of each compiled
	// expression (Go's regexp/syntax program, captures left out): its
	// matching takes up to the log's bytes times this many steps. ShiViz's
	// own examples compile to at most 106.
	MaxLogExpressionSize = 200
	// maxDelimiterMatches bounds the delimiter's matches read to find the
	// executions a log opens (text between two matches that is only white
	// space is no execution).
	maxDelimiterMatches = 4096
	// maxLogText bounds the text kept of one event.
	maxLogText = 300
)

// GoVectorRegexp reads a log as GoVector writes it, "host {clock}" on one
// line and the event on the next; it is used when a log's first line is
// not a parsing expression.
const GoVectorRegexp = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`

// LogError says why a log was not imported, or why some of its
// executions were not opened, and where.
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

// LogImport is what a log opens: a run for each of its first executions,
// and why the others, if any, are not open.
type LogImport struct {
	// Runs replay the executions opened, in the log's order; there is at
	// least one.
	Runs []*scenario.Plan
	// Unopened says which bound keeps the log's executions from its line
	// on closed (MaxLogExecutions; MaxLogEvents, for all executions
	// together; or the delimiter's matches read); nil when every
	// execution is open.
	Unopened *LogError
	// Skipped says how many lines matched no event and were passed over,
	// as ShiViz passes over them, and where the first is; nil when none.
	Skipped *LogError
}

// skipped counts the lines of a log that match no event.
type skipped struct {
	lines int
	// first is the first such line's number and text
	first     int
	firstText string
}

// add counts the lines of gap, text at offset at of the file that
// matches no event, and keeps the first.
func (k *skipped) add(gap string, at int, lines *lineCounter) {
	for _, line := range strings.Split(gap, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if k.lines == 0 {
			k.first, k.firstText = lines.line(at+strings.Index(gap, line)), strings.TrimSpace(line)
		}
		k.lines++
	}
}

// note is what the page and the command say of the lines passed over.
func (k *skipped) note() *LogError {
	if k.lines == 0 {
		return nil
	}
	what := "1 line matches"
	if k.lines > 1 {
		what = fmt.Sprintf("%d lines match", k.lines)
	}
	return &LogError{Line: k.first, Problem: fmt.Sprintf("%s no event of the parsing expression and %s passed over, as ShiViz passes over them; the first: %q", what, map[bool]string{true: "was", false: "were"}[k.lines == 1], clipLine(k.firstText))}
}

// FromLog reads a ShiViz or GoVector log into one scenario for each of
// its first executions (see ImportLog), and leaves the rest unread.
func FromLog[T ~string | ~[]byte](data T, name string) ([]*scenario.Plan, error) {
	imported, err := ImportLog(data, name)
	if err != nil {
		return nil, err
	}
	return imported.Runs, nil
}

// ImportLog reads a ShiViz or GoVector log into one scenario per execution
// that replays it (see package logreplay). The first line is the parsing
// expression, with the named groups host, clock and (optionally) event,
// and the second the execution delimiter, blank for one execution, as
// ShiViz reads them; a log that does not start with an expression is read
// as GoVector writes it. Each host's own clock entry must start at 1 and
// rise by 1 an event, and each clock must be the merge of its host's
// previous one and the one message it receives; a log that breaks a rule
// or a bound is refused with the line and the rule. Only the first
// executions are opened, as many as MaxLogExecutions and MaxLogEvents
// allow: the rest are not read, and Unopened says why. name titles the
// scenarios.
func ImportLog[T ~string | ~[]byte](data T, name string) (*LogImport, error) {
	if len(data) > MaxLogBytes {
		// a reader may stop one byte past the bound: the size is not known
		return nil, &LogError{Problem: fmt.Sprintf("is too large: a log is at most %d bytes (16 MiB), and this one is larger", MaxLogBytes)}
	}
	text := logText(data)
	if !utf8.ValidString(text) {
		return nil, &LogError{Problem: "is not UTF-8 text"}
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	lines := newLineCounter(text)
	expr, delim, body, bodyAt := GoVectorRegexp, "", text, 0
	if first, rest, _ := strings.Cut(text, "\n"); strings.Contains(first, "(?<") || strings.Contains(first, "(?P<") {
		expr = first
		second, after, _ := strings.Cut(rest, "\n")
		delim = strings.TrimSpace(second)
		body, bodyAt = after, len(text)-len(after)
	}
	re, err := compileLogExpression(expr, 1, "parsing expression", "host", "clock", "event")
	if err != nil {
		return nil, err
	}
	for _, group := range []string{"host", "clock"} {
		if re.SubexpIndex(group) < 0 {
			return nil, &LogError{Line: 1, Problem: fmt.Sprintf("the parsing expression has no group named %q: write (?<host>…) and (?<clock>…), and (?<event>…) for the text", group)}
		}
	}
	parts, rest := []logPart{{at: bodyAt, text: body}}, (*LogError)(nil)
	if delim != "" {
		dre, err := compileLogExpression(delim, 2, "execution delimiter", "trace")
		if err != nil {
			return nil, err
		}
		if parts, rest, err = splitExecutions(dre, body, bodyAt, lines); err != nil {
			return nil, err
		}
	}
	several := len(parts) > 1 || rest != nil
	imported := &LogImport{}
	var passed skipped
	room := MaxLogEvents // the events the executions still to open may have
	for i, p := range parts {
		title := p.title
		if title == "" && several {
			title = "execution " + strconv.Itoa(i+1)
		}
		s, events, err := importExecution(re, p.text, p.at, lines, name, title, expr == GoVectorRegexp, room, &passed, bodyAt == 0)
		var past *pastEvents
		if errors.As(err, &past) && i > 0 {
			// a later execution past the bound stays closed, as do those after it
			rest = &LogError{Line: lines.line(p.at), Problem: fmt.Sprintf("a log opens at most %d events in all its executions: the %d before this one have %d, and this one has more than the %d left, so it and those after it are not open", MaxLogEvents, i, MaxLogEvents-room, room)}
			break
		}
		if err != nil {
			if past != nil {
				err = &LogError{Line: past.line, Problem: fmt.Sprintf("too many events: a log opens at most %d, and this is event %d", MaxLogEvents, MaxLogEvents+1)}
			}
			if several {
				return nil, fmt.Errorf("%s: %w", title, err)
			}
			return nil, err
		}
		room -= events
		imported.Runs = append(imported.Runs, s)
	}
	if len(imported.Runs) == 0 {
		return nil, &LogError{Problem: "has no events"}
	}
	imported.Unopened = rest
	imported.Skipped = passed.note()
	return imported, nil
}

// logText is a log's text with Windows line ends made "\n", in one copy
// at most: none when data is a string without them (the page reads the
// file as one), and one when it is bytes (the command line's).
func logText[T ~string | ~[]byte](data T) string {
	crlf := []byte("\r\n")
	if b, ok := any(data).([]byte); ok && bytes.Contains(b, crlf) {
		var text strings.Builder
		text.Grow(len(b))
		for i := bytes.Index(b, crlf); i >= 0; i = bytes.Index(b, crlf) {
			text.Write(b[:i])
			text.WriteByte('\n')
			b = b[i+2:]
		}
		text.Write(b)
		return text.String()
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n")
}

// logPart is the text of one execution, at its offset in the file.
type logPart struct {
	title string
	at    int
	text  string
}

// splitExecutions finds a log's first executions, as many as a log opens,
// between the delimiter's matches in body (at its offset in the file):
// text that is only white space is none. rest says where the executions
// not opened begin, and why; the delimiter's matches are read only as far
// as needed, so that one that matches everywhere costs no more than one
// that matches once an execution.
func splitExecutions(dre *regexp.Regexp, body string, bodyAt int, lines *lineCounter) (parts []logPart, rest *LogError, err error) {
	traceGroup := dre.SubexpIndex("trace")
	// matches for the executions opened, one before the first and one
	// that says there are more: most logs need no more than one reading
	for limit := MaxLogExecutions + 2; ; limit = min(8*limit, maxDelimiterMatches+1) {
		matches := dre.FindAllStringSubmatchIndex(body, limit)
		parts = parts[:0]
		title, from := "", 0
		// add adds the execution from the last match to end, if it is one;
		// false when it is one past those a log opens
		add := func(end int) bool {
			if chunk := body[from:end]; strings.TrimSpace(chunk) != "" {
				if len(parts) == MaxLogExecutions {
					return false
				}
				parts = append(parts, logPart{title: title, at: bodyAt + from, text: chunk})
			}
			return true
		}
		// more says that the executions from the last match on are not open
		more := func() *LogError {
			return &LogError{Line: lines.line(bodyAt + from), Problem: fmt.Sprintf("a log opens at most %d executions (as many as a page shows side by side), and execution %d starts here: it and those after it are not open", MaxLogExecutions, MaxLogExecutions+1)}
		}
		for _, m := range matches {
			if !add(m[0]) {
				return parts, more(), nil
			}
			title = ""
			if traceGroup >= 0 && m[2*traceGroup] >= 0 {
				title = strings.TrimSpace(body[m[2*traceGroup]:m[2*traceGroup+1]])
			}
			from = m[1]
		}
		if len(matches) < limit { // every match read: the last execution runs to the end
			if !add(len(body)) {
				return parts, more(), nil
			}
			return parts, nil, nil
		}
		if limit > maxDelimiterMatches {
			// the text after the last match read may hold more matches: the
			// executions before it are whole, and the rest unread
			line := lines.line(bodyAt + from)
			if len(parts) == 0 {
				return nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("the execution delimiter matches more than %d times before any execution: it marks where each execution begins, once an execution (as ^=== (?<trace>.*) ===$ does)", maxDelimiterMatches)}
			}
			return parts, &LogError{Line: line, Problem: fmt.Sprintf("the execution delimiter matches more than %d times, the most a log's are read: the executions from here on are not open", maxDelimiterMatches)}, nil
		}
	}
}

// compileLogExpression compiles a log's parsing expression or execution
// delimiter (what, on line) with its bounds checked, keeping only the
// named groups the import reads: every other group would cost each match
// time and memory.
func compileLogExpression(expr string, line int, what string, groups ...string) (*regexp.Regexp, error) {
	if len(expr) > MaxLogExpressionBytes {
		return nil, &LogError{Line: line, Problem: fmt.Sprintf("the %s is too long: at most %d bytes, and it has %d", what, MaxLogExpressionBytes, len(expr))}
	}
	tree, err := syntax.Parse("(?m)"+expr, syntax.Perl) // as regexp.Compile parses it
	if err != nil {
		return nil, &LogError{Line: line, Problem: "the " + what + " does not compile: " + err.Error()}
	}
	dropped := 0
	tree = keepGroups(tree, groups, &dropped)
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, &LogError{Line: line, Problem: "the " + what + " does not compile: " + err.Error()}
	}
	if size := len(prog.Inst); size > MaxLogExpressionSize {
		return nil, &LogError{Line: line, Problem: fmt.Sprintf("the %s is too complex to match quickly: it compiles to %d instructions, and one may have at most %d", what, size, MaxLogExpressionSize)}
	}
	written := "(?m)" + expr
	if dropped > 0 {
		written = tree.String() // which costs a millisecond: only when it must
	}
	re, err := regexp.Compile(written)
	if err != nil {
		return nil, &LogError{Line: line, Problem: "the " + what + " does not compile: " + err.Error()}
	}
	return re, nil
}

// keepGroups makes every capture of re that is not one of the named
// groups a plain group, and counts them: what the expression matches is
// unchanged.
func keepGroups(re *syntax.Regexp, groups []string, dropped *int) *syntax.Regexp {
	for i, sub := range re.Sub {
		re.Sub[i] = keepGroups(sub, groups, dropped)
	}
	if re.Op == syntax.OpCapture && !slices.Contains(groups, re.Name) {
		*dropped++
		return re.Sub[0]
	}
	return re
}

// lineCounter finds the line of an offset by counting the newlines from
// the offset last asked for: the import asks in order, so that the text
// is counted once, and keeps no index of its lines (which would be 8
// bytes a line: a log of blank lines is mostly lines).
type lineCounter struct {
	text     string
	at, last int // last is the line of offset at
}

func newLineCounter(text string) *lineCounter { return &lineCounter{text: text, last: 1} }

// line is the line, from 1, that holds offset at.
func (c *lineCounter) line(at int) int {
	if at < c.at {
		c.at, c.last = 0, 1 // asked again from the start: an error's line
	}
	c.last += strings.Count(c.text[c.at:at], "\n")
	c.at = at
	return c.last
}

// logged is one event of the log.
type logged struct {
	host  int
	index int // the host's own count, from 1
	line  int
	text  string
	clock []int32 // counts are at most MaxLogEvents
	// parent is the event whose message this one receives, or nil; also
	// the events of other hosts whose messages it receives too (an event
	// that merges several senders), and receivers the events that
	// receive this one's messages.
	parent    *logged
	also      []*logged
	receivers []*logged
	time      sim.Time
	// msg numbers the message the event receives from its parent, as the
	// run sends it, and held those it receives from also, in its order.
	msg  int
	held []int
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
	count int32 // at most MaxLogEvents
}

// maxEntryChunk bounds the entries of one array of clocks (512 KiB).
const maxEntryChunk = 1 << 16

// newEntryChunk makes room for the clocks of the events left (done read,
// with kept entries), at as many entries an event as so far (a few for
// the first events), and for one clock more than that: a log's clocks
// hold millions of entries, which several arrays hold without the copies
// and the unused half of one array that doubles.
func newEntryChunk(done, kept, left int) []clockEntry {
	size := min(4*left, maxEntryChunk/16)
	if done > 0 {
		size = min(kept*left/done, maxEntryChunk)
	}
	return make([]clockEntry, 0, size+scenario.MaxN)
}

// clockNames numbers the names a log's clocks use, as they come.
type clockNames struct {
	index map[string]int32
	names []string
	// at is the name last found at each place in a clock: clocks list
	// their names in much the same order, and comparing a name costs less
	// than hashing it (most in wasm)
	at []int32
	// unquoted holds the last name written with escapes, decoded
	unquoted []byte
}

// numberAt is number, for the name at place i of a clock.
func (c *clockNames) numberAt(i int, name string) (int32, bool) {
	if i < len(c.at) && c.names[c.at[i]] == name {
		return c.at[i], true
	}
	id, ok := c.number(name)
	c.place(i, id, ok)
	return id, ok
}

// numberAtBytes is numberAt for a name decoded into bytes, which become
// a string only when the name is new.
func (c *clockNames) numberAtBytes(i int, name []byte) (int32, bool) {
	if i < len(c.at) && c.names[c.at[i]] == string(name) {
		return c.at[i], true
	}
	id, ok := c.index[string(name)]
	if !ok {
		id, ok = c.number(string(name))
	}
	c.place(i, id, ok)
	return id, ok
}

// place notes that the name at place i of a clock was id's.
func (c *clockNames) place(i int, id int32, ok bool) {
	if ok && i < scenario.MaxN {
		for len(c.at) <= i {
			c.at = append(c.at, id)
		}
		c.at[i] = id
	}
}

// number is the name's number; false when the clocks name more hosts
// than a log may have.
func (c *clockNames) number(name string) (int32, bool) {
	if i, ok := c.index[name]; ok {
		return i, true
	}
	if len(c.names) == scenario.MaxN {
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

// importExecution reads one execution of a log, of at most room events:
// its events, who receives from whom, when each happens, and the scenario
// that replays it, with the number of its events.
func importExecution(re *regexp.Regexp, text string, at int, lines *lineCounter, name, title string, goVector bool, room int, passed *skipped, guessed bool) (*scenario.Plan, int, error) {
	events, hosts, names, err := readEvents(re, text, at, lines, goVector, room, passed, guessed)
	if err != nil {
		return nil, 0, err
	}
	x, err := newExecution(events, hosts, names)
	if err != nil {
		return nil, 0, err
	}
	if err := x.link(); err != nil {
		return nil, 0, err
	}
	if err := x.schedule(); err != nil {
		return nil, 0, err
	}
	s, err := x.plan(name, title)
	return s, len(events), err
}

// pastEvents is readEvents' error for an execution of more events than
// the log has room for, at the line of the first event past it.
type pastEvents struct{ line int }

func (e *pastEvents) Error() string {
	return fmt.Sprintf("line %d: more events than the log has room for", e.line)
}

// readEvents finds the events of an execution's text (at its offset in
// the file), at most room of them, and the hosts, in order of their first
// event. The matches are found only as far as the bound, before any array
// of the events is made. Lines that match no event are passed over and
// counted in passed, as ShiViz passes over them; but a file with no
// expression of its own (guessed to be a GoVector log) whose first text
// matches nothing may be no log at all, and is refused.
func readEvents(re *regexp.Regexp, text string, at int, lines *lineCounter, goVector bool, room int, passed *skipped, guessed bool) ([]rawEvent, []string, *clockNames, error) {
	hostGroup, clockGroup, eventGroup := re.SubexpIndex("host"), re.SubexpIndex("clock"), re.SubexpIndex("event")
	seen := map[string]bool{}
	var hosts []string
	from := 0
	found := pairMatches(text, goVector, room+1)
	if found == nil {
		found = re.FindAllStringSubmatchIndex(text, room+1)
	}
	events := make([]rawEvent, 0, min(len(found), room))
	// the clocks' entries, in arrays that the events' clocks slice
	var entries []clockEntry
	kept := 0 // entries in all the arrays
	names := &clockNames{index: map[string]int32{}}
	tooMany := func(line int) error {
		return &LogError{Line: line, Problem: fmt.Sprintf("the clocks name more than %d hosts: a log has at most %d", scenario.MaxN, scenario.MaxN)}
	}
	for i, m := range found {
		if m[1] == m[0] {
			// no event, though it counts against the matches read
			// (and ShiViz, finding it, reads the log forever)
			return nil, nil, nil, &LogError{Line: lines.line(at + m[0]), Problem: "the parsing expression matches empty text here: an event's match holds at least its host and its clock"}
		}
		if gap := text[from:m[0]]; strings.TrimSpace(gap) != "" {
			if guessed && len(events) == 0 {
				off := from + strings.Index(gap, strings.TrimSpace(gap)[:1])
				return nil, nil, nil, notALog(lines.line(at+off), text[off:])
			}
			passed.add(gap, at+from, lines)
		}
		from = m[1]
		line := lines.line(at + m[0])
		if len(events) == room {
			return nil, nil, nil, &pastEvents{line: line}
		}
		group := func(i int) string {
			if i < 0 || m[2*i] < 0 {
				return ""
			}
			return text[m[2*i]:m[2*i+1]]
		}
		host := strings.TrimSpace(group(hostGroup))
		if !seen[host] {
			// a name past the bound is refused, read no further than it
			if err := scenario.CheckName(firstRunes(host, scenario.MaxNameLength+1)); err != nil {
				return nil, nil, nil, &LogError{Line: line, Problem: "the host cannot name a process: " + err.Error()}
			}
			if len(hosts) == scenario.MaxN {
				return nil, nil, nil, &LogError{Line: line, Problem: fmt.Sprintf("too many hosts: an execution has at most %d, and %s would be its host %d", scenario.MaxN, host, scenario.MaxN+1)}
			}
			seen[host] = true
			hosts = append(hosts, host)
		}
		if cap(entries)-len(entries) < scenario.MaxN { // room for a clock quickClock takes
			entries = newEntryChunk(len(events), kept, len(found)-i)
		}
		start := len(entries)
		clock := group(clockGroup)
		var ok bool
		entries, ok = quickClock(entries, names, clock)
		if !ok && strings.Contains(clock, `\"`) {
			// a clock written with its quotes escaped ({\"w1\":1}, as a
			// TLA+ trace writes it) is read unescaped, as ShiViz reads it
			clock = strings.ReplaceAll(clock, `\"`, `"`)
			entries, ok = quickClock(entries, names, clock)
		}
		if ok {
			kept += len(entries) - start
			events = append(events, rawEvent{host: host, event: group(eventGroup), clock: entries[start:len(entries):len(entries)], line: line})
			continue
		}
		if problem := clockProblem(clock); problem != "" {
			return nil, nil, nil, &LogError{Line: line, Problem: problem}
		}
		return nil, nil, nil, tooMany(line) // what else quickClock refuses
	}
	if rest := strings.TrimSpace(text[from:]); rest != "" {
		if guessed && len(events) == 0 {
			off := from + strings.Index(text[from:], rest[:1])
			return nil, nil, nil, notALog(lines.line(at+off), text[off:])
		}
		passed.add(text[from:], at+from, lines)
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
	clocks := make([]int32, n*len(events))
	for i, e := range events {
		h := hostIndex[e.host]
		ev := &slab[i] // filled field by field, as execution.scenario does
		ev.host, ev.line = h, e.line
		ev.text, ev.clock = keepCut(cleanText(e.event), e.event), clocks[i*n:(i+1)*n:(i+1)*n]
		for _, c := range e.clock {
			j := named[c.name]
			if j < 0 {
				return nil, &LogError{Line: e.line, Problem: fmt.Sprintf("the clock names the host %q, which logs no event", clipLine(names.names[c.name]))}
			}
			ev.clock[j] = c.count // a host named twice: the last count, as JSON has it
		}
		x.byHost[h] = append(x.byHost[h], ev)
		x.all[i] = ev
	}
	// a host's events are counted in the order of its own entries, as
	// ShiViz counts them, whatever order the file interleaves them in
	for h, evs := range x.byHost {
		own := func(a, b *logged) int { return int(a.clock[h] - b.clock[h]) }
		if !slices.IsSortedFunc(evs, own) {
			slices.SortStableFunc(evs, own)
		}
		for k, ev := range evs {
			ev.index = k + 1
			if ev.clock[h] != int32(ev.index) {
				return nil, &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's own clock entry is %d, but this is its event %d: a host's own entry starts at 1 and rises by 1 an event (its events counted in the order of their own entries, as ShiViz counts them)", hosts[h], ev.clock[h], ev.index)}
			}
		}
	}
	return x, nil
}

// link finds the message each event receives, from the event of another
// host its clock learns of directly (the edge ShiViz draws), and checks
// that each clock is exactly the merge of its host's previous clock and
// that message's.
func (x *execution) link() error {
	hosts, byHost := x.hosts, x.byHost
	zero := make([]int32, len(hosts))
	// one buffer each for every event's work: an allocation an event is
	// what the collector charges for in a long log
	want := make([]int32, len(hosts))
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
			if v > int32(len(byHost[j])) {
				return &LogError{Line: ev.line, Problem: fmt.Sprintf("the clock says %s:%d, but %s logs %d events", hosts[j], v, hosts[j], len(byHost[j]))}
			}
			learnt = append(learnt, byHost[j][v-1])
		}
		parents = parents[:0]
		for _, x := range learnt {
			direct := true
			for _, y := range learnt {
				if y != x && y.clock[x.host] >= int32(x.index) {
					direct = false
				}
			}
			if direct {
				parents = append(parents, x)
			}
		}
		if len(parents) == 0 {
			// a receipt of Spacetime's own export whose clock learns
			// nothing new (its message was overtaken) names its sender
			if p := x.namedSender(ev); p != nil {
				parents = append(parents, p)
			}
		}
		copy(want, prev)
		// an event that merges several senders receives from each, as
		// ShiViz draws an edge from each (learnt is in the hosts' order)
		for k, p := range parents {
			if p.clock[ev.host] >= int32(ev.index) {
				return &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's event receives from %s (line %d), which already knows this event: the clocks make a cycle", hosts[ev.host], eventName(hosts, p), p.line)}
			}
			for j := range want {
				want[j] = max(want[j], p.clock[j])
			}
			if k == len(parents)-1 {
				ev.parent = p
			} else {
				ev.also = append(ev.also, p)
			}
			p.receivers = append(p.receivers, ev)
		}
		want[ev.host]++
		if !slices.Equal(want, ev.clock) {
			return &LogError{Line: ev.line, Problem: fmt.Sprintf("the clock %s is not the merge of %s's previous clock and the message it receives: want %s", clock.FormatLog(ev.clock, named(hosts)), hosts[ev.host], clock.FormatLog(want, named(hosts)))}
		}
	}
	return nil
}

// namedSender is the event a receipt's text names as its sender ("deliver
// KIND from A:5", as Spacetime's export writes it), when that is an event
// the receipt's clock knows: of another host, or an earlier one of its
// own (a message a process sends itself); else nil.
func (x *execution) namedSender(ev *logged) *logged {
	r, ok := trace.ShiVizReceipt(ev.text)
	if !ok {
		return nil
	}
	j := slices.Index(x.hosts, r.From)
	if j < 0 || r.Own > len(x.byHost[j]) || ev.clock[j] < int32(r.Own) || j == ev.host && r.Own >= ev.index {
		return nil
	}
	return x.byHost[j][r.Own-1]
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
				if ev.parent != nil && ev.parent.time == unset || slices.ContainsFunc(ev.also, untimed) {
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
				for _, p := range ev.also {
					t = max(t, p.time+1)
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
					p := ev.parent
					if i := slices.IndexFunc(ev.also, untimed); i >= 0 {
						p = ev.also[i]
					}
					return &LogError{Line: ev.line, Problem: fmt.Sprintf("%s's event waits on %s (line %d), which waits on it: the clocks make a cycle", hosts[h], eventName(hosts, p), p.line)}
				}
			}
		}
	}
	return nil
}

// plan is the plan of the run that replays the execution: every event at
// its time, in the log's order at equal times, after the starts (in the
// hosts' order); a message is numbered as the run sends it.
func (x *execution) plan(name, title string) (*scenario.Plan, error) {
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
	holds := 0 // the receipts held for an event that merges several senders
	for _, ev := range x.all {
		holds += len(ev.also)
	}
	script := make([]engine.Timed, 0, len(order)+holds)
	fields := 0 // of the file's entries, other than "at"
	next := 0
	// events and entries are written in place, field by field: copying
	// whole values that hold pointers is what the collector charges most
	// for while it marks
	for _, ev := range order {
		slices.SortFunc(ev.receivers, func(a, b *logged) int { return a.host - b.host })
		le := &params.Events[ev.host][ev.index-1]
		le.Text = ev.text
		le.Cut = trace.ShiVizCut(ev.text) // a Spacetime export's snapshot point
		if len(ev.receivers) > 0 {
			le.To = make([]string, len(ev.receivers))
		}
		for i, r := range ev.receivers {
			le.To[i] = hosts[r.host]
			if r.parent == ev {
				r.msg = next
				// a receipt of Spacetime's own export names its message
				if rc, ok := trace.ShiVizReceipt(r.text); ok && rc.From == hosts[ev.host] && rc.Own == ev.index && rc.Kind != "" && scenario.CheckName(rc.Kind) == nil {
					if le.Kinds == nil {
						le.Kinds, le.Labels = make([]string, len(ev.receivers)), make([]string, len(ev.receivers))
					}
					le.Kinds[i], le.Labels[i] = rc.Kind, rc.Label
				}
			} else {
				// held in the order of also, which the process expects
				if r.held == nil {
					r.held = make([]int, len(r.also))
				}
				r.held[slices.Index(r.also, ev)] = next
			}
			next++
		}
		p := ev.parent
		if p != nil {
			le.From = hosts[p.host]
		}
		for _, a := range ev.also {
			le.Also = append(le.Also, hosts[a.host])
		}
		if ev.time == 0 {
			continue // a start is no entry of the script
		}
		// the messages it merges with its parent's are delivered first,
		// at the same time: the process holds them for the event
		for _, m := range ev.held {
			script = script[:len(script)+1]
			h := &script[len(script)-1]
			h.At, h.Node, h.Target, h.Msg = ev.time, sim.None, sim.None, m
			fields++ // "msg"
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
	description := fmt.Sprintf("Imported from a log: %d events of %d hosts, replayed in an order that keeps every event after those it knows of. Each host is a process and each logged event a step.", len(x.all), n)
	if holds > 0 {
		description += fmt.Sprintf(" An event that receives from several hosts at once (%d of them here) is a step more for each sender past the first: its process holds that message, its clock unchanged, until the event.", holds)
	}
	fifo := false
	delay := x.last + 1 // no message arrives unless the script delivers it
	s := &scenario.Scenario{
		Title:       logTitle(name, title),
		Description: description,
		Algorithm:   logreplay.ID,
		N:           n,
		Names:       hosts,
		Network:     scenario.Network{FIFO: &fifo, Delay: []sim.Time{delay, delay}},
		Until:       scenario.Until{Steps: n - starts + len(x.all) + holds},
		Lesson:      &scenario.Lesson{Opens: n - starts + len(x.all) + holds},
	}
	nodes, err := logreplay.New(hosts, params)
	if err != nil {
		return nil, &LogError{Problem: "does not make a run: " + err.Error()}
	}
	p, err := s.CompileMade(scenario.Made{Nodes: nodes, Script: script, ParamsLen: params.JSONLen(), Fields: fields, File: func() ([]scenario.Entry, json.RawMessage) {
		return logFileScript(hosts, script), params.AppendJSON(nil)
	}})
	if err != nil {
		return nil, &LogError{Problem: "does not make a run: " + err.Error()}
	}
	return p, nil
}

// logFileScript is a log's script as its file writes it: each host's
// next event that receives nothing, and each delivery, at its time.
func logFileScript(hosts []string, script []engine.Timed) []scenario.Entry {
	quoted := make([]json.RawMessage, len(hosts)) // each host, as a script names it
	for h, name := range hosts {
		quoted[h] = json.RawMessage(strconv.Quote(name))
	}
	entries := make([]scenario.Entry, len(script))
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

// pairMatches finds the first n events of a log in GoVector's form (see
// GoVectorRegexp) as the expression would, line by line and much faster;
// nil when the text is not plainly in that form (the expression then
// reads it, and says where it fails). goVector says the log's expression
// is that form.
func pairMatches(text string, goVector bool, n int) [][]int {
	if !goVector {
		return nil
	}
	events := min(strings.Count(text, "\n")/2+1, n) // two lines an event, but for blank ones
	out := make([][]int, 0, events)
	flat := make([]int, 0, 8*events) // the matches' indexes, in one array rather than one each
	for at := 0; at < len(text) && len(out) < n; {
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

// notALog says a file read as GoVector writes logs starts with a line
// that matches no event: it may be neither a log nor a scenario, and it
// says what each looks like.
func notALog(line int, text string) error {
	return &LogError{Line: line, Problem: fmt.Sprintf("this is neither a scenario file (a JSON object, starting with {) nor a log (its parsing expression on the first line, or \"host {clock}\" and then the event, as GoVector writes it): got %q", clipLine(text))}
}

// unset is the time of an event not yet timed.
const unset sim.Time = -1

// untimed says whether an event is not yet timed.
func untimed(ev *logged) bool { return ev.time == unset }

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

// keepCut keeps the cut mark of a Spacetime export's event ("… [cut 2]")
// on its text when cleanText cut the text short before it: the text is
// shortened further, to end "… [cut 2]" within maxLogText characters.
func keepCut(text, raw string) string {
	n := trace.ShiVizCut(strings.TrimSpace(raw))
	if n == 0 || trace.ShiVizCut(text) == n {
		return text
	}
	mark := " [cut " + strconv.Itoa(n) + "]"
	r := []rune(strings.TrimSuffix(text, "…"))
	if keep := maxLogText - 1 - len(mark); len(r) > keep {
		r = r[:keep]
	}
	return string(r) + "…" + mark
}

// cleanText keeps an event's text on one line, visible and bounded: at
// most maxLogText characters, the last an ellipsis when it is cut. What
// it makes is bounded too, however long the text.
func cleanText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxLogText && printableASCII(s) || len(s) <= maxLogText*utf8.UTFMax && keptAsIs(s) {
		return s // most logs' texts: nothing to change, nor to copy
	}
	var b strings.Builder
	b.Grow(min(len(s), maxLogText*utf8.UTFMax))
	kept, cut := 0, 0 // characters kept, and the length before the last
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			r = ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
			continue
		}
		if kept == maxLogText { // one more than fits: cut before the last kept
			return b.String()[:cut] + "…"
		}
		if kept == maxLogText-1 {
			cut = b.Len()
		}
		b.WriteRune(r)
		kept++
	}
	return b.String()
}

// keptAsIs says whether cleanText keeps s as it is: at most maxLogText
// characters, none of them white space but the space, nor invisible.
func keptAsIs(s string) bool {
	n := 0
	for _, r := range s {
		if n++; n > maxLogText || r != ' ' && unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
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
	r := []rune(firstRunes(s, 41))
	if len(r) > 40 {
		return string(r[:40]) + "…" // 40 kept, and said when there are more
	}
	return string(r)
}

// firstRunes is the start of s of at most n characters, without a copy.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
