package logimport_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// importAllocBound bounds what importing a log of bytes allocates,
// garbage included (runtime.MemStats.TotalAlloc), when it opens events
// whose executions have hostEvents (an event counted once for each host
// of its execution), or when it refuses the log: a copy of the file and
// one of its texts (the run's params encode them), the arrays of its
// events and of the runs, and a vector clock an event. At the bounds
// (MaxLogBytes, MaxLogEvents of MaxN hosts) it is 130 MiB: the page opens
// a log with the collector held off up to lab.BurstMemoryLimit (256 MiB).
func importAllocBound(bytes, events, hostEvents int) uint64 {
	return uint64(2*bytes + 760*events + 4*hostEvents + 1<<20)
}

// logOf writes a log of at most size bytes: head, then what each call of
// next gives while it fits and next says there is more.
func logOf(size int, head string, next func(i int) (string, bool)) []byte {
	b := append(make([]byte, 0, size), head...)
	for i := 0; ; i++ {
		s, more := next(i)
		if !more || len(b)+len(s) > size {
			return b
		}
		b = append(b, s...)
	}
}

// withExpression is the header of a log with a parsing expression that
// reads GoVector's two lines an event, and the delimiter delim.
func withExpression(delim string) string {
	return logimport.GoVectorRegexp + "\n" + delim + "\n"
}

// ownClock is a GoVector event of host h, its count-th, whose clock names
// only itself.
func ownClock(h, count int) string {
	return fmt.Sprintf("h%d {\"h%d\":%d}\n.\n", h, h, count)
}

// roundRobin is event i of hosts hosts taking turns, each knowing only
// its own events: the most vector clock (hosts times events) for the
// fewest bytes.
func roundRobin(hosts int) func(i int) string {
	counts := make([]int, hosts)
	return func(i int) string {
		h := i % hosts
		counts[h]++
		return ownClock(h, counts[h])
	}
}

// chain is a log whose first host sends to the second, the second to the
// third, and so on through 64 hosts, so that the last knows every host;
// then the last host logs alone, each clock naming all 64 hosts (long
// clocks), until short(i) says its clock names it alone.
func chain(size int, short func(i int) bool) []byte {
	var head strings.Builder
	for h := range 64 {
		entries := make([]string, h+1)
		for k := range entries {
			entries[k] = fmt.Sprintf("\"h%d\":1", k)
		}
		fmt.Fprintf(&head, "h%d {%s}\nhears of every host before it\n", h, strings.Join(entries, ", "))
	}
	full := func(own int) string {
		entries := make([]string, 64)
		for k := range entries {
			entries[k] = fmt.Sprintf("\"h%d\":1", k)
		}
		entries[63] = fmt.Sprintf("\"h63\":%d", own)
		return fmt.Sprintf("h63 {%s}\n.\n", strings.Join(entries, ", "))
	}
	shortened := 0
	return logOf(size, head.String(), func(i int) (string, bool) {
		if 64+i == logimport.MaxLogEvents {
			return "", false
		}
		if short(i) {
			shortened++
			return fmt.Sprintf("h0 {\"h0\":%d}\n.\n", shortened+1), true
		}
		return full(i - shortened + 2), true
	})
}

// hostileLog is a log made to cost an import much, and what the import
// says of it: want is in its error, or, when it opens, in why some of its
// executions are not open ("" when all are).
type hostileLog struct {
	name  string
	log   func() []byte
	opens int
	want  string
}

