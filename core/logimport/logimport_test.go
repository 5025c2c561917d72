package logimport_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/logimport"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// clockLines keeps the "host {clock}" lines of a ShiViz log, sorted: what
// it says about causality, without the texts or the order in which
// concurrent events were written.
func clockLines(log []byte) []string {
	lines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")[2:]
	var out []string
	for i := 0; i < len(lines); i += 2 {
		out = append(out, lines[i])
	}
	slices.Sort(out)
	return out
}

// A GoVector log as GoVector writes it (no parsing expression) opens as a
// run whose every step is one logged event, in the log's order, with the
// log's own clocks: the run's ShiViz export has the same clocks.
func TestAGoVectorLogOpens(t *testing.T) {
	data, err := os.ReadFile("testdata/logs/govector.log")
	require.NoError(t, err)
	ss, err := logimport.FromLog(data, "govector.log")
	require.NoError(t, err)
	require.Len(t, ss, 1)
	s := ss[0]
	assert.Equal(t, []string{"client", "server"}, s.Head().Names)
	assert.Equal(t, "Log govector.log", s.Head().Title)
	r, err := s.Run()
	require.NoError(t, err)
	var got []string
	for _, rec := range r.Trace().Records {
		got = append(got, fmt.Sprintf("%s %s", rec.Kind, rec.Caption))
	}
	assert.Equal(t, []string{
		`init client {"client":1}: Initialization Complete`,
		`init server {"server":1}: Initialization Complete`,
		`command client {"client":2}: Sending request to server`,
		`deliver server {"client":2, "server":2}: Received request from client`,
		`command server {"client":2, "server":3}: Sending reply to client`,
		`deliver client {"client":3, "server":3}: Received reply from server`,
	}, got)
	msgs := r.Trace().Msgs
	require.Len(t, msgs, 2)
	assert.Equal(t, [2]int{2, 3}, [2]int{msgs[0].SendStep, msgs[0].RecvStep}, "the request")
	assert.Equal(t, [2]int{4, 5}, [2]int{msgs[1].SendStep, msgs[1].RecvStep}, "the reply")
	assert.Equal(t, clockLines(append([]byte("x\n\n"), data...)), clockLines(r.Trace().ShiViz(r.Len())), "the log's own clocks")
}

// Every lesson's ShiViz export opens again as a run with the same
// causality (its export has exactly the clocks of the first), the same
// processes, those down from the start included, the same messages, each
// with its kind and label, those still on their way at the end included
// (a message the network lost or copied is not the log's), and the same
// cuts.
func TestEveryLessonsLogOpensAgain(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		r, err := scenariotest.Plan(t, s).Run()
		require.NoError(t, err)
		k := min(r.Len(), 2000)
		log := r.Trace().ShiVizCuts(k, r.Config().Spec.IsCut)
		ss, err := logimport.FromLog(log, id)
		require.NoError(t, err, id)
		require.Len(t, ss, 1)
		again, err := ss[0].Run()
		require.NoError(t, err, id)
		assert.Equal(t, clockLines(log), clockLines(again.Trace().ShiViz(again.Len())), id)
		assert.Equal(t, r.Trace().Names, again.Trace().Names, "%s: the same processes", id)
		var want, got []string
		named := func(m trace.Msg) string { // a label that is the kind says no more
			return m.Kind + " " + strings.TrimPrefix(m.Label, m.Kind)
		}
		for _, m := range r.Trace().MsgsBefore(k) {
			if !m.Duplicate() && (m.DropStep < 0 || m.DropStep >= k) {
				want = append(want, named(m))
			}
		}
		for _, m := range again.Trace().Msgs {
			got = append(got, named(m))
		}
		slices.Sort(want)
		slices.Sort(got)
		assert.Equal(t, want, got, "%s: the same messages, kinds and labels", id)
		// the report (the page's Messages panel) counts them by kind,
		// though the log's algorithm declares none of them
		byKind := report.Build(ss[0].Scenario(), again, again.Len()).Messages.ByKind
		total := 0
		for _, n := range byKind {
			total += n
		}
		assert.Equal(t, len(got), total, "%s: every message counted by its kind: %v", id, byKind)
		// and the cuts: each snapshot's points, on the same events
		cutPoints := func(tr *trace.Trace, cut func(string) bool) map[int][]string {
			points := map[int][]string{}
			for _, rec := range tr.Records {
				for _, a := range rec.Annotations() {
					if a.Phase == sim.Point && cut(a.Role) {
						points[a.Group] = append(points[a.Group], tr.Names[rec.Node])
					}
				}
			}
			for _, p := range points {
				slices.Sort(p) // concurrent points replay in another order
			}
			return points
		}
		assert.Equal(t, cutPoints(r.Trace().Prefix(k), r.Config().Spec.IsCut), cutPoints(again.Trace(), again.Config().Spec.IsCut), "%s: the same cuts", id)
		for _, rec := range again.Trace().Records {
			require.NotEqual(t, trace.Skip, rec.Kind, "%s: %s", id, rec.Caption)
		}
		// the import makes the processes itself; its file, whose params
		// the algorithm decodes, runs the same, and so does a second run
		// from the processes the import made (told before the file is
		// written: the transcript writes the script it quotes)
		told := report.Transcript(ss[0].Scenario(), again)
		file, err := scenario.Parse(ss[0].Scenario().JSON())
		require.NoError(t, err, id)
		fromFile, err := scenariotest.Plan(t, file).Run()
		require.NoError(t, err, id)
		twice, err := ss[0].Run()
		require.NoError(t, err, id)
		assert.Equal(t, told, report.Transcript(file, fromFile), id)
		assert.Equal(t, told, report.Transcript(ss[0].Scenario(), twice), id)
	}
}

