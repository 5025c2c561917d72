package lab_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/scenariotest"
)

// customJSON is a scenario that is not built in: four branches with other
// names and balances, the discrete-event scheduler and random delays.
const customJSON = `{
  "id": "my-bank",
  "title": "Four branches",
  "description": "A custom bank for a link test.",
  "algorithm": "chandy-lamport",
  "names": ["P", "Q", "R", "S"],
  "seed": 3,
  "scheduler": "earliest",
  "network": {"fifo": true, "delay": [1, 6]},
  "params": {"balances": [50, 60, 70, 80]},
  "workload": {"every": [1, 4], "until": 120},
  "script": [{"at": 30, "node": "Q", "command": "snapshot"}],
  "until": {"time": 200}
}`

// crashAction, recoverAction, pauseAction and dropAction are the
// learner's faults.
func crashAction(id sim.NodeID) engine.Action   { return engine.Fault("crash", faults.AtProcess(id)) }
func recoverAction(id sim.NodeID) engine.Action { return engine.Fault("recover", faults.AtProcess(id)) }
func dropAction(msg int) engine.Action          { return engine.Fault("drop", faults.OfMessage(msg)) }

func pauseAction(id sim.NodeID, ticks sim.Time) engine.Action {
	a := faults.AtProcess(id)
	a = a.With("for", faults.ParamTicks.Num(int64(ticks)))
	return engine.Fault("pause", a)
}

func open(t *testing.T, id string) *lab.Session {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	sess, err := lab.Open(s)
	require.NoError(t, err)
	return sess
}

func openCustom(t *testing.T) *lab.Session { return openJSON(t, customJSON) }

// openJSON opens a scenario file's text.
func openJSON(t *testing.T, doc string) *lab.Session {
	t.Helper()
	s, err := scenario.Parse([]byte(doc))
	require.NoError(t, err)
	sess, err := lab.Open(s)
	require.NoError(t, err)
	return sess
}

// traceJSON is the session's whole run as JSON, to compare runs.
func traceJSON(t *testing.T, s *lab.Session) string {
	t.Helper()
	data, err := s.Run().Trace().JSON(s.Len())
	require.NoError(t, err)
	return string(data)
}

func TestOpenDefault(t *testing.T) {
	for name, q := range map[string]url.Values{
		"empty link":      {},
		"version only":    {"v": {"1"}},
		"empty values":    {"s": {""}, "sc": {""}, "in": {""}, "k": {""}, "axis": {""}},
		"named by its id": {"s": {scenario.Default}},
	} {
		t.Run(name, func(t *testing.T) {
			sess, err := lab.FromQuery(q)
			require.NoError(t, err)
			assert.Equal(t, scenario.Default, sess.Scenario().ID)
			assert.Equal(t, "snapshot-bank", sess.Scenario().ID)
			assert.Equal(t, 0, sess.Step())
			assert.Equal(t, diagram.AxisTime, sess.Axis)
			assert.Empty(t, sess.Run().Inputs())
			assert.Equal(t, "chandy-lamport", sess.Spec().ID)
			assert.Equal(t, sess.Run().Len(), sess.Len())
			assert.Equal(t, 59, sess.Len(), "the worked example's length")
		})
	}
}

