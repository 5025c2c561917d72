package shiviz_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/logimport"
	"spacetime/core/scenario"
	"spacetime/core/trace"
	"spacetime/internal/scenariotest"
)

// execution is what ShiViz built of one execution of a log: each host's
// events (their text and the host's own clock entry) and the edges it
// drew, [from host, own time, to host, own time].
type execution struct {
	Label string                   `json:"label"`
	Hosts map[string][]shivizEvent `json:"hosts"`
	Edges [][4]any                 `json:"edges"`
}

type shivizEvent struct {
	Text  string `json:"text"`
	Clock int    `json:"clock"`
}

type opened struct {
	Executions []execution `json:"executions"`
	Error      string      `json:"error"`
}

// openInShiViz opens log files with ShiViz's parser under Node.js, as
// its file input does.
func openInShiViz(t *testing.T, files ...string) map[string]opened {
	t.Helper()
	return runHarness(t, files...)
}

// runHarness runs harness.js with args under Node.js.
func runHarness(t *testing.T, args ...string) map[string]opened {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js is not installed (Debian: nodejs); .ci/run installs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, append([]string{filepath.Join("testdata", "harness.js")}, args...)...).Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("node: %v\n%s", err, ee.Stderr)
	}
	require.NoError(t, err)
	got := map[string]opened{}
	require.NoError(t, json.Unmarshal(out, &got))
	return got
}

// edge is a message as ShiViz draws it: from an event to an event, each
// named by its host and the host's own clock entry.
type edge struct {
	from     string
	fromTime int
	to       string
	toTime   int
}

// shivizSteps bounds the steps exported from a lesson: ShiViz's model
// takes time quadratic in a log's events (0.9 s for 3,000 steps of
// snapshot-long under Node.js here, 11 s for 10,000).
const shivizSteps = 3000

// TestEveryLessonsExportOpensInShiViz exports every lesson's run (its
// first shivizSteps steps) as a ShiViz log and opens it with ShiViz's own parser and model: ShiViz
// accepts every clock, finds each process's events in order, and draws an
// edge for every message the log's clocks carry, from its send to its
// receipt.
func TestEveryLessonsExportOpensInShiViz(t *testing.T) {
	dir := t.TempDir()
	traces := map[string]*trace.Trace{}
	var files []string
	for _, l := range scenario.BuiltinList() {
		s, err := scenario.Builtin(l.ID)
		require.NoError(t, err)
		r, err := scenariotest.Plan(t, s).Run()
		require.NoError(t, err)
		file := filepath.Join(dir, l.ID+".log")
		k := min(r.Len(), shivizSteps)
		require.NoError(t, os.WriteFile(file, r.Trace().ShiViz(k), 0o644))
		traces[file] = r.Trace().Prefix(k)
		files = append(files, file)
	}
	sort.Strings(files)
	got := openInShiViz(t, files...)
	for _, file := range files {
		tr, res := traces[file], got[file]
		name := filepath.Base(file)
		if !assert.Empty(t, res.Error, "%s: ShiViz refuses it", name) {
			continue
		}
		require.Len(t, res.Executions, 1, name)
		ex := res.Executions[0]
		// each process's events, in order, with its own clock entry 1, 2, …
		events := map[string][]string{}
		own := map[int]int{} // step → the host's own entry at it
		sentAt := map[int]int{}
		for _, d := range tr.Down {
			events[tr.Names[d]] = append(events[tr.Names[d]], "down") // its first event says so
		}
		for s, r := range tr.Records {
			if r.Node < 0 || int(r.Node) >= len(tr.Names) || (r.Kind == trace.Fault && r.Extra != nil && r.Extra.Args != nil && r.Extra.Args.Msg >= 0) {
				continue
			}
			host := tr.Names[r.Node]
			events[host] = append(events[host], host)
			own[s] = len(events[host])
			sentAt[s] = own[s]
		}
		// each message on its way at the end is an event of its receiver
		inFlight := map[edge]bool{}
		for _, m := range tr.Msgs {
			if m.InFlightAt(tr.Len()) && tr.Msgs[m.Original].SendStep >= 0 {
				to := tr.Names[m.To]
				events[to] = append(events[to], to)
				inFlight[edge{tr.Names[m.From], sentAt[tr.Msgs[m.Original].SendStep], to, len(events[to])}] = true
			}
		}
		assert.Len(t, ex.Hosts, len(events), "%s: a host per process that did anything or was down from the start", name)
		for host, evs := range events {
			require.Len(t, ex.Hosts[host], len(evs), "%s: %s's events", name, host)
			for i, e := range ex.Hosts[host] {
				assert.Equal(t, i+1, e.Clock, "%s: %s's own entry rises by one", name, host)
			}
		}
		// every edge ShiViz draws is a message of the run, from its send
		// to its receipt; a message whose clock the receiver already knew
		// adds no edge
		messages := map[edge]bool{}
		for _, m := range tr.Msgs {
			o := m.Original
			if m.RecvStep < 0 || tr.Msgs[o].SendStep < 0 {
				continue
			}
			messages[edge{tr.Names[m.From], sentAt[tr.Msgs[o].SendStep], tr.Names[m.To], own[m.RecvStep]}] = true
		}
		for e := range inFlight {
			messages[e] = true
		}
		drawn := 0
		for _, e := range ex.Edges {
			if e[0] == e[2] {
				continue // the host's own line
			}
			drawn++
			key := edge{e[0].(string), int(e[1].(float64)), e[2].(string), int(e[3].(float64))}
			assert.True(t, messages[key], "%s: ShiViz draws %v, which is no message of the run", name, key)
		}
		assert.Positive(t, drawn, "%s: ShiViz draws the messages", name)
	}
}