// A log with a delimiter on its second line holds several executions,
// each its own run, titled by the delimiter's "trace" group.
func TestSeveralExecutions(t *testing.T) {
	log := `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)
^=== (?<trace>.*) ===$
=== first ===
A {"A":1}
start
A {"A":2}
send
B {"A":2, "B":1}
receive
=== second ===
B {"B":1}
alone
`
	ss, err := logimport.FromLog([]byte(log), "two.log")
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "Log two.log, first", ss[0].Head().Title)
	assert.Equal(t, "Log two.log, second", ss[1].Head().Title)
	assert.Equal(t, []string{"A", "B"}, ss[0].Head().Names)
	assert.Equal(t, []string{"B"}, ss[1].Head().Names)
	r, err := ss[0].Run()
	require.NoError(t, err)
	require.Equal(t, 4, r.Len(), "A's first event, B's start, A's send, B's receipt")
	assert.Equal(t, 2, r.Trace().Msgs[0].SendStep)
	assert.Equal(t, 3, r.Trace().Msgs[0].RecvStep)
}

// A send that several hosts receive is one event with several messages;
// a receipt of a message already known through another is a local
// event (ShiViz draws no edge for it either).
func TestMulticastAndKnownMessages(t *testing.T) {
	log := `A {"A":1}
broadcast
B {"B":1}
start
B {"A":1, "B":2}
got it
C {"C":1}
start
C {"A":1, "C":2}
got it too
C {"A":1, "B":2, "C":3}
hears from B
`
	ss, err := logimport.FromLog([]byte(log), "")
	require.NoError(t, err)
	r, err := ss[0].Run()
	require.NoError(t, err)
	msgs := r.Trace().Msgs
	require.Len(t, msgs, 3, "A to B, A to C, B to C")
	assert.Equal(t, msgs[0].SendStep, msgs[1].SendStep, "one send event, two messages")
	assert.Equal(t, clockLines([]byte("x\n\n"+log)), clockLines(r.Trace().ShiViz(r.Len())))

	// a host whose first event is a receipt starts first: one step more
	ss, err = logimport.FromLog([]byte("A {\"A\":1}\nsend\nB {\"A\":1, \"B\":1}\nreceive\n"), "")
	require.NoError(t, err)
	r, err = ss[0].Run()
	require.NoError(t, err)
	require.Equal(t, 3, r.Len())
	assert.Equal(t, "B starts; its first logged event receives a message", r.Trace().Records[1].Caption)
	assert.Equal(t, `B {"A":1, "B":1}: receive`, r.Trace().Records[2].Caption)
}