func TestCaption(t *testing.T) {
	sess := open(t, "snapshot-bank")
	recs := sess.Run().Trace().Records
	assert.Equal(t, sess.Scenario().Description, sess.Caption(), "step 0 introduces the scenario")
	assert.Contains(t, sess.Caption(), "A $126, B $127, C $20")
	assert.Equal(t, "", sess.CaptionSource())
	script := 0
	for k := 1; k <= sess.Len(); k++ {
		sess.Seek(k)
		require.Equal(t, recs[k-1].Caption, sess.Caption(), "k=%d", k)
		require.NotEmpty(t, sess.Caption(), "k=%d: every step explains itself", k)
		src := sess.CaptionSource()
		assert.Contains(t, []string{"script", "scheduler"}, src, "k=%d", k)
		if src == "script" {
			script++
			assert.Contains(t, sess.Caption(), "A starts snapshot 1: records its balance $126")
		}
	}
	assert.Equal(t, 1, script, "one scripted step: the snapshot at tick 40")

	// A learner's action says so.
	sess.Seek(10)
	require.NoError(t, sess.Fault("crash", faults.AtProcess(2)))
	assert.Equal(t, "learner", sess.CaptionSource())
	assert.Equal(t, sess.Run().Trace().Records[10].Caption, sess.Caption())
	assert.Contains(t, sess.Caption(), "C")

	// Without a description, step 0 shows the algorithm's summary.
	s, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 2, "seed": 1, "until": {"steps": 5}}`))
	require.NoError(t, err)
	bare, err := lab.Open(s)
	require.NoError(t, err)
	assert.Equal(t, bare.Spec().Summary, bare.Caption())
	assert.NotEmpty(t, bare.Caption())
}

// actRefused prepares the session, takes an action that must be refused,
// and checks that nothing changed.
func actRefused(t *testing.T, sess *lab.Session, prep func(t *testing.T, s *lab.Session), act func(s *lab.Session) error, want string) {
	t.Helper()
	if prep != nil {
		prep(t, sess)
	}
	step, n, inputs := sess.Step(), sess.Len(), append([]engine.Input(nil), sess.Run().Inputs()...)
	before, query := traceJSON(t, sess), sess.Query().Encode()
	err := act(sess)
	require.Error(t, err)
	assert.Contains(t, err.Error(), want)
	assert.Equal(t, step, sess.Step(), "the step on screen is unchanged")
	assert.Equal(t, n, sess.Len())
	assert.Equal(t, inputs, sess.Run().Inputs())
	assert.Equal(t, before, traceJSON(t, sess), "the run is unchanged")
	assert.Equal(t, query, sess.Query().Encode(), "the link is unchanged")
}

// step is one learner action and what the session does with it.
type step struct {
	name string
	do   func(t *testing.T, s *lab.Session)
}

// inFlight returns a message in flight at the step on screen whose
// receiver is running, preferring the heads of channels if head is set.
func inFlight(t *testing.T, s *lab.Session, head bool) int {
	t.Helper()
	if head {
		ids := s.State().Deliverable()
		require.NotEmpty(t, ids, "something can be delivered at step %d", s.Step())
		return ids[len(ids)-1]
	}
	msgs := s.Run().Trace().MsgsBefore(s.Step())
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].InFlightAt(s.Step()) {
			return msgs[i].ID
		}
	}
	require.Fail(t, "nothing in flight", "step %d", s.Step())
	return -1
}

func forwardUntilDeliverable(t *testing.T, s *lab.Session) {
	t.Helper()
	for len(s.State().Deliverable()) == 0 {
		require.True(t, s.Forward(), "something becomes deliverable")
	}
}

// learnerSteps is a lesson's worth of clicking: deliver a head, crash,
// recover, pause, take a snapshot, transfer money, drop a message, and a
// little stepping back and forth in between.
func learnerSteps(names []string) []step {
	return []step{
		{"seek", func(t *testing.T, s *lab.Session) { s.Seek(6) }},
		{"deliver a head", func(t *testing.T, s *lab.Session) {
			forwardUntilDeliverable(t, s)
			require.NoError(t, s.Deliver(inFlight(t, s, true)))
		}},
		{"crash " + names[1], func(t *testing.T, s *lab.Session) { require.NoError(t, s.Fault("crash", faults.AtProcess(1))) }},
		{"step on", func(t *testing.T, s *lab.Session) { s.Forward(); s.Forward(); s.Forward() }},
		{"recover " + names[1], func(t *testing.T, s *lab.Session) { require.NoError(t, s.Fault("recover", faults.AtProcess(1))) }},
		{"pause " + names[2], func(t *testing.T, s *lab.Session) {
			require.NoError(t, s.Fault("pause", faults.AtProcess(2).With("for", faults.ParamTicks.Num(4))))
		}},
		{"step on and back", func(t *testing.T, s *lab.Session) { s.Forward(); s.Forward(); s.Back() }},
		{"snapshot at " + names[0], func(t *testing.T, s *lab.Session) {
			require.NoError(t, s.Command(0, "snapshot", 0, 0))
		}},
		{"transfer", func(t *testing.T, s *lab.Session) {
			require.NoError(t, s.Command(1, "transfer", 0, 1))
		}},
		{"drop", func(t *testing.T, s *lab.Session) {
			s.Forward()
			require.NoError(t, s.Act(dropAction(inFlight(t, s, false))))
		}},
		{"lamport axis", func(t *testing.T, s *lab.Session) { s.Axis = diagram.AxisLamport }},
		{"to the end", func(t *testing.T, s *lab.Session) { s.Seek(s.Len()) }},
		{"back to the start", func(t *testing.T, s *lab.Session) { s.Seek(0); s.Axis = diagram.AxisTime }},
	}
}

// checkRoundTrip opens the session's link, as text, and compares the view.
func checkRoundTrip(t *testing.T, sess *lab.Session) *lab.Session {
	t.Helper()
	q := sess.Query()
	parsed, err := url.ParseQuery(q.Encode())
	require.NoError(t, err)
	got, err := lab.FromQuery(parsed)
	require.NoError(t, err, "link %s", q.Encode())
	assert.Equal(t, sess.Step(), got.Step(), "step")
	assert.Equal(t, sess.Len(), got.Len(), "length")
	assert.Equal(t, sess.Axis, got.Axis, "axis")
	assert.Equal(t, sess.Run().Inputs(), got.Run().Inputs(), "inputs")
	assert.Equal(t, traceJSON(t, sess), traceJSON(t, got), "trace")
	assert.Equal(t, sess.Scenario().JSON(), got.Scenario().JSON(), "scenario")
	assert.Equal(t, sess.Caption(), got.Caption())
	assert.Equal(t, sess.Panels(), got.Panels())
	assert.Equal(t, sess.Diagram().Highlight(), got.Diagram().Highlight())
	assert.Equal(t, sess.Diagram().Scene(800, 300).Shapes, got.Diagram().Scene(800, 300).Shapes, "the same picture")
	assert.Equal(t, q, got.Query(), "the link reads back as itself")
	return got
}

func TestLinkRoundTrip(t *testing.T) {
	custom, err := scenario.Parse([]byte(customJSON))
	require.NoError(t, err)
	reseeded, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	reseeded = reseeded.WithSeed(7)
	bankN4, err := scenario.Parse([]byte(`{"id": "snapshot-bank", "algorithm": "chandy-lamport", "n": 4, "seed": 450,
		"scheduler": "random", "workload": {"p": 0.5}, "script": [{"at": 40, "node": "A", "command": "snapshot"}], "until": {"time": 300}}`))
	require.NoError(t, err)
	nonfifo, err := scenario.Builtin("snapshot-nonfifo")
	require.NoError(t, err)

	tests := []struct {
		name    string
		scn     *scenario.Scenario
		builtin bool
	}{
		{"built-in", mustBuiltin(t, "snapshot-bank"), true},
		{"built-in without FIFO", nonfifo, true},
		{"custom", custom, false},
		{"built-in with another seed", reseeded, false},
		{"custom under a built-in's id", bankN4, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sess, err := lab.Open(tc.scn)
			require.NoError(t, err)
			checkRoundTrip(t, sess)
			for _, st := range learnerSteps(tc.scn.Names) {
				st.do(t, sess)
				q := sess.Query()
				if tc.builtin {
					assert.Equal(t, tc.scn.ID, q.Get("s"), st.name)
					assert.Empty(t, q.Get("sc"), st.name)
				} else {
					assert.Empty(t, q.Get("s"), st.name)
					assert.NotEmpty(t, q.Get("sc"), st.name)
				}
				t.Logf("%s: %s", st.name, q.Encode())
				got := checkRoundTrip(t, sess)
				if t.Failed() {
					t.Fatalf("after %q", st.name)
				}
				// The reopened session takes the next action just as well.
				if sess.Step() < sess.Len() {
					got.Forward()
					assert.Equal(t, sess.Step()+1, got.Step())
				}
			}
			inputs := sess.Run().Inputs()
			require.Len(t, inputs, 7, "seven learner inputs survive the lesson")
			enc := lab.EncodeInputs(inputs)
			for _, letter := range []string{"d", "c", "r", "p", "ksnapshot", "ktransfer", "x"} {
				assert.Contains(t, enc, letter)
			}
		})
	}
}

func mustBuiltin(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	return s
}

func TestLinkKeepsAxisAndStep(t *testing.T) {
	sess := open(t, "snapshot-bank")
	sess.Seek(42)
	sess.Axis = diagram.AxisLamport
	q := sess.Query()
	assert.Equal(t, "lamport", q.Get("axis"))
	assert.Equal(t, "42", q.Get("k"))
	assert.Empty(t, q.Get("in"), "no learner inputs, no in")
	got := checkRoundTrip(t, sess)
	assert.Equal(t, diagram.AxisLamport, got.Axis)

	// axis=time is accepted though never written.
	got, err := lab.FromQuery(url.Values{"axis": {"time"}, "k": {"3"}})
	require.NoError(t, err)
	assert.Equal(t, diagram.AxisTime, got.Axis)
	assert.Equal(t, 3, got.Step())
}

// pack deflates and base64url-encodes data as a link's sc= does.
func pack(data []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestPackedScenarioIsTheScenario(t *testing.T) {
	sess := openCustom(t)
	sc := sess.Query().Get("sc")
	require.NotEmpty(t, sc)
	assert.Equal(t, pack(sess.Scenario().JSON()), sc, "sc is the scenario's JSON, deflated, base64url")
	assert.NotContains(t, sc, "=", "no padding")
	assert.NotContains(t, sc, "+")
	assert.NotContains(t, sc, "/")
	// A hand-packed file opens too.
	got, err := lab.FromQuery(url.Values{"sc": {pack([]byte(customJSON))}, "k": {"12"}})
	require.NoError(t, err)
	assert.Equal(t, "my-bank", got.Scenario().ID)
	assert.Equal(t, []string{"P", "Q", "R", "S"}, got.Scenario().Names)
	assert.Equal(t, 12, got.Step())
	// A view names its scenario once: with both, which was meant? (sc
	// used to win, and s was dropped without a word.)
	_, err = lab.FromQuery(url.Values{"sc": {sc}, "s": {"snapshot-long"}})
	require.Error(t, err)
	assert.Equal(t, `link parameter "s": a view names its scenario once, by "s" (a lesson) or by "sc" (a packed scenario), and this link gives both`, err.Error())
}

func TestFromQueryErrors(t *testing.T) {
	bank := mustBuiltin(t, "snapshot-bank")
	r, err := scenariotest.Plan(t, bank).Run()
	require.NoError(t, err)
	n := r.Len()
	tests := []struct {
		name  string
		q     url.Values
		param string
		want  string
	}{
		{"future version", url.Values{"v": {"3"}}, "v", `format "3"`},
		{"garbage version", url.Values{"v": {"x"}}, "v", `format "x"`},
		{"unknown built-in", url.Values{"s": {"no-such-lesson"}}, "s", "no-such-lesson"},
		{"sc not base64", url.Values{"sc": {"!!!not base64!!!"}}, "sc", "base64"},
		{"sc not deflated", url.Values{"sc": {base64.RawURLEncoding.EncodeToString([]byte("hello, world"))}}, "sc", "not a packed scenario"},
		{"sc not JSON", url.Values{"sc": {pack([]byte(`{"algorithm": `))}}, "sc", "JSON"},
		{"sc not a scenario", url.Values{"sc": {pack([]byte(`{"algorithm": "telepathy", "n": 3}`))}}, "sc", `"algorithm"`},
		{"sc with an unknown field", url.Values{"sc": {pack([]byte(`{"algorithm": "chandy-lamport", "n": 3, "colour": 1}`))}}, "sc", `"colour"`},
		{"in without a step", url.Values{"in": {"d5"}}, "in", `"d5" is not an input`},
		{"in without a letter", url.Values{"in": {"12"}}, "in", `"12" is not an input`},
		{"in unknown action", url.Values{"in": {"12q5"}}, "in", `unknown action`},
		{"in missing number", url.Values{"in": {"12d"}}, "in", `deliver takes a message number, got ""`},
		{"in not a number", url.Values{"in": {"12dx"}}, "in", `deliver takes a message number, got "x"`},
		{"in fault argument not a number", url.Values{"in": {"12p1.x"}}, "in", `"x" is not a number`},
		{"in too few numbers", url.Values{"in": {"12p1"}}, "in", `pause takes 2 number(s), got 1`},
		{"in too many numbers", url.Values{"in": {"12c1.6"}}, "in", `crash takes 1 number(s), got 2`},
		{"in command without numbers", url.Values{"in": {"12ksnapshot"}}, "in", `a command takes its name and 3 numbers`},
		{"in trailing comma", url.Values{"in": {"5c0,"}}, "in", `"" is not an input`},
		{"in empty part", url.Values{"in": {"5c0,,9r0"}}, "in", `"" is not an input`},
		{"in spaces", url.Values{"in": {" 5c0"}}, "in", "is not an input"},
		{"in transfer of nothing", url.Values{"in": {"5ktransfer.1.2.0"}}, "in", "the amount is from 1 to"},
		{"in unknown command", url.Values{"in": {"3kbogus.0.0.0"}}, "in", `no command "bogus"`},
		{"in message not sent yet", url.Values{"in": {"0d5"}}, "in", "no message #5"},
		{"in message delivered already", url.Values{"in": {"20d0"}}, "in", "not in flight"},
		{"in recover an up process", url.Values{"in": {"5r0"}}, "in", "A has not crashed"},
		{"in no such process", url.Values{"v": {"2"}, "in": {"5c9"}}, "in", "no process 9 (the processes are 1 to 3)"},
		// a link of format 1 (no v=) counts processes from 0: the number
		// it gave is quoted, with its bounds (it used to say "no process
		// 10 (the processes are 1 to 3)")
		{"in no such process, format 1", url.Values{"in": {"5c9"}}, "in", "there is no process 9 (this link, of format 1, counts processes from 0: they are 0 to 2)"},
		{"in no process 0 in today's links", url.Values{"v": {"2"}, "in": {"5c0"}}, "in", "no process 0"},
		{"in crash twice", url.Values{"in": {"5c0,7c0"}}, "in", "already crashed"},
		{"in past the run", url.Values{"in": {"100000c0"}}, "in", "the run ends before it, at step 59 (done)"},
		{"in huge step", url.Values{"in": {"99999999999999999999c0"}}, "in", "past any run"},
		{"in too many", url.Values{"in": {strings.Repeat("1d0,", lab.MaxInputs) + "1d0"}}, "in", "at most 5000 inputs"},
		{"in steps out of order", url.Values{"in": {"10c1,5c0"}}, "in", "steps must increase"},
		{"in two inputs at one step", url.Values{"in": {"5c0,5c1"}}, "in", "steps must increase"},
		{"k negative", url.Values{"k": {"-1"}}, "k", `"-1"`},
		{"k not a number", url.Values{"k": {"ten"}}, "k", `"ten"`},
		{"k fraction", url.Values{"k": {"1.5"}}, "k", `"1.5"`},
		{"axis", url.Values{"axis": {"sideways"}}, "axis", `"sideways"`},
		{"axis case", url.Values{"axis": {"Lamport"}}, "axis", `"Lamport"`},
		{"at huge", url.Values{"at": {"1e308"}}, "at", "from -1e+09 to 1e+09"},
		{"at negative huge", url.Values{"at": {"-1e18"}}, "at", "from -1e+09"},
		{"at infinite", url.Values{"at": {"Inf"}}, "at", `"Inf"`},
		{"span NaN", url.Values{"span": {"NaN"}}, "span", "want a zoom"},
		{"sel of a network step", url.Values{"v": {"2"}, "in": {"10f0"}, "k": {"20"}, "sel": {"10"}}, "sel", "step 10 is a change of the whole network"},
		{"sel past the step", url.Values{"k": {"10"}, "sel": {"20"}}, "sel", "a step from 0 to 9"},
		{"fifo", url.Values{"fifo": {"maybe"}}, "fifo", "want 0 or 1"},
		{"sc too large", url.Values{"sc": {pack(bytes.Repeat([]byte(" "), lab.MaxPacked+10))}}, "sc", "too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sess, err := lab.FromQuery(tc.q)
			require.Error(t, err, "got a session at step %v", stepOf(sess))
			assert.Nil(t, sess)
			assert.True(t, strings.HasPrefix(err.Error(), `link parameter "`+tc.param+`": `), "the error names %s: %v", tc.param, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// At the very end is fine.
	sess, err := lab.FromQuery(url.Values{"k": {strconv.Itoa(n)}})
	require.NoError(t, err)
	assert.Equal(t, n, sess.Step())
	assert.Empty(t, sess.LinkNote)
	// Past it, the lesson the link names opens at its last step, and says so.
	for _, q := range []url.Values{{"k": {strconv.Itoa(n + 1)}}, {"k": {"100000"}}, {"in": {"10c1"}, "k": {"100000"}}} {
		sess, err := lab.FromQuery(q)
		require.NoError(t, err, q)
		assert.Equal(t, sess.Len(), sess.Step(), q)
		assert.Contains(t, sess.LinkNote, fmt.Sprintf("step %s, past the end of this run (%d steps)", q.Get("k"), sess.Len()))
	}
}

func stepOf(s *lab.Session) any {
	if s == nil {
		return nil
	}
	return s.Step()
}

func TestEncodeDecodeInputs(t *testing.T) {
	spec := mustBuiltin(t, "snapshot-bank").Spec()
	cmd := func(step int, name string, node, target sim.NodeID, arg int64) engine.Input {
		return engine.Input{Step: step, Action: engine.Command(name, node, target, arg)}
	}
	fault := func(step int, name string, set func(*faults.Args)) engine.Input {
		a := faults.NoArgs()
		set(&a)
		return engine.Input{Step: step, Action: engine.Fault(name, a)}
	}
	tests := []struct {
		name   string
		inputs []engine.Input
		text   string
	}{
		{"deliver", []engine.Input{{Step: 12, Action: engine.Deliver(5)}}, "12d5"},
		{"deliver message 0 at step 0", []engine.Input{{Step: 0, Action: engine.Deliver(0)}}, "0d0"},
		{"drop", []engine.Input{{Step: 12, Action: dropAction(5)}}, "12x5"},
		{"crash", []engine.Input{{Step: 30, Action: crashAction(1)}}, "30c2"},
		{"recover", []engine.Input{fault(31, "recover", func(a *faults.Args) { a.Node = 1 })}, "31r2"},
		{"pause", []engine.Input{{Step: 40, Action: pauseAction(2, 15)}}, "40p3.15"},
		{"delay", []engine.Input{fault(41, "delay", func(a *faults.Args) { a.Msg = 7; *a = a.With("for", faults.ParamTicks.Num(20)) })}, "41y7.20"},
		{"duplicate", []engine.Input{fault(42, "duplicate", func(a *faults.Args) { a.Msg = 7 })}, "42u7"},
		{"cut both ways", []engine.Input{fault(43, "cut", func(a *faults.Args) { a.Node = 0; a.Target = 2 })}, "43l1.3"},
		{"cut one way", []engine.Input{fault(43, "cut", func(a *faults.Args) { a.Node = 0; a.Target = 2; *a = a.With("oneway", faults.ParamFlag.Bool(true)) })}, "43l1.3.1"},
		{"heal everything", []engine.Input{fault(44, "heal", func(a *faults.Args) {})}, "44h"},
		{"partition", []engine.Input{fault(45, "partition", func(a *faults.Args) { *a = a.With("groups", faults.ParamGroups.Of([][]sim.NodeID{{0}, {1, 2}})) })}, "45g1_2~3"},
		{"skew", []engine.Input{fault(46, "skew", func(a *faults.Args) { a.Node = 1; *a = a.With("by", faults.ParamOffset.Num(-7)) })}, "46s2.-7"},
		{"fifo off", []engine.Input{fault(47, "fifo", func(a *faults.Args) {})}, "47f0"},
		{"snapshot", []engine.Input{cmd(50, "snapshot", 1, sim.None, 0)}, "50ksnapshot.2.0.0"},
		{"transfer", []engine.Input{cmd(50, "transfer", 0, 2, 15)}, "50ktransfer.1.3.15"},
		{"the largest argument", []engine.Input{cmd(7, "transfer", 2, 1, 1_000_000_000_000)}, "7ktransfer.3.2.1000000000000"},
		{"large numbers", []engine.Input{{Step: 999999, Action: pauseAction(63, 1<<19)}}, "999999p64.524288"},
		{"several", []engine.Input{
			{Step: 3, Action: engine.Deliver(2)},
			{Step: 4, Action: crashAction(0)},
			cmd(9, "snapshot", 2, sim.None, 0),
			fault(11, "recover", func(a *faults.Args) { a.Node = 0 }),
			{Step: 12, Action: dropAction(17)},
		}, "3d2,4c1,9ksnapshot.3.0.0,11r1,12x17"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := lab.EncodeInputs(tc.inputs)
			assert.Equal(t, tc.text, text)
			assert.Equal(t, text, strings.ReplaceAll(url.QueryEscape(text), "%2C", ","), "safe in a link, apart from commas")
			got, err := lab.DecodeInputs(text, spec, 2)
			require.NoError(t, err)
			assert.Equal(t, tc.inputs, got)
		})
	}
	assert.Equal(t, "", lab.EncodeInputs(nil))
}

// A first-version link counted processes from 0: it reads the same inputs.
func TestFirstVersionInputs(t *testing.T) {
	spec := mustBuiltin(t, "snapshot-bank").Spec()
	got, err := lab.DecodeInputs("3d2,4c0,9ksnapshot.2.0.0,11r0,12x17,40p2.15,50ktransfer.0.2.15", spec, 1)
	require.NoError(t, err)
	assert.Equal(t, []engine.Input{
		{Step: 3, Action: engine.Deliver(2)},
		{Step: 4, Action: crashAction(0)},
		{Step: 9, Action: engine.Command("snapshot", 2, sim.None, 0)}, // version 1 wrote the first process for no target
		{Step: 11, Action: recoverAction(0)},
		{Step: 12, Action: dropAction(17)},
		{Step: 40, Action: pauseAction(2, 15)},
		{Step: 50, Action: engine.Command("transfer", 0, 2, 15)},
	}, got)
}

func TestDecodeInputsErrors(t *testing.T) {
	spec := mustBuiltin(t, "snapshot-bank").Spec()
	for _, text := range []string{"", "d5", "12", "12q5", "12d", "12d5.6", "12p1", "12p1.2.3", "12ksnapshot.1.0", "12kfly.1.0.0",
		"12c1,", "-3c1", "12c1.5", "12c+", "12cx", "3c1,2c1", "3c1,3r1", "12c0", "12ksnapshot.0.0.0", "12l1.1.7", "99999999999d1"} {
		_, err := lab.DecodeInputs(text, spec, 2)
		assert.Error(t, err, "%q", text)
	}
	_, err := lab.DecodeInputs("12q5", spec, 2)
	assert.Contains(t, err.Error(), "unknown action \"q\" (known: d (deliver), k (command), c (crash), r (recover), p (pause)")
	long := strings.Repeat("x", 5000)
	_, err = lab.DecodeInputs("1"+long, spec, 2)
	assert.Less(t, len(err.Error()), 300, "a long bad input is not echoed back whole")
}

// TestPanelsAtTheEnd reads the worked example's money panel as the page
// shows it when the snapshot completes.
func TestPanelsAtTheEnd(t *testing.T) {
	sess := open(t, "snapshot-bank")
	sess.Seek(sess.Len())
	panels := sess.Panels()
	require.Len(t, panels, 1)
	p := panels[0]
	assert.Equal(t, []string{"", "live now", "snapshot 1"}, p.Columns)
	rows := map[string][]string{}
	for _, row := range p.Rows {
		rows[row.Cells[0]] = row.Cells[1:]
	}
	assert.Equal(t, []string{"$68", "$126"}, rows["A balance"])
	assert.Equal(t, []string{"$131", "$127"}, rows["B balance"])
	assert.Equal(t, []string{"$3", "$20"}, rows["C balance"])
	assert.Equal(t, []string{"$202", "$273"}, rows["balances alone"])
	assert.Equal(t, "[$14]", rows["channel B→A"][1])
	assert.Equal(t, "[$13]", rows["channel C→B"][1])
	total := p.Rows[len(p.Rows)-1]
	assert.Equal(t, []string{"total (opening $300)", "$300", "$300"}, total.Cells)
	assert.Equal(t, "total", total.Emphasis)
	assert.Equal(t, []string{"", "good", "good"}, total.CellEmphasis)

	// Before the snapshot there is nothing recorded yet.
	sess.Seek(10)
	p = sess.Panels()[0]
	assert.Equal(t, "no snapshot yet", p.Columns[2])
	last := p.Rows[len(p.Rows)-1]
	assert.Equal(t, "$300", last.Cells[1])
	assert.Equal(t, "–", last.Cells[2])
}

func TestReportFollowsTheStep(t *testing.T) {
	sess := open(t, "snapshot-bank")
	for _, k := range []int{0, 20, sess.Len()} {
		sess.Seek(k)
		rep := sess.Report()
		assert.Equal(t, k, rep.Steps)
		assert.Equal(t, "snapshot-bank", rep.Scenario)
		assert.Equal(t, len(sess.Run().Trace().MsgsBefore(k)), rep.Messages.ByKind["marker"]+rep.Messages.ByKind["transfer"])
	}
	assert.Equal(t, "done", sess.Report().Stopped)
}

// TestSceneShowsTheFailure checks that the page points at the culprits of a
// failed invariant once, and only once, it has failed.
func TestSceneShowsTheFailure(t *testing.T) {
	sess := open(t, "snapshot-nonfifo")
	fail := -1
	for _, f := range sess.Run().Failures() {
		if f.Step >= 0 {
			fail = f.Step
		}
	}
	require.GreaterOrEqual(t, fail, 0, "the lesson's invariant fails")
	halos := func() int {
		n := 0
		for _, sh := range sess.Diagram().Scene(1000, 350).Shapes {
			if sh.Color == diagram.HighlightColor {
				n++
			}
		}
		return n
	}
	sess.Seek(fail)
	assert.Empty(t, sess.Diagram().Highlight(), "not failed yet at step %d", fail)
	assert.Zero(t, halos())
	sess.Seek(fail + 1)
	ids := sess.Diagram().Highlight()
	require.NotEmpty(t, ids)
	assert.Equal(t, len(ids), halos())
	sess.Seek(sess.Len())
	assert.Equal(t, ids, sess.Diagram().Highlight())

	// The scene is the diagram of the run at the step, on the chosen axis.
	sess.Axis = diagram.AxisLamport
	want := diagram.Layout(sess.Run().Trace(), sess.Step(), sess.Spec(), diagram.Options{Width: 640, Height: 300, Axis: diagram.AxisLamport, Highlight: ids})
	assert.Equal(t, want.Shapes, sess.Diagram().Scene(640, 300).Shapes)
}

// A command's target is a process or none: a negative or too large target
// used to be read as a process number that does not exist, which the link
// then wrote back as "no target" (found by FuzzDecodeInputs).
func TestDecodeInputsRefusesATargetThatIsNoProcess(t *testing.T) {
	spec := mustBuiltin(t, "snapshot-bank").Spec()
	for _, tc := range []struct {
		text    string
		version int
	}{
		{"20ktransfer.1.-5.3", 2}, {"20ktransfer.1.-1.3", 2}, {"20ktransfer.1.65.3", 2},
		{"20ktransfer.0.-2.3", 1}, {"20ktransfer.0.64.3", 1}, {"20ktransfer.64.1.3", 1},
	} {
		_, err := lab.DecodeInputs(tc.text, spec, tc.version)
		require.Error(t, err, tc.text)
		assert.Contains(t, err.Error(), "there is no process", tc.text)
	}
	for _, tc := range []struct {
		text    string
		version int
		target  sim.NodeID
	}{
		{"20ktransfer.1.64.3", 2, 63}, {"20ksnapshot.1.0.0", 2, sim.None},
		{"20ktransfer.0.63.3", 1, 63}, {"20ksnapshot.0.-1.0", 1, sim.None}, {"20ksnapshot.0.0.0", 1, sim.None},
	} {
		in, err := lab.DecodeInputs(tc.text, spec, tc.version)
		require.NoError(t, err, tc.text)
		assert.Equal(t, tc.target, in[0].Target, tc.text)
	}
}

// A switch flipped runs the schedule again: the diagram draws the new run,
// not the one it had drawn before (a new run's version starts again, so
// the caches must know it is another run).
func TestSwitchedRunIsTheOneDrawn(t *testing.T) {
	sess := open(t, "checkpoint-domino")
	sess.Seek(sess.Len())
	before := sess.Diagram().Scene(640, 300)
	require.Same(t, sess.Run().Trace(), sess.Diagram().Index().Trace())
	require.NoError(t, sess.Switches().Set(sess.Spec().Learner.Switches[0], true))
	sess.Seek(sess.Len())
	require.Same(t, sess.Run().Trace(), sess.Diagram().Index().Trace(), "the index is of the run on screen")
	after := sess.Diagram().Scene(640, 300)
	markers := func(sc *diagram.Scene) int {
		n := 0
		for _, sh := range sc.Shapes {
			if sh.Op == diagram.OpText && strings.HasPrefix(sh.Text, "M1") {
				n++
			}
		}
		return n
	}
	assert.Zero(t, markers(before))
	assert.Positive(t, markers(after), "the coordinated run's markers are drawn")
}