// TestShiVizAndSpacetimeReadALogAlike opens the hand-written GoVector log
// of the lesson log-kvstore in ShiViz (with ShiViz's default expression,
// as GoVector logs have no header) and in Spacetime: the same hosts, the
// same events in the same order, the same messages.
func TestShiVizAndSpacetimeReadALogAlike(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "core", "logimport", "testdata", "logs", "kvstore.log"))
	require.NoError(t, err)
	// ShiViz's file input takes the first two lines as its expression and
	// delimiter: a GoVector log is given them as ShiViz documents it
	file := filepath.Join(t.TempDir(), "kvstore.log")
	require.NoError(t, os.WriteFile(file, append([]byte(trace.ShiVizRegexp+"\n\n"), data...), 0o644))
	got := openInShiViz(t, file)[file]
	require.Empty(t, got.Error)
	require.Len(t, got.Executions, 1)
	ss, err := logimport.FromLog(data, "kvstore.log")
	require.NoError(t, err)
	r, err := ss[0].Run()
	require.NoError(t, err)
	tr := r.Trace()
	// the replay's captions are "host {clock}: text"; the text is ShiViz's event
	events := map[string]int{}
	for _, rec := range tr.Records {
		if rec.Kind == trace.Init && len(got.Executions[0].Hosts[tr.Names[rec.Node]]) == 0 {
			continue
		}
		events[tr.Names[rec.Node]]++
	}
	for host, evs := range got.Executions[0].Hosts {
		assert.Equal(t, len(evs), events[host], "%s's events", host)
	}
	edges := 0
	for _, e := range got.Executions[0].Edges {
		if e[0] != e[2] {
			edges++
		}
	}
	assert.Equal(t, len(tr.Msgs), edges, "one message per edge ShiViz draws")
}