// A log that breaks a rule is refused with the line and the rule.
// manyHosts is n clock entries of hosts h0, h1, … with count 0.
func manyHosts(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ", \"h%d\":0", i)
	}
	return b.String()
}

// Lines that match no event are passed over, as ShiViz passes over them
// (a TLA+ trace's "###", an akka dead-letter line between events), and the
// import says how many and where the first is; a file whose first text
// matches nothing, read as GoVector writes logs, is refused as no log.
func TestLinesThatMatchNoEventArePassedOver(t *testing.T) {
	log := "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\n### a header line\nA {\"A\":1}\nsend\n[INFO] [akka://x/deadLetters] not an event\nB {\"A\":1, \"B\":1}\nreceive\n###\n"
	imported, err := logimport.ImportLog(log, "noisy.log")
	require.NoError(t, err)
	require.Len(t, imported.Runs, 1)
	r, err := imported.Runs[0].Run()
	require.NoError(t, err)
	quiet, err := logimport.FromLog("A {\"A\":1}\nsend\nB {\"A\":1, \"B\":1}\nreceive\n", "quiet.log")
	require.NoError(t, err)
	want, err := quiet[0].Run()
	require.NoError(t, err)
	assert.Equal(t, want.Len(), r.Len(), "the run of the same log without the lines passed over")
	assert.Len(t, r.Trace().Msgs, 1, "the message between the two events")
	require.NotNil(t, imported.Skipped)
	assert.Equal(t, `line 3: 3 lines match no event of the parsing expression and were passed over, as ShiViz passes over them; the first: "### a header line"`, imported.Skipped.Error())

	clean, err := logimport.ImportLog("A {\"A\":1}\nstart\n", "clean.log")
	require.NoError(t, err)
	assert.Nil(t, clean.Skipped)

	// as GoVector writes logs, text after the first event is passed over
	// too; text before it is no log
	tail, err := logimport.ImportLog("A {\"A\":1}\nstart\nsomething else\n", "tail.log")
	require.NoError(t, err)
	require.NotNil(t, tail.Skipped)
	assert.Contains(t, tail.Skipped.Error(), `line 3: 1 line matches no event`)
	_, err = logimport.ImportLog("something else\nA {\"A\":1}\nstart\n", "head.log")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "neither a scenario file")
}

// An event that merges the messages of several hosts (SimpleDB's log
// has them) receives each, as ShiViz draws an edge from each: the process
// holds the first, its clock unchanged, until the event, whose clock is
// the log's.
func TestAnEventThatMergesSeveralSenders(t *testing.T) {
	log := "A {\"A\":1}\ns\nC {\"C\":1}\nc\nB {\"B\":1}\nstart\nB {\"A\":1, \"B\":2, \"C\":1}\nhears from both\n"
	ss, err := logimport.FromLog(log, "merge.log")
	require.NoError(t, err)
	r, err := ss[0].Run()
	require.NoError(t, err)
	tr := r.Trace()
	require.Len(t, tr.Msgs, 2, "A to B and C to B")
	last := tr.Records[r.Len()-1]
	assert.Equal(t, `B {"A":1, "C":1, "B":2}: hears from both`, last.Caption, "the event, with the log's clock")
	assert.Equal(t, "B holds A's message: its next logged event receives it with C's", tr.Records[r.Len()-2].Caption)
	for _, m := range tr.Msgs {
		assert.Equal(t, "B", tr.Names[m.To])
		assert.GreaterOrEqual(t, m.RecvStep, r.Len()-2, "both are received, the last at the event")
	}
	assert.Contains(t, ss[0].Head().Description, "a step more for each sender past the first")
}