// hostileLogs are the logs that cost an import the most that we know of,
// of up to MaxLogBytes: every bound reached, and each array the import
// makes at its largest.
func hostileLogs() []hostileLog {
	const size = logimport.MaxLogBytes
	return []hostileLog{
		{"the delimiter ^ makes every line an execution", func() []byte {
			return logOf(size, "(?<host>\\S*) (?<clock>{.*})\n^\n", func(int) (string, bool) { return "A {\"A\":1}\n", true })
		}, logimport.MaxLogExecutions, "line 9: a log opens at most 6 executions (as many as a page shows side by side), and execution 7 starts here"},
		{"the delimiter (?<trace>) makes every character an execution", func() []byte {
			return logOf(size, withExpression("(?<trace>)"), func(int) (string, bool) { return ownClock(0, 1), true })
		}, 0, "execution 1: line 3: no event matches the parsing expression"},
		{"the delimiter (?<trace>) over white space only", func() []byte {
			return logOf(size, withExpression("(?<trace>)"), func(int) (string, bool) { return "      \n", true })
		}, 0, fmt.Sprintf("line %d: the execution delimiter matches more than 4096 times before any execution", 3+4096/7)},
		{"many tiny executions", func() []byte {
			return logOf(size, withExpression("^=== (?<trace>.*) ===$"), func(i int) (string, bool) {
				return fmt.Sprintf("=== run %d ===\n%s", i, ownClock(0, 1)), true
			})
		}, logimport.MaxLogExecutions, "line 21: a log opens at most 6 executions"},
		{"two executions of 60,000 events each", func() []byte {
			next := roundRobin(4)
			return logOf(size, withExpression("^=== (?<trace>.*) ===$"), func(i int) (string, bool) {
				if i%60_001 == 0 {
					next = roundRobin(4)
					return fmt.Sprintf("=== half %d ===\n", i/60_001+1), true
				}
				return next(i), i < 120_002
			})
		}, 1, "line 120004: a log opens at most 100000 events in all its executions: the 1 before this one have 60000, and this one has more than the 40000 left"},
		{"one execution of 100,001 events", func() []byte {
			next := roundRobin(4)
			return logOf(size, "", func(i int) (string, bool) { return next(i), i <= logimport.MaxLogEvents })
		}, 0, "line 200001: too many events: a log opens at most 100000, and this is event 100001"},
		{"64 hosts, 100,000 events", func() []byte {
			next := roundRobin(64)
			return logOf(size, "", func(i int) (string, bool) { return next(i), i < logimport.MaxLogEvents })
		}, 1, ""},
		{"65 hosts", func() []byte {
			return logOf(size, "", func(i int) (string, bool) { return ownClock(i, 1), i <= scenario.MaxN })
		}, 0, "line 129: too many hosts: an execution has at most 64, and h64 would be its host 65"},
		{"long clocks", func() []byte { return chain(size, func(int) bool { return false }) }, 1, ""},
		{"long clocks, then short ones", func() []byte { return chain(size, func(i int) bool { return i > 7000 }) }, 1, ""},
		{"blank lines", func() []byte {
			return logOf(size, ownClock(0, 1), func(int) (string, bool) { return strings.Repeat("\n", 4096), true })
		}, 1, ""},
		{"one long text", func() []byte {
			return logOf(size, "A {\"A\":1}\n", func(int) (string, bool) { return strings.Repeat("é", 2048), true })
		}, 1, ""},
		{"one long host", func() []byte {
			return append(logOf(size-20, "", func(int) (string, bool) { return strings.Repeat("x", 4096), true }), " {\"x\":1}\nevent\n"...)
		}, 0, "line 1: the host cannot name a process: a name has 1 to 80 characters"},
		// a clock of an escaped name and one name written over and over,
		// of which a JSON decoder makes garbage for every byte
		{"a long clock of one name, escaped and written over and over", func() []byte {
			return append(logOf(size-20, "A {\"\\u0041\":1", func(int) (string, bool) { return ", \"A\":1", true }), "}\nevent\n"...)
		}, 1, ""},
		// host names past ASCII, which clocks write escaped (as Python's
		// json module does): read without a JSON decoder too
		{"non-ASCII names, escaped in the clocks", func() []byte {
			counts := make([]int, 4)
			return logOf(size, "", func(i int) (string, bool) {
				h := i % 4
				counts[h]++
				return fmt.Sprintf("nœud%d {\"n\\u0153ud%d\":%d}\n.\n", h, h, counts[h]), i < logimport.MaxLogEvents
			})
		}, 1, ""},
		// a clock refused after a long valid start: what says why reads
		// no more than the clock
		{"a long clock refused at its end", func() []byte {
			return append(logOf(size-20, "A {\"A\":1", func(int) (string, bool) { return ", \"A\":1", true }), ", \"B\":1.5}\nevent\n"...)
		}, 0, "line 1: the clock's entry for B is 1.5: want a count from 0 to 100000"},
		// 64 hosts' events, as many as a log opens, read the regular
		// expression's way (GoVector's has a quicker reader), with
		// non-ASCII texts to clean and Windows line ends to replace
		{"64 hosts, Windows line ends, the regular expression's way", func() []byte {
			next := roundRobin(64)
			return logOf(size, "(?<host>\\S*) (?<clock>{.*})\\r?\\n(?<event>.*)\r\n\r\n", func(i int) (string, bool) {
				event := strings.Replace(next(i), ".", "événement numéro "+fmt.Sprint(i), 1)
				return strings.ReplaceAll(event, "\n", "\r\n"), i < logimport.MaxLogEvents
			})
		}, 1, ""},
		// an expression with as many groups as its bounds allow, which the
		// import drops but host, clock and event
		{"an expression of 150 groups", func() []byte {
			groups := "(?<host>\\S*) (?<clock>{.*})\\n(?<event>" + strings.Repeat("(.)", 150) + ".*)"
			return logOf(1<<20, groups+"\n\n", func(i int) (string, bool) {
				return fmt.Sprintf("A {\"A\":%d}\n%s\n", i+1, strings.Repeat("x", 160)), true
			})
		}, 1, ""},
		{"one byte too many", func() []byte { return make([]byte, logimport.MaxLogBytes+1) }, 0, "the log is too large: a log is at most 16777216 bytes (16 MiB), and this one is larger"},
	}
}

