package scenario_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// doc builds a scenario document: a valid three-branch bank, with the given
// fields added or replaced. A field given as "" is left out.
func doc(fields map[string]string) string {
	base := map[string]string{
		"algorithm": `"chandy-lamport"`,
		"names":     `["A", "B", "C"]`,
		"seed":      `1`,
		"until":     `{"steps": 10}`,
	}
	for k, v := range fields {
		base[k] = v
	}
	var parts []string
	for _, k := range []string{"id", "title", "description", "algorithm", "n", "names", "seed", "scheduler", "rng", "network", "down", "params", "workload", "script", "until", "expect", "colour"} {
		if v := base[k]; v != "" {
			parts = append(parts, fmt.Sprintf("%q: %s", k, v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func script(entries ...string) map[string]string {
	return map[string]string{"script": "[" + strings.Join(entries, ", ") + "]"}
}

func TestValidDocument(t *testing.T) {
	s, err := scenario.Parse([]byte(doc(nil)))
	require.NoError(t, err)
	assert.Equal(t, 3, s.N)
	assert.Equal(t, "earliest", s.Scheduler, "the default scheduler")
	assert.Equal(t, "pcg", s.RNG, "the default generator")
	assert.True(t, s.FIFO(), "channels are FIFO unless the scenario says otherwise")

	s, err = scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 4, "seed": 2, "until": {"quiescent": true}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B", "C", "D"}, s.Names)
}

func TestValidationNamesTheField(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"unknown top-level field", doc(map[string]string{"colour": `"red"`}), []string{`field "colour": unknown field (known here: `}},
		{"unknown nested field", doc(map[string]string{"network": `{"fifoo": true}`}), []string{`field "network.fifoo": unknown field (known here: delay, fifo, loss)`}},
		{"unknown field in the script", doc(script(`{"at": 1, "node": "A", "command": "snapshot", "bogus": 2}`)),
			[]string{`field "script[0].bogus": unknown field`}},
		{"unknown field in until", doc(map[string]string{"until": `{"step": 5}`}), []string{`field "until.step": unknown field`}},
		{"unknown algorithm", doc(map[string]string{"algorithm": `"paxos"`}), []string{`field "algorithm"`, `unknown algorithm "paxos"`, "chandy-lamport"}},
		{"n too small", doc(map[string]string{"names": "", "n": "1"}), []string{`field "n"`, "2 to 64", "got 1"}},
		{"n too large", doc(map[string]string{"names": "", "n": "65"}), []string{`field "n"`, "got 65"}},
		{"n missing", doc(map[string]string{"names": ""}), []string{`field "n"`, "got 0"}},
		{"n mismatching names", doc(map[string]string{"n": "4"}), []string{`field "n": 4, but "names" lists 3`}},
		{"n of the wrong type", doc(map[string]string{"n": `"three"`}), []string{`field "n": want a whole number, got text "three"`}},
		{"duplicate name", doc(map[string]string{"names": `["A", "B", "A"]`}), []string{`field "names[2]"`, `"A" is used twice`}},
		{"names that look alike", doc(map[string]string{"names": `["A", "B", "\u0410"]`}), []string{`field "names[2]"`, `"А" looks like "A" (names[0])`}},
		{"a zero and an O", doc(map[string]string{"names": `["O", "B", "0"]`}), []string{`field "names[2]"`, `"0" looks like "O"`}},
		{"fullwidth letters", doc(map[string]string{"names": `["AB", "B", "\uFF21\uFF22"]`}), []string{`field "names[2]"`, `looks like "AB"`}},
		{"a key in capitals", `{"algorithm": "chandy-lamport", "N": 3, "until": {"steps": 9}}`, []string{`field "N": unknown field: keys match exactly, and this one differs in case from "n"`}},
		{"a key given twice", `{"algorithm": "chandy-lamport", "n": 3, "n": 4, "until": {"steps": 9}}`, []string{`field "n": given twice`}},
		{"a param key given twice", `{"algorithm": "chandy-lamport", "n": 3, "params": {"max_transfer": 3, "max_transfer": 4}, "until": {"steps": 9}}`, []string{`field "params.max_transfer": given twice`}},
		{"a param key in capitals", `{"algorithm": "chandy-lamport", "n": 3, "params": {"Max_Transfer": 3}, "until": {"steps": 9}}`, []string{`field "params.Max_Transfer": unknown field`}},
		{"name with a space", doc(map[string]string{"names": `["A", "branch B", "C"]`}), []string{`field "names[1]"`, "no spaces"}},
		{"empty name", doc(map[string]string{"names": `["", "B", "C"]`}), []string{`field "names[0]"`}},
		{"long name", doc(map[string]string{"names": `["A", "B", "` + strings.Repeat("x", 81) + `"]`}), []string{`field "names[2]"`, "1 to 80 characters"}},
		{"unknown scheduler", doc(map[string]string{"scheduler": `"fastest"`}), []string{`field "scheduler"`}},
		{"unknown generator", doc(map[string]string{"rng": `"mt"`}), []string{`field "rng"`}},
		{"negative script time", doc(script(`{"at": -1, "node": "A", "command": "snapshot"}`)), []string{`field "script[0].at": a time is from 0 to 1000000000 ticks, got -1`}},
		{"a script time at the end of the clock", doc(script(`{"at": 9223372036854775000, "node": "A", "command": "snapshot"}`)),
			[]string{`field "script[0].at": a time is from 0 to 1000000000 ticks, got 9223372036854775000`}},
		{"a stop time past the last", `{"algorithm": "chandy-lamport", "n": 2, "until": {"time": 1000000001}}`,
			[]string{`field "until.time": a time is from 0 to 1000000000 ticks, got 1000000001`}},
		{"a workload past the last time", `{"algorithm": "chandy-lamport", "n": 2, "workload": {"until": 4000000000}, "until": {"steps": 9}}`,
			[]string{`field "workload.until": a time is from 0 to 1000000000 ticks, got 4000000000`}},
		{"unknown fault", doc(script(`{"at": 1, "node": "A", "command": "snapshot"}`, `{"at": 2, "node": "B", "fault": "explode"}`)),
			[]string{`field "script[1].fault"`, `unknown fault "explode"`}},
		{"pause without for", doc(script(`{"at": 1, "node": "A", "fault": "pause"}`)), []string{`field "script[0].for"`}},
		{"drop without a message", doc(script(`{"at": 1, "fault": "drop"}`)), []string{`field "script[0].msg"`}},
		{"crash of nobody", doc(script(`{"at": 1, "fault": "crash"}`)), []string{`field "script[0].node"`}},
		{"unknown process", doc(script(`{"at": 1, "node": "Z", "fault": "crash"}`)), []string{`field "script[0].node"`, `no process is named "Z"`}},
		{"process number out of range", doc(script(`{"at": 1, "node": 4, "fault": "crash"}`)), []string{`field "script[0].node"`, "a number from 1 to 3, got 4"}},
		{"process number zero", doc(script(`{"at": 1, "node": 0, "fault": "crash"}`)), []string{`field "script[0].node"`, "a number from 1 to 3, got 0"}},
		{"unknown command", doc(script(`{"at": 1, "node": "A", "command": "explode"}`)), []string{`field "script[0].command"`, `no command "explode"`}},
		{"command and fault", doc(script(`{"at": 1, "node": "A", "command": "snapshot", "fault": "crash"}`)), []string{`field "script[0]"`}},
		{"neither command nor fault", doc(script(`{"at": 1, "node": "A"}`)), []string{`field "script[0]"`}},
		{"target equal to node", doc(script(`{"at": 1, "node": "A", "command": "transfer", "target": "A", "arg": 5}`)),
			[]string{`field "script[0].target"`, "another process"}},
		{"target equal to node by number", doc(script(`{"at": 1, "node": 2, "command": "transfer", "target": "B", "arg": 5}`)),
			[]string{`field "script[0].target"`}},
		{"transfer without target", doc(script(`{"at": 1, "node": "A", "command": "transfer", "arg": 5}`)), []string{`field "script[0].target"`}},
		{"workload.p above 1", doc(map[string]string{"workload": `{"p": 1.5}`}), []string{`field "workload.p"`}},
		{"workload.p negative", doc(map[string]string{"workload": `{"p": -0.1}`}), []string{`field "workload.p"`}},
		{"workload.every reversed", doc(map[string]string{"workload": `{"every": [5, 2]}`}), []string{`field "workload.every"`}},
		{"workload.until negative", doc(map[string]string{"workload": `{"until": -5}`}), []string{`field "workload.until"`}},
		{"network.delay reversed", doc(map[string]string{"network": `{"delay": [3, 1]}`}), []string{`field "network.delay"`}},
		{"network.delay one value", doc(map[string]string{"network": `{"delay": [3]}`}), []string{`field "network.delay"`}},
		{"network.delay negative", doc(map[string]string{"network": `{"delay": [-1, 3]}`}), []string{`field "network.delay"`}},
		{"network.delay of the wrong type", doc(map[string]string{"network": `{"delay": ["a", "b"]}`}), []string{`field "network.delay`}},
		{"network.fifo of the wrong type", doc(map[string]string{"network": `{"fifo": "yes"}`}), []string{`field "network.fifo"`}},
		{"network.loss above 1", doc(map[string]string{"network": `{"loss": 2}`}), []string{`field "network.loss"`}},
		{"missing until", doc(map[string]string{"until": ""}), []string{`field "until"`}},
		{"empty until", doc(map[string]string{"until": "{}"}), []string{`field "until"`}},
		{"negative until", doc(map[string]string{"until": `{"steps": -4}`}), []string{`field "until.steps"`, "0 or more, got -4"}},
		{"until beyond the cap", doc(map[string]string{"until": `{"steps": 1000001}`}), []string{`field "until.steps"`}},
		{"params.balances length", doc(map[string]string{"params": `{"balances": [100, 100]}`}), []string{`field "params.balances": want 3 balances, one per branch, got 2`}},
		{"negative balance", doc(map[string]string{"params": `{"balances": [100, -5, 100]}`}), []string{`field "params.balances[1]": a balance is from $0`, "got -5"}},
		{"params.max_transfer zero", doc(map[string]string{"params": `{"max_transfer": 0}`}), []string{"params.max_transfer"}},
		{"unknown params field", doc(map[string]string{"params": `{"balances": [1, 2, 3], "interest": 5}`}), []string{`field "params.interest": unknown field (known here: balances, max_transfer, seed_channels, seed_done, seed_first_channel, seed_other_channels)`}},
		{"unknown expected violation", doc(map[string]string{"expect": `{"violations": ["money grows"]}`}), []string{`field "expect.violations[0]"`}},
		{"malformed JSON", `{"algorithm": "chandy-lamport", "n": 3,`, []string{"not valid JSON"}},
		{"JSON syntax error", `{"algorithm": "chandy-lamport", "n": 3,, "seed": 1}`, []string{"not valid JSON at line 1, column 40"}},
		{"not an object", `[1, 2, 3]`, []string{"a scenario is a JSON object", "got a list"}},
		{"trailing data", doc(nil) + ` {"x": 1}`, []string{"more after the end of the scenario"}},
		{"empty", ``, []string{"the document is empty"}},
		{"only spaces", "  \n ", []string{"the document is empty"}},
		{"invisible name", doc(map[string]string{"names": `["A", "A\u200b", "C"]`}), []string{`field "names[1]"`, "invisible", "U+200B"}},
		{"line separator in a name", doc(map[string]string{"names": `["A", "B\u2028", "C"]`}), []string{`field "names[1]"`, "U+2028"}},
		{"right-to-left override", doc(map[string]string{"names": `["\u202eA", "B", "C"]`}), []string{`field "names[0]"`, "U+202E"}},
		{"byte order mark", doc(map[string]string{"names": `["\ufeffA", "B", "C"]`}), []string{`field "names[0]"`, "U+FEFF"}},
		{"DEL", doc(map[string]string{"names": `["A\u007f", "B", "C"]`}), []string{`field "names[0]"`, "U+007F"}},
		{"delivery with a node", doc(script(`{"at": 1, "msg": 0, "node": "A"}`)), []string{`field "script[0].node": a delivery takes only "at" and "msg"`}},
		{"negative delivery", doc(script(`{"at": 1, "msg": -1}`)), []string{`field "script[0].msg": want a message number from 0 to 999999, got -1`}},
		{"neither command nor fault", doc(script(`{"at": 1}`)), []string{`field "script[0]": give either a "command"`, `or only a "msg" to deliver`}},
		{"negative transfer", doc(script(`{"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": -5}`)), []string{`field "script[0].arg"`, "the amount is from 1 to 1000000000000, got -5"}},
		{"transfer past the money there can be", doc(script(`{"at": 1, "node": "A", "command": "transfer", "target": "B", "arg": 9223372036854775807}`)), []string{`field "script[0].arg"`, "the amount is from 1 to"}},
		{"a number for a command that takes none", doc(script(`{"at": 1, "node": "A", "command": "snapshot", "arg": 2}`)), []string{`field "script[0].arg"`, "the command snapshot takes no number, got 2"}},
		{"right-to-left override in a title", doc(map[string]string{"title": `"Bank \u202eknab"`}), []string{`field "title"`, "U+202E"}},
		{"line break in a title", doc(map[string]string{"title": `"Bank\nrun"`}), []string{`field "title"`, "U+000A"}},
		{"zero-width space in an id", doc(map[string]string{"id": `"bank\u200b"`}), []string{`field "id"`, "U+200B"}},
		{"long description", doc(map[string]string{"description": `"` + strings.Repeat("x", 4001) + `"`}), []string{`field "description"`, "at most 4000 characters, got 4001"}},
		{"down twice", doc(map[string]string{"down": `["B", 2]`}), []string{`field "down[1]"`, "listed twice"}},
		{"down unknown", doc(map[string]string{"down": `["Q"]`}), []string{`field "down[0]"`, `no process is named "Q"`}},
		{"fault field on a command", doc(script(`{"at": 1, "node": "A", "command": "snapshot", "for": 3}`)), []string{`field "script[0].for"`, "only faults take"}},
		{"command field on a fault", doc(script(`{"at": 1, "node": "A", "fault": "crash", "arg": 3}`)), []string{`field "script[0].arg"`, "the fault crash takes no \"arg\" (it takes node)"}},
		{"target on a crash", doc(script(`{"at": 1, "node": "A", "fault": "crash", "target": "B"}`)), []string{`field "script[0].target"`, "takes no"}},
		{"cut without a target", doc(script(`{"at": 1, "node": "A", "fault": "cut"}`)), []string{`field "script[0].target"`, "cut needs the process at the link's other end"}},
		{"cut to itself", doc(script(`{"at": 1, "node": "A", "fault": "cut", "target": 1}`)), []string{`field "script[0].target"`, "another process than 1"}},
		{"heal half a link", doc(script(`{"at": 1, "node": "A", "fault": "heal"}`)), []string{`field "script[0]"`, "both ends of a link"}},
		{"partition with a process twice", doc(script(`{"at": 1, "fault": "partition", "groups": [["A", "B"], ["B", "C"]]}`)), []string{`field "script[0].groups"`, "process 2 is in two groups"}},
		{"partition of an unknown process", doc(script(`{"at": 1, "fault": "partition", "groups": [["A"], [7]]}`)), []string{`field "script[0].groups[1][0]"`, "1 to 3, got 7"}},
		{"fifo without on", doc(script(`{"at": 1, "fault": "fifo"}`)), []string{`field "script[0].on"`, "fifo needs"}},
		{"delay of nothing", doc(script(`{"at": 1, "fault": "delay", "msg": 2}`)), []string{`field "script[0].for"`}},
		{"skew of the wrong type", doc(script(`{"at": 1, "fault": "skew", "node": "A", "by": "fast"}`)), []string{`field "script[0].by": want a whole number, got text "fast"`}},
		{"a number too large", doc(map[string]string{"seed": `1e30`}), []string{`field "seed": want a whole number`}},
		{"negative seed", doc(map[string]string{"seed": `-3`}), []string{`field "seed": want a whole number of 0 or more, got -3`}},
		{"command with a target it does not take", doc(script(`{"at": 1, "node": "A", "command": "snapshot", "target": "B"}`)), []string{`field "script[0].target"`, "takes no target"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenario.Parse([]byte(tt.doc))
			require.Error(t, err, tt.doc)
			assert.True(t, strings.HasPrefix(err.Error(), "scenario: "), err.Error())
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w, tt.doc)
			}
		})
	}
}

func TestBuiltinsParseAndRun(t *testing.T) {
	ids := scenario.BuiltinIDs()
	require.Contains(t, ids, scenario.Default)
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			if id == "snapshot-long" && testing.Short() {
				t.Skip("long run")
			}
			s, err := scenario.Builtin(id)
			require.NoError(t, err)
			assert.Equal(t, id, s.ID)
			assert.NotEmpty(t, s.Title)
			assert.NotEmpty(t, s.Description)
			r, err := scenariotest.Plan(t, s).Run()
			require.NoError(t, err)
			assert.Positive(t, r.Len())
			assert.NotEmpty(t, r.Stopped())
			// a lesson declares what it may break (for every seed); its own
			// run breaks at least one of them, and nothing else
			broken, declared := 0, 0
			for _, f := range r.Failures() {
				if s.Expected(f.Name) {
					declared++
					if f.Step >= 0 {
						broken++
					}
				} else {
					assert.Equal(t, -1, f.Step, "%s breaks %q unexpectedly: %s", id, f.Name, f.Detail)
				}
			}
			if declared > 0 {
				assert.Positive(t, broken, "%s is meant to break one of what it declares", id)
			}
		})
	}
	// Builtin returns a copy: changing it does not change the lesson.
	a, err := scenario.Builtin(scenario.Default)
	require.NoError(t, err)
	a.Seed, a.Script[0].At = 99, 99
	b, err := scenario.Builtin(scenario.Default)
	require.NoError(t, err)
	assert.NotEqual(t, uint64(99), b.Seed)
	assert.NotEqual(t, 99, int(b.Script[0].At))

	_, err = scenario.Builtin("no-such-lesson")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listed by spacetime list", "says where every lesson is listed")
}