// A host's events met in the file out of the order of its own entries
// (Chord's log has 26 before 25) are counted in that order, as ShiViz
// counts them.
func TestAHostsEventsInTheOrderOfItsOwnClock(t *testing.T) {
	log := "A {\"A\":1}\nfirst\nA {\"A\":3}\nthird\nA {\"A\":2}\nsecond\n"
	ss, err := logimport.FromLog(log, "shuffled.log")
	require.NoError(t, err)
	r, err := ss[0].Run()
	require.NoError(t, err)
	var captions []string
	for _, rec := range r.Trace().Records {
		captions = append(captions, rec.Caption)
	}
	assert.Equal(t, []string{`A {"A":1}: first`, `A {"A":2}: second`, `A {"A":3}: third`}, captions)
}

// A clock written with its quotes escaped ({\"A\":1}, as a TLA+ trace
// writes it for ShiViz) is read unescaped, as ShiViz reads it.
func TestEscapedQuotesInAClock(t *testing.T) {
	log := "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\nA {\\\"A\\\":1}\nsend\nB {\\\"A\\\":1, \\\"B\\\":1}\nreceive\n"
	require.Contains(t, log, `{\"A\":1}`)
	runs, err := logimport.FromLog(log, "tla.log")
	require.NoError(t, err)
	r, err := runs[0].Run()
	require.NoError(t, err)
	assert.Len(t, r.Trace().Msgs, 1, "B's receipt of A's send")

	_, err = logimport.FromLog("A {\\\"A\\\":x}\nsend\n", "bad.log")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `line 1: the clock`)
	assert.Contains(t, err.Error(), `invalid character 'x'`, "a clock wrong unescaped too is refused for what is wrong once unescaped")
}