// TestShiVizsOwnExamplesOpenAlike opens every example log of ShiViz's
// repository (testdata/examples) in ShiViz, as its example links do, and
// in Spacetime: the same executions, the same hosts, each with the same
// events in the same order, and a message for every edge ShiViz draws.
// An event that merges several senders is, in Spacetime, a step more for
// each sender past the first (logreplay's hold); a host whose first event
// is a receipt starts one step before it.
func TestShiVizsOwnExamplesOpenAlike(t *testing.T) {
	gz, err := filepath.Glob(filepath.Join("testdata", "examples", "*.log.gz"))
	require.NoError(t, err)
	require.Len(t, gz, 12)
	dir := t.TempDir()
	var files []string
	texts := map[string]string{}
	for _, g := range gz {
		f, err := os.Open(g)
		require.NoError(t, err)
		zr, err := gzip.NewReader(f)
		require.NoError(t, err)
		data, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		file := filepath.Join(dir, strings.TrimSuffix(filepath.Base(g), ".gz"))
		require.NoError(t, os.WriteFile(file, data, 0o644))
		files = append(files, file)
		texts[file] = string(data)
	}
	got := runHarness(t, append([]string{"--link"}, files...)...)
	for _, file := range files {
		name := filepath.Base(file)
		shown := got[file]
		require.Empty(t, shown.Error, "%s: ShiViz draws it", name)
		imported, err := logimport.ImportLog(texts[file], name)
		require.NoError(t, err, "%s: Spacetime opens it", name)
		require.Nil(t, imported.Unopened, name)
		require.Len(t, imported.Runs, len(shown.Executions), "%s: every execution", name)
		for i, ex := range shown.Executions {
			plan := imported.Runs[i]
			if ex.Label != "" {
				assert.True(t, strings.HasSuffix(plan.Head().Title, ", "+ex.Label), "%s: titled %q, ShiViz's %q", name, plan.Head().Title, ex.Label)
			}
			r, err := plan.Run()
			require.NoError(t, err)
			tr := r.Trace()
			// each step's host and own count as ShiViz numbers events: a
			// bare start is none, and a hold belongs to the next event
			type event struct {
				host string
				own  int
			}
			at := make([]event, len(tr.Records))
			count := map[string]int{}
			texts := map[string][]string{}
			for s, rec := range tr.Records {
				host := tr.Names[rec.Node]
				switch {
				case strings.HasPrefix(rec.Caption, host+" starts; "):
					continue
				case strings.HasPrefix(rec.Caption, host+" holds "):
					at[s] = event{host, count[host] + 1}
					continue
				}
				count[host]++
				at[s] = event{host, count[host]}
				_, text, _ := strings.Cut(rec.Caption, "}: ")
				texts[host] = append(texts[host], text)
			}
			assert.Len(t, count, len(ex.Hosts), "%s %d: the same hosts", name, i)
			for host, evs := range ex.Hosts {
				if !assert.Len(t, texts[host], len(evs), "%s %d: %s's events", name, i, host) {
					continue
				}
				for k, e := range evs {
					// Spacetime's captions leave out control characters
					// and break no line
					want := strings.Join(strings.Fields(strings.Map(visible, e.Text)), " ")
					if len([]rune(want)) < 100 {
						assert.Equal(t, want, strings.Join(strings.Fields(texts[host][k]), " "), "%s %d: %s's event %d", name, i, host, k+1)
					}
				}
			}
			messages := map[edge]bool{}
			for _, m := range tr.Msgs {
				if m.SendStep >= 0 && m.RecvStep >= 0 {
					from, to := at[m.SendStep], at[m.RecvStep]
					messages[edge{from.host, from.own, to.host, to.own}] = true
				}
			}
			drawn := map[edge]bool{}
			for _, e := range ex.Edges {
				if e[0] != e[2] {
					drawn[edge{e[0].(string), int(e[1].(float64)), e[2].(string), int(e[3].(float64))}] = true
				}
			}
			assert.Equal(t, drawn, messages, "%s %d: a message for every edge ShiViz draws, and no other", name, i)
		}
	}
}

// visible drops control characters but for white space.
func visible(r rune) rune {
	if unicode.IsControl(r) && !unicode.IsSpace(r) {
		return -1
	}
	return r
}