// TestJSONRoundTrip: a scenario written out with JSON parses back to the
// same scenario.
func TestJSONRoundTrip(t *testing.T) {
	docs := map[string][]byte{}
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		docs[id] = s.JSON()
	}
	docs["full"] = []byte(doc(map[string]string{
		"id": `"full"`, "scheduler": `"earliest"`, "rng": `"pcg"`,
		"network":  `{"fifo": false, "delay": [2, 9], "loss": 0.125}`,
		"params":   `{"balances": [10, 20, 30], "max_transfer": 7}`,
		"workload": `{"p": 0.25, "every": [1, 5], "until": 80}`,
		"script":   `[{"at": 3, "node": "B", "command": "transfer", "target": 3, "arg": 4}, {"at": 5, "fault": "drop", "msg": 0}, {"at": 6, "node": "C", "fault": "pause", "for": 4}]`,
		"until":    `{"steps": 90, "time": 70, "quiescent": true, "done": true}`,
		"expect":   `{"violations": ["money is conserved"]}`,
	}))
	for name, data := range docs {
		t.Run(name, func(t *testing.T) {
			s, err := scenario.Parse(data)
			require.NoError(t, err)
			out := s.JSON()
			back, err := scenario.Parse(out)
			require.NoError(t, err, string(out))
			if len(s.Params) == 0 {
				assert.Empty(t, back.Params)
			} else {
				assert.JSONEq(t, string(s.Params), string(back.Params))
			}
			assert.Equal(t, string(out), string(back.JSON()), "JSON is a fixed point")

			c := s.Clone()
			assert.Equal(t, string(out), string(c.JSON()))
		})
	}
}