func TestBadLogsSayWhereAndWhy(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		want      []string
	}{
		{"bad JSON", "A {\"A\":1,}\nstart\n", []string{"line 1: the clock", "is not JSON"}},
		{"not a count", "A {\"A\":\"one\"}\nstart\n", []string{`line 1: the clock's entry for A is "one": want a count from 0 to 100000`}},
		{"a count too large", "A {\"A\":1, \"B\":100001}\nstart\n", []string{"line 1: the clock's entry for B is 100001: want a count from 0 to 100000"}},
		{"a count not an integer", "A {\"A\":1e0}\nstart\n", []string{"line 1: the clock's entry for A is 1e0: want a count from 0 to 100000"}},
		{"a clock of null", "(?<host>\\S*) (?<clock>.*)\\n(?<event>.*)\n\nA null\nstart\n", []string{`line 3: the clock "null" is not JSON of host names and counts ({"A":1, "B":2}): it is null, not an object`}},
		{"unknown host", "A {\"A\":1, \"Z\":1}\nstart\n", []string{`line 1: the clock names the host "Z", which logs no event`}},
		{"own entry does not rise by one", "A {\"A\":1}\nstart\nA {\"A\":3}\nnext\n", []string{"line 3: A's own clock entry is 3, but this is its event 2"}},
		{"own entry does not start at 1", "A {\"A\":2}\nstart\n", []string{"line 1: A's own clock entry is 2, but this is its event 1"}},
		{"not a merge", "A {\"A\":1}\nsend\nB {\"B\":1}\nstart\nB {\"A\":1, \"B\":3}\nrecv\n", []string{"line 5: B's own clock entry is 3"}},
		{"own entries with a gap", "A {\"A\":1}\ns\nA {\"A\":3}\ns\n", []string{"line 3: A's own clock entry is 3, but this is its event 2"}},
		{"a clock that forgets", "A {\"A\":1}\ns\nB {\"A\":1, \"B\":1}\nr\nB {\"B\":2}\nforgot\n", []string{`line 5: the clock {"B":2} is not the merge`, `want {"A":1, "B":2}`}},
		{"names an event not logged", "A {\"A\":1}\ns\nB {\"A\":4, \"B\":1}\nr\n", []string{"line 3: the clock says A:4, but A logs 1 events"}},
		{"a cycle", "A {\"A\":1, \"B\":1}\ns\nB {\"A\":1, \"B\":1}\nr\n", []string{"line 1:", "cycle"}},
		{"regex without host", "(?<who>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\nA {\"A\":1}\nx\n", []string{`line 1: the parsing expression has no group named "host"`}},
		{"regex that does not compile", "(?<host>\\S*) (?<clock>{.*}\n\nA {\"A\":1}\nx\n", []string{"line 1: the parsing expression does not compile"}},
		{"a host that cannot be a name", "a/b {\"a/b\":1}\nx\n", []string{"line 1: the host cannot name a process"}},
		{"empty", "\n\n", []string{"no event"}},
		{"a clock of too many hosts", "A {\"A\":1" + manyHosts(70) + "}\nx\n", []string{"line 1: the clocks name more than 64 hosts"}},
		{"unknown hosts in a clock with escapes", "A {\"A\":1, \"\\u005A\":1, \"Y\":1}\nx\n", []string{`line 1: the clock names the host "Z"`}},
		{"not text", "A {\"A\":1}\n\xff\n", []string{"not UTF-8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := logimport.FromLog([]byte(tc.log), "bad.log")
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// What a log can ask for is bounded: its bytes, hosts and events, and
// each bound is named when it is passed.
func TestLogBounds(t *testing.T) {
	_, err := logimport.FromLog(make([]byte, logimport.MaxLogBytes+1), "big.log")
	require.EqualError(t, err, "the log is too large: a log is at most 16777216 bytes (16 MiB), and this one is larger", "a reader may stop a byte past the bound: no size is claimed")

	var b strings.Builder
	for i := range scenario.MaxN + 1 {
		fmt.Fprintf(&b, "h%d {\"h%d\":1}\nstart\n", i, i)
	}
	_, err = logimport.FromLog([]byte(b.String()), "")
	require.ErrorContains(t, err, "line 129: too many hosts: an execution has at most 64, and h64 would be its host 65")

	b.Reset()
	for i := range logimport.MaxLogEvents + 1 {
		fmt.Fprintf(&b, "A {\"A\":%d}\n.\n", i+1)
	}
	_, err = logimport.FromLog([]byte(b.String()), "")
	require.ErrorContains(t, err, fmt.Sprintf("line %d: too many events: a log opens at most 100000, and this is event 100001", 2*logimport.MaxLogEvents+1))
}

// The regex on the first line is the one ShiViz's own export writes.
func TestTheExportsRegexIsRead(t *testing.T) {
	assert.True(t, regexp.MustCompile(`\(\?<host>`).MatchString(trace.ShiVizRegexp))
	assert.True(t, logimport.IsLog([]byte(trace.ShiVizRegexp)))
	assert.False(t, logimport.IsLog([]byte("  {\"algorithm\": \"x\"}")))
}

// FuzzFromLog checks the log reader on any text: it never panics, and a
// log it reads makes runs that open, each step one logged event (or a
// host's start), with no scripted step skipped.
func FuzzFromLog(f *testing.F) {
	for _, name := range []string{"govector.log", "kvstore.log"} {
		data, err := os.ReadFile("testdata/logs/" + name)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n^=== (?<trace>.*)$\n=== a\nA {\"A\":1}\nx\n=== b\nB {\"B\":1}\ny\n"))
	f.Add([]byte("A {\"A\":1}\ns\nB {\"A\":1, \"B\":1}\nr\nA {\"A\":2, \"B\":1}\nq\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := logimport.FromLog(data, "fuzz.log")
		if err != nil {
			return
		}
		for _, s := range runs {
			r, err := s.Run() // from the run's own form, as the import made it
			require.NoError(t, err)
			for _, rec := range r.Trace().Records {
				require.NotEqual(t, trace.Skip, rec.Kind, rec.Caption)
			}
			file, err := scenario.Parse(s.Scenario().JSON())
			require.NoError(t, err, "the scenario a log makes reads back")
			again, err := scenariotest.Plan(t, file).Run()
			require.NoError(t, err)
			require.Equal(t, report.Transcript(s.Scenario(), r), report.Transcript(file, again), "its file runs as the log did")
		}
	})
}

// A script may deliver a message at a time of its choosing, ahead of the
// network; a delivery that cannot happen when its time comes (no such
// message, or one already delivered) is skipped and says why.
func TestScriptedDeliveries(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "vector-clock", "n": 2, "network": {"delay": [50, 50], "fifo": false},
		"script": [{"at": 1, "node": 1, "command": "send", "target": 2}, {"at": 1, "node": 1, "command": "send", "target": 2},
		           {"at": 3, "msg": 1}, {"at": 4, "msg": 1}, {"at": 5, "msg": 7}],
		"until": {"time": 10}}`))
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	recs := r.Trace().Records
	require.GreaterOrEqual(t, len(recs), 7)
	assert.Equal(t, trace.Deliver, recs[4].Kind, "the second message first, at time 3")
	assert.Equal(t, 1, recs[4].Msg)
	assert.Equal(t, 3, int(recs[4].Time))
	assert.Equal(t, trace.Skip, recs[5].Kind)
	assert.Contains(t, recs[5].Caption, "the script's delivery of message #1 is not applied")
	assert.Equal(t, trace.Skip, recs[6].Kind)
	assert.Equal(t, "the script's delivery of message #7 is not applied: there is no message #7", recs[6].Caption)
}

// A log is a record: the learner's faults, commands and deliveries are
// refused on its replay, by a link's inputs as by a click, while a script
// (a campaign's faults) may still change it.
func TestALogIsReadOnly(t *testing.T) {
	s, err := scenario.Builtin("log-kvstore")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, s).Run()
	require.NoError(t, err)
	crash := faults.NoArgs()
	crash.Node = 2
	k := r.Len() / 2
	steps := r.Len()
	for _, a := range []engine.Action{engine.Fault("crash", crash), engine.Command("next", 0, sim.None, 0), engine.Deliver(0)} {
		assert.ErrorIs(t, r.Insert(k, a), engine.ErrRecord)
		assert.ErrorIs(t, r.At(k).Check(a), engine.ErrRecord)
		assert.ErrorIs(t, r.Replay([]engine.Input{{Step: k, Action: a}}), engine.ErrRecord)
	}
	assert.Equal(t, steps, r.Len(), "the replay is as it was")
	assert.Empty(t, r.Inputs())
	assert.NoError(t, r.At(k).CheckScripted(engine.Fault("crash", crash)), "a script may still crash a host")
}

// A log's plan is made in its run's own form: its document's script and
// params are written when first asked for, into a document of their own,
// and the head the page reads meanwhile never changes.
func TestALogsDocumentIsWrittenWhenAskedFor(t *testing.T) {
	plans, err := logimport.FromLog("A {\"A\":1}\nstart: sends\nB {\"A\":1, \"B\":1}\ngets it\nA {\"A\":2}\nends\n", "two.log")
	require.NoError(t, err)
	p := plans[0]
	head := p.Head()
	assert.Nil(t, head.Params, "nothing has asked for them yet")
	assert.Nil(t, head.Script)
	assert.Equal(t, []string{"A", "B"}, head.Names)
	script := []engine.Timed{{At: 1, Action: engine.Deliver(0)}, {At: 1, Action: engine.Command("next", 0, -1, 0)}}
	assert.Equal(t, script, p.Config().Script)
	assert.Less(t, p.LeastFileSize(1<<20), len(p.Scenario().JSON()), "a least size, found before writing")

	doc := p.Scenario()
	var file struct {
		Params json.RawMessage
		Script []map[string]any
	}
	require.NoError(t, json.Unmarshal(doc.JSON(), &file))
	assert.JSONEq(t, `{"events": [[{"text": "start: sends", "to": ["B"]}, {"text": "ends"}], [{"text": "gets it", "from": "A"}]]}`, string(file.Params))
	assert.Equal(t, []map[string]any{{"at": 1.0, "msg": 0.0}, {"at": 1.0, "node": "A", "command": "next"}}, file.Script)
	assert.Same(t, doc, p.Scenario(), "written once")
	assert.Nil(t, head.Script, "the head stays as it was")
	assert.Equal(t, head.Title, doc.Title)

	again, err := doc.Clone().Compile()
	require.NoError(t, err)
	assert.Equal(t, script, again.Config().Script, "the document compiles to the same run")
}