// allocated is what f allocates, garbage included.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// No log makes the import use unbounded memory: each of the costliest
// logs we know of either opens, or is refused with the bound or the rule
// it breaks and its line; and the import allocates at most
// importAllocBound for it.
func TestHostileLogsStayBounded(t *testing.T) {
	if runtime.GOOS == "js" {
		// the same code as natively, five times slower: its logs of 16 MiB
		// are read natively, and under js/wasm the traces are compared
		t.Skip("natively only")
	}
	for _, tc := range hostileLogs() {
		t.Run(tc.name, func(t *testing.T) {
			var imported *logimport.LogImport
			var err error
			log := tc.log()
			alloc := allocated(func() { imported, err = logimport.ImportLog(log, "hostile.log") })
			t.Logf("%d bytes: %.1f MB allocated", len(log), float64(alloc)/1e6)
			if tc.opens == 0 {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
				assert.LessOrEqual(t, alloc, importAllocBound(len(log), logimport.MaxLogEvents, scenario.MaxN*logimport.MaxLogEvents), "allocated, at most")
				return
			}
			require.NoError(t, err)
			assert.Len(t, imported.Runs, tc.opens)
			events, hostEvents := opened(imported.Runs)
			assert.LessOrEqual(t, alloc, importAllocBound(len(log), events, hostEvents), "allocated, at most (%d events)", events)
			if tc.want == "" {
				assert.Nil(t, imported.Unopened)
			} else {
				require.NotNil(t, imported.Unopened)
				assert.Contains(t, imported.Unopened.Error(), tc.want)
			}
		})
	}
}

// opened counts the events of runs, at most, once and once for each host
// of their execution (a run's steps are its events and its hosts' starts).
func opened(runs []*scenario.Plan) (events, hostEvents int) {
	for _, p := range runs {
		s := p.Head()
		events += s.Until.Steps
		hostEvents += s.N * s.Until.Steps
	}
	return events, hostEvents
}