func TestVariants(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 3, "seed": 5, "until": {"steps": 50}}`))
	require.NoError(t, err)
	five, err := s.WithN(5)
	require.NoError(t, err)
	assert.Equal(t, 5, five.N)
	assert.Equal(t, []string{"A", "B", "C", "D", "E"}, five.Names)
	assert.Equal(t, 3, s.N, "the original is unchanged")
	_, err = s.WithN(1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `field "n"`)

	other := s.WithSeed(6)
	assert.Equal(t, uint64(6), other.Seed)
	assert.Equal(t, uint64(5), s.Seed)

	assert.Equal(t, []string{"A", "B"}, scenario.DefaultNames(2))
	names := scenario.DefaultNames(704)
	assert.Equal(t, "A", names[0], "a script naming A works at any n")
	assert.Equal(t, "Z", names[25])
	assert.Equal(t, "AA", names[26])
	assert.Equal(t, "AD", names[29])
	assert.Equal(t, "ZZ", names[701])
	assert.Equal(t, "AAA", names[702])
}

func TestConfig(t *testing.T) {
	s, err := scenario.Parse([]byte(doc(map[string]string{
		"scheduler": `"earliest"`,
		"network":   `{"fifo": false, "delay": [2, 9], "loss": 0.5}`,
		"workload":  `{"p": 0.25, "every": [1, 5], "until": 80}`,
		"script":    `[{"at": 9, "node": "C", "command": "transfer", "target": "A", "arg": 4}, {"at": 3, "fault": "drop", "msg": 2}]`,
	})))
	require.NoError(t, err)
	cfg := scenariotest.Plan(t, s).Config()
	assert.False(t, cfg.Net.FIFO)
	assert.Equal(t, 0.5, cfg.Net.Loss)
	assert.EqualValues(t, 2, cfg.Net.DelayMin)
	assert.EqualValues(t, 9, cfg.Net.DelayMax)
	require.NotNil(t, cfg.Workload)
	assert.Equal(t, 0.25, cfg.Workload.P)
	assert.EqualValues(t, [2]int64{1, 5}, [2]int64{int64(cfg.Workload.Every[0]), int64(cfg.Workload.Every[1])})
	assert.EqualValues(t, 80, cfg.Workload.Until)
	require.Len(t, cfg.Script, 2)
	assert.Equal(t, engine.Command("transfer", 2, 0, 4), cfg.Script[0].Action)
	drop := faults.OfMessage(2)
	assert.Equal(t, engine.Fault("drop", drop), cfg.Script[1].Action)
	assert.Len(t, cfg.Nodes, 3)
	assert.Equal(t, engine.Until{Steps: 10}, cfg.Until)
}

// TestParamsStayRaw checks that params reach the algorithm untouched.
func TestParamsStayRaw(t *testing.T) {
	s, err := scenario.Parse([]byte(doc(map[string]string{"params": `{"balances": [1, 2, 3]}`})))
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(s.Params, &p))
	assert.Equal(t, []any{1.0, 2.0, 3.0}, p["balances"])
}

// A refusal quotes what it refuses clipped, however long: a packed
// scenario of a link inflates to up to 1 MB, and its refusal used to echo
// a long algorithm, key, number or process reference back whole (found by
// FuzzParse).
func TestRefusalsQuoteLongValuesClipped(t *testing.T) {
	long := strings.Repeat("9", 3000)
	for _, fields := range []map[string]string{
		{"algorithm": `"` + long + `"`},
		{"scheduler": `"` + long + `"`},
		{"rng": `"` + long + `"`},
		{"network": `{"` + long + `": 1}`},
		{"seed": long},
		{"down": `[` + long + `]`},
		{"down": `["` + long + `"]`},
		{"names": `["` + long + `", "B"]`},
		{"params": `{"` + long + `": 1}`},
		{"expect": `{"violations": ["` + long + `"]}`},
		script(`{"at": 1, "node": {"x": "` + long + `"}, "command": "snapshot"}`),
		script(`{"at": 1, "node": 1, "command": "` + long + `"}`),
		script(`{"at": 1, "fault": "` + long + `", "node": 1}`),
	} {
		_, err := scenario.Parse([]byte(doc(fields)))
		require.Error(t, err)
		// the value clipped; the known algorithms, or the algorithm's
		// invariants, listed whole
		assert.NotContains(t, err.Error(), long[:200], "%.200s", err)
		assert.Less(t, len(err.Error()), 1000, "%.200s", err)
		assert.Contains(t, err.Error(), "…", "it says it clipped: %.200s", err)
	}
}

// A lesson run with another seed (spacetime run --seed S) breaks nothing
// but what it declares: snapshot-nonfifo's inconsistent cut, which only
// some seeds show, is its point, not a failure.
func TestLessonsWithAnySeed(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		if id == "snapshot-long" {
			continue // 100,000 steps a run; the conformance suite covers it
		}
		t.Run(id, func(t *testing.T) {
			lesson, err := scenario.Builtin(id)
			require.NoError(t, err)
			broke := map[string]int{}
			seeds := uint64(algotest.Seeds(150))
			for seed := uint64(1); seed <= seeds; seed++ {
				s := lesson.WithSeed(seed)
				r, err := scenariotest.Plan(t, s).Run()
				require.NoError(t, err)
				for _, f := range r.Failures() {
					if f.Step < 0 {
						continue
					}
					require.True(t, s.Expected(f.Name), "seed %d breaks %q, which %s does not declare: %s", seed, f.Name, id, f.Detail)
					broke[f.Name]++
				}
			}
			t.Logf("%s over %d seeds: %v", id, seeds, broke)
		})
	}
}

// A process given as something else than a name or number is quoted as
// valid text, even when the file's bytes are not (found by FuzzParse).
func TestRefusedProcessIsQuotedAsValidText(t *testing.T) {
	_, err := scenario.Parse([]byte(doc(map[string]string{"down": "[{\"\xa4\": 1}]"})))
	require.Error(t, err)
	assert.True(t, utf8.ValidString(err.Error()), "%q", err)
	assert.Contains(t, err.Error(), `field "down[0]": want a process name or a number from 1 to 3, got {"`+"\uFFFD"+`": 1}`)
}

// A switch flips one boolean param and keeps the rest of the schedule; a
// lesson switched back is the lesson again, byte for byte.
func TestSwitches(t *testing.T) {
	epochs := sim.Switch{Param: "epochs", Default: true}
	s, err := scenario.Builtin("split-brain")
	require.NoError(t, err)
	require.False(t, s.Switched(epochs))
	on, err := s.WithSwitch(epochs, true)
	require.NoError(t, err)
	assert.True(t, on.Switched(epochs))
	assert.False(t, scenario.IsBuiltin(on))
	assert.Equal(t, s.Script, on.Script, "the same schedule")
	r, err := scenariotest.Plan(t, on).Run()
	require.NoError(t, err)
	for _, f := range r.Failures() {
		assert.Negative(t, f.Step, "with epochs the split brain is gone: %s", f.Detail)
	}
	back, err := on.WithSwitch(epochs, false)
	require.NoError(t, err)
	assert.True(t, scenario.IsBuiltin(back))

	fencing := sim.Switch{Param: "fencing", Default: true}
	s, err = scenario.Builtin("lease-fencing")
	require.NoError(t, err)
	off, err := s.WithSwitch(fencing, false)
	require.NoError(t, err)
	assert.JSONEq(t, `{"fencing": false, "work": 2}`, string(off.Params))
	back, err = off.WithSwitch(fencing, true)
	require.NoError(t, err)
	assert.True(t, scenario.IsBuiltin(back))

	s, err = scenario.Builtin("lease-no-fencing")
	require.NoError(t, err)
	s.ID = "mine"
	on, err = s.WithSwitch(fencing, true)
	require.NoError(t, err)
	assert.True(t, on.Switched(fencing))
}