// A log's executions share its bounds: six executions cost the import no
// more than the same events in one, and a lesson's long log costs it as
// importAllocBound says.
func TestExecutionsShareTheBounds(t *testing.T) {
	const parts, each = logimport.MaxLogExecutions, logimport.MaxLogEvents / logimport.MaxLogExecutions
	// the same events in parts executions: each a new start of 4 hosts
	// taking turns
	logOfParts := func(parts int) []byte {
		var next func(int) string
		events, part := 0, 0
		return logOf(logimport.MaxLogBytes, withExpression("^=== (?<trace>.*) ===$"), func(int) (string, bool) {
			if events == part*(each*logimport.MaxLogExecutions/parts) {
				part++
				next = roundRobin(4)
				return fmt.Sprintf("=== part %d ===\n", part), true
			}
			events++
			return next(events), events <= each*logimport.MaxLogExecutions
		})
	}
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	cost := map[int]uint64{}
	for _, tc := range []struct {
		runs int
		log  []byte
	}{{1, logOfParts(1)}, {parts, logOfParts(parts)}, {1, r.Trace().ShiViz(logimport.MaxLogEvents - 50)}} { // and its messages in flight
		var runs []*scenario.Plan
		alloc := allocated(func() { runs, err = logimport.FromLog(tc.log, "long.log") })
		require.NoError(t, err)
		require.Len(t, runs, tc.runs)
		events, hostEvents := opened(runs)
		assert.Greater(t, events, logimport.MaxLogEvents-100, "nearly as many events as a log opens")
		assert.LessOrEqual(t, alloc, importAllocBound(len(tc.log), events, hostEvents))
		if cost[tc.runs] == 0 {
			cost[tc.runs] = alloc
		}
	}
	assert.LessOrEqual(t, cost[parts], cost[1]+1<<20, "six executions cost what their events in one do")
}

// A log's parsing expression and delimiter are bounded in length and in
// the size they compile to: matching costs time in proportion to both.
func TestLogExpressionBounds(t *testing.T) {
	long := "(?<host>\\S*) (?<clock>{.*})" + strings.Repeat("x?", 490)
	for _, tc := range []struct {
		name, log string
		want      []string
	}{
		{"too long", long + "\n\nA {\"A\":1}\n", []string{fmt.Sprintf("line 1: the parsing expression is too long: at most 1000 bytes, and it has %d", len(long))}},
		{"too complex", "(?<host>\\S*) (?<clock>{.*}).{0,300}\n\nA {\"A\":1}\n", []string{"line 1: the parsing expression is too complex to match quickly: it compiles to ", " instructions, and one may have at most 200"}},
		{"a delimiter too complex", "(?<host>\\S*) (?<clock>{.*})\n^(?<trace>x{250})$\nA {\"A\":1}\n", []string{"line 2: the execution delimiter is too complex to match quickly"}},
		{"empty matches", "(?<host>\\S*) ?(?<clock>(?:{.*})?)\n\nA {\"A\":1}\n\n", []string{"line 4: the parsing expression matches empty text here: an event's match holds at least its host and its clock"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := logimport.FromLog(tc.log, "")
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	// the groups the import does not read cost it nothing: ShiViz's own
	// example of eleven groups is within the bounds
	shiviz := `(?<ip>(\d{1,3}\.){3}\d{1,3}) (?<date>(\d{1,2}/){2}\d{4} (\d{2}:){2}\d{2} (AM|PM)) (?<action>(INFO|GET|POST)) (?<event>.*)\n(?<host>\w*) (?<clock>.*)`
	runs, err := logimport.FromLog(shiviz+"\n^=== (?<trace>.*) ===$\n=== one ===\n24.22.130.14 5/27/2013 10:53:39 AM GET /timeline uid=alice\nalice {\"alice\":1}\n", "facebook.log")
	require.NoError(t, err)
	assert.Equal(t, "Log facebook.log, one", runs[0].Head().Title)
}
